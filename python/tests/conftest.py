"""Shared fixtures: where the sources and the CLI are, and the example scenarios.

Run by CTest (python/CMakeLists.txt) with PYTHONPATH pointing at the built package and
TRAINCOST_CLI at the native CLI; both have defaults for a run by hand from the repository root.
"""
import glob
import json
import os
import subprocess

import pytest

SOURCE_DIR = os.environ.get("TRAINCOST_SOURCE_DIR", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
CLI = os.environ.get("TRAINCOST_CLI", os.path.join(SOURCE_DIR, "build", "native", "traincost"))
EXAMPLES = sorted(glob.glob(os.path.join(SOURCE_DIR, "assets", "scenarios", "*.json")))


def example_id(path):
    return os.path.basename(path)[:-5]


def run_cli(*args, stdin=None):
    """(exit status, stdout, stderr) of the native CLI."""
    done = subprocess.run([CLI, *args], input=stdin, capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def cli_json(*args):
    status, out, err = run_cli(*args)
    assert status == 0, err
    return json.loads(out)


def exact(value):
    """JSON text that tells apart every double (repr is the shortest round-trip form) and keeps
    key order: two results with equal `exact` text are equal bit for bit."""
    return json.dumps(value, allow_nan=False)


def cli_problems(*args, stdin=None):
    """The problem lines the CLI prints for bad input (after "traincost: X is not valid (N problems):")."""
    status, out, err = run_cli(*args, stdin=stdin)
    assert status == 2, f"expected the CLI to reject the input, got {status}: {out[:200]}"
    lines = err.splitlines()
    assert "is not valid" in lines[0], err
    return [line[2:] for line in lines[1:] if line.startswith("  ")]


def problem_lines(problems):
    return [f"{p['path']}: {p['message']}" if p["path"] else p["message"] for p in problems]


@pytest.fixture(params=EXAMPLES, ids=example_id)
def example(request):
    return request.param
