"""OPREC_BUILD_PYTHON: left at its default, a configure without pybind11
warns and skips the package (and its test); asked for, it fails."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import List

import pytest

from conftest import ROOT

CMAKE = shutil.which("cmake")
CTEST = shutil.which("ctest")
pytestmark = pytest.mark.skipif(not (CMAKE and CTEST and (ROOT / "CMakeLists.txt").is_file()),
                                reason="needs cmake, ctest and the source tree")


def configure(build: Path, *options: str) -> subprocess.CompletedProcess:
    args: List[str] = [CMAKE or "cmake", "-S", str(ROOT), "-B", str(build), "-DOPREC_BUILD_BENCH=OFF",
                       "-DCMAKE_DISABLE_FIND_PACKAGE_pybind11=ON", *options]
    return subprocess.run(args, capture_output=True, text=True, timeout=300)


def test_default_configure_without_pybind11_skips_the_package(tmp_path: Path) -> None:
    run = configure(tmp_path)
    assert run.returncode == 0, run.stderr
    assert "skipping it" in run.stderr
    again = configure(tmp_path)  # the option is cached now: still the default
    assert again.returncode == 0, again.stderr
    tests = subprocess.run([CTEST or "ctest", "--test-dir", str(tmp_path), "-N"], capture_output=True, text=True,
                           timeout=120)
    assert tests.returncode == 0 and "Total Tests:" in tests.stdout
    assert "python_pytest" not in tests.stdout


def test_asking_for_the_package_without_pybind11_fails(tmp_path: Path) -> None:
    run = configure(tmp_path, "-DOPREC_BUILD_PYTHON=ON")
    assert run.returncode != 0
    assert "pybind11" in run.stderr and "-DOPREC_BUILD_PYTHON=OFF" in run.stderr
