"""The Python package as pip builds it: python/oprec, the extension `_oprec`
built by CMake (the same target as `cmake --build build --target _oprec`),
and the shipped records and standard library in oprec/data, where the
extension finds them (Records::default_data_dir).

OPREC_CMAKE_BUILD_DIR names a configured build to build `_oprec` in (it must
be configured for this Python); otherwise a build of its own is configured
under setuptools' build directory. CMAKE_BUILD_PARALLEL_LEVEL sets the jobs.
"""
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name: str) -> None:
        super().__init__(name, sources=[])


class BuildExtension(build_ext):
    """Builds `_oprec` with CMake and copies it into the package."""

    def build_extension(self, ext: Extension) -> None:
        given = os.environ.get("OPREC_CMAKE_BUILD_DIR")
        build = Path(given).resolve() if given else Path(self.build_temp).resolve() / "cmake"
        if not given:
            # Release, and only what the module needs: no tests, no benchmarks.
            subprocess.check_call([
                "cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                f"-DPython_EXECUTABLE={sys.executable}", "-DOPREC_BUILD_PYTHON=ON",
                "-DOPREC_BUILD_TESTS=OFF", "-DOPREC_BUILD_BENCH=OFF"])
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.check_call(["cmake", "--build", str(build), "--target", "_oprec", "-j", jobs])
        built = build / "python" / "oprec" / ("_oprec" + sysconfig.get_config_var("EXT_SUFFIX"))
        if not built.is_file():
            found = sorted(p.name for p in (build / "python" / "oprec").glob("_oprec*.so"))
            raise SystemExit(f"{built} was not built: {build} is configured for another Python "
                             f"(it holds {found}); unset OPREC_CMAKE_BUILD_DIR")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


class BuildPy(build_py):
    """The pure Python files, and records/ and stdlib/ copied into oprec/data."""

    def run(self) -> None:
        super().run()
        for folder in ("records", "stdlib"):
            target = Path(self.build_lib) / "oprec" / "data" / folder
            target.mkdir(parents=True, exist_ok=True)
            for rec in sorted((ROOT / folder).glob("*.rec")):
                shutil.copyfile(rec, target / rec.name)


# setuptools wants its egg-info directory to exist.
(ROOT / "build" / "pip").mkdir(parents=True, exist_ok=True)

setup(
    package_dir={"": "python"},
    packages=["oprec", "oprec.compat"],
    package_data={"oprec": ["py.typed", "*.pyi"]},
    ext_modules=[CMakeExtension("oprec._oprec")],
    cmdclass={"build_ext": BuildExtension, "build_py": BuildPy},
    # Beside the CMake build's files, not among them: build/ is the documented build directory.
    options={"build": {"build_base": "build/pip"}, "egg_info": {"egg_base": "build/pip"}},
    zip_safe=False,
)
