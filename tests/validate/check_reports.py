#!/usr/bin/env python3
"""Reads back the JUnit XML and SARIF 2.1.0 that `idlespec validate` wrote.

usage: check_reports.py JUNIT SARIF "FAILED CLAUSES" TESTCASES

JUnit: parsed as XML; one testsuite whose testcase count is TESTCASES, a
<failure> exactly on the named clauses, the failures attribute consistent.
SARIF: the properties SARIF 2.1.0 requires (version, runs, tool.driver.name,
result.message.text) plus what idlespec promises: one result per failed
clause, its ruleId among the driver's rules, located at a file and a line >= 1.
"""
import json
import sys
import xml.etree.ElementTree as ET


def fail(why):
    print("check_reports.py:", why)
    sys.exit(1)


junit_path, sarif_path, failed, count = sys.argv[1], sys.argv[2], set(sys.argv[3].split()), int(sys.argv[4])

root = ET.parse(junit_path).getroot()
if root.tag != "testsuites":
    fail("JUnit root is %s" % root.tag)
cases = root.findall("./testsuite/testcase")
if len(cases) != count:
    fail("JUnit has %d testcases, expected %d" % (len(cases), count))
got = {c.get("name").split()[0] for c in cases if c.find("failure") is not None}
if got != failed:
    fail("JUnit failures %s, expected %s" % (sorted(got), sorted(failed)))
for suite in root.findall("testsuite"):
    n = len([c for c in suite.findall("testcase") if c.find("failure") is not None])
    if int(suite.get("failures")) != n or int(suite.get("tests")) != len(suite.findall("testcase")):
        fail("JUnit counts inconsistent in %s" % suite.get("name"))
for c in cases:
    if not c.get("classname") or not c.get("name"):
        fail("JUnit testcase without classname/name")

sarif = json.load(open(sarif_path))
if sarif.get("version") != "2.1.0" or not isinstance(sarif.get("runs"), list) or len(sarif["runs"]) != 1:
    fail("SARIF version/runs")
run = sarif["runs"][0]
driver = run.get("tool", {}).get("driver", {})
if not driver.get("name"):
    fail("SARIF tool.driver.name missing")
rules = {r["id"] for r in driver.get("rules", [])}
results = run.get("results")
if not isinstance(results, list):
    fail("SARIF results missing")
if {r.get("ruleId") for r in results} != failed:
    fail("SARIF results %s, expected %s" % (sorted(r.get("ruleId") for r in results), sorted(failed)))
for r in results:
    if not isinstance(r.get("message", {}).get("text"), str) or not r["message"]["text"]:
        fail("SARIF result without message.text")
    if r["ruleId"] not in rules:
        fail("SARIF ruleId %s not among the driver's rules" % r["ruleId"])
    loc = r["locations"][0]["physicalLocation"]
    if not loc["artifactLocation"]["uri"] or loc["region"]["startLine"] < 1:
        fail("SARIF location incomplete")
print("check_reports.py: JUnit %d testcases, SARIF %d results: ok" % (len(cases), len(results)))
