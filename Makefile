# koma — Makefile. See README.md ("Building") for the targets.
#
#   make            build libkoma (static + shared) and every command into build/
#   make demo       install missing Debian packages, build, run the tools on tests/data
#   make check      install missing Debian packages, build, run every test
#   make sanitize   the same tests under ASan + UBSan (build-san/)
#   make tsan       the thread-safety test under ThreadSanitizer (build-tsan/)
#   make faults     fault injection at every allocation and output call (about an
#                   hour; make check and make sanitize try FAULT_SAMPLE points a run)
#   make coverage   line and branch coverage of lib/ over the suites (build-cov/, lcov)
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
# The Python package koma (lib/python/): Debian's python3 (python3-dev), installed
# where it looks: PREFIX/lib/python3/dist-packages for PREFIX=/usr, else
# PREFIX/lib/python3.X/dist-packages.
PYTHON    ?= $(shell [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || echo python3)
PY_CONF   := $(shell $(PYTHON) -c 'import sysconfig as s; print(s.get_paths()["include"], s.get_config_var("EXT_SUFFIX"), s.get_python_version())' 2>/dev/null)
PY_INC    := $(word 1,$(PY_CONF))
PY_EXT    := $(word 2,$(PY_CONF))
PYDIR     ?= $(PREFIX)/lib/$(if $(filter /usr,$(PREFIX)),python3,python$(word 3,$(PY_CONF)))/dist-packages

# The version: koma/version.h is its one source (KOMA_VERSION_MAJOR, _MINOR, _PATCH).
# The SONAME (libkoma(3), Conventions): libkoma.so.MAJOR; before 1.0, when every
# minor release may change the ABI, libkoma.so.0.MINOR.
version_part = $(shell sed -n 's/^\#define KOMA_VERSION_$(1) \([0-9][0-9]*\)$$/\1/p' lib/include/koma/version.h)
VERSION_MAJOR := $(call version_part,MAJOR)
VERSION_MINOR := $(call version_part,MINOR)
VERSION_PATCH := $(call version_part,PATCH)
VERSION   := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)
SOVERSION := $(if $(filter 0,$(VERSION_MAJOR)),0.$(VERSION_MINOR),$(VERSION_MAJOR))

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
comma     := ,
TESTLIBS  := -lcmocka

# Debian packages the build and the tests need (installed by `make deps`).
DEB_PACKAGES := libyaml-dev libjansson-dev nettle-dev libcmocka-dev mandoc parallel python3-jsonschema \
                python3-dev python3-pytest \
                librsvg2-bin fonts-ipafont-mincho
BENCH_PACKAGES := time jq parallel pgn-extract fairy-stockfish python3-yaml python3-cffi nodejs npm

