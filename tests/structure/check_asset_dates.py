#!/usr/bin/env python3
"""Every dated figure in assets/ speaks for a day.

The team standard: every hardware or price figure in assets/ carries its source and a
day-precision as-of date. This walks every JSON file under assets/ (catalog, published runs,
measurements, presets, example scenarios) and fails on any "as_of" that is not YYYY-MM-DD,
with one exception the loaders also know: a figure flagged "month_only" (as_of YYYY-MM) or
"year_only" (YYYY) whose "note" says "day not established" and why, AND that is named in
COARSE_ALLOWED below (issue 29). So a month can no longer slip in silently: it has to be owned in
the figure, where `traincost catalog` shows it, and listed here, where a reviewer sees the list
grow. A listed figure that has since got its day is reported too, so the list only shrinks.

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

# The figures still allowed a month or a year instead of a day, by file and by path (list items
# are named by their "id", so inserting an instance does not move the keys). The goal is an empty
# list: give a figure its day and delete its line here; never add a line without the reason.
_SKYPILOT_WHY = ("the pinned skypilot-catalog commit's date could not be read: the repository "
                 "snapshot is 1.7 GB, over the 500 MB fetch limit (so no `git log`), the file index "
                 "holds the CSV at that commit but no commit dates, and no page or thread names the "
                 "commit (tried 2026-12-05, issue 29)")
# The month 2026-08 is itself an inference, not read from the commit: the post-June-2025 AWS cut is
# in the CSV, and the p5en.48xlarge on-demand rate it quotes (63.296 in us-east-1) is the one
# dstackai/dstack pull request #4110 printed on 2026-08-06. That dates the rate, not the commit, so
# the other figures keep the SkyPilot source (scripts/refresh-prices refreshes by source) and the
# month; p5en's region and on-demand rate are sourced to that pull request itself, with its day.
# SkyPilot catalog v8, AWS vms.csv at 00148f2af3672e2229b4f7bf8157d5a3f36e3c35 (as_of 2026-08).
_SKYPILOT_AWS = [f"instances[{i}].{f}" for i, fields in [
    ("trn1.2xlarge", ["region", "prices.on_demand"]),
    ("trn1.32xlarge", ["region", "prices.on_demand", "prices.spot"]),
    ("trn1n.32xlarge", ["region", "prices.on_demand"]),
    ("trn2.48xlarge", ["prices.spot"]),
    ("p4d.24xlarge", ["region", "prices.on_demand", "prices.spot"]),
    ("p4de.24xlarge", ["region", "prices.on_demand"]),
    ("p5.4xlarge", ["region", "prices.on_demand"]),
    ("p5.48xlarge", ["region", "prices.on_demand"]),
    ("p5en.48xlarge", ["prices.spot"]),
    ("p6-b200.48xlarge", ["region", "prices.on_demand", "prices.spot"]),
] for f in fields]
# SkyPilot catalog v8, Lambda vms.csv at 0f4070387edc953d7004cff197940e1918a1d6aa (as_of 2026-08).
_SKYPILOT_LAMBDA = [f"instances[{i}].{f}" for i in ("lambda-8x-h100-sxm", "lambda-8x-b200")
                    for f in ("region", "chips", "network_gbps", "prices.on_demand")]
COARSE_ALLOWED = {
    "assets/catalog.json": {**{k: _SKYPILOT_WHY for k in _SKYPILOT_AWS + _SKYPILOT_LAMBDA}},
    "assets/published_runs.json": {
        # Secondary lecture notes on HLAT v1; the page carries no date.
        "runs[hlat-7b].chips": "lecture notes, undated page",
        # The model card names the month in the model's name (2501); the card's commit date is on
        # huggingface.co, which the tools here cannot read.
        "runs[karakuri-lm-32b-thinking-2501-exp].model_source": "Hugging Face card, month in the model name",
        "runs[karakuri-lm-32b-thinking-2501-exp].chips": "Hugging Face card, month in the model name",
        # The card is pinned to commit c38f315 on huggingface.co, whose date cannot be read here.
        "runs[karakuri-lm-7b-apm-v0.1].model_source": "Hugging Face card commit, date not readable here",
        "runs[karakuri-lm-7b-apm-v0.1].chips": "Hugging Face card commit, date not readable here",
        # zenml.io's LLMOps database summary of an AWS ML blog post; the summary is undated.
        "runs[llama3.3-swallow-70b].tokens": "undated secondary summary",
        "runs[llama3.3-swallow-70b].chips": "undated secondary summary",
        "runs[llama3.3-swallow-70b].wall_clock_days": "undated secondary summary",
    },
}


def problems(doc, where, allowed=None):
    """Every bad as_of in doc. allowed: the paths in doc whose month or year stands (COARSE_ALLOWED
    of this file); a listed path that is no longer coarse is a problem too (delete its line)."""
    allowed = {} if allowed is None else allowed
    found, coarse = [], set()

    def walk(x, path):
        if isinstance(x, dict):
            if "as_of" in x:
                found.extend(f"{where}:{path}.as_of: {p}" for p in date_problem(x))
                if is_coarse(x):
                    coarse.add(path)
                    if path not in allowed:
                        found.append(f"{where}:{path}.as_of: {x['as_of']} is not a day and the figure is "
                                     "not in COARSE_ALLOWED (tests/structure/check_asset_dates.py); give it its day")
            for k, v in x.items():
                walk(v, f"{path}.{k}" if path else k)
        elif isinstance(x, list):
            for i, v in enumerate(x):
                named = isinstance(v, dict) and isinstance(v.get("id"), str)
                walk(v, f"{path}[{v['id']}]" if named else f"{path}[{i}]")

    walk(doc, "")
    found += [f"{where}:{p}: listed in COARSE_ALLOWED but has a day now (or is gone); delete its line"
              for p in sorted(set(allowed) - coarse)]
    return found


def is_coarse(fig):
    as_of = fig["as_of"]
    return isinstance(as_of, str) and not DAY.fullmatch(as_of) and bool(
        (fig.get("month_only") and MONTH.fullmatch(as_of)) or (fig.get("year_only") and YEAR.fullmatch(as_of)))


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
    rel = [os.path.relpath(f, root).replace(os.sep, "/") for f in files]
    for f, r in zip(files, rel):
        with open(f, encoding="utf-8") as fh:
            out += problems(json.load(fh), r, COARSE_ALLOWED.get(r, {}))
    out += [f"{r}: in COARSE_ALLOWED but not found under assets/" for r in sorted(set(COARSE_ALLOWED) - set(rel))]
    return out


def self_test():
    owned_month = {"as_of": "2026-08", "month_only": True, "note": "day not established: x"}
    owned_year = {"as_of": "2024", "year_only": True, "note": "day not established: x"}
    listed = {"": "why"}                                             # the top-level figure is listed
    cases = [
        ({"as_of": "2026-08-26"}, {}, 0),
        ({"as_of": "2026-08"}, {}, 1),                               # a month, not owned
        ({"as_of": "2026-08", "month_only": True}, listed, 1),       # flagged, but no reason
        (owned_month, listed, 0),
        (owned_year, listed, 0),
        (owned_month, {}, 1),                                        # owned, but not listed
        (owned_year, {}, 1),
        ({"as_of": "2026-08-26"}, listed, 1),                        # listed, but has its day: stale line
        ({"as_of": "2024", "month_only": True, "note": "day not established: x"}, listed, 2),  # bad + stale
        ({"as_of": "2026-13-01"}, {}, 1),
        ({"as_of": "26-08-2026"}, {}, 1),
        ({"as_of": 20260826}, {}, 1),
        ({"x": [{"y": {"as_of": "2026-08"}}]}, {}, 1),               # nested anywhere
        ({"x": [{"id": "a", "y": owned_month}]}, {"x[a].y": "why"}, 0),  # list items by id
        ({"x": [{"id": "a", "y": owned_month}]}, {"x[0].y": "why"}, 2),  # not by index: unlisted + stale
    ]
    bad = [(doc, n, problems(doc, "t", allowed)) for doc, allowed, n in cases
           if len(problems(doc, "t", allowed)) != n]
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
