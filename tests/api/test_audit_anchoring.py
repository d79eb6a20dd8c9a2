"""The audit chain through the real server: `verifyAudit(receipt:)` fails once the chain no
longer holds the head a receipt saw; a tenant's `verifyAudit(deep)` checks its own rows'
signatures and describes only its own problems; `attest` carries the head's hash, not the
deployment's position; a denial keeps none of the caller's raw input.

The tampering runs on a server with a relational store of its own (the session's is shared
by every other test)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest
from pydantic import SecretStr

from graphmem.auth import KeyStore
from graphmem.mirror import audit
from graphmem.mirror import migrations as store_migrations
from graphmem.mirror.db import RelationalStore

from support import loopback
from support.api_support import Api, codes, new_tenant

REMEMBER = ("mutation($s: String!, $f: [FactInput!]!) { rememberFacts(space: $s, facts: $f)"
            " { action } }")
ATTEST = "mutation($s: String!) { attest(space: $s) { auditHead document } }"
VERIFY = ("query($r: JSON, $deep: Boolean!) { verifyAudit(receipt: $r, deep: $deep)"
          " { ok rows problems } }")
ACTIVE = "query($s: String!) { facts(space: $s) { totalCount } }"


@pytest.fixture
def own(serve_api: Callable[..., Api], tmp_path_factory: pytest.TempPathFactory
        ) -> Iterator[tuple[Api, RelationalStore, KeyStore]]:
    """A server over a relational store of its own (and checkpoint files: a server per
    test), and keys in that store."""
    folder = tmp_path_factory.mktemp("anchored")
    url = f"sqlite:///{folder / 'own.db'}"
    store = RelationalStore(url)
    store_migrations.up(store)
    api = serve_api(database_url=SecretStr(url), audit_checkpoint_dir=folder)
    yield api, store, KeyStore.open(store, api.settings)
    store.close()


def test_a_receipt_anchors_the_chain_against_a_wipe(
        own: tuple[Api, RelationalStore, KeyStore]) -> None:
    api, store, keys = own
    tenant = new_tenant()
    writer = keys.create(tenant, "writer").token
    auditor = keys.create(tenant, "auditor").token
    api.ok(writer, REMEMBER, {"s": "bob", "f": [{"subject": "plan", "value": "pro"}]})
    attested = api.ok(writer, ATTEST, {"s": "bob"})["attest"]
    receipt = attested["document"]
    assert attested["auditHead"] == receipt["receipt"]["audit_head"]
    assert "audit_seq" not in receipt["receipt"], "the deployment's position is not shown"
    assert len(receipt["receipt"]["audit_head"]) == 64
    first = api.ok(auditor, VERIFY, {"r": receipt, "deep": False})["verifyAudit"]
    assert first["ok"], first["problems"]
    api.flush_audit()
    with store.transaction() as cur:  # wipe: rows, events, head back to empty
        cur.execute("DELETE FROM audit_log")
        cur.execute("DELETE FROM events")
        cur.execute("UPDATE audit_head SET seq = 0, hash = ?, at = '', signature = '',"
                    " key_id = ''", (audit.GENESIS,))
    api.server.config.app.state.runtime.mirror.checkpoints.path.unlink(missing_ok=True)
    after = api.ok(auditor, VERIFY, {"r": receipt, "deep": False})["verifyAudit"]
    assert not after["ok"]
    assert after["problems"][0].startswith(
        f"the chain no longer holds the head receipt {receipt['receipt']['id']}"), after
    altered = json.loads(json.dumps(receipt))
    altered["receipt"]["audit_head"] = "0" * 64
    refused = api.gql(auditor, VERIFY, {"r": altered, "deep": False})
    assert refused["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    assert "does not verify" in refused["errors"][0]["message"]


def test_a_tenant_s_verify_describes_only_its_own_rows(
        own: tuple[Api, RelationalStore, KeyStore]) -> None:
    api, store, keys = own
    ours, theirs = new_tenant(), new_tenant()
    mine = keys.create(ours, "admin").token
    other = keys.create(theirs, "admin").token
    for token in (mine, other):
        api.ok(token, REMEMBER, {"s": "bob", "f": [{"subject": "plan", "value": "pro"}]})
        api.ok(token, ACTIVE, {"s": "bob"})
    api.flush_audit()
    rows = len(audit.listing(store, ours, 1000))  # the verify's own row follows its report
    report = api.ok(mine, VERIFY, {"r": None, "deep": True})["verifyAudit"]
    assert report["ok"] and report["rows"] == rows
    theirs_row = audit.listing(store, theirs, 1)[0].seq
    with store.transaction() as cur:
        cur.execute("UPDATE audit_log SET outcome = 'denied' WHERE seq = ?", (theirs_row,))
    seen_by_us = api.ok(mine, VERIFY, {"r": None, "deep": True})["verifyAudit"]
    assert not seen_by_us["ok"]
    assert seen_by_us["problems"] == [
        "1 problem(s) in other tenants' rows or in the chain as a whole (an operator sees them"
        " with `graphmem audit verify`)"], "counted, not described"
    seen_by_them = api.ok(other, VERIFY, {"r": None, "deep": True})["verifyAudit"]
    assert seen_by_them["problems"] == [
        f"row {theirs_row}: its content does not match its hash (modified, or moved to another"
        " tenant)"]
    with store.transaction() as cur:
        cur.execute("UPDATE audit_log SET outcome = 'ok' WHERE seq = ?", (theirs_row,))


def test_a_denial_keeps_none_of_the_caller_s_input(api: Api) -> None:
    tenant = new_tenant()
    token = api.key("writer", tenant)
    secret = "Pat's diagnosis is Kessler-Huang syndrome, SSN 123-45-6789"
    space = f"{new_tenant()}/{secret}/a/r"
    body = api.gql(token, REMEMBER, {"s": space, "f": [{"subject": "x", "value": "y"}]})
    assert body["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    api.flush_audit()
    rows = [r for r in audit.listing(api.keys.store, tenant, 100) if r.outcome == "denied"]
    assert rows, "the denial is audited"
    stored = json.dumps([r.as_dict() for r in rows])
    assert "123-45-6789" not in stored and "Kessler" not in stored
    assert rows[0].space.startswith("sha256:"), "a fingerprint stands for the raw space"


def test_a_flood_of_denials_is_one_audit_row_per_operation_a_minute(api: Api) -> None:
    tenant = new_tenant()
    token = api.key("reader", tenant)
    before = denied_verifications(api)
    for _ in range(10):
        body = api.post("{ verifyAudit { ok } }", token=token).json()
        assert codes(body) == ["FORBIDDEN"], "every denial is answered"
    api.flush_audit()
    rows = [r for r in audit.listing(api.keys.store, tenant, 100) if r.outcome == "denied"]
    assert [r.operation for r in rows] == ["verifyAudit"], rows
    assert denied_verifications(api) == before + 10, "the metrics count each"


def denied_verifications(api: Api) -> float:
    name = 'graphmem_operations_total{operation="verifyAudit",outcome="FORBIDDEN"}'
    lines = loopback.get(f"{api.base}/metrics").text.splitlines()
    return sum(float(line.rsplit(" ", 1)[1]) for line in lines if line.startswith(name))
