"""Decisions, attestations and receipts; a third party checks them with the public key only."""

from __future__ import annotations

import base64
import copy
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import load_pem_public_key

from graphmem import GraphMem, verify_receipt
from graphmem.errors import NotFound
from graphmem.mirror import audit, keys
from graphmem.runtime import Runtime

pytestmark = pytest.mark.races

Make = Callable[..., GraphMem]


def facts(mem: GraphMem) -> None:
    mem.remember_facts([{"subject": "plan", "value": "pro", "confidence": 0.9},
                        {"subject": "region", "value": "eu", "confidence": 0.9},
                        {"subject": "owner", "value": "ann", "confidence": 0.9}], source="crm")


def test_a_decision_snapshots_the_exact_active_facts(make: Make,
                                                     mirror_runtime: Runtime) -> None:
    mem = make()
    facts(mem)
    mem.remember_facts([{"subject": "plan", "value": "enterprise", "confidence": 0.95}],
                       source="crm")
    receipt = mem.records.record_decision("upgrade invoice", ["plan", "Region"])
    body = receipt["receipt"]
    active = {f.id: f for f in mem.active("plan") + mem.active("region")}
    assert body["kind"] == "decision" and body["action"] == "upgrade invoice"
    assert body["subjects"] == ["plan", "region"]
    assert set(body["fact_ids"]) == set(active)
    assert {(f["subject"], f["value"], f["status"]) for f in receipt["facts"]} == {
        ("plan", "enterprise", "ACTIVE"), ("region", "eu", "ACTIVE")}
    assert body["tenant"] == mem.space.tenant and body["space"] == mem.space.key
    stored = mirror_runtime.store.query("SELECT receipt_id, digest, fact_ids FROM decisions"
                                        " WHERE id = ?", (body["decision_id"],))
    assert stored == [(body["id"], body["digest"], json.dumps(body["fact_ids"]))]
    assert mem.records.verify_receipt(receipt)


def test_a_third_party_with_only_the_public_key_can_verify(make: Make, tmp_path: Path) -> None:
    mem = make()
    facts(mem)
    receipt = mem.records.record_decision("ship order", ["plan"])
    pem = mem.records.export_public_key()
    (tmp_path / "receipt.json").write_text(json.dumps(receipt))
    (tmp_path / "key.pem").write_text(pem)
    # 1. with nothing but the `cryptography` package and the documented format
    key = load_pem_public_key(pem.encode())
    assert isinstance(key, Ed25519PublicKey)
    canonical = json.dumps(receipt["receipt"], sort_keys=True, separators=(",", ":"),
                           ensure_ascii=False).encode()
    key.verify(base64.b64decode(receipt["signature"]), canonical)
    # 2. the module-level function, and 3. the CLI in a process with no data, keys or store
    assert verify_receipt(json.dumps(receipt), pem)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    env["GRAPHMEM_HOME"] = str(tmp_path / "empty-home")
    cli = [sys.executable, "-c", "from graphmem.cli import main; main()"]
    done = subprocess.run([*cli, "audit", "verify-receipt", "receipt.json", "--public-key",
                           "key.pem"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "valid decision receipt" in done.stdout
    assert not (tmp_path / "empty-home").exists(), "verification touched no keys and no store"


def test_altered_or_forged_receipts_fail(make: Make, tmp_path: Path) -> None:
    mem = make()
    facts(mem)
    receipt = mem.records.record_decision("ship order", ["plan"])
    pem = mem.records.export_public_key()
    changed = copy.deepcopy(receipt)
    changed["receipt"]["action"] = "refund order"
    assert not verify_receipt(changed, pem)
    swapped = copy.deepcopy(receipt)
    swapped["facts"][0]["value"] = "free"
    verdict = verify_receipt(swapped, pem)
    assert not verdict and "not the ones it signed" in verdict.reason
    other = keys.signer(keys_settings(tmp_path))
    assert not verify_receipt(receipt, keys.public_pem(other.public))
    forged = keys.signer(keys_settings(tmp_path))
    fake = {"receipt": receipt["receipt"], "signature": forged.sign(b"anything")}
    assert not verify_receipt(fake, pem)


def keys_settings(tmp_path: Path) -> object:
    from graphmem.settings import load_settings

    return load_settings(home=tmp_path / "other")


def test_attest_signs_memory_and_the_audit_head(make: Make, mirror_runtime: Runtime) -> None:
    mem = make()
    facts(mem)
    mirror_runtime.mirror.flush()  # rows are written in the background
    head = mirror_runtime.store.query("SELECT seq, hash FROM audit_head WHERE id = 1")[0]
    receipt = mem.records.attest()
    body = receipt["receipt"]
    assert body["audit_head"] == head[1]
    assert "audit_seq" not in body, "the deployment's position is nobody's business"
    assert {f["subject"] for f in receipt["facts"]} == {"plan", "region", "owner"}
    assert body["kind"] == "attestation"
    assert verify_receipt(receipt, mem.records.export_public_key())
    one = mem.records.attest(["owner"])
    assert [f["value"] for f in one["facts"]] == ["ann"]


def test_receipts_signed_before_a_rotation_still_verify(make: Make,
                                                        mirror_runtime: Runtime,
                                                        tmp_path: Path) -> None:
    mem = make()
    facts(mem)
    before = mem.records.record_decision("before", ["plan"])
    mirror = mirror_runtime.mirror
    old = mirror.ensure_registered()
    new = keys.signer(keys_settings(tmp_path))
    keys.rotate(mirror_runtime.store, old, new)
    mirror.use_signer(new)
    audit.resign_head(mirror_runtime.store, new)
    after = mem.records.record_decision("after", ["plan"])
    assert after["receipt"]["key_id"] == new.key_id != before["receipt"]["key_id"]
    assert mem.records.verify_receipt(before) and mem.records.verify_receipt(after)
    assert mem.records.verify_audit(deep=True).ok
    new_key = mem.records.export_public_key()
    assert not verify_receipt(before, new_key), "the new key alone is not it"


def test_stored_receipts_are_found_only_inside_their_tenant(make: Make) -> None:
    mem = make()
    facts(mem)
    receipt = mem.records.record_decision("ship order", ["plan"])
    found = mem.records.receipt(receipt["receipt"]["id"])
    assert found == {"receipt": receipt["receipt"], "signature": receipt["signature"]}
    assert mem.records.verify_receipt(found)
    same_tenant = make(f"{mem.space.tenant}/other/a/r")
    assert same_tenant.records.receipt(receipt["receipt"]["id"]) == found
    with pytest.raises(NotFound):
        make().records.receipt(receipt["receipt"]["id"])
