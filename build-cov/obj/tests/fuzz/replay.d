build-cov/obj/tests/fuzz/replay.o: tests/fuzz/replay.c
