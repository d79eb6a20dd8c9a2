"""An import may not do what its key could not do otherwise: only an admin trusts a public
key the deployment does not hold, or restores a space's reconcile policy, curated sources or
retention; and a restored fact's source passes the same binding as a written one."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from graphmem import GraphMem
from graphmem.errors import AccessDenied
from graphmem.mirror.keys import Signer, public_pem
from graphmem.model import claimed
from graphmem.model.roles import capabilities_for
from graphmem.service.context import Caller

from support.transfer_support import resigned, write

Make = Callable[..., GraphMem]


def importer(tenant: str) -> Caller:
    """An importer key of `tenant`, bound to no source."""
    return Caller("importer-key", capabilities_for("importer"), frozenset(), "", tenant)


def tenant() -> str:
    return f"t-{uuid.uuid4().hex[:12]}"


def export_of(mem: GraphMem, path: Path) -> Path:
    mem.transfer.export(path)
    return path


def test_an_importer_may_not_trust_a_key_of_its_own_choosing(make_mem: Make,
                                                              tmp_path: Path) -> None:
    source = make_mem(f"{tenant()}/source/a/r")
    source.remember_facts([{"subject": "db", "value": "Postgres", "confidence": 0.9}])
    path = export_of(source, tmp_path / "e.jsonl")
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    forger = Signer(Ed25519PrivateKey.generate())
    lines[-1] = resigned(lines[-1], forger)
    forged = write(tmp_path / "f.jsonl", lines)
    own = tenant()
    target = make_mem(f"{own}/copy/a/r", caller=importer(own))
    with pytest.raises(AccessDenied, match="trusting another public key needs the admin"):
        target.transfer.import_memory(forged, public_key=public_pem(forger.public))
    assert target.active() == []
    admin = make_mem(f"{own}/admin-copy/a/r")
    report = admin.transfer.import_memory(forged, public_key=public_pem(forger.public))
    assert report.written["facts"] == 1


def test_an_importer_may_not_restore_a_policy_curated_sources_or_retention(
        make_mem: Make, tmp_path: Path) -> None:
    source = make_mem(f"{tenant()}/source/a/r")
    source.review.set_reconcile_policy("AUTHORITY", {"crm": 2}, curated=["evil"])
    source.erasure.set_retention(30)
    source.remember_facts([{"subject": "plan", "value": "Pro", "confidence": 0.9}])
    path = export_of(source, tmp_path / "e.jsonl")
    own = tenant()
    target = make_mem(f"{own}/copy/a/r", caller=importer(own))
    with pytest.raises(AccessDenied, match="the file sets the reconcile policy of space .*"
                                           " which only an admin may set"):
        target.transfer.import_memory(path)
    assert target.active() == []
    replayed = target.transfer.import_memory(path, mode="replay")
    assert replayed.mode == "replay" and [f.value for f in target.active()] == ["Pro"]
    assert target.review.get_reconcile_policy().curated == frozenset()
    admin = make_mem(f"{own}/admin-copy/a/r")
    admin.transfer.import_memory(path)
    assert admin.review.get_reconcile_policy().curated == frozenset({"evil"})


def test_a_restored_fact_names_only_a_source_its_importer_is_bound_to(
        make_mem: Make, tmp_path: Path) -> None:
    source = make_mem(f"{tenant()}/source/a/r")
    source.remember_facts([{"subject": "plan", "value": "Pro", "confidence": 0.9}],
                          source="evil")
    path = export_of(source, tmp_path / "e.jsonl")
    own = tenant()
    target = make_mem(f"{own}/copy/a/r", caller=importer(own))
    target.transfer.import_memory(path)
    assert [f.source for f in target.active()] == [claimed("evil")]
    admin = make_mem(f"{own}/admin-copy/a/r")
    admin.transfer.import_memory(path)
    assert [f.source for f in admin.active()] == ["evil"]
