"""The wheel carries the manual: when the checkout holds a built site (`make docs`, or what
`make run` builds), `build_py` copies it into the package as `graphmem/manual/`, which
`graphmem serve` serves at /docs/ when it runs from an installed copy. Everything else is
configured in pyproject.toml."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SITE = Path(__file__).resolve().parent / "site"


class BuildWithManual(build_py):
    def run(self) -> None:
        super().run()
        # an editable install serves the checkout's site/ itself
        if (SITE / "index.html").is_file() and not self.editable_mode:
            target = Path(self.build_lib) / "graphmem" / "manual"
            shutil.copytree(SITE, target, dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildWithManual})
