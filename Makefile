# koma — Makefile. See README.md ("Building") for the targets.
#
#   make            build libkoma (static + shared) and every command into build/
#   make demo       install missing Debian packages, build, run the tools on tests/data
#   make check      install missing Debian packages, build, run every test
#   make sanitize   the same tests under ASan + UBSan (build-san/)
#   make fuzz       run libFuzzer on each harness (clang), FUZZ_SECONDS each
#   make bench      throughput benchmarks against reference tools (tests/bench/)
#   make install    PREFIX=/usr/local DESTDIR=

PREFIX    ?= /usr/local
DESTDIR   ?=
BINDIR    ?= $(PREFIX)/bin
LIBDIR    ?= $(PREFIX)/lib
INCDIR    ?= $(PREFIX)/include
MANDIR    ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

VERSION   := 0.1.0
SOVERSION := 0

B         ?= build
CC        ?= cc
OPT       ?= -O2
WERROR    ?= $(if $(CI),-Werror,)
CSTD      := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
# -Wformat-truncation is off: messages are built with snprintf into fixed buffers on
# purpose (truncated, never overflowed), and gcc's estimate changes with -O level.
NO_FMT_TRUNC := $(shell $(CC) -Werror -Wno-format-truncation -E -x c /dev/null >/dev/null 2>&1 \
                  && echo -Wno-format-truncation)
WARN      := -Wall -Wextra -pedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
             $(NO_FMT_TRUNC) $(WERROR)
SANFLAGS  ?=
CFLAGS    ?= $(OPT) -g
ALL_CFLAGS = $(CSTD) $(WARN) $(CFLAGS) $(SANFLAGS) -Ilib/include -Ilib -I$(B)/gen
# Each object lists the headers it includes in a .d file beside it (included at the
# end), so a header change rebuilds exactly the objects that include it.
DEPFLAGS  := -MMD -MP
LDFLAGS   ?=
DEPLIBS   := -lyaml -ljansson -lnettle -lm
TESTLIBS  := -lcmocka

# Debian packages the build and the tests need (installed by `make deps`).
DEB_PACKAGES := libyaml-dev libjansson-dev nettle-dev libcmocka-dev mandoc parallel python3-jsonschema \
                librsvg2-bin fonts-ipafont-mincho
BENCH_PACKAGES := time jq parallel pgn-extract fairy-stockfish python3-yaml nodejs npm

