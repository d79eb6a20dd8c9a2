"""What a `graphmem` process loads before its command runs: `import graphmem` and the command
line leave the Neo4j driver, the embedding runtime and the secret scanner to the commands
that use them, so `--help` and the key-store commands start in well under a second."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import graphmem

HEAVY = ("neo4j", "onnxruntime", "numpy", "detect_secrets", "graphmem.service.memory")


def loaded_after(statement: str) -> list[str]:
    """The heavy modules a fresh interpreter holds after running `statement`."""
    probe = (f"import sys, json; {statement}; "
             f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, timeout=120)
    found: list[str] = json.loads(done.stdout)
    return found


def test_the_command_line_loads_no_driver_model_or_scanner() -> None:
    assert loaded_after("import graphmem.cli") == []


def test_a_key_command_loads_no_driver() -> None:
    assert loaded_after("import graphmem.cli.keys; import graphmem.service.access") == []


def test_the_public_names_load_on_first_use() -> None:
    assert {"neo4j", "graphmem.service.memory"} <= set(
        loaded_after("from graphmem import GraphMem"))
    assert set(graphmem.__all__) <= set(dir(graphmem))
    from graphmem.service.memory import GraphMem
    assert graphmem.GraphMem is GraphMem


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        graphmem.Nope  # noqa: B018 - the lookup is what is tested
