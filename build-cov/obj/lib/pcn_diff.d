build-cov/obj/lib/pcn_diff.o: lib/pcn_diff.c lib/pcn_internal.h \
 lib/include/koma/pcn.h lib/include/koma/error.h \
 lib/include/koma/codes.def lib/include/koma/feen.h \
 lib/include/koma/position.h lib/include/koma/atoms.h \
 lib/include/koma/cell.h lib/include/koma/pmn.h
lib/pcn_internal.h:
lib/include/koma/pcn.h:
lib/include/koma/error.h:
lib/include/koma/codes.def:
lib/include/koma/feen.h:
lib/include/koma/position.h:
lib/include/koma/atoms.h:
lib/include/koma/cell.h:
lib/include/koma/pmn.h:
