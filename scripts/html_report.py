#!/usr/bin/env python3
"""A static HTML report from idlespec's JSON: the clause traceability table.

usage: html_report.py [--verify F] [--validate F] [--matrix F] [--clauses F]
                      [--svg F]... [--title T] --out DIR  [F.json...]

  --verify F    `idlespec verify --json` (or `check --json`) output
  --validate F  `idlespec validate --json` (or `review --json`) output
  --matrix F    `idlespec matrix --format json` output
  --clauses F   `idlespec clauses --json`: the clause text and spec location
                for the validate and matrix tables (verify's JSON has it)
  --svg F       a plot to show, copied into DIR (default: docs/governor_sweep.svg
                of this tree, the governor sweep); --no-svg for none
  F.json        any of the three, recognised by its shape; '-' is stdin

Writes DIR/index.html, DIR/report.css, DIR/report.js and the plots: static
files, nothing fetched from the network (no fonts, scripts or styles from
elsewhere), viewable from file://. The tables:
  clause -> checks -> verdict -> counterexample and replay command (verify)
  clause -> function at file:line -> verdict -> counterexample and replay (validate)
  release x clause, and per release each clause's verdict and why (matrix)
Exit 0, or 2 on a usage error or input that is not idlespec's JSON.
"""
import argparse
import html
import json
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATUS_CLASS = {"held": "ok", "pass": "ok", "accepted": "acc", "n/a": "na", "absent": "na",
                "failed": "bad", "fail": "bad", "uncovered": "bad", "unknown": "unk",
                "error": "unk"}

CSS = """body{font-family:sans-serif;margin:1.5em;color:#222;background:#fff}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}
th,td{border:1px solid #bbb;padding:.25em .5em;vertical-align:top;text-align:left}
th{background:#eef}pre{margin:0;white-space:pre-wrap;font-size:.85em}
code{font-size:.9em}.ok{background:#d9f2d9}.bad{background:#f7c9c9}.acc{background:#fbe7b5}
.na{background:#eee;color:#666}.unk{background:#dcd6f7}.summary span{margin-right:1em}
.obl{color:#444;font-size:.85em}#filter{margin:.5em 0}img.plot{max-width:100%;border:1px solid #ccc}
"""

JS = """// Filters the traceability tables: text typed in the box, and 'not held only'.
(function () {
  var box = document.getElementById('filter');
  var bad = document.getElementById('only-bad');
  if (!box || !bad) return;
  function apply() {
    var q = box.value.toLowerCase();
    var rows = document.querySelectorAll('table.trace tbody tr');
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      var held = r.getAttribute('data-status') === 'held';
      var show = r.textContent.toLowerCase().indexOf(q) >= 0 && !(bad.checked && held);
      r.style.display = show ? '' : 'none';
    }
  }
  box.addEventListener('input', apply);
  bad.addEventListener('change', apply);
  apply();
  // Read by tests/cli/html_report.sh (chromium --dump-dom): the script ran.
  document.documentElement.setAttribute('data-report', 'ready');
})();
"""


def esc(s):
    return html.escape(str(s if s is not None else ""))


def status_cell(status, extra=""):
    return f'<td class="{STATUS_CLASS.get(status, "unk")}">{esc(status)}{extra}</td>'


def pre(lines):
    lines = [l for l in lines if l]
    return "".join(f"<pre>{esc(l)}</pre>" for l in lines)


def kind_of(doc):
    if isinstance(doc, list):
        return "clauses"
    if isinstance(doc, dict):
        if "kind" in doc and "name" in doc and "status" in doc:
            return "check"
        if "releases" in doc:
            return "matrix"
        if "parts" in doc or "judged_subject" in doc or "after" in doc:
            return "validate"
        if "clauses" in doc and doc["clauses"] and "checks" in doc["clauses"][0]:
            return "verify"
    return None


