"""The README's figures are held to a measurement (`make readme-figures`, run by CI after
`make test`): here, that the script finds every figure the pages state and judges and rewrites
them as it should."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def figures() -> ModuleType:
    spec = importlib.util.spec_from_file_location("readme_figures",
                                                  ROOT / "scripts" / "readme_figures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve the module's annotations through it
    spec.loader.exec_module(module)
    return module


def test_every_figure_the_pages_state_is_found(figures: ModuleType) -> None:
    readme = figures.stated((ROOT / "README.md").read_text())
    contributing = figures.stated((ROOT / "docs" / "contributing.md").read_text())
    assert all(readme[key] for key in ("venv_mb", "tests", "minutes")), readme
    assert contributing["tests"] and contributing["minutes"], contributing


def test_a_figure_more_than_a_fifth_off_fails_the_check(figures: ModuleType) -> None:
    assert figures.off(800, 475) and figures.off(2_670, 3_400) and figures.off(13, 8)
    assert not figures.off(480, 475) and not figures.off(3_000, 3_400)


def test_a_range_takes_in_every_machine_between_its_ends(figures: ModuleType) -> None:
    """The suite's time is stated as a range, the fastest and slowest machine measured: a
    run anywhere in it (widened by the tolerance) passes, one far outside it fails."""
    assert not any(figures.off((9.0, 15.0), minutes) for minutes in (7.6, 9.0, 12.0, 14.5, 18.0))
    assert figures.off((9.0, 15.0), 7.0) and figures.off((9.0, 15.0), 19.5)


def test_a_rewrite_states_the_measurement(figures: ModuleType) -> None:
    text = (ROOT / "README.md").read_text()
    (low, high), = set(figures.stated(text)["minutes"])
    assert low >= 3.0, "the README states a range of several minutes"
    measured = {"venv_mb": 476.4, "tests": 3_412.0, "minutes": low - 1.4}
    rewritten = figures.stated(figures.rewrite(text, measured))
    assert rewritten["venv_mb"] == [(480.0, 480.0)]
    assert set(rewritten["tests"]) == {(3_410.0, 3_410.0)}
    assert set(rewritten["minutes"]) == {(low - 1, high)}, "a range is widened, not replaced"
    slower = figures.stated(figures.rewrite(text, {**measured, "minutes": high + 5.2}))
    assert set(slower["minutes"]) == {(low, high + 5.0)}
    inside = figures.rewrite(text, {**measured, "minutes": (low + high) / 2})
    assert figures.stated(inside)["minutes"] == figures.stated(text)["minutes"]


def test_the_suite_figures_come_from_the_junit_report(figures: ModuleType,
                                                      tmp_path: Path) -> None:
    report = tmp_path / "suite.xml"
    report.write_text('<?xml version="1.0" encoding="utf-8"?><testsuites>'
                      '<testsuite name="pytest" errors="0" failures="0" skipped="3" tests="3104"'
                      ' time="452.6" timestamp="2026-12-07T08:00:00"></testsuite></testsuites>')
    assert figures.suite(report) == (3_104.0, pytest.approx(452.6 / 60))
