"""Packaging hook: the wheel carries the built-in templates and example decks.

They live at the top of the repository (``templates/``, ``decks/``); a
build copies them into the package as ``generator/builtin/``, which is where
an installed Aetherpress finds them.
"""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
BUILTIN = ("templates", "decks")


class build_with_builtin_data(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the checkout's own folders
        target = Path(self.build_lib) / "generator" / "builtin"
        for name in BUILTIN:
            shutil.rmtree(target / name, ignore_errors=True)
            shutil.copytree(HERE / name, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": build_with_builtin_data})
