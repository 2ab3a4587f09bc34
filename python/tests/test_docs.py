"""The README's Python example and the walkthrough in docs/python.md run as written (from the
repository root, as they say). pandas and matplotlib are optional: without them the walkthrough
takes its plain branches."""
import os
import re
import subprocess
import sys

from conftest import SOURCE_DIR


def python_blocks(text):
    return re.findall(r"```python\n(.*?)```", text, re.S)


def run(code, tmp_path):
    script = tmp_path / "example.py"
    script.write_text(code)
    env = dict(os.environ, MPLBACKEND="Agg")
    done = subprocess.run([sys.executable, str(script)], cwd=SOURCE_DIR, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_readme_example(tmp_path):
    with open(os.path.join(SOURCE_DIR, "README.md"), encoding="utf-8") as f:
        section = next(s for s in f.read().split("\n## ") if s.startswith("Use it from Python"))
    [code] = python_blocks(section)
    assert len(code.strip().splitlines()) <= 5
    out = run(code, tmp_path)
    assert "cheaper" in out and "Trn2 x16" in out


def test_walkthrough(tmp_path):
    with open(os.path.join(SOURCE_DIR, "docs", "python.md"), encoding="utf-8") as f:
        blocks = python_blocks(f.read())
    assert len(blocks) >= 6
    out = run("\n".join(blocks), tmp_path)
    assert "runs/year" in out or "runs_per_year" in out
    assert "cheapest in" in out and "must be > 0, got -3" in out and "calculator.html#s=1." in out
