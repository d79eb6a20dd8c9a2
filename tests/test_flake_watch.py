"""The suite's own rules against flaky tests.

A module that starts a process, a thread or a timer, opens a socket subscription or drives
a browser races by nature: it carries the `races` marker, so `make test-repeat` runs it many
times over and a flake shows itself before CI meets it. A module that only runs a command to
completion in a child (nothing runs beside it) is listed here with the reason instead. No
test retries itself: a retry hides the flake it should have shown.
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent

# What makes a module race: more than one thing running at once, or waiting on a clock.
RACING = re.compile(
    r"\bThread\(|\bmultiprocessing\b|\bget_context\(|\bsubprocess\.(?:run|Popen)\b|\bos\.kill\b"
    r"|\basyncio\.(?:gather|ensure_future|create_task|wait_for|to_thread|sleep)\b|websocket"
    r"|playwright|\btime\.sleep\(|\bget_ident\(")
MARKED = re.compile(r"^pytestmark = .*pytest\.mark\.races\b", re.MULTILINE)
RETRIES = re.compile(r"pytest\.mark\.flaky|\breruns\b|pytest_rerunfailures|@retry\b")

RUN_TO_COMPLETION = {
    "test_compose.py": "validates the Compose file with `docker compose config`",
    "test_deploy_cluster.py": "validates the cluster's Compose file with `docker compose config`",
    "test_docker_mode.py": "reads `make -n`, and runs a pytest that must stop before any test",
    "test_packaging.py": "builds the wheel and the sdist in a child, nothing beside it",
    "docs/test_reference_pages.py": "runs the reference generator's --check in a child",
    "cli/test_startup.py": "imports graphmem in a child and reads what it loaded",
    "ui/test_build.py": "runs the UI's type check and build in a child",
}


def modules() -> dict[str, str]:
    return {path.relative_to(TESTS).as_posix(): path.read_text()
            for path in sorted(TESTS.rglob("test_*.py"))}


def test_every_module_that_races_is_repeated_by_make_test_repeat() -> None:
    unmarked = [name for name, text in modules().items()
                if RACING.search(text) and not MARKED.search(text)
                and name not in RUN_TO_COMPLETION and name != "test_flake_watch.py"]
    assert not unmarked, (
        "these modules start a process, a thread or a timer: mark them"
        " `pytestmark = pytest.mark.races` (or list why not in RUN_TO_COMPLETION)"
        f" {unmarked}")


def test_the_run_to_completion_list_names_modules_that_exist() -> None:
    assert set(RUN_TO_COMPLETION) <= set(modules())


def test_no_test_retries_itself() -> None:
    retrying = [name for name, text in modules().items()
                if name != "test_flake_watch.py" and RETRIES.search(text)]
    assert not retrying
