"""The package installs offline with Debian's pip and setuptools: a wheel, an install into a
folder and into a virtual environment, each building the extension through CMake from a fresh
build folder. The installed package computes the CLI's numbers."""
import os
import subprocess
import sys
import zipfile

import pytest

from conftest import EXAMPLES, SOURCE_DIR, cli_json, exact

PYTHON = "/usr/bin/python3"  # Debian's, with its setuptools, wheel and pybind11 (not a pyenv one on PATH)
PACKAGE = os.path.join(SOURCE_DIR, "python")
# The installed build is a Release one (-O3, stripped), the CLI's RelWithDebInfo: every example's
# results and Monte Carlo must still be the same bits.
CHECK = """
import json, sys, traincost
print(json.dumps({"file": traincost.__file__,
                  "results": [[traincost.evaluate(p), traincost.analyze(p, samples=2000, seed=5)] for p in sys.argv[1:]]}))
"""


@pytest.fixture(scope="module")
def build_env(tmp_path_factory):
    # One fresh CMake folder for the three installs: the first builds the extension from nothing.
    env = dict(os.environ, TRAINCOST_CMAKE_BUILD_DIR=str(tmp_path_factory.mktemp("cmake")),
               PIP_NO_CACHE_DIR="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPATH", None)  # the tests' copy of the package must not stand in for the installed one
    return env


def pip(env, *args, python=PYTHON):
    done = subprocess.run([python, "-m", "pip", *args, "--no-build-isolation", "--no-index", "--no-deps", PACKAGE],
                          env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def installed_results(python, env, site=None):
    code = CHECK if site is None else f"import sys; sys.path.insert(0, {site!r})\n" + CHECK
    done = subprocess.run([python, "-I", "-c", code, *EXAMPLES], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    import json
    return json.loads(done.stdout)


def cli_results():
    return [[cli_json("evaluate", p, "--format", "json"),
             cli_json("analyze", p, "--samples", "2000", "--seed", "5", "--format", "json")] for p in EXAMPLES]


def test_wheel(build_env, tmp_path):
    pip(build_env, "wheel", "-w", str(tmp_path))
    wheels = [f for f in os.listdir(tmp_path) if f.endswith(".whl")]
    assert len(wheels) == 1 and wheels[0].startswith("traincost-1.0.0-cp3")
    names = zipfile.ZipFile(tmp_path / wheels[0]).namelist()
    for expected in ("traincost/__init__.py", "traincost/_core.pyi", "traincost/py.typed"):
        assert expected in names
    assert any(n.startswith("traincost/_core.") and n.endswith(".so") for n in names)
    assert not any("tests" in n or n.endswith(".cpp") for n in names), names


def test_install_into_a_folder(build_env, tmp_path):
    pip(build_env, "install", "--target", str(tmp_path / "site"))
    got = installed_results(PYTHON, build_env, str(tmp_path / "site"))
    assert got["file"].startswith(str(tmp_path))
    assert exact(got["results"]) == exact(cli_results())


def test_install_into_a_virtual_environment(build_env, tmp_path):
    # --system-site-packages: the venv sees Debian's setuptools and wheel (nothing is downloaded).
    subprocess.run([PYTHON, "-m", "venv", "--system-site-packages", str(tmp_path / "venv")], check=True)
    python = str(tmp_path / "venv" / "bin" / "python")
    pip(build_env, "install", python=python)
    got = installed_results(python, build_env)
    assert got["file"].startswith(str(tmp_path / "venv"))
    assert exact(got["results"]) == exact(cli_results())
