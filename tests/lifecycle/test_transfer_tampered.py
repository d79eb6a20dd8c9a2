"""A tampered or truncated export is refused with the line that fails, and nothing is
written: one value changed, the last line cut, a record removed, the manifest re-signed
with another key. An export from another deployment is taken when its key is given."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from graphmem import GraphMem
from graphmem.graph import outbox
from graphmem.lifecycle.transfer.codec import GENESIS, TamperedExport, canonical, link
from graphmem.mirror.keys import Signer, public_pem
from graphmem.runtime import Runtime

from support.transfer_support import resigned, write

Make = Callable[..., GraphMem]


@pytest.fixture
def exported(make_mem: Make, tmp_path: Path) -> tuple[GraphMem, list[dict[str, Any]]]:
    source = make_mem(f"t-{uuid.uuid4().hex[:12]}/source/a/r")
    source.remember_facts([{"subject": "db", "value": "Postgres", "confidence": 0.9},
                           {"subject": "cache", "value": "Redis", "confidence": 0.9}])
    source.remember_facts([{"subject": "db", "value": "MySQL", "confidence": 0.9}])
    path = tmp_path / "export.jsonl"
    source.transfer.export(path)
    return source, [json.loads(line) for line in path.read_text().splitlines()]


def rechained(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records chained again from the start, as a careful forger would."""
    chain, out = GENESIS, []
    for record in lines[:-1]:
        body = {k: v for k, v in record.items() if k != "chain"}
        chain = link(chain, canonical(body))
        out.append({**body, "chain": chain})
    return [*out, lines[-1]]


def nothing_written(runtime: Runtime, mem: GraphMem) -> None:
    assert mem.active() == [] and mem.entities.all() == [] and mem.review.conflicts(None) == []
    assert outbox.pending_count(runtime.graph, mem.space.key)[0] == 0
    with runtime.graph.session() as s:
        assert s.run("MATCH (n) WHERE n.space = $space RETURN count(n) AS n",
                     space=mem.space.key).single()["n"] == 0


def fact_line(lines: list[dict[str, Any]]) -> int:
    return next(i for i, r in enumerate(lines, 1) if r["type"] == "fact")


def refused(make_mem: Make, runtime: Runtime, path: Path, match: str) -> None:
    target = make_mem(f"t-{uuid.uuid4().hex[:12]}/copy/a/r")
    with pytest.raises(TamperedExport, match=match):
        target.transfer.import_memory(path)
    nothing_written(runtime, target)


def test_one_value_changed_is_refused_at_its_line(exported: Any, make_mem: Make,
                                                  runtime: Runtime, tmp_path: Path) -> None:
    _, lines = exported
    at = fact_line(lines)
    lines[at - 1]["value"] = "Oracle"
    refused(make_mem, runtime, write(tmp_path / "t.jsonl", lines),
            f"line {at}: the record does not match the export's hash chain")


def test_a_value_changed_and_rechained_is_refused_at_the_manifest(
        exported: Any, make_mem: Make, runtime: Runtime, tmp_path: Path) -> None:
    _, lines = exported
    lines[fact_line(lines) - 1]["value"] = "Oracle"
    refused(make_mem, runtime, write(tmp_path / "t.jsonl", rechained(lines)),
            f"line {len(lines)} \\(manifest\\): the records' hash does not match")


def test_the_last_line_cut_is_refused(exported: Any, make_mem: Make, runtime: Runtime,
                                      tmp_path: Path) -> None:
    _, lines = exported
    whole = write(tmp_path / "t.jsonl", lines).read_text()
    cut = whole[:whole.rindex("\n", 0, len(whole) - 1) + 1]
    (tmp_path / "cut.jsonl").write_text(cut)
    refused(make_mem, runtime, tmp_path / "cut.jsonl",
            f"line {len(lines)}: the file ends without its manifest")
    (tmp_path / "half.jsonl").write_text(whole[:len(whole) - 40])
    refused(make_mem, runtime, tmp_path / "half.jsonl",
            f"line {len(lines)}: not a complete JSON record")


def test_a_record_removed_is_refused(exported: Any, make_mem: Make, runtime: Runtime,
                                     tmp_path: Path) -> None:
    _, lines = exported
    at = fact_line(lines)
    gone = lines[:at - 1] + lines[at:]
    refused(make_mem, runtime, write(tmp_path / "t.jsonl", gone),
            f"line {at}: the record does not match")
    refused(make_mem, runtime, write(tmp_path / "r.jsonl", rechained(gone)),
            "records were added or removed")


def test_a_manifest_resigned_with_another_key_is_refused(
        exported: Any, make_mem: Make, runtime: Runtime, tmp_path: Path) -> None:
    _, lines = exported
    other = Signer(Ed25519PrivateKey.generate())
    lines[-1] = resigned(lines[-1], other)
    path = write(tmp_path / "t.jsonl", lines)
    refused(make_mem, runtime, path, f"line {len(lines)} \\(manifest\\): signed by key"
                                     f" '{other.key_id}', which is neither this deployment's")
    elsewhere = make_mem(f"t-{uuid.uuid4().hex[:12]}/copy/a/r")
    report = elsewhere.transfer.import_memory(path, public_key=public_pem(other.public))
    assert report.written["facts"] == 3  # the exporter's own key, given: an export made there
