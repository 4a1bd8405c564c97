"""Builds libthrum (Tools/install.sh: a release build with the Swift runtime linked statically) and bundles
it, with Thrum's bundled patterns, into the package: thrum/lib/libthrum.so and thrum/share/thrum/.
With THRUM_USE_SYSTEM_LIBRARY=1 (or when no Swift toolchain is on PATH and libthrum is installed) nothing is
built or bundled: the package uses the system's libthrum (the .deb's, Tools/install.sh's; see
thrum/_native.py). The version is Thrum's, read from Sources/Thrum/ThrumVersion.swift."""
import ctypes.util
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parent


def thrum_version() -> str:
    text = (REPOSITORY / "Sources/Thrum/ThrumVersion.swift").read_text()
    return re.search(r'static let string = "([^"]+)"', text).group(1)


def use_system_library() -> bool:
    """THRUM_USE_SYSTEM_LIBRARY=1 (0: always build), else automatic: no `swift` on PATH and a libthrum
    installed."""
    choice = os.environ.get("THRUM_USE_SYSTEM_LIBRARY")
    if choice is not None:
        return choice not in ("", "0")
    return shutil.which("swift") is None and ctypes.util.find_library("thrum") is not None


class BuildWithLibrary(build_py):
    """build_py that also installs libthrum into a temporary prefix and copies it into the package."""

    def run(self):
        super().run()
        if use_system_library():
            return
        package = Path(self.build_lib) / "thrum"
        with tempfile.TemporaryDirectory(prefix="thrum-wheel-") as prefix:
            subprocess.run([str(REPOSITORY / "Tools/install.sh"), "--prefix", prefix], check=True)
            (package / "lib").mkdir(parents=True, exist_ok=True)
            shutil.copyfile(Path(prefix) / "lib/libthrum.so.0", package / "lib/libthrum.so")
            os.chmod(package / "lib/libthrum.so", 0o755)
            shutil.rmtree(package / "share", ignore_errors=True)
            shutil.copytree(Path(prefix) / "share/thrum", package / "share/thrum")


class BinaryDistribution(Distribution):
    """The wheel holds a native library: it is platform-specific."""

    def has_ext_modules(self):
        return True


setup(version=thrum_version(), cmdclass={"build_py": BuildWithLibrary}, distclass=BinaryDistribution)
