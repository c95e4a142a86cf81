build-cov/obj/lib/position_diff.o: lib/position_diff.c \
 lib/include/koma/position.h lib/include/koma/error.h \
 lib/include/koma/codes.def lib/include/koma/atoms.h \
 lib/include/koma/cell.h
lib/include/koma/position.h:
lib/include/koma/error.h:
lib/include/koma/codes.def:
lib/include/koma/atoms.h:
lib/include/koma/cell.h:
