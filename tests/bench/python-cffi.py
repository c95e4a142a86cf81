"""make bench (bench-python.sh): the two ways of binding libkoma to Python, side
by side: the C extension koma._koma (lib/python) and a minimal cffi binding
(API mode, Debian's python3-cffi) built here from the same public headers.
Measures the cost of one small call (the FID of a FEEN) and a database replay
(a dict of the verdict's members per record, the referee's loop in Python for
cffi, in C for the extension). Usage: python-cffi.py ROOT WORKDIR DATABASE."""
import os
import sys
import time

root, work, db = sys.argv[1:4]
import cffi  # noqa: E402

import koma  # noqa: E402

CDEF = """
typedef struct koma_error { int code; unsigned long line; unsigned long column; size_t offset;
                            const char *source; char message[...]; } koma_error;
typedef struct koma_game_set koma_game_set;
typedef struct koma_game koma_game;
typedef struct koma_hub koma_hub;
typedef struct koma_format koma_format;
typedef struct koma_format_reader koma_format_reader;
typedef struct koma_pcn koma_pcn;
typedef struct koma_referee koma_referee;
typedef struct koma_referee_hooks koma_referee_hooks;
typedef struct koma_format_reader_options { size_t size; unsigned pcn_flags; ...; }
    koma_format_reader_options;
typedef struct koma_referee_options koma_referee_options;
typedef struct koma_verdict {
    size_t size; const koma_game *game; int has_status; int status; char result_text[8];
    int has_ply; size_t ply; size_t played; size_t plies; char feen[...]; unsigned disputes; ...;
} koma_verdict;
void koma_fid_of(const char *feen, size_t len, char out[65]);
int koma_game_set_new(koma_game_set **out, koma_error *err);
int koma_hub_new(koma_game_set *games, koma_hub **out, koma_error *err);
int koma_format_reader_new(koma_hub *h, const koma_format *fmt, const koma_format_reader_options *opt,
                           koma_format_reader **out, koma_error *err);
void koma_format_reader_free(koma_format_reader *rs);
int koma_format_reader_feed(koma_format_reader *rs, const char *data, size_t len, koma_error *err);
void koma_format_reader_finish(koma_format_reader *rs);
int koma_format_reader_next(koma_format_reader *rs, koma_pcn **out, koma_error *err);
unsigned long koma_format_reader_line(const koma_format_reader *rs);
void koma_pcn_free(koma_pcn *p);
int koma_referee_new(const koma_referee_options *opt, koma_referee **out, koma_error *err);
int koma_referee_pcn(koma_referee *ref, const koma_game_set *games, const koma_game *game,
                     const koma_pcn *rec, const koma_referee_hooks *hooks, koma_verdict *v, koma_error *err);
const char *koma_game_id(const koma_game *g);
const char *koma_cgsn_name(int st);
"""

build = os.path.join(work, "cffi")
os.makedirs(build, exist_ok=True)
sys.path.insert(0, build)
ffi = cffi.FFI()
ffi.cdef(CDEF)
ffi.set_source("_koma_cffi", "#include <koma/koma.h>", include_dirs=[root + "/lib/include"],
               extra_objects=[root + "/build/lib/libkoma.a"], libraries=["yaml", "jansson", "nettle", "m"])
ffi.compile(tmpdir=build, verbose=False)
from _koma_cffi import ffi, lib  # noqa: E402

FEEN = "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s"
RECORD, AGAIN, END, FATAL = 1, 3, 0, -1


def cffi_fid(s):
    b = s.encode()
    out = ffi.new("char[65]")
    lib.koma_fid_of(b, len(b), out)
    return ffi.string(out).decode()


def cffi_replay(path):
    err = ffi.new("koma_error *")
    gs = ffi.new("koma_game_set **")
    lib.koma_game_set_new(gs, err)
    hubp = ffi.new("koma_hub **")
    lib.koma_hub_new(gs[0], hubp, err)
    hub = hubp[0]
    ref = ffi.new("koma_referee **")
    lib.koma_referee_new(ffi.NULL, ref, err)
    v = ffi.new("koma_verdict *")
    v.size = ffi.sizeof("koma_verdict")           # the sized structs' _INIT macros
    opt = ffi.new("koma_format_reader_options *")
    opt.size = ffi.sizeof("koma_format_reader_options")
    opt.pcn_flags = 0x20                      # KOMA_PCN_LIGHT
    rsp = ffi.new("koma_format_reader **")
    lib.koma_format_reader_new(hub, ffi.NULL, opt, rsp, err)
    rs = rsp[0]
    pp = ffi.new("koma_pcn **")
    fid = ffi.new("char[65]")
    out = []
    with open(path, "rb") as f:
        while True:
            st = lib.koma_format_reader_next(rs, pp, err)
            if st == AGAIN:
                chunk = f.read(1 << 16)
                if chunk:
                    lib.koma_format_reader_feed(rs, chunk, len(chunk), err)
                else:
                    lib.koma_format_reader_finish(rs)
                continue
            if st in (END, FATAL):
                break
            if st != RECORD:
                continue
            rc = lib.koma_referee_pcn(ref[0], gs[0], ffi.NULL, pp[0], ffi.NULL, v, err)
            lib.koma_pcn_free(pp[0])
            if rc != 0:
                continue
            feen = ffi.string(v.feen)
            lib.koma_fid_of(feen, len(feen), fid)
            out.append({"file": path, "line": lib.koma_format_reader_line(rs),
                        "game": ffi.string(lib.koma_game_id(v.game)).decode(),
                        "result": ffi.string(v.result_text).decode(),
                        "status": ffi.string(lib.koma_cgsn_name(v.status)).decode() if v.has_status else None,
                        "ply": v.ply if v.has_ply else None, "played": v.played, "plies": v.plies,
                        "feen": feen.decode(), "fid": ffi.string(fid).decode(),
                        "disputed": bool(v.disputes)})
    lib.koma_format_reader_free(rs)
    return out


def best(f, runs=3):
    t = 9e9
    for _ in range(runs):
        c = time.process_time()
        f()
        t = min(t, time.process_time() - c)
    return t


N = 100000
pos = koma.Position(FEEN)
assert cffi_fid(FEEN) == pos.fid
calls = {"extension": best(lambda: [pos.fid for _ in range(N)]) / N * 1e6,
         "cffi": best(lambda: [cffi_fid(FEEN) for _ in range(N)]) / N * 1e6}
ext_n = len(list(koma.replay(db, errors="skip")))
cffi_n = len(cffi_replay(db))
assert ext_n == cffi_n, (ext_n, cffi_n)
replays = {"extension": best(lambda: list(koma.replay(db, errors="skip"))), "cffi": best(lambda: cffi_replay(db))}
print("  one call (the FID of a FEEN): extension %.2f us, cffi %.2f us (%.1fx)"
      % (calls["extension"], calls["cffi"], calls["cffi"] / calls["extension"]))
print("  replay of %d records: extension %.3f s CPU, cffi %.3f s CPU (%.2fx)"
      % (ext_n, replays["extension"], replays["cffi"], replays["cffi"] / replays["extension"]))
