# tests/bench/convert-ref.py — the reference converter of bench-convert.sh for PCN
# JSON Lines <-> a YAML stream: PyYAML with libyaml's C loader and dumper.
#   python3 convert-ref.py to-yaml < db.jsonl > db.yaml
#   python3 convert-ref.py to-json < db.yaml > db.jsonl
import json, sys, yaml
Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
out = sys.stdout
if sys.argv[1] == "to-yaml":
    for line in sys.stdin:
        if line.strip():
            out.write(yaml.dump(json.loads(line), Dumper=Dumper, explicit_start=True,
                                allow_unicode=True, sort_keys=False))
else:
    for doc in yaml.load_all(sys.stdin, Loader=Loader):
        if doc is not None:
            out.write(json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n")
