"""Derived paths follow `home` in copies: nothing cached points at another home's server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from graphmem.settings import load_settings


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in list(os.environ):
        if name.startswith("GRAPHMEM_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


def test_a_copy_with_a_new_home_derives_its_paths_from_it(tmp_path: Path) -> None:
    shared = load_settings(home=tmp_path / "shared")
    assert shared.neo4j_dir == (tmp_path / "shared" / "neo4j").resolve()  # read first
    own = shared.model_copy(update={"home": tmp_path / "own"})
    assert own.neo4j_dir == tmp_path / "own" / "neo4j"
    assert own.password_file == tmp_path / "own" / "neo4j" / "password"
    assert own.relational_url == f"sqlite:///{tmp_path / 'own' / 'graphmem.db'}"
    assert shared.neo4j_dir == (tmp_path / "shared" / "neo4j").resolve()
