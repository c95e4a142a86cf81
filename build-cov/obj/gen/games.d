build-cov/obj/gen/games.o: build-cov/gen/games.c lib/games_embedded.h
lib/games_embedded.h:
