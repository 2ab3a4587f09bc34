#!/usr/bin/env python3
"""replay_claims_check.py CLI FILE...

The docs must not claim that TrainCost replays published runs better than it does. Runs
`traincost replay --format json` and reads, in each FILE, the section about published runs (from
a Markdown heading starting "Published runs" or the HTML heading with id="published-runs", to the
next heading of the same or a higher level). Every "median error ... N%" and "worst error ... N%" claimed in its
prose (the generated table between <!-- replay:begin --> and <!-- replay:end --> is checked
against the CLI by cli.docs_replay_in_sync instead) must be at least the replay's own figure
over all runs, rounded down to a whole percent. A "coverage ... N%" claimed for the 80% interval
(each run held out) must be the replay's own coverage, rounded to a whole percent. FILEs that say
nothing about published runs are skipped; at least one FILE must state both a median and a worst
error, and one the coverage.
"""
import json
import re
import subprocess
import sys

CLAIM = re.compile(r"\b(median|worst)(?:\s+absolute)?\s+error\b[^%<|]{0,40}?(\d+(?:\.\d+)?)\s*%", re.IGNORECASE)
COVERAGE = re.compile(r"\bcoverage\b[^%<|]{0,40}?(\d+(?:\.\d+)?)\s*%", re.IGNORECASE)
HEADING = re.compile(r"^(#{1,6})\s|<h([1-6])\b", re.IGNORECASE)


def section(text):
    """The lines of the published-runs section, without a generated table inside it."""
    lines = text.splitlines()
    out, level, generated = [], None, False
    for line in lines:
        m = HEADING.search(line)
        this_level = len(m.group(1)) if m and m.group(1) else int(m.group(2)) if m else None
        if level is None:
            if this_level and (re.match(r"#+\s+published runs", line, re.IGNORECASE) or 'id="published-runs"' in line):
                level = this_level
            continue
        if this_level and this_level <= level:
            break
        if line.strip() == "<!-- replay:begin -->" or "{{replay}}" in line:
            generated = "{{replay}}" not in line
            continue
        if line.strip() == "<!-- replay:end -->":
            generated = False
            continue
        if not generated:
            out.append(line)
    return "\n".join(out)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cli, files = sys.argv[1], sys.argv[2:]
    full = json.loads(subprocess.run([cli, "replay", "--format", "json"], check=True, capture_output=True, text=True).stdout)["summary"]
    summary = full["all"]
    actual = {"median": summary["median_abs_error"] * 100, "worst": summary["worst_abs_error"] * 100}
    coverage = full["whole_run"]["leave_one_out"]["coverage"] * 100
    failures, stated = [], set()
    for path in files:
        with open(path, encoding="utf-8") as f:
            prose = section(f.read())
        for m in CLAIM.finditer(prose):
            kind, claimed = m.group(1).lower(), float(m.group(2))
            stated.add(kind)
            if claimed < int(actual[kind]):
                failures.append(f"{path}: claims a {kind} error of {claimed:g}%, but the replay shows {actual[kind]:.1f}%: \"{m.group(0)}\"")
        for m in COVERAGE.finditer(prose):
            stated.add("coverage")
            if abs(float(m.group(1)) - coverage) > 0.5:
                failures.append(f"{path}: claims a coverage of {m.group(1)}%, but the replay shows {coverage:.1f}%: \"{m.group(0)}\"")
    if not {"median", "worst", "coverage"} <= stated:
        failures.append("no file states the median error, the worst error and the coverage of the replay (" + ", ".join(files) + ")")
    for f in failures:
        print(f)
    if failures:
        print("Update the prose to what `traincost replay` shows (never the other way round).")
        sys.exit(1)
    print(f"claims consistent with the replay: median {actual['median']:.1f}%, worst {actual['worst']:.1f}%, coverage {coverage:.1f}%")


if __name__ == "__main__":
    main()