LIB_SRC   := $(sort $(wildcard lib/*.c))
GAME_YAML := $(sort $(wildcard lib/games/*.yaml))
LIB_OBJ   := $(LIB_SRC:lib/%.c=$(B)/obj/lib/%.o) $(B)/obj/gen/games.o $(B)/obj/gen/games_index.o
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
              $(FUZZ_SRC:tests/%.c=$(B)/obj/tests/%.o) $(B)/obj/tests/fuzz/replay.o \
              $(B)/obj/tests/faults/failalloc.o)

STATIC_LIB := $(B)/lib/libkoma.a
SHARED_LIB := $(B)/lib/libkoma.so.$(VERSION)

# The Python package: the extension koma._koma (libkoma.a linked in) and the
# package's Python files, in $(B)/python/koma.
PY_SRC    := $(sort $(wildcard lib/python/src/*.c))
PY_OBJ    := $(PY_SRC:lib/python/src/%.c=$(B)/obj/python/%.o)
PY_FILES  := $(sort $(wildcard lib/python/koma/*.py))
PY_MOD    := $(B)/python/koma/_koma$(PY_EXT)
PY_PKG    := $(PY_MOD) $(PY_FILES:lib/python/koma/%=$(B)/python/koma/%)
DEPFILES  += $(PY_OBJ:.o=.d)

.PHONY: FORCE all lib cmds python tests deps demo check check-unit check-cli check-spec check-fuzz check-perft \
        check-man check-schema check-install check-build check-pictures check-koshogi check-convert check-faults check-limits check-refs check-threads check-python faults coverage sanitize tsan fuzz bench perft-deep install python-dir uninstall clean

all: lib cmds python

# Keep intermediate objects (pattern chains would delete them); see DEPFILES below.
.SECONDARY: $(DEPFILES:.d=.o) $(B)/gen/games.c $(B)/gen/games_index.c

lib: $(STATIC_LIB) $(SHARED_LIB)
cmds: $(CMDS)
python: $(PY_PKG)

# The extension sees the public headers only (-Ilib/include, not -Ilib); Python's
# headers are not C11-pedantic clean: no -pedantic.
$(B)/obj/python/%.o: lib/python/src/%.c $(B)/obj/python/%.d
	@mkdir -p $(dir $@)
	@[ -f "$(PY_INC)/Python.h" ] || { echo "python: no Python.h for $(PYTHON): install python3-dev (make deps)" >&2; exit 1; }
	$(CC) $(CSTD) $(filter-out -pedantic,$(WARN)) $(CFLAGS) $(SANFLAGS) -Ilib/include -I$(PY_INC) \
	    $(DEPFLAGS) -fPIC -fvisibility=hidden -c $< -o $@

$(PY_MOD): $(PY_OBJ) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -shared -o $@ $(PY_OBJ) $(STATIC_LIB) $(LDFLAGS) $(DEPLIBS)

$(B)/python/koma/%.py: lib/python/koma/%.py
	@mkdir -p $(dir $@)
	cp $< $@

$(B)/obj/lib/%.o: lib/%.c $(B)/obj/lib/%.d
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -fPIC -fvisibility=hidden -c $< -o $@

# The ids of the built-in games (KOMA_GAME_IDS), for the tools' texts: generated
# from lib/games/, never typed again.
comma := ,
empty :=
space := $(empty) $(empty)
$(B)/gen/game_ids.h: $(GAME_YAML)
	@mkdir -p $(dir $@)
	@printf '/* Generated by the Makefile from the YAML files of lib/games; do not edit. */\n#define KOMA_GAME_IDS "%s"\n' \
	    "$(subst $(space),$(comma)$(space),$(sort $(notdir $(GAME_YAML:.yaml=))))" >$@

# The built-in game definitions, embedded as data.
$(B)/gen/games.c: $(GAME_YAML) lib/games/embed.sh
	@mkdir -p $(dir $@)
	sh lib/games/embed.sh $@ $(GAME_YAML)

$(B)/obj/gen/%.o: $(B)/gen/%.c $(B)/obj/gen/%.d
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -fPIC -fvisibility=hidden -c $< -o $@

# What finding each built-in game needs (its id, styles, board), so that a set
# compiles a built-in only when a lookup returns it (lib/game_set.c): written by
# lib/games/index.c, which compiles every built-in definition with the library's
# other objects (an archive of them: only what it calls is linked). A broken
# built-in fails the build here, with its diagnostic. Made again when a
# definition or the code that reads the indexed keys changes (the objects are
# order-only: a header change rebuilds only its includers, tests/deps-check.sh);
# tests/unit/test_game.c checks the index against the compiled games.
INDEX_OBJ := $(filter-out $(B)/obj/gen/games_index.o,$(LIB_OBJ))
$(B)/gen/games_index.c: lib/games/index.c lib/game.c lib/game_sanki.c $(GAME_YAML) | $(INDEX_OBJ)
	@mkdir -p $(dir $@)
	rm -f $(B)/gen/games-index.a && ar rcs $(B)/gen/games-index.a $(INDEX_OBJ)
	$(CC) $(ALL_CFLAGS) -o $(B)/gen/games-index $< $(B)/gen/games-index.a $(LDFLAGS) $(DEPLIBS)
	$(B)/gen/games-index $@.tmp && mv $@.tmp $@

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

$(B)/obj/cmd/%.o: cmd/%.c $(B)/obj/cmd/%.d | $(B)/gen/game_ids.h
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

# The thread-safety test (tests/threads/): shared games, a thread's own objects.
$(B)/threads/threads: tests/threads/threads.c $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -pthread -o $@ $< $(STATIC_LIB) $(LDFLAGS) $(DEPLIBS)

deps:
	@sh tests/deps.sh $(DEB_PACKAGES)

check: deps
	@$(MAKE) --no-print-directory all tests
	@$(MAKE) --no-print-directory check-unit check-cli check-spec check-fuzz check-perft check-man check-schema check-install check-build \
	    check-pictures check-koshogi check-sanki check-convert check-faults check-limits check-refs check-threads check-python
	@echo "check: all suites passed"

# The Python package (lib/python) through its pytest suites (tests/python/).
# Under AddressSanitizer (make sanitize) the interpreter is not built with it, so
# its runtime is preloaded; CPython frees nothing at exit (no leak check) and the
# RSS-growth tests need freed memory reused at once (no quarantine); pytest
# captures sys.stderr only, so a sanitizer's report (written to fd 2) is seen.
PY_SAN_ENV = $(if $(findstring address,$(SANFLAGS)),LD_PRELOAD=$(shell $(CC) -print-file-name=libasan.so) \
	ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=0)
check-python: $(PY_PKG) $(CMDS)
	@$(PY_SAN_ENV) PYTHON=$(PYTHON) sh tests/python/run.sh $(B) $(if $(SANFLAGS),--capture=sys)

check-unit: $(UNITS)
	@sh tests/run-unit.sh $(UNITS)

# libkoma's thread safety (libkoma(3), THREAD SAFETY): 4 threads at once on shared
# games give the single-threaded run's text (tests/threads/threads.c); `make tsan`
# runs it under ThreadSanitizer.
check-threads: $(B)/threads/threads
	@$(B)/threads/threads tests/data

check-cli: $(CMDS)
	@sh tests/cli/run.sh $(B)/bin
	@sh tests/cli/progress.sh $(B)/bin
	@sh tests/cli/replay-quick.sh $(B)/bin

# The valid and invalid cases of each notation (tests/spec/*.tsv, which
# build/tests/test_spec checks against the library) through koma-validate.
check-spec: $(CMDS)
	@sh tests/spec/run.sh $(B)/bin

check-fuzz: $(FUZZ_REPLAY)
	@sh tests/fuzz/run-replay.sh $(B)/fuzz

check-perft: $(CMDS)
	@sh tests/perft/run.sh $(B)/bin
	@sh tests/koshogi/movelists/check-format.sh

# The Sanki conformance vectors (tests/sanki/README.md) through koma-replay, and
# the differential cases.
check-sanki: $(CMDS)
	@sh tests/sanki/run.sh $(B)/bin

check-convert: $(CMDS) $(STATIC_LIB)
	@sh tests/convert/sfen-cross.sh $(B)/bin
	@sh tests/convert/fen-cross.sh $(B)/bin
	@sh tests/convert/kif-cross.sh $(B)/bin
	@sh tests/convert/select-cross.sh $(B)/bin

check-install: all
	@PYTHON=$(PYTHON) sh tests/install-check.sh $(B)

check-man: $(CMDS) $(STATIC_LIB)
	@sh tests/man-lint.sh $(MANPAGES)
	@sh tests/man-examples.sh $(B)/bin $(MANPAGES)
	@sh tests/man-options.sh $(B)/bin
	@sh tests/man-c-example.sh $(B) man/libkoma.3

# The build itself: only koma_* leaves the library; every public function says
# who owns what (tests/api-ownership-check.sh, libkoma(3) CONVENTIONS); a header change rebuilds
# exactly the objects that include it; no module calls a higher layer (lib/README.md),
# whatever stale objects lie in the build tree. A file of cmd/ over 400 lines
# (the referee's callers over 300) is only warned about: the boundary between
# library and commands is drawn by job (lib/README.md, "Library and commands").
check-build: all tests
	@sh tests/symbols-check.sh $(B)
	@sh tests/api-ownership-check.sh
	@sh tests/deps-check.sh $(B)
	@sh tests/layers-check.sh $(B)
	@sh tests/layers-stale.sh $(B)
	@sh tests/game-ids-check.sh $(B)/bin
	@sh tests/cmd-size-check.sh

check-schema:
	@sh tests/schema/run.sh $(B)/bin

# Every reference the tree makes can be followed from a clone: documents, man
# pages and source files it names are in it (or are system pages, or public
# addresses), no issue numbers (tests/refs-check.sh; tests/refs-pending.txt lists
# the files being rewritten elsewhere); then the check's self-test, which plants
# each kind of bad reference in a copy of the tree and expects each to fail.
check-refs:
	@sh tests/refs-check.sh
	@sh tests/refs-check.sh --self-test

# The limits of koma(7), LIMITS: each at the limit and past it, and
# the memory one record takes, under its documented bound, whatever its shape
# (not under ASan, whose RSS differs).
check-limits: $(CMDS)
	@python3 tests/limits/limits.py $(B)/bin
	@python3 tests/limits/memory.py $(B)/bin

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

SANITIZE = $(MAKE) --no-print-directory B=build-san OPT=-O1 \
	    SANFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
sanitize: deps
	@$(SANITIZE) FAULT_SAMPLE=6 FAULT_TAIL=10 all tests check-unit check-cli check-spec check-fuzz check-perft check-sanki check-faults check-python

# The thread-safety test under ThreadSanitizer (build-tsan/): libkoma built with
# -fsanitize=thread, 4 threads at once; any report fails it (halt_on_error).
tsan: deps
	@TSAN_OPTIONS="halt_on_error=1 exitcode=66 $(TSAN_OPTIONS)" $(MAKE) --no-print-directory B=build-tsan OPT=-O1 \
	    SANFLAGS="-fsanitize=thread -fno-omit-frame-pointer" check-threads

# ---- fault injection (tests/faults/): every command linked so that each
# allocation (libkoma's, libyaml's, jansson's: static) and each stdio output call
# goes through tests/faults/failalloc.c, which fails the one chosen; and the
# loading of the built-in games (koma_game_set_new, and koma__game_load_builtin:
# a game compiled at its first lookup) too, to count its allocations apart (tests/faults/README.md, "Which points").
FAULT_WRAP := $(patsubst %,-Wl$(comma)--wrap=%,malloc calloc realloc strdup strndup \
                fwrite fputs fputc putc puts putchar vfprintf vprintf printf fprintf \
                koma_game_set_new koma__game_load_builtin)
FAULT_BINS := $(CMD_SRC:cmd/%.c=$(B)/faults/%)
$(B)/faults/%: $(B)/obj/cmd/%.o $(CLI_OBJ) $(STATIC_LIB) $(B)/obj/tests/faults/failalloc.o
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(CLI_OBJ) $(B)/obj/tests/faults/failalloc.o $(STATIC_LIB) \
	    $(LDFLAGS) $(FAULT_WRAP) -Wl,-Bstatic -lyaml -ljansson -lnettle -Wl,-Bdynamic -lm

# test_oom_lib fails libkoma's own allocations: linked like the fault builds.
$(B)/tests/test_oom_lib: $(B)/obj/tests/unit/test_oom_lib.o $(UNIT_HELP_OBJ) $(B)/obj/tests/faults/failalloc.o \
                         $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(UNIT_HELP_OBJ) $(B)/obj/tests/faults/failalloc.o $(STATIC_LIB) $(LDFLAGS) \
	    $(FAULT_WRAP) -Wl,-Bstatic -lyaml -ljansson -lnettle -Wl,-Bdynamic -lm $(TESTLIBS)

# A sample of the failure points (FAULT_SAMPLE per kind and run, and each of
# the last FAULT_TAIL allocations); `make faults` tries every one, under ASan,
# in parts if need be: FAULT_RUNS=REGEX, FAULT_SHARD=K/N, and the runs found
# clean are kept in build-san/faults-done.txt and skipped the next time
# (tests/faults/README.md).
FAULT_SAMPLE ?= 10
FAULT_TAIL ?= 50
check-faults: $(FAULT_BINS)
	@FAULT_SAMPLE=$(FAULT_SAMPLE) FAULT_TAIL=$(FAULT_TAIL) sh tests/faults/run.sh $(B)/faults
faults: deps
	@$(SANITIZE) $(FAULT_BINS:$(B)/%=build-san/%)
	@FAULT_RUNS='$(FAULT_RUNS)' FAULT_SHARD='$(FAULT_SHARD)' FAULT_DONE=build-san/faults-done.txt \
	    sh tests/faults/run.sh build-san/faults all

# Line and branch coverage of lib/ over make check's suites (tests/coverage.sh):
# everything built with --coverage in build-cov/, the suites run there, lcov reads
# the counts. The suites that need no C (pictures, Ko shogi's python generator)
# and the build checks are left out.
# The test scripts that compile a program against libkoma.a (man-examples,
# sfen-cross) call cc: a cc first on PATH adds --coverage for them.
# The fault suite tries more points than make check's sample (COV_FAULT_SAMPLE
# of each kind a run, each of the last COV_FAULT_TAIL), so that the error paths
# behind out of memory are counted.
COV_FAULT_SAMPLE ?= 20
COV_FAULT_TAIL ?= 300
COV := $(MAKE) --no-print-directory B=build-cov OPT=-O0 SANFLAGS=--coverage \
    FAULT_SAMPLE=$(COV_FAULT_SAMPLE) FAULT_TAIL=$(COV_FAULT_TAIL)
coverage: deps
	@sh tests/deps.sh lcov
	@find build-cov -name '*.gcda' -delete 2>/dev/null || true
	@mkdir -p build-cov/cc && printf '#!/bin/sh\nexec %s "$$@" --coverage\n' "$$(command -v $(CC))" >build-cov/cc/cc && \
	    chmod +x build-cov/cc/cc
	@$(COV) all tests
	@PATH="$(CURDIR)/build-cov/cc:$$PATH" $(COV) -k check-unit check-cli check-spec check-fuzz check-perft check-man check-schema check-convert \
	    check-faults check-limits; st=$$?; sh tests/coverage.sh build-cov && exit $$st

demo: deps
	@$(MAKE) --no-print-directory all
	@sh tests/demo.sh $(B)/bin

FUZZ_SECONDS ?= 60
fuzz: deps
	@sh tests/fuzz/run-fuzz.sh $(FUZZ_SECONDS) $(FUZZ_SRC)

bench: deps
	@sh tests/deps.sh --optional $(BENCH_PACKAGES)
	@$(MAKE) --no-print-directory all
	@PYTHON=$(PYTHON) sh tests/bench/run.sh $(B)/bin

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
	install -d $(DESTDIR)$(PYDIR)/koma
	install -m 644 $(filter %.py,$(PY_PKG)) $(DESTDIR)$(PYDIR)/koma/
	install -m 644 $(PY_MOD) $(DESTDIR)$(PYDIR)/koma/

# Where make install puts the Python package (tests/install-check.sh asks).
python-dir:
	@echo $(PYDIR)

uninstall:
	rm -f $(CMDS:$(B)/bin/%=$(DESTDIR)$(BINDIR)/%)
	rm -f $(DESTDIR)$(LIBDIR)/libkoma.*
	rm -rf $(DESTDIR)$(INCDIR)/koma
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/koma.pc
	rm -rf $(DESTDIR)$(PYDIR)/koma

clean:
	rm -rf build build-san build-tsan build-fuzz build-cov

# An object without its .d (an old build tree) is rebuilt, which writes the .d.
$(DEPFILES): ;
-include $(wildcard $(DEPFILES))
