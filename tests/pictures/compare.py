#!/usr/bin/env python3
"""Compare two PNG pictures with a tolerance for antialiasing (python3 stdlib only).

    compare.py [--diff OUT.png] REFERENCE.png CANDIDATE.png

A pixel of one picture matches when each of its channels (R, G, B, A, 0..255)
lies within TOLERANCE of the range of that channel over the other picture's
pixels within RADIUS (its 3x3 neighbourhood): so an edge or a glyph antialiased
a little differently, or moved by up to a pixel, matches, while a missing or
wrong piece, a wrong kanji or count, a lost highlight or a moved board does not. The pictures differ when their sizes differ or when more
than MAX_BAD pixels (of either picture) match nothing.

Exit status: 0 same, 1 different (with a line saying how), 2 unreadable input.
With --diff, a picture of the differences is written when they differ: the
reference greyed, unmatched pixels in red.
"""
import struct
import sys
import zlib

TOLERANCE = 16      # per channel; the lightest shading (the last move's origin) is 21 away
RADIUS = 1
MAX_BAD = 24        # one changed stroke of a kanji is more than this


class PngError(Exception):
    pass


def read_png(path):
    """(width, height, rows): rows[y] is a bytes object of width*4 RGBA values."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise PngError('%s: not a PNG file' % path)
    pos, idat, header = 8, [], None
    while pos + 8 <= len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b'IHDR':
            header = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat.append(body)
        elif kind == b'IEND':
            break
    if header is None:
        raise PngError('%s: no IHDR chunk' % path)
    width, height, depth, ctype, _comp, _filt, interlace = header
    if depth != 8 or ctype not in (2, 6) or interlace != 0:
        raise PngError('%s: only 8-bit RGB/RGBA non-interlaced PNG is read '
                       '(depth %d, colour type %d, interlace %d)' % (path, depth, ctype, interlace))
    bpp = 4 if ctype == 6 else 3
    raw = zlib.decompress(b''.join(idat))
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        ftype = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif ftype == 2:
            line = bytearray((a + b) & 0xFF for a, b in zip(line, prev))
        elif ftype == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif ftype == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF
        elif ftype != 0:
            raise PngError('%s: bad filter type %d' % (path, ftype))
        prev = line
        if bpp == 3:
            rgba = bytearray(width * 4)
            rgba[0::4], rgba[1::4], rgba[2::4] = line[0::3], line[1::3], line[2::3]
            rgba[3::4] = b'\xff' * width
            line = rgba
        rows.append(bytes(line))
    return width, height, rows


def unmatched(a, b, width, height):
    """Pixels of a that no antialiasing of b explains: a pixel matches when each of
    its channels lies within TOLERANCE of the range of that channel over b's pixels
    within RADIUS (an edge drawn a little lighter or darker, or moved by up to a
    pixel, gives values inside that range; a missing or added stroke does not)."""
    bad = []
    for y in range(height):
        ra, rb = a[y], b[y]
        if ra == rb:
            continue
        near = b[max(0, y - RADIUS):min(height, y + RADIUS + 1)]
        for x in range(width):
            i = 4 * x
            if ra[i:i + 4] == rb[i:i + 4]:
                continue
            x0, x1 = 4 * max(0, x - RADIUS), 4 * min(width, x + RADIUS + 1)
            for c in range(4):
                v = ra[i + c]
                vals = [r[j] for r in near for j in range(x0 + c, x1, 4)]
                if v < min(vals) - TOLERANCE or v > max(vals) + TOLERANCE:
                    bad.append((x, y))
                    break
    return bad


def write_png(path, width, height, rows):
    raw = b''.join(b'\x00' + bytes(r) for r in rows)

    def chunk(kind, body):
        return (struct.pack('>I', len(body)) + kind + body +
                struct.pack('>I', zlib.crc32(kind + body) & 0xFFFFFFFF))
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n')
        f.write(chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 6, 0, 0, 0)))
        f.write(chunk(b'IDAT', zlib.compress(raw, 6)))
        f.write(chunk(b'IEND', b''))


def main(argv):
    diff = None
    if len(argv) >= 2 and argv[0] == '--diff':
        diff, argv = argv[1], argv[2:]
    if len(argv) != 2:
        sys.stderr.write('usage: compare.py [--diff OUT.png] REFERENCE.png CANDIDATE.png\n')
        return 2
    try:
        wa, ha, a = read_png(argv[0])
        wb, hb, b = read_png(argv[1])
    except (OSError, PngError, zlib.error) as e:
        sys.stderr.write('compare: %s\n' % e)
        return 2
    if (wa, ha) != (wb, hb):
        print('%s: size %dx%d, reference %dx%d' % (argv[1], wb, hb, wa, ha))
        return 1
    bad = unmatched(a, b, wa, ha) + unmatched(b, a, wa, ha)
    if len(bad) <= MAX_BAD:
        return 0
    xs, ys = [p[0] for p in bad], [p[1] for p in bad]
    print('%s: %d pixels differ from the reference (at most %d allowed), '
          'within x %d..%d, y %d..%d' % (argv[1], len(bad), MAX_BAD, min(xs), max(xs),
                                         min(ys), max(ys)))
    if diff:
        out = []
        for y in range(ha):
            r = bytearray(a[y])
            for x in range(wa):
                g = (r[4 * x] + r[4 * x + 1] + r[4 * x + 2]) // 3
                r[4 * x:4 * x + 4] = bytes((g // 2 + 128, g // 2 + 128, g // 2 + 128, 255))
            out.append(r)
        for x, y in bad:
            out[y][4 * x:4 * x + 4] = b'\xff\x00\x00\xff'
        write_png(diff, wa, ha, out)
        print('%s: differences drawn in %s' % (argv[1], diff))
    return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