def summary(statuses):
    counts = {}
    for s in statuses:
        counts[s] = counts.get(s, 0) + 1
    return '<p class="summary">' + "".join(
        f'<span class="{STATUS_CLASS.get(s, "unk")}">{esc(s)}: {n}</span>'
        for s, n in sorted(counts.items())) + "</p>"


def verify_section(doc):
    rows = []
    for c in doc["clauses"]:
        checks, cex = [], []
        for ch in c["checks"]:
            checks.append(f'<div class="{STATUS_CLASS.get(ch["status"], "unk")}">'
                          f'{esc(ch["kind"])} <code>{esc(ch["name"])}</code>: {esc(ch["status"])}'
                          f' <span class="obl">({ch.get("seconds", 0):.2f} s)</span></div>')
            if ch["status"] != "pass" and c["status"] != "held":
                cex.append(pre([ch.get("detail", ""), ch.get("counterexample", "")]) +
                           (f'<pre>replay: <code>{esc(ch["replay"])}</code></pre>'
                            if ch.get("replay") else ""))
        rows.append(f'<tr data-status="{esc(c["status"])}"><td><b>{esc(c["id"])}</b> '
                    f'<span class="obl">({esc(c.get("kind", ""))})</span><div class="obl">'
                    f'{esc(c.get("obligation", ""))}</div></td><td>{esc(c.get("subject", ""))}</td>'
                    f'<td>{"".join(checks)}</td>{status_cell(c["status"])}'
                    f'<td>{pre([c.get("detail", "")])}{"".join(cex)}</td></tr>')
    errors = "".join(f"<li>{esc(e)}</li>" for e in doc.get("errors", []))
    return ("<h2>verify: clause &rarr; checks &rarr; verdict</h2>" +
            summary(c["status"] for c in doc["clauses"]) +
            (f"<ul class=\"bad\">{errors}</ul>" if errors else "") +
            '<table class="trace"><thead><tr><th>clause</th><th>subject</th><th>checks</th>'
            "<th>verdict</th><th>counterexample and replay</th></tr></thead><tbody>" +
            "".join(rows) + "</tbody></table>")


def check_section(doc):
    as_verify = {"clauses": [{"id": cid, "kind": "", "subject": doc["subject"],
                              "status": ("held" if doc["status"] == "pass" else
                                         "failed" if doc["status"] == "fail" and
                                         (not doc["violated"] or cid in doc["violated"])
                                         else "held" if doc["status"] == "fail" else "unknown"),
                              "checks": [doc]} for cid in doc["clauses"]]}
    return verify_section(as_verify)


def clause_text(clauses, cid):
    c = clauses.get(cid)
    if not c:
        return ""
    return (f'<div class="obl">{esc(c["obligation"])}</div>'
            f'<div class="obl">{esc(c.get("location", ""))}</div>')


def escapes_block(items):
    """Escape attempts of the code under test: each a finding that fails the run."""
    items = [e for e in items if e]
    if not items:
        return ""
    return ('<div class="escape"><h3>sandbox escape attempts (findings: the run fails)</h3><ul>' +
            "".join(f"<li>{esc(e)}</li>" for e in items) + "</ul></div>")


def review_changes(doc):
    rows = "".join(
        f'<tr data-status="{esc(c["after"])}"><td><b>{esc(c["id"])}</b></td>'
        f'<td><code>{esc(c["function"])}</code> {esc(c["file"])}</td>{status_cell(c["before"])}'
        f'{status_cell(c["after"])}<td>{pre(c.get("counterexamples", []))}</td></tr>'
        for c in doc.get("changes", []))
    return (f"<h2>review of {esc(doc.get('patch', ''))}: clauses whose verdict changed</h2>" +
            (f'<table class="trace"><thead><tr><th>clause</th><th>function</th><th>before</th>'
             f"<th>after</th><th>counterexample</th></tr></thead><tbody>{rows}</tbody></table>"
             if rows else "<p>No clause changed its verdict.</p>"))