LIB_SRC   := $(sort $(wildcard lib/*.c))
GAME_YAML := $(sort $(wildcard lib/games/*.yaml))
LIB_OBJ   := $(LIB_SRC:lib/%.c=$(B)/obj/lib/%.o) $(B)/obj/gen/games.o
# cmd/koma*.c are the commands; every other cmd/*.c is shared by all of them.
CMD_SRC   := $(sort $(wildcard cmd/koma*.c))
CLI_SRC   := $(filter-out $(CMD_SRC),$(sort $(wildcard cmd/*.c)))
CLI_OBJ   := $(CLI_SRC:cmd/%.c=$(B)/obj/cmd/%.o)
CMDS      := $(CMD_SRC:cmd/%.c=$(B)/bin/%)
UNIT_SRC  := $(sort $(wildcard tests/unit/test_*.c))
UNITS     := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
# tests/unit/*.c other than test_*.c are helpers linked into every unit test.
UNIT_HELP_OBJ := $(patsubst tests/unit/%.c,$(B)/obj/tests/unit/%.o,\
                   $(filter-out $(UNIT_SRC),$(sort $(wildcard tests/unit/*.c))))
FUZZ_SRC  := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_REPLAY := $(FUZZ_SRC:tests/fuzz/%.c=$(B)/fuzz/%-replay)
MANPAGES  := $(sort $(wildcard man/*.[1-9]))
# Every object's dependency file (written by the compiler: DEPFLAGS).
DEPFILES := $(patsubst %.o,%.d,$(LIB_OBJ) $(CLI_OBJ) $(CMD_SRC:cmd/%.c=$(B)/obj/cmd/%.o) \
              $(UNIT_SRC:tests/%.c=$(B)/obj/tests/%.o) $(UNIT_HELP_OBJ) \
              $(FUZZ_SRC:tests/%.c=$(B)/obj/tests/%.o) $(B)/obj/tests/fuzz/replay.o)

STATIC_LIB := $(B)/lib/libkoma.a
SHARED_LIB := $(B)/lib/libkoma.so.$(VERSION)

.PHONY: FORCE all lib cmds tests deps demo check check-unit check-cli check-fuzz check-perft \
        check-man check-schema check-install check-build check-pictures check-koshogi check-convert sanitize fuzz bench perft-deep install uninstall clean

all: lib cmds

# Keep intermediate objects (pattern chains would delete them); see DEPFILES below.
.SECONDARY: $(DEPFILES:.d=.o) $(B)/gen/games.c

lib: $(STATIC_LIB) $(SHARED_LIB)
cmds: $(CMDS)

$(B)/obj/lib/%.o: lib/%.c $(B)/obj/lib/%.d
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -fPIC -fvisibility=hidden -c $< -o $@

# The built-in game definitions, embedded as data.
$(B)/gen/games.c: $(GAME_YAML) lib/games/embed.sh
	@mkdir -p $(dir $@)
	sh lib/games/embed.sh $@ $(GAME_YAML)

$(B)/obj/gen/games.o: $(B)/gen/games.c $(B)/obj/gen/games.d
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -fPIC -fvisibility=hidden -c $< -o $@

# The list of library objects, rewritten only when it changes: the libraries are
# relinked when a module is added or removed, not only when one is rebuilt.
$(B)/obj/lib.list: FORCE
	@mkdir -p $(dir $@)
	@echo '$(LIB_OBJ)' | cmp -s - $@ || echo '$(LIB_OBJ)' >$@

$(STATIC_LIB): $(LIB_OBJ) $(B)/obj/lib.list
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $(LIB_OBJ)

$(SHARED_LIB): $(LIB_OBJ) $(B)/obj/lib.list
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -shared -Wl,-soname,libkoma.so.$(SOVERSION) -o $@ $(LIB_OBJ) $(LDFLAGS) $(DEPLIBS)
	ln -sf libkoma.so.$(VERSION) $(B)/lib/libkoma.so.$(SOVERSION)
	ln -sf libkoma.so.$(VERSION) $(B)/lib/libkoma.so

$(B)/obj/cmd/%.o: cmd/%.c $(B)/obj/cmd/%.d
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(B)/bin/%: $(B)/obj/cmd/%.o $(CLI_OBJ) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(CLI_OBJ) $(STATIC_LIB) $(LDFLAGS) $(DEPLIBS)

# ---- tests ---------------------------------------------------------------

tests: $(UNITS) $(FUZZ_REPLAY)

$(B)/obj/tests/%.o: tests/%.c $(B)/obj/tests/%.d
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Wno-missing-prototypes -c $< -o $@

$(B)/tests/%: $(B)/obj/tests/unit/%.o $(UNIT_HELP_OBJ) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(UNIT_HELP_OBJ) $(STATIC_LIB) $(LDFLAGS) $(DEPLIBS) $(TESTLIBS)

# Each fuzz harness is also built with a plain main that replays its corpus.
$(B)/fuzz/%-replay: $(B)/obj/tests/fuzz/%.o $(B)/obj/tests/fuzz/replay.o $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(B)/obj/tests/fuzz/replay.o $(STATIC_LIB) $(LDFLAGS) $(DEPLIBS)

deps:
	@sh tests/deps.sh $(DEB_PACKAGES)

check: deps
	@$(MAKE) --no-print-directory all tests
	@$(MAKE) --no-print-directory check-unit check-cli check-fuzz check-perft check-man check-schema check-install check-build \
	    check-pictures check-koshogi check-convert
	@echo "check: all suites passed"

check-unit: $(UNITS)
	@sh tests/run-unit.sh $(UNITS)

check-cli: $(CMDS)
	@sh tests/cli/run.sh $(B)/bin
	@sh tests/cli/progress.sh $(B)/bin

check-fuzz: $(FUZZ_REPLAY)
	@sh tests/fuzz/run-replay.sh $(B)/fuzz

check-perft: $(CMDS)
	@sh tests/perft/run.sh $(B)/bin
	@sh tests/koshogi/movelists/check-format.sh

check-convert: $(CMDS) $(STATIC_LIB)
	@sh tests/convert/sfen-cross.sh $(B)/bin
	@sh tests/convert/fen-cross.sh $(B)/bin

check-install: all
	@sh tests/install-check.sh $(B)

check-man: $(CMDS) $(STATIC_LIB)
	@sh tests/man-lint.sh $(MANPAGES)
	@sh tests/man-examples.sh $(B)/bin $(MANPAGES)
	@sh tests/man-options.sh $(B)/bin

# The build itself: only koma_* leaves the library; a header change rebuilds
# exactly the objects that include it; no module calls a higher layer (README).
check-build: all tests
	@sh tests/symbols-check.sh $(B)
	@sh tests/deps-check.sh $(B)
	@sh tests/layers-check.sh $(B)

check-schema:
	@sh tests/schema/run.sh $(B)/bin

# SVG diagrams rasterised and compared with tests/data/pictures (pictures kept in
# $(B)/pictures; UPDATE=1 rewrites the references).
check-pictures: $(CMDS)
	@sh tests/pictures/run.sh $(B)/bin $(B)/pictures

# Ko shogi's second, simple generator (python3) checks itself, then must reproduce
# every hand-written move list; koma's exact move sets must equal its own on 200
# positions of random play (and perft d1, d2 of the start).
check-koshogi: $(CMDS)
	@sh tests/koshogi/refgen-selftest.sh
	@sh tests/koshogi/check-movelists.sh >$(B)/check-movelists.out || { cat $(B)/check-movelists.out; exit 1; }
	@tail -n 1 $(B)/check-movelists.out
	@sh tests/koshogi/compare-engine.sh $(B)/bin tests/koshogi/positions.feen

sanitize: deps
	@$(MAKE) --no-print-directory B=build-san OPT=-O1 \
	    SANFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    all tests check-unit check-cli check-fuzz check-perft

demo: deps
	@$(MAKE) --no-print-directory all
	@sh tests/demo.sh $(B)/bin

FUZZ_SECONDS ?= 60
fuzz: deps
	@sh tests/fuzz/run-fuzz.sh $(FUZZ_SECONDS) $(FUZZ_SRC)

bench: deps
	@sh tests/deps.sh $(BENCH_PACKAGES)
	@$(MAKE) --no-print-directory all
	@sh tests/bench/run.sh $(B)/bin

perft-deep: all
	@sh tests/perft/run.sh $(B)/bin deep

# ---- install -------------------------------------------------------------

$(B)/koma.pc: Makefile
	@mkdir -p $(dir $@)
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCDIR)' '' \
	  'Name: koma' 'Description: Game Protocol notations (FEEN, PMN, GGN, CGSN, PCN) and board-game rules' \
	  'Version: $(VERSION)' 'Requires.private: yaml-0.1 jansson nettle' \
	  'Libs: -L$${libdir} -lkoma' 'Libs.private: -lm' 'Cflags: -I$${includedir}' > $@

install: all $(B)/koma.pc
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR)/koma $(DESTDIR)$(PKGCONFIGDIR)
	install -m 755 $(CMDS) $(DESTDIR)$(BINDIR)/
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(LIBDIR)/
	ln -sf libkoma.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libkoma.so.$(SOVERSION)
	ln -sf libkoma.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libkoma.so
	install -m 644 lib/include/koma/*.h lib/include/koma/*.def $(DESTDIR)$(INCDIR)/koma/
	install -m 644 $(B)/koma.pc $(DESTDIR)$(PKGCONFIGDIR)/
	for m in $(MANPAGES); do s=$${m##*.}; install -d $(DESTDIR)$(MANDIR)/man$$s; \
	  install -m 644 $$m $(DESTDIR)$(MANDIR)/man$$s/; done

uninstall:
	rm -f $(CMDS:$(B)/bin/%=$(DESTDIR)$(BINDIR)/%)
	rm -f $(DESTDIR)$(LIBDIR)/libkoma.*
	rm -rf $(DESTDIR)$(INCDIR)/koma
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/koma.pc

clean:
	rm -rf build build-san build-fuzz

# An object without its .d (an old build tree) is rebuilt, which writes the .d.
$(DEPFILES): ;
-include $(wildcard $(DEPFILES))
