"""The suite's groups run longest first, from the times a run recorded."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from support import durations


@dataclass
class Item:
    nodeid: str


def test_groups_run_longest_first_and_an_unrecorded_group_leads() -> None:
    items = [Item(n) for n in ("a.py::1", "b.py::1", "a.py::2", "c.py::1", "new.py::1")]
    groups = {i.nodeid: i.nodeid.split("::")[0] for i in items}
    durations.longest_first(items, groups, {"a.py": 3.0, "b.py": 40.0, "c.py": 3.0})
    assert [i.nodeid for i in items] == ["new.py::1", "b.py::1", "a.py::1", "a.py::2",
                                         "c.py::1"]


def test_a_junit_report_gives_each_group_its_tests_time(tmp_path: Path) -> None:
    report = tmp_path / "suite.xml"
    report.write_text(
        '<testsuites><testsuite name="pytest">'
        '<testcase classname="tests.a" name="test_x@tests/a.py" time="1.5"/>'
        '<testcase classname="tests.a" name="test_y[1]@tests/a.py" time="2.0"/>'
        '<testcase classname="tests.b" name="test_z@private-neo4j" time="4.0"/>'
        '<testcase classname="tests.c" name="test_without_a_group" time="9.0"/>'
        '</testsuite></testsuites>')
    assert durations.from_junit(report) == {"tests/a.py": 3.5, "private-neo4j": 4.0}


def test_the_recorded_times_are_read_where_make_durations_writes_them() -> None:
    assert durations.RECORDED == Path(__file__).parent / "durations.json"
    recorded = durations.recorded()
    assert recorded and all(seconds >= 0 for seconds in recorded.values())
