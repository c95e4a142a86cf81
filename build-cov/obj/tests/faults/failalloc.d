build-cov/obj/tests/faults/failalloc.o: tests/faults/failalloc.c
