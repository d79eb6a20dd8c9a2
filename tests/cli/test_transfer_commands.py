"""`graphmem export` and `graphmem import` as a user runs them: one summary line when the
output is not a terminal, a progress bar on a terminal, a clear error and exit 1 for a
damaged file."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem import GraphMem
from graphmem.graph.driver import GraphDriver
from graphmem.runtime import Runtime
from graphmem.settings import Settings

from support.mirror_support import NO_EMBEDDER, close_runtime, open_runtime, with_store

pytestmark = pytest.mark.races


@pytest.fixture
def own_store(settings: Settings, graph: GraphDriver, tmp_path: Path) -> Iterator[Runtime]:
    runtime = open_runtime(with_store(settings, f"sqlite:///{tmp_path / 'mirror.db'}",
                                      **NO_EMBEDDER), graph)
    yield runtime
    close_runtime(runtime)


def env(runtime: Runtime) -> dict[str, str]:
    return {**os.environ, "GRAPHMEM_HOME": str(runtime.settings.home),
            "GRAPHMEM_DATABASE_URL": runtime.settings.relational_url,
            "GRAPHMEM_EMBEDDING_BASE_URL": NO_EMBEDDER["embedding_base_url"],
            "GRAPHMEM_LLM_MAX_RETRIES": "0", "GRAPHMEM_LOG_LEVEL": "ERROR", "COLUMNS": "100"}


CLI = [sys.executable, "-c", "from graphmem.cli import main; main()"]


def run(runtime: Runtime, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], env=env(runtime), capture_output=True, text=True,
                          timeout=300, check=False)


def on_terminal(runtime: Runtime, *args: str) -> tuple[int, str, str]:
    """Run with stderr on a pseudo-terminal (as in a shell); stdout stays a pipe."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([*CLI, *args], env=env(runtime), stdin=slave, stderr=slave,
                            stdout=subprocess.PIPE, text=True)
    os.close(slave)
    screen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        screen += chunk
    out = proc.stdout.read() if proc.stdout else ""
    proc.wait(timeout=300)
    os.close(master)
    return proc.returncode, out, screen.decode(errors="replace")


@pytest.fixture
def exported(own_store: Runtime, tmp_path: Path) -> tuple[str, Path]:
    tenant = f"t-{uuid.uuid4().hex[:12]}"
    source = GraphMem(f"{tenant}/source/a/r", runtime=own_store)
    source.remember_facts([{"subject": f"s{i}", "value": f"v{i}", "confidence": 0.9}
                           for i in range(40)])
    path = tmp_path / "export.jsonl"
    done = run(own_store, "export", "--space", source.space.key, "-o", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{path}: exported 1 space, 40 facts"), done.stdout
    return tenant, path


def test_export_and_import_print_one_summary_line(own_store: Runtime,
                                                  exported: tuple[str, Path]) -> None:
    tenant, path = exported
    done = run(own_store, "import", str(path), "--space", f"{tenant}/copy/a/r")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 1
    assert done.stdout.startswith(f"restore (graphmem): 41 records into {tenant}/copy/a/r;"
                                  " wrote 40 facts"), done.stdout
    again = run(own_store, "import", str(path), "--space", f"{tenant}/copy/a/r")
    assert again.stdout == f"restore: already imported into {tenant}/copy/a/r; nothing to do\n"


def test_a_terminal_gets_a_progress_bar(own_store: Runtime,
                                        exported: tuple[str, Path]) -> None:
    tenant, path = exported
    code, out, screen = on_terminal(own_store, "import", str(path), "--space",
                                    f"{tenant}/bar/a/r", "--batch", "5")
    assert code == 0, screen
    assert "importing records" in screen and "━" in screen, screen
    assert out.startswith("restore (graphmem): 41 records"), out


def test_a_damaged_file_exits_1_naming_the_line(own_store: Runtime,
                                                exported: tuple[str, Path]) -> None:
    tenant, path = exported
    lines = path.read_text().splitlines(keepends=True)
    lines[5] = lines[5].replace('"v', '"w', 1)
    path.write_text("".join(lines))
    done = run(own_store, "import", str(path), "--space", f"{tenant}/copy/a/r")
    assert done.returncode == 1
    assert done.stderr.startswith("error: line 6: the record does not match"), done.stderr
    assert GraphMem(f"{tenant}/copy/a/r", runtime=own_store).active() == []
