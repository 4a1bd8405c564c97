"""Builds libthrum (Tools/install.sh: a release build with the Swift runtime linked statically) and bundles
it, with Thrum's bundled patterns, into the package: thrum/lib/libthrum.so and thrum/share/thrum/.
The version is Thrum's, read from Sources/Thrum/ThrumVersion.swift."""
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


class BuildWithLibrary(build_py):
    """build_py that also installs libthrum into a temporary prefix and copies it into the package."""

    def run(self):
        super().run()
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
