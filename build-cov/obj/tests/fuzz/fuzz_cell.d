build-cov/obj/tests/fuzz/fuzz_cell.o: tests/fuzz/fuzz_cell.c \
 lib/include/koma/koma.h lib/include/koma/error.h \
 lib/include/koma/codes.def lib/include/koma/cell.h \
 lib/include/koma/atoms.h lib/include/koma/position.h \
 lib/include/koma/feen.h lib/include/koma/pmn.h lib/include/koma/cgsn.h \
 lib/include/koma/game.h lib/include/koma/ggn.h lib/include/koma/engine.h \
 lib/include/koma/pcn.h lib/include/koma/diagram.h \
 lib/include/koma/record.h lib/include/koma/format.h \
 lib/include/koma/sfen.h lib/include/koma/repeats.h \
 lib/include/koma/referee.h tests/fuzz/fuzz.h
lib/include/koma/koma.h:
lib/include/koma/error.h:
lib/include/koma/codes.def:
lib/include/koma/cell.h:
lib/include/koma/atoms.h:
lib/include/koma/position.h:
lib/include/koma/feen.h:
lib/include/koma/pmn.h:
lib/include/koma/cgsn.h:
lib/include/koma/game.h:
lib/include/koma/ggn.h:
lib/include/koma/engine.h:
lib/include/koma/pcn.h:
lib/include/koma/diagram.h:
lib/include/koma/record.h:
lib/include/koma/format.h:
lib/include/koma/sfen.h:
lib/include/koma/repeats.h:
lib/include/koma/referee.h:
tests/fuzz/fuzz.h:
