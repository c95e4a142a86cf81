"""koma: board-game records, positions and rules from Python, on libkoma.

    import koma
    for rec in koma.read("games.kif"):          # any format koma reads
        v = rec.verdict()                       # judged under the game's rules
        print(v.result, v.status, v.reason)
        for pos in rec.positions():             # the setup, then after each ply
            print(pos.feen)

Every koma diagnostic is raised as koma.Error, with .code (the dotted name of
koma-formats(5)), .line, .column, .offset, .message and .source; out of memory
is MemoryError, a file that cannot be opened or read OSError. See
lib/python/README.md.
"""
import io as _io
import os as _os

from ._koma import (Error, Position, Record, Verdict, Reader as _Reader, Writer as _Writer,
                    validate, formats as _formats, games, code_text, version,
                    _record_helpers)

__all__ = ["Error", "Position", "Record", "Verdict", "read", "parse", "replay", "write",
           "validate", "is_valid", "formats", "games", "perft", "code_text", "version"]

# koma/format.h's write flags
_WRITE_EACH, _WRITE_PRETTY, _WRITE_SHIFT_JIS, _WRITE_UTF8 = 0x1, 0x2, 0x4, 0x8
_WRITE_DROP_TIMES, _WRITE_DROP_VARIATIONS = 0x10, 0x20


def _source(source):
    """A path (str or os.PathLike), bytes, or a binary file object."""
    if isinstance(source, _os.PathLike):
        return _os.fspath(source)
    if isinstance(source, str) or hasattr(source, "read") or isinstance(source, (bytes, bytearray, memoryview)):
        return source
    raise TypeError("source: a path, bytes or a binary file object, not %s" % type(source).__name__)


def _name(source, name):
    if name is not None or isinstance(source, str):
        return name
    return getattr(source, "name", None) if hasattr(source, "read") else None


def read(source, format=None, *, encoding=None, errors="raise", name=None):
    """The records of source, one at a time, as Records (an iterator).

    source: a path, bytes, or a binary file object; format: a name of
    koma.formats() (None: detected from the input). encoding: the text's
    encoding for KIF, KI2 and CSA (utf-8, shift_jis, euc-jp, utf-16...).
    errors: 'raise' (an invalid record raises koma.Error), 'skip', or 'yield'
    (the koma.Error is yielded in the record's place)."""
    s = _source(source)
    return _Reader(s, format, encoding, False, errors, _name(s, name))


def parse(text, format=None, **kw):
    """The one record of text (str or bytes) in format (None: detected)."""
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogateescape")
    records = list(read(text, format, **kw))
    if len(records) != 1:
        raise ValueError("expected one record, found %d" % len(records))
    return records[0]


def replay(source, format=None, *, encoding=None, errors="raise", name=None, game=None, declaration=None):
    """The verdict of every record of source (an iterator of Verdicts), judged
    under the rules of its game as koma-replay --json judges it.

    game: judge every record as this game (an id); declaration: '27', '24' or
    'try' (Shogi's entering-king declaration rule). A record that cannot be
    judged (its setup, an unreadable ply) is an error, handled as errors= says.
    The reading and judging run with the GIL released."""
    s = _source(source)
    return _Reader(s, format, encoding, True, errors, _name(s, name), game, declaration)


def _flags(format, pretty=False, each=False, encoding=None, times=True, variations=True):
    flags = 0
    if pretty:
        flags |= _WRITE_PRETTY
    if each:
        flags |= _WRITE_EACH
    if encoding is None or encoding.lower().replace("-", "_") in ("utf_8", "utf8"):
        flags |= _WRITE_UTF8
    elif encoding.lower().replace("-", "_") in ("shift_jis", "sjis", "cp932"):
        flags |= _WRITE_SHIFT_JIS
    else:
        raise ValueError("encoding: utf-8 or shift_jis, not %r" % encoding)
    if not times:
        flags |= _WRITE_DROP_TIMES
    if not variations:
        flags |= _WRITE_DROP_VARIATIONS
    return flags


def _legacy(data):
    """The text is in a legacy encoding: a CSA record's "'encoding=" line
    (Shift_JIS or EUC-JP: CSA V2.2 text that is not ASCII, a record read so)."""
    for line in data.split(b"\n", 2)[:2]:
        if line.startswith((b"'encoding=", b"'CSA encoding=")):
            return not line.upper().endswith(b"UTF-8")
    return False


def write(records, format="pcn", file=None, *, encoding=None, **options):
    """Write records (a Record or an iterable of them) in format, one after
    the other as a valid file of the format. file: a path or a binary file
    object (a text file object takes UTF-8 text only); None: return the text,
    str when it is UTF-8, bytes when it is not (encoding='shift_jis' for KIF
    and KI2; CSA V2.2 with Japanese text, which CSA writes in Shift_JIS).
    options: pretty=True (indented PCN JSON), each=True (every position, for
    position formats), times=False, variations=False."""
    if isinstance(records, Record):
        records = (records,)
    w = _Writer(format, _flags(format, encoding=encoding, **options))
    binary = encoding is not None and _flags(format, encoding=encoding) & _WRITE_SHIFT_JIS
    if file is None:
        data = b"".join(w.write(r) for r in records)
        return data if binary or _legacy(data) else data.decode("utf-8", "surrogateescape")
    if isinstance(file, (str, _os.PathLike)):
        with open(file, "wb") as f:
            for r in records:
                f.write(w.write(r))
        return None
    text = isinstance(file, _io.TextIOBase) or "b" not in getattr(file, "mode", "b")
    if hasattr(file, "buffer") and text:
        file.flush()
        file, text = file.buffer, False
    for r in records:
        data = w.write(r)
        file.write(data.decode("utf-8", "surrogateescape") if text else data)
    return None


def _to(self, format="pcn", *, encoding=None, **options):
    """The record written in format (koma.write: str, or bytes when the text is
    not UTF-8)."""
    return write(self, format, encoding=encoding, **options)


def _as_dict(self):
    """The record as a PCN object (dict)."""
    import json
    return json.loads(self.to("pcn"))


_record_helpers(_to, _as_dict)


def is_valid(text, notation="feen", position=None):
    """True when text is valid in notation (koma.validate without the error)."""
    try:
        validate(text, notation, position)
    except Error:
        return False
    return True


def formats():
    """The formats koma knows: dicts of name, kind (position, moves, record,
    detect, or notation: checked only), read, write, title."""
    return [dict(name=n, kind=k, read=r, write=w, title=t) for n, k, r, w, t in _formats()]


def perft(position, depth, divide=False):
    """Leaves of the legal-move tree of position (a Position, a FEEN, or a
    game id for its start) of the given depth; the GIL is released."""
    if not isinstance(position, Position):
        position = Position.start(position) if position in games() else Position(position)
    return position.perft(depth, divide)
