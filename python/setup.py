"""Builds the traincost package for pip (`pip install --no-build-isolation python/`, `pip wheel`).

The extension traincost._core is the CMake target traincost_python (python/CMakeLists.txt) over
the repository's core/: this script configures the repository with CMake (tests and benchmarks
off, Release), builds that one target and puts the module into the package. Metadata is in
pyproject.toml. It needs the whole repository (core/, assets/), not only this folder, and
Debian's pybind11-dev, nlohmann-json3-dev, cmake and a C++17 compiler; nothing is downloaded.
Environment: TRAINCOST_CMAKE_BUILD_DIR reuses a CMake build folder (the tests share one between
`pip wheel` and `pip install`), CMAKE_BUILD_PARALLEL_LEVEL limits the compile jobs.
"""
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class CMakeExtension(Extension):
    def __init__(self, name, target):
        super().__init__(name, sources=[])
        self.target = target


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        if not os.path.isfile(os.path.join(ROOT, "core", "CMakeLists.txt")):
            raise RuntimeError(f"traincost: the C++ core is not at {ROOT}/core; build from a clone of the repository")
        build_dir = os.environ.get("TRAINCOST_CMAKE_BUILD_DIR") or os.path.join(os.path.abspath(self.build_temp), "cmake")
        generator = ["-G", "Ninja"] if shutil.which("ninja") and not os.path.isfile(os.path.join(build_dir, "Makefile")) else []
        subprocess.run(["cmake", "-S", ROOT, "-B", build_dir, *generator, "-DCMAKE_BUILD_TYPE=Release",
                        "-DTRAINCOST_BUILD_TESTS=OFF", "-DTRAINCOST_BUILD_BENCH=OFF", "-DTRAINCOST_BUILD_PYTHON=ON",
                        f"-DPYTHON_EXECUTABLE={sys.executable}"], check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", build_dir, "--target", ext.target, "--parallel", jobs], check=True)
        built = os.path.join(build_dir, "python", "traincost", os.path.basename(self.get_ext_filename(ext.name)))
        destination = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(destination), exist_ok=True)
        shutil.copyfile(built, destination)


setup(ext_modules=[CMakeExtension("traincost._core", "traincost_python")], cmdclass={"build_ext": CMakeBuild})
