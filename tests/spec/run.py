#!/usr/bin/env python3
"""tests/spec/run.py BINDIR [FILE.tsv...] -- the cases of tests/spec through koma-validate.

Called by tests/spec/run.sh (see tests/spec/README.md). Every row of every file
(default: tests/spec/*.tsv) is checked with `koma-validate --type NAME --json`,
NAME being the file's name: a valid row must give "valid":true, an invalid one
its code, line and column (and message, when the row gives a part of it). A row
whose cli column is not empty is skipped: the column says why koma-validate
cannot be asked. The line formats are checked one file per (type, dialect,
position), an input per line; GGN and PCN one input per run.
"""
import json
import os
import subprocess
import sys
import tempfile

COLUMNS = ('input', 'code', 'column', 'line', 'message', 'parse', 'mode', 'fid', 'dialect',
           'position', 'canonical', 'format', 'cli')
LINE_TYPES = ('sin', 'snn', 'pin', 'epin', 'qpi', 'cell', 'fid', 'cgsn', 'feen', 'pmn')
DOC_TYPES = ('ggn', 'pcn')


class Broken(Exception):
    pass


def unescape(s):
    out = bytearray()
    i = 0
    while i < len(s):
        c = s[i]
        if c != '\\':
            out += c.encode('ascii')
            i += 1
            continue
        if i + 1 >= len(s):
            raise Broken('a backslash ends the field')
        n = s[i + 1]
        if n == 'x':
            try:
                out.append(int(s[i + 2:i + 4], 16))
            except ValueError:
                raise Broken('bad \\x escape')
            if len(s[i + 2:i + 4]) != 2:
                raise Broken('bad \\x escape')
            i += 4
            continue
        if n not in 'tnr\\':
            raise Broken('unknown escape \\' + n)
        out.append({'t': 9, 'n': 10, 'r': 13, '\\': 92}[n])
        i += 2
    return bytes(out)


def read_table(path):
    rows = []
    header = None
    with open(path, 'rb') as fh:
        data = fh.read()
    try:
        text = data.decode('ascii')
    except UnicodeDecodeError:
        raise Broken('%s: not ASCII (write bytes as \\xHH)' % path)
    for at, line in enumerate(text.split('\n'), 1):
        if line == '' or line.startswith('#'):
            continue
        fields = line.split('\t')
        if header is None:
            header = fields
            for name in header:
                if name not in COLUMNS:
                    raise Broken('%s:%d: unknown column %s' % (path, at, name))
            if header[:3] != ['input', 'code', 'column']:
                raise Broken('%s:%d: the header must start with input, code, column' % (path, at))
            continue
        if len(fields) > len(header):
            raise Broken('%s:%d: more fields than columns' % (path, at))
        row = {'at': at}
        for name, value in zip(header, fields):
            try:
                row[name] = unescape(value)
            except Broken as e:
                raise Broken('%s:%d: %s: %s' % (path, at, name, e))
        for name in COLUMNS:
            row.setdefault(name, b'')
        row['code'] = row['code'].decode()
        row['column'] = int(row['column']) if row['column'] else 0
        row['line'] = int(row['line']) if row['line'] else 1
        rows.append(row)
    return rows


def shown(b):
    s = b.decode('ascii', 'backslashreplace')
    return s if len(s) <= 80 else s[:77] + '...'


def judge(row, obj, where):
    """None when the JSON object of koma-validate agrees with the row, else why not."""
    if obj is None:
        return 'koma-validate gave no object for it'
    if row['code'] == 'ok':
        if obj.get('valid') is not True:
            return 'refused: %s at %s:%s (%s)' % (obj.get('code'), obj.get('line'), obj.get('column'),
                                                  obj.get('message'))
        if row['fid'] and obj.get('fid') != row['fid'].decode():
            return 'FID %s, want %s' % (obj.get('fid'), row['fid'].decode())
        return None
    if obj.get('valid') is not False:
        return 'accepted, want %s at %d:%d' % (row['code'], row['line'], row['column'])
    # (the lines of the row's own input: where is the line it starts on in the file read)
    got_line = obj.get('line') - where + 1 if isinstance(obj.get('line'), int) else obj.get('line')
    if (obj.get('code'), got_line, obj.get('column')) != (row['code'], row['line'], row['column']):
        return 'got %s at %s:%s, want %s at %d:%d (%s)' % (
            obj.get('code'), got_line, obj.get('column'), row['code'], row['line'],
            row['column'], obj.get('message'))
    if row['message'] and row['message'].decode('utf-8', 'backslashreplace') not in obj.get('message', ''):
        return 'the message "%s" does not hold "%s"' % (obj.get('message'), row['message'].decode('utf-8', 'backslashreplace'))
    return None


