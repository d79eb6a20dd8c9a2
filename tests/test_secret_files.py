"""A secret file is written whole, readable by its owner only, and the first of racing
writers wins unless the new one is meant to replace it."""

from __future__ import annotations

import stat
import threading
from pathlib import Path

import pytest

from graphmem.secret_files import write_secret

pytestmark = pytest.mark.races


def test_a_secret_file_is_the_owners_alone(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "sign.key"
    write_secret(path, "ab" * 32)
    assert path.read_text() == "ab" * 32 + "\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["sign.key"], "no temporary file left"


def test_the_first_of_racing_writers_wins(tmp_path: Path) -> None:
    path = tmp_path / "pepper"
    start = threading.Barrier(8)

    def write(n: int) -> None:
        start.wait()
        write_secret(path, f"{n:064d}")

    threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    text = path.read_text().strip()
    assert len(text) == 64 and text in {f"{n:064d}" for n in range(8)}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pepper"]


def test_a_replacement_takes_the_old_files_place(tmp_path: Path) -> None:
    path = tmp_path / "sign.key"
    write_secret(path, "old")
    write_secret(path, "kept")  # not a replacement: the first stays
    assert path.read_text() == "old\n"
    write_secret(path, "new", replace=True)
    assert path.read_text() == "new\n"
