#!/usr/bin/env python3
"""Every dated figure in assets/ speaks for a day.

The team standard: every hardware or price figure in assets/ carries its source and a
day-precision as-of date. This walks every JSON file under assets/ (catalog, published runs,
measurements, presets, example scenarios) and fails on any "as_of" that is not YYYY-MM-DD,
with one exception the loaders also know: a figure flagged "month_only" (as_of YYYY-MM) or
"year_only" (YYYY) whose "note" says "day not established" and why. So a month can no longer
slip in silently; it has to be owned, in the figure, where `traincost catalog` shows it.

  check_asset_dates.py <source dir>    check the tree
  check_asset_dates.py --self-test     the check catches each kind of bad date
"""
import glob
import json
import os
import re
import sys

DAY = re.compile(r"\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])")
MONTH = re.compile(r"\d{4}-(0[1-9]|1[0-2])")
YEAR = re.compile(r"\d{4}")
OWNED = "day not established"


def problems(doc, where):
    found = []

    def walk(x, path):
        if isinstance(x, dict):
            if "as_of" in x:
                found.extend(f"{where}:{path}.as_of: {p}" for p in date_problem(x))
            for k, v in x.items():
                walk(v, f"{path}.{k}" if path else k)
        elif isinstance(x, list):
            for i, v in enumerate(x):
                walk(v, f"{path}[{i}]")

    walk(doc, "")
    return found


def date_problem(fig):
    as_of = fig["as_of"]
    if not isinstance(as_of, str):
        return [f"{as_of!r} is not a string"]
    if DAY.fullmatch(as_of):
        return [] if not (fig.get("month_only") or fig.get("year_only")) else [f"{as_of} is a day but flagged month/year only"]
    coarse = (fig.get("month_only") and MONTH.fullmatch(as_of)) or (fig.get("year_only") and YEAR.fullmatch(as_of))
    if not coarse:
        return [f"{as_of!r} is not YYYY-MM-DD"]
    if OWNED not in str(fig.get("note", "")):
        return [f"{as_of} is not a day, and the note does not say '{OWNED}' and why"]
    return []


def check_tree(root):
    files = sorted(glob.glob(os.path.join(root, "assets", "**", "*.json"), recursive=True))
    if not files:
        return [f"no JSON files under {root}/assets"]
    out = []
    for f in files:
        with open(f, encoding="utf-8") as fh:
            out += problems(json.load(fh), os.path.relpath(f, root))
    return out


def self_test():
    cases = [
        ({"as_of": "2026-08-26"}, 0),
        ({"as_of": "2026-08"}, 1),                                   # a month, not owned
        ({"as_of": "2026-08", "month_only": True}, 1),               # flagged, but no reason
        ({"as_of": "2026-08", "month_only": True, "note": "day not established: x"}, 0),
        ({"as_of": "2024", "year_only": True, "note": "day not established: x"}, 0),
        ({"as_of": "2024", "month_only": True, "note": "day not established: x"}, 1),
        ({"as_of": "2026-13-01"}, 1),
        ({"as_of": "26-08-2026"}, 1),
        ({"as_of": 20260826}, 1),
        ({"x": [{"y": {"as_of": "2026-08"}}]}, 1),                   # nested anywhere
    ]
    bad = [(doc, n, problems(doc, "t")) for doc, n in cases if len(problems(doc, "t")) != n]
    for doc, n, got in bad:
        print(f"self-test: {doc} expected {n} problem(s), got {got}")
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    found = check_tree(sys.argv[1] if len(sys.argv) > 1 else ".")
    for p in found:
        print(p)
    sys.exit(1 if found else 0)
