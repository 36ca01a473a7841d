#!/usr/bin/env python3
"""Validates SARIF logs against the SARIF 2.1.0 JSON schema.

usage: sarif_validate.py [--fingerprints] SCHEMA FILE.sarif...

Prints one line per file (ok, or the first errors with their JSON path) and
exits 1 if any file is not valid SARIF 2.1.0, 2 when jsonschema is missing
(python3-jsonschema) or a file does not parse. Beyond the schema it checks
what code scanning relies on: every result's ruleId names a rule of its run
(and ruleIndex, if given, points at it); with --fingerprints every result
carries partialFingerprints.
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("sarif_validate.py: python3 jsonschema is not installed "
          "(Debian: python3-jsonschema)", file=sys.stderr)
    sys.exit(2)


def extra_checks(log, fingerprints):
    problems = []
    for r_i, run in enumerate(log.get("runs", [])):
        rules = [r["id"] for r in run["tool"]["driver"].get("rules", [])]
        for i, res in enumerate(run.get("results", [])):
            where = f"runs[{r_i}].results[{i}]"
            if res.get("ruleId") not in rules:
                problems.append(f"{where}: ruleId {res.get('ruleId')!r} is no rule of the run")
            idx = res.get("ruleIndex")
            if idx is not None and (idx >= len(rules) or rules[idx] != res.get("ruleId")):
                problems.append(f"{where}: ruleIndex {idx} is not rule {res.get('ruleId')!r}")
            if fingerprints and not res.get("partialFingerprints"):
                problems.append(f"{where}: no partialFingerprints")
    return problems


def main(argv):
    fingerprints = "--fingerprints" in argv
    argv = [a for a in argv if a != "--fingerprints"]
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        schema = json.load(f)
    validator = jsonschema.Draft4Validator(schema)
    bad = 0
    for path in argv[2:]:
        try:
            with open(path) as f:
                log = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: does not parse: {e}")
            return 2
        errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
        problems = [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message[:200]}"
                    for e in errors[:5]] + extra_checks(log, fingerprints)
        if problems:
            bad += 1
            print(f"{path}: NOT valid SARIF 2.1.0")
            for p in problems:
                print(f"  {p}")
        else:
            print(f"{path}: ok ({sum(len(r.get('results', [])) for r in log['runs'])} results)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