def run_validate(bindir, args, path):
    p = subprocess.run([os.path.join(bindir, 'koma-validate')] + args + ['--json', '--', path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        return None, 'koma-validate %s: status %d: %s' % (' '.join(args), p.returncode,
                                                          p.stderr.decode(errors='replace').strip())
    objs = []
    for line in p.stdout.decode().splitlines():
        objs.append(json.loads(line))
    return objs, None


def check_lines(bindir, name, rows, tmp, report):
    groups = {}
    for row in rows:
        if b'\n' in row['input'] or row['input'].endswith(b'\r'):
            report(row, 'a line cannot hold this input: mark it in the cli column')
            continue
        key = (row['dialect'], row['position'])
        groups.setdefault(key, []).append(row)
    for (dialect, position), group in groups.items():
        args = ['--type', name]
        if dialect:
            args += ['--pmn-dialect', dialect.decode()]
        if position:
            args += ['--position', position.decode()]
        if name == 'feen':
            args += ['--print-fid']
        path = os.path.join(tmp, 'lines')
        with open(path, 'wb') as fh:
            fh.write(b''.join(r['input'] + b'\n' for r in group))
        objs, trouble = run_validate(bindir, args, path)
        if trouble:
            for row in group:
                report(row, trouble)
            continue
        by_line = {}
        for obj in objs:
            by_line.setdefault(obj.get('line'), []).append(obj)
        for n, row in enumerate(group, 1):
            got = by_line.get(n, [])
            report(row, judge(row, got[0] if len(got) == 1 else None, n) if len(got) <= 1
                   else 'koma-validate gave %d objects for it' % len(got))


def check_documents(bindir, name, rows, tmp, report):
    for row in rows:
        args = ['--type', name]
        if name == 'pcn':
            fmt = row['format'].decode() or 'json'
            if fmt == 'yaml':
                args += ['--format', 'yaml']
            elif b'\n' not in row['input']:
                args += ['--format', 'json']
            # a JSON record over several lines: each record decides (a line '{' alone
            # starts a pretty-printed JSON text)
        path = os.path.join(tmp, 'document')
        with open(path, 'wb') as fh:
            fh.write(row['input'])
        objs, trouble = run_validate(bindir, args, path)
        if trouble:
            report(row, trouble)
        elif len(objs) != 1:
            report(row, 'koma-validate gave %d objects for it' % len(objs))
        else:
            report(row, judge(row, objs[0], 1))


def main():
    if len(sys.argv) < 2:
        sys.stderr.write('usage: run.py BINDIR [FILE.tsv...]\n')
        return 2
    bindir = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    files = sys.argv[2:] or sorted(os.path.join(here, f) for f in os.listdir(here) if f.endswith('.tsv'))
    passed = failed = skipped = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            name = os.path.basename(path)[:-4]
            shown_path = os.path.relpath(path)
            try:
                rows = read_table(path)
            except Broken as e:
                sys.stderr.write('spec: %s\n' % e)
                failed += 1
                continue
            if name not in LINE_TYPES + DOC_TYPES:
                sys.stderr.write('spec: %s: koma-validate has no type %s\n' % (shown_path, name))
                failed += 1
                continue
            todo = []
            for row in rows:
                if row['cli']:
                    skipped += 1
                else:
                    todo.append(row)
            counts = [0, 0]

            def report(row, why):
                if why is None:
                    counts[0] += 1
                else:
                    counts[1] += 1
                    sys.stderr.write('spec: %s:%d: "%s": %s\n' % (shown_path, row['at'], shown(row['input']), why))
            if name in LINE_TYPES:
                check_lines(bindir, name, todo, tmp, report)
            else:
                check_documents(bindir, name, todo, tmp, report)
            passed += counts[0]
            failed += counts[1]
    print('spec: %d passed, %d failed, %d skipped (the cli column says why)' % (passed, failed, skipped))
    if passed + failed == 0:
        sys.stderr.write('spec: FAILED: nothing was run\n')
        return 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
