#!/usr/bin/env python3
"""A second, deliberately simple reading of KIF, KI2 and CSA text, written from
the formats' own documents (the CSA standard at computer-shogi.org, the Kakinoki
formats as their readers take them) and koma-formats(5) alone (it shares nothing
with lib/), for the real-records test (tests/convert/real-records.sh).

  kifu-text.py normal FORMAT FILE   the text as lines with the normalisations
                                    koma-formats(5) lists applied, so that a
                                    file and koma's writing of it compare equal
  kifu-text.py stated FORMAT FILE   the ending the record states, worked out
                                    from its own text: "RESULT PLY" (RESULT
                                    1-0, 0-1, 1/2-1/2 or *; PLY - when none)
  kifu-text.py check FORMAT FILE BACK
                                    one line: "same text" when FILE and BACK
                                    (koma's writing of it) are the same up to
                                    the normalisations (JKF: "same JSON", the
                                    same documents), else what differs; a tab;
                                    the ending FILE states. Exit 1 when they
                                    differ.

FORMAT is kif, ki2, csa or jkf (not for normal)."""
import json
import re
import sys


def text(path):
    raw = open(path, 'rb').read()
    if raw.startswith(b'\xef\xbb\xbf'):
        raw = raw[3:]
    try:
        s = raw.decode('utf-8')
    except UnicodeDecodeError:
        s = raw.decode('cp932')
    return s.replace('\r', '').split('\n')


SPACES = ' \t\u3000'
# koma-formats(5), "Round trips": piece names written one way
RENAME = [('王', '玉'), ('竜', '龍'), ('杏', '成香'), ('圭', '成桂'), ('全', '成銀')]
SIDE_NAMES = {'先手': 'first', '下手': 'first', '後手': 'second', '上手': 'second'}
DATE_KEYS = ('開始日時', '終了日時')


def move_text(m):
    m = m.replace('同\u3000', '同').replace('同 ', '同').replace('不成', '')
    for a, b in RENAME:
        m = m.replace(a, b)
    return m


def date(v):
    v = re.sub(r'\([^)]*\)', '', v)                       # a weekday: 2008/12/20(土)
    m = re.fullmatch(r'(\d{4}/\d\d/\d\d)(?: +(\d{1,2}):(\d\d)(?::(\d\d))?)?', v.strip())
    if not m:
        return v
    if m.group(2) is None:
        return m.group(1)
    return '%s %02d:%s:%s' % (m.group(1), int(m.group(2)), m.group(3), m.group(4) or '00')


def closing(line):
    m = re.fullmatch(r'まで(\d+)手詰', line)
    return 'まで%s手で詰み' % m.group(1) if m else line


def seconds(t):
    n = 0
    for part in t.split(':'):
        n = n * 60 + int(part)
    return n


KIF_MOVE = re.compile(r'\s*(\d+)\s+(.+?)\s*(?:\(\s*([\d:]+)\s*(?:/\s*([\d:]+)?)?\s*\))?\s*\+?')


