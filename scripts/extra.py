"""Print one optional-dependency group of pyproject.toml, one requirement a line
(`python scripts/extra.py docs`): what `make run` installs in the docs venv."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(name: str) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for requirement in project["optional-dependencies"][name]:
        print(requirement)


if __name__ == "__main__":
    main(sys.argv[1])
