"""Print the JSON Schema verdict of each sample: `NAME valid` or `NAME invalid`.

Usage: verdicts.py SCHEMA doc FILE...      each FILE is one JSON document (NAME = FILE)
       verdicts.py SCHEMA lines FILE...    each non-blank line is one document (NAME = FILE:LINE)
       verdicts.py SCHEMA output FILE...   print only the lines that are not JSON or
                                           break the schema (a tool's --json output)
A text that is not JSON is invalid. Uses Debian's python3-jsonschema (draft 2020-12).
"""
import json
import sys

from jsonschema import Draft202012Validator, FormatChecker


def verdict(validator, text):
    try:
        doc = json.loads(text)
    except ValueError:
        return "invalid"
    return "valid" if validator.is_valid(doc) else "invalid"


def main(argv):
    schema_path, mode, files = argv[1], argv[2], argv[3:]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema, format_checker=FormatChecker())
    for path in files:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            if mode == "doc":
                print(path, verdict(validator, f.read()))
                continue
            if mode == "output":
                for number, line in enumerate(f, start=1):
                    if verdict(validator, line) != "valid":
                        print(f"{path}:{number}: {line.rstrip()}")
                continue
            for number, line in enumerate(f, start=1):
                if line.strip():
                    print(f"{path}:{number}", verdict(validator, line))


if __name__ == "__main__":
    main(sys.argv)