def normal_kakinoki(path, fmt):
    headers, body = [], []
    in_moves = False
    for line in text(path):
        line = line.rstrip(SPACES)
        if not line or line.startswith('#KIF') or line.startswith('#KI2'):
            continue
        if line.startswith('手数----'):
            in_moves = True
            continue
        if line.startswith('*'):
            body.append('comment ' + line[1:])
            continue
        if line.startswith('&'):
            body.append('bookmark ' + line[1:])
            continue
        if line.startswith('#'):
            headers.append('remark ' + line[1:])
            continue
        m = re.fullmatch(r'変化：\s*(\d+)手', line)
        if m:
            body.append('variation %s' % m.group(1))
            in_moves = True
            continue
        if line.startswith('まで'):
            body.append(closing(line))
            continue
        if fmt == 'ki2' and line[0] in '▲△☗☖':
            in_moves = True
            for mv in re.split(r'(?=[▲△☗☖])', line.replace('同\u3000', '同')):
                if mv.strip(SPACES):
                    body.append('move ' + move_text(mv.strip(SPACES)))
            continue
        if fmt == 'kif':
            m = KIF_MOVE.fullmatch(line)
            if m and (in_moves or m.group(1) == '1'):
                in_moves = True
                t = ''
                if m.group(3):
                    t = ' %d' % seconds(m.group(3))
                    if m.group(4):
                        t += '/%d' % seconds(m.group(4))
                body.append('move %s %s%s' % (m.group(1), move_text(m.group(2)), t))
                continue
        if line[0] in '|+ ' or line.startswith('  ９'):
            headers.append('diagram ' + line)
            continue
        m = re.fullmatch(r'([^：]+)：(.*)', line)
        if m and not in_moves:
            k, v = m.group(1).strip(SPACES), m.group(2).strip(SPACES)
            if k in SIDE_NAMES:
                k = SIDE_NAMES[k]
            if k in DATE_KEYS:
                v = date(v)
            headers.append('header %s：%s' % (k, v))
            continue
        body.append('other ' + line)
    if not any(h.startswith('header 手合割：') or h.startswith('diagram') for h in headers):
        headers.append('header 手合割：平手')
    return sorted(headers) + body


def board_from_pi(rest):
    rows = ['-KY-KE-GI-KI-OU-KI-GI-KE-KY', ' * -HI *  *  *  *  * -KA * ', '-FU' * 9, ' * ' * 9,
            ' * ' * 9, ' * ' * 9, '+FU' * 9, ' * +KA *  *  *  *  * +HI * ', '+KY+KE+GI+KI+OU+KI+GI+KE+KY']
    cells = [[r[i:i + 3] for i in range(0, 27, 3)] for r in rows]
    for i in range(0, len(rest) - 3, 4):              # PI82HI22KA: the pieces taken off
        f, r = int(rest[i]), int(rest[i + 1])
        cells[r - 1][9 - f] = ' * '
    return [('P%d%s' % (i + 1, ''.join(c))).rstrip() for i, c in enumerate(cells)]


def normal_csa(path):
    headers, board, body, comments = [], [], [], []
    for line in text(path):
        if line.startswith("'"):
            if not (line.startswith("'CSA encoding=") or line.startswith("'encoding=")):
                comments.append(line)
            continue
        if not line.strip():
            continue
        parts = line.split(',')
        for i, st in enumerate(parts):
            if st.startswith("'"):                     # a comment after a comma runs to the end
                comments.append(','.join(parts[i:]))
                break
            if st.startswith('PI'):
                board += board_from_pi(st[2:])
            elif re.fullmatch(r'P[1-9].*', st):
                board.append(st.rstrip())
            elif st.startswith('N') or st.startswith('$') or st.startswith('V'):
                headers.append(st)
            elif st.startswith('%') and any(b.startswith('%') for b in body):
                pass                                   # a repeated end code is read once
            else:
                body.append(st)
    return sorted(headers) + board + body + ['comment ' + c for c in comments]


def stated_kakinoki(path, first_moves):
    for line in text(path):
        line = line.strip(SPACES)
        m = re.match(r'まで(\d+)手(で)?(.*)', line)
        if not m:
            continue
        n, what = int(m.group(1)), m.group(3)
        mover = first_moves if n % 2 == 1 else ('second' if first_moves == 'first' else 'first')
        w = re.search(r'(先手|下手|後手|上手)の(.*)', what)
        if w:
            side = SIDE_NAMES[w.group(1)]
            wins = w.group(2).endswith('勝ち')
            return ('1-0' if (side == 'first') == wins else '0-1'), n
        if what in ('中断', '封じ手'):
            return '*', '-'
        if what in ('千日手', '持将棋'):
            return '1/2-1/2', n
        if what in ('', '詰み') or what.endswith('詰'):
            return ('1-0' if mover == 'first' else '0-1'), n
        return '?' + what, n
    return '*', '-'


# CSA end codes (and JKF's specials): who the code says lost, relative to the side to move
LOSER_TO_MOVE = {'TORYO', 'TIME_UP', 'ILLEGAL_MOVE', 'TSUMI'}
WINNER_TO_MOVE = {'KACHI'}
DRAWS = {'SENNICHITE', 'JISHOGI', 'HIKIWAKE', 'MAX_MOVES'}