def targets_text(c):
    """Each target's verdict of a clause judged on several (validate --targets):
    ' (ppc64le: failed; ppc64: held)', or '' for a host-only verdict."""
    ts = c.get("targets") or []
    if not ts or (len(ts) == 1 and ts[0].get("target") == "host"):
        return ""
    return "<br><small>" + esc("; ".join(f'{t["target"]}: {t["status"]}' for t in ts)) + "</small>"


def validate_section(doc, clauses, title="validate"):
    if "after" in doc and "changes" in doc:  # review --json: the diff, then the after report
        return (escapes_block(doc.get("escapes", [])) + review_changes(doc) +
                validate_section(doc["after"], clauses, "after the patch"))
    rows = []
    for c in doc.get("clauses", []):
        where = f'{c.get("function", "")}() at {c.get("file", "")}:{c.get("line", 0)}'
        notes = [c.get("coverage", ""), c.get("note", ""), c.get("spec_note", ""), c.get("error", "")]
        if c.get("alarm"):  # Frama-C's EVA: its alarm beside the verdict
            notes.append(f'EVA: {c["alarm"]} at {c.get("alarm_file", "")}:{c.get("alarm_line", 0)}')
        level = ""
        if c.get("proof") and c["status"] == "held":
            level = f' ({esc(c["proof"])}: {esc(c.get("proof_note", ""))})'

        replay = (f'<pre>replay (--keep-temp): <code>{esc(c["replay"])}</code></pre>'
                  if c.get("replay") else "")
        rows.append(f'<tr data-status="{esc(c["status"])}"><td><b>{esc(c["id"])}</b>'
                    f'{clause_text(clauses, c["id"])}</td><td><code>{esc(where)}</code></td>'
                    f'{status_cell(c["status"], level + targets_text(c))}'
                    f'<td>{pre(c.get("counterexamples", []))}{replay}'
                    f'<div class="obl">{esc("; ".join(n for n in notes if n))}</div></td></tr>')
    head = esc(doc.get("subject", ""))
    found = [f'{p.get("file", "")} ({p.get("component", "")}): {e}'
             for p in doc.get("parts", []) for e in p.get("escapes", [])]
    return (f"<h2>{esc(title)}: {head} (judged as {esc(doc.get('judged_subject', ''))})</h2>" +
            escapes_block(found) +
            summary(c["status"] for c in doc.get("clauses", [])) +
            '<table class="trace"><thead><tr><th>clause</th><th>function</th><th>verdict</th>'
            "<th>counterexample and replay</th></tr></thead><tbody>" + "".join(rows) +
            "</tbody></table>")


def matrix_section(doc, clauses):
    releases = doc["releases"]
    ids = []
    for r in releases:
        for c in r["clauses"]:
            if c["id"] not in ids:
                ids.append(c["id"])
    cells = {(r["label"], c["id"]): c for r in releases for c in r["clauses"]}
    grid = ['<table><thead><tr><th>clause</th>' +
            "".join(f'<th>{esc(r["label"])}</th>' for r in releases) + "</tr></thead><tbody>"]
    for cid in ids:
        row = f"<tr><td><b>{esc(cid)}</b></td>"
        for r in releases:
            c = cells.get((r["label"], cid))
            if not c:
                row += '<td class="na">-</td>'
                continue
            fix = f' (fix <code>{esc(c["fixed_by"])}</code>)' if c.get("fixed_by") else ""
            if c.get("proof") and c["status"] == "held":  # Frama-C's EVA: proven or tested
                fix += f' ({esc(c["proof"])})'
            row += status_cell(c["status"], fix + targets_text(c))
        grid.append(row + "</tr>")
    grid.append("</tbody></table>")
    per = []
    for r in releases:
        rows = "".join(
            f'<tr data-status="{esc(c["status"])}"><td><b>{esc(c["id"])}</b>'
            f'{clause_text(clauses, c["id"])}</td>'
            f'<td><code>{esc(c.get("function", ""))}</code> {esc(c.get("file", ""))}</td>'
            f'{status_cell(c["status"])}<td>{pre([c.get("why", "")])}</td></tr>'
            for c in r["clauses"])
        per.append(f'<h3>{esc(r["label"])} <span class="obl">{esc(r.get("path", ""))}, '
                   f'subject {esc(r.get("subject", ""))}, exit {esc(r.get("exit_code", ""))}'
                   f'</span></h3><table class="trace"><thead><tr><th>clause</th><th>function</th>'
                   f"<th>verdict</th><th>why</th></tr></thead><tbody>{rows}</tbody></table>")
    found = [f'{r["label"]}: {e}' for r in releases for e in r.get("escapes", [])]
    return ("<h2>matrix: release &times; clause</h2>" + escapes_block(found) + "".join(grid) +
            "<h2>per release</h2>" + "".join(per))


def load(path):
    try:
        if path == "-":
            return json.load(sys.stdin)
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit(f"html_report.py: {path}: {e}")


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1])
    ap.add_argument("inputs", nargs="*")
    ap.add_argument("--verify", action="append", default=[])
    ap.add_argument("--validate", action="append", default=[])
    ap.add_argument("--matrix", action="append", default=[])
    ap.add_argument("--clauses")
    ap.add_argument("--svg", action="append")
    ap.add_argument("--no-svg", action="store_true")
    ap.add_argument("--title", default="idlespec report")
    ap.add_argument("--out", required=True)
    try:
        a = ap.parse_args()
    except SystemExit:
        return 2
    docs = [(k, load(p)) for k in ("verify", "validate", "matrix")
            for p in getattr(a, k)] + [(None, load(p)) for p in a.inputs]
    clauses = {c["id"]: c for c in load(a.clauses)} if a.clauses else {}
    sections = []
    for given, doc in docs:
        kind = kind_of(doc)
        if given and kind != given and not (given == "verify" and kind == "check"):
            print(f"html_report.py: --{given} input is not `idlespec {given}` JSON", file=sys.stderr)
            return 2
        if kind == "clauses":
            clauses.update({c["id"]: c for c in doc})
        elif kind is None:
            print("html_report.py: an input is not idlespec's JSON", file=sys.stderr)
            return 2
        else:
            sections.append((kind, doc))
    if not sections:
        print("html_report.py: nothing to report (give verify, validate or matrix JSON)",
              file=sys.stderr)
        return 2
    os.makedirs(a.out, exist_ok=True)
    body = []
    for kind, doc in sections:
        body.append(verify_section(doc) if kind == "verify" else
                    check_section(doc) if kind == "check" else
                    matrix_section(doc, clauses) if kind == "matrix" else
                    validate_section(doc, clauses))
    svgs = [] if a.no_svg else (a.svg or [os.path.join(ROOT, "docs", "governor_sweep.svg")])
    plots = []
    for s in svgs:
        if not os.path.isfile(s):
            print(f"html_report.py: no plot {s}", file=sys.stderr)
            return 2
        name = os.path.basename(s)
        shutil.copyfile(s, os.path.join(a.out, name))
        plots.append(f'<figure><img class="plot" src="{esc(name)}" alt="{esc(name)}">'
                     f"<figcaption>{esc(name)}</figcaption></figure>")
    page = ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{esc(a.title)}</title><link rel=\"icon\" href=\"data:,\">"
            "<link rel=\"stylesheet\" href=\"report.css\"></head><body>"
            f"<h1>{esc(a.title)}</h1><p>Statuses: held, failed, unknown, uncovered, accepted "
            "(a violation the spec accepts for the subject), n/a, absent, error.</p>"
            '<label>filter <input id="filter" type="search"></label> '
            '<label><input id="only-bad" type="checkbox"> not held only</label>' +
            "".join(body) + ("<h2>governor sweep</h2>" + "".join(plots) if plots else "") +
            '<script src="report.js"></script></body></html>\n')
    for name, text in (("index.html", page), ("report.css", CSS), ("report.js", JS)):
        with open(os.path.join(a.out, name), "w") as f:
            f.write(text)
    print(os.path.join(a.out, "index.html"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