def stated_code(code, n, to_move):
    if code is None or code == 'CHUDAN':
        return '*', '-'
    if code in DRAWS:
        return '1/2-1/2', n
    if code == '+ILLEGAL_ACTION':
        return '0-1', n
    if code == '-ILLEGAL_ACTION':
        return '1-0', n
    if code in LOSER_TO_MOVE:
        return ('0-1' if to_move == 'first' else '1-0'), n
    if code in WINNER_TO_MOVE:
        return ('1-0' if to_move == 'first' else '0-1'), n
    return '?' + code, n


def other(side):
    return 'second' if side == 'first' else 'first'


def stated_csa(path):
    first_moves, n, code = 'first', 0, None
    for line in text(path):
        for st in line.split(','):
            if st in ('+', '-'):
                first_moves = 'first' if st == '+' else 'second'
            elif re.fullmatch(r'[+-]\d{4}[A-Z]{2}', st):
                n += 1
            elif st.startswith('%'):
                code = st[1:]
    to_move = first_moves if n % 2 == 0 else other(first_moves)
    return stated_code(code, n, to_move)


HANDICAP_PRESETS_WHITE_FIRST = {'KY', 'KY_R', 'KA', 'HI', 'HIKY', '2', '3', '4', '5', '5_L', '6', '8', '10'}


def stated_jkf(path):
    doc = json.load(open(path, encoding='utf-8'))
    init = doc.get('initial') or {}
    if init.get('data'):
        first_moves = 'first' if init['data'].get('color', 0) == 0 else 'second'
    else:
        first_moves = 'second' if init.get('preset') in HANDICAP_PRESETS_WHITE_FIRST else 'first'
    n, code = 0, None
    for e in doc['moves']:
        if e.get('move'):
            n += 1
        if e.get('special'):
            code = e['special']
    to_move = first_moves if n % 2 == 0 else other(first_moves)
    return stated_code(code, n, to_move)


def normal(fmt, path):
    return normal_csa(path) if fmt == 'csa' else normal_kakinoki(path, fmt)


def stated(fmt, path):
    if fmt == 'csa':
        r = stated_csa(path)
    elif fmt == 'jkf':
        r = stated_jkf(path)
    else:
        handicap = any(re.match(r'手合割：(?!平手)', l) or l.startswith('上手：') for l in text(path))
        r = stated_kakinoki(path, 'second' if handicap else 'first')
    return '%s %s' % r


def jkf_documents(path):
    s, dec, out, i = open(path, encoding='utf-8').read(), json.JSONDecoder(), [], 0
    while True:
        while i < len(s) and s[i] in ' \t\r\n':
            i += 1
        if i == len(s):
            return out
        doc, i = dec.raw_decode(s, i)
        out.append(doc)


def check(fmt, path, back):
    if fmt == 'jkf':
        same = jkf_documents(path) == jkf_documents(back)
        verdict = 'same JSON' if same else 'JSON DIFFERS'
    else:
        a, b = normal(fmt, path), normal(fmt, back)
        same = a == b
        verdict = 'same text'
        if not same:
            import difflib
            d = [l for l in difflib.unified_diff(a, b, lineterm='', n=0) if l[:1] in '+-' and l[:3] not in ('+++', '---')]
            verdict = 'TEXT DIFFERS: ' + ' | '.join(d[:4])
    print('%s\t%s' % (verdict, stated(fmt, path)))
    return 0 if same else 1


def main():
    what, fmt, path = sys.argv[1:4]
    if what == 'normal':
        sys.stdout.write(''.join(l + '\n' for l in normal(fmt, path)))
    elif what == 'stated':
        print(stated(fmt, path))
    elif what == 'check' and len(sys.argv) == 5:
        sys.exit(check(fmt, path, sys.argv[4]))
    else:
        sys.exit('usage: kifu-text.py normal|stated FORMAT FILE, or check FORMAT FILE BACK')


if __name__ == '__main__':
    main()
