"""The authorization matrix: every operation × every role × own space / another space /
another tenant, through the real server. Expectations are written out here,
independently of the server's registry, so a wrong rule there fails here."""

from __future__ import annotations

from typing import Any

import pytest

from graphmem.mirror import audit
from graphmem.schema.relay import global_id

from support.api_support import Api, codes, new_tenant

ALL = {"read", "write", "delete", "verify", "approve", "admin", "backfill"}
ROLE_CAPABILITIES: dict[str, set[str]] = {
    "reader": {"read"},
    "writer": {"read", "write"},
    "approver": {"read", "write", "approve"},
    "auditor": {"read", "verify"},
    "steward": {"read", "write", "delete"},
    "importer": {"read", "write", "backfill"},
    "admin": ALL,
}

FACT = '{subject: "state", value: "Redux"}'
# name → (capability, document taking $s: the space)
OPERATIONS: dict[str, tuple[str, str]] = {
    "facts": ("read", "query($s: String!) { facts(space: $s) { totalCount } }"),
    "fact": ("read", 'query($s: String!) { fact(space: $s, id: "missing") { id } }'),
    "history": ("read", 'query($s: String!) { history(space: $s, subject: "state") { text } }'),
    "conflicts": ("read", "query($s: String!) { conflicts(space: $s) { totalCount } }"),
    "pendingChanges": ("read",
                       "query($s: String!) { pendingChanges(space: $s) { totalCount } }"),
    "reconcilePolicy": ("read", "query($s: String!) { reconcilePolicy(space: $s) { mode } }"),
    "stats": ("read", "query($s: String!) { stats(space: $s) { active } }"),
    "rememberFacts": ("write", "mutation($s: String!) { rememberFacts(space: $s, facts: ["
                               + FACT + "]) { action } }"),
    "forgetFacts": ("write", "mutation($s: String!) { forgetFacts(space: $s, facts: ["
                             + FACT + "]) { action } }"),
    "confirmChange": ("approve", 'mutation($s: String!) { confirmChange(space: $s,'
                                 ' factId: "missing") { message } }'),
    "rejectChange": ("approve", 'mutation($s: String!) { rejectChange(space: $s,'
                                ' factId: "missing") { message } }'),
    "resolveConflict": ("approve", 'mutation($s: String!) { resolveConflict(space: $s,'
                                   ' conflictId: "missing", winner: "missing") { message } }'),
    "dismissConflict": ("approve", 'mutation($s: String!) { dismissConflict(space: $s,'
                                   ' conflictId: "missing") { message } }'),
    "recall": ("read", 'query($s: String!) { recall(space: $s, question: "what?") { text } }'),
    "checkBeforeAct": ("read", 'query($s: String!) { checkBeforeAct(space: $s,'
                               ' subjects: ["state"]) { allowed } }'),
    "entities": ("read", "query($s: String!) { entities(space: $s) { totalCount } }"),
    "entity": ("read", 'query($s: String!) { entity(space: $s, type: "person", name: "Ann")'
                       " { entity { key } } }"),
    "neighbourhood": ("read", 'query($s: String!) { neighbourhood(space: $s, type: "person",'
                              ' name: "Ann") { text } }'),
    "recallRelated": ("read", 'query($s: String!) { recallRelated(space: $s, question:'
                              ' "who knows Ann?") { text } }'),
    "remember": ("write", 'mutation($s: String!) { remember(space: $s, text: "we use Redux")'
                          " { action } }"),
    "forget": ("write", 'mutation($s: String!) { forget(space: $s, text: "we dropped Redux")'
                        " { action } }"),
    "createEntity": ("write", 'mutation($s: String!) { createEntity(space: $s, type: "person",'
                              ' name: "Ann") { key } }'),
    "recordDecision": ("write", 'mutation($s: String!) { recordDecision(space: $s,'
                                ' action: "deploy", subjects: ["state"]) { decisionId } }'),
    "delete": ("delete", 'mutation($s: String!) { delete(space: $s, subject: "state")'
                         " { receiptId } }"),
    "deleteAll": ("delete", "mutation($s: String!) { deleteAll(space: $s) { receiptId } }"),
    "purge": ("delete", "mutation($s: String!) { purge(space: $s, retentionDays: 30)"
                        " { receiptId } }"),
    "auditLog": ("verify", "query { auditLog(limit: 5) { seq operation outcome } }"),
    "verifyAudit": ("verify", "query { verifyAudit { ok rows } }"),
    "setReconcilePolicy": ("admin", "mutation($s: String!) { setReconcilePolicy(space: $s,"
                                    " mode: RECENCY) { message } }"),
    "setRetention": ("admin", "mutation($s: String!) { setRetention(space: $s, days: 30)"
                              " { message } }"),
    "attest": ("read", 'mutation($s: String!) { attest(space: $s, subjects: ["state"])'
                       " { receiptId } }"),
    "exportPublicKey": ("read", "query { exportPublicKey }"),
    "receipt": ("read", 'query { receipt(id: "missing") { receiptId } }'),
    "verifyReceipt": ("verify", "query { verifyReceipt(receipt: {}) { ok reason } }"),
    # $s names a user (eraseUser) or a tenant (eraseTenant) rather than a space
    "eraseUser": ("delete", "mutation($s: String!) { eraseUser(user: $s) { receiptId } }"),
    "eraseTenant": ("delete", "mutation($s: String!) { eraseTenant(tenant: $s)"
                              " { receiptId } }"),
    "searchEntities": ("read", 'query($s: String!) { searchEntities(space: $s, query: "an")'
                               " { totalCount } }"),
    "entityHistory": ("read", 'query($s: String!) { entityHistory(space: $s, type: "person",'
                              ' name: "Ann", attribute: "role") { totalCount } }'),
    "vocabulary": ("read", "query($s: String!) { vocabulary(space: $s) { relations } }"),
    "fsck": ("admin", "query($s: String!) { fsck(space: $s) { space } }"),
    "spaces": ("read", "query { spaces { totalCount } }"),
    "auditEntries": ("verify", "query { auditEntries(first: 5) { totalCount } }"),
    # $s is a global id naming a fact of the space (see `variables`)
    "node": ("read", "query($s: ID!) { node(id: $s) { id } }"),
    "nodes": ("read", "query($s: ID!) { nodes(ids: [$s]) { id } }"),
    "changeCursor": ("read", "query($s: String!) { changeCursor(space: $s) }"),
    "viewer": ("read", "query { viewer { name role capabilities allowedSpaces } }"),
    "serverInfo": ("read", "query { serverInfo { version } }"),
    "exportMemory": ("read", "query($s: String!) { exportMemory(space: $s) { hash } }"),
    "importMemory": ("backfill", 'mutation($s: String!) { importMemory(space: $s, data:'
                                 ' "subject,value,time\\nplan,Pro,2024-01-01\\n") { records } }'),
}
# no space argument: the caller's tenant
TENANT_WIDE = {"auditLog", "verifyAudit", "exportPublicKey", "receipt", "verifyReceipt",
               "spaces", "auditEntries"}
BY_ID = {"node", "nodes"}
# about the caller itself: no space or tenant to be out of
CALLER = {"viewer", "serverInfo"}
SUBSCRIPTIONS = {"factChanged", "conflictOpened", "conflictClosed", "pendingChanged"}
CASES = ["own space", "other space", "other tenant"]


def root_fields(api: Api, token: str) -> set[str]:
    data = api.ok(token, "{ __schema { queryType { fields { name } } mutationType"
                         " { fields { name } } subscriptionType { fields { name } } } }")
    schema = data["__schema"]
    return {f["name"] for kind in ("queryType", "mutationType", "subscriptionType")
            for f in schema[kind]["fields"]}


def test_the_matrix_covers_every_root_field(api: Api) -> None:
    assert root_fields(api, api.key("reader")) == set(OPERATIONS) | SUBSCRIPTIONS


def _call(api: Api, role: str, case: str, tenant: str, other: str) -> dict[str, Any]:
    """Each operation once for this role and case; returns name → (expected, got, body).

    A key limited to the spaces of user alice calls the space operations (in its own space,
    then in bob's); a key for the whole tenant calls the tenant-wide ones, and tries another
    tenant's space."""
    scoped = api.key(role, tenant, ("alice",))
    wide = api.key(role, tenant)
    named = {  # what `$s` is for each operation in this case
        "space": {"own space": "alice/bot/r1", "other space": "bob/bot/r1",
                  "other tenant": f"{other}/alice/bot/r1"}[case],
        "eraseUser": {"own space": "alice", "other space": "bob",
                      "other tenant": f"{other}/alice"}[case],
        # a key limited to alice's spaces may not erase the tenant it belongs to
        "eraseTenant": {"own space": tenant, "other space": tenant, "other tenant": other}[case],
    }
    outcomes = {}
    for name, (capability, document) in OPERATIONS.items():
        token = wide if case == "other tenant" or (
            name in TENANT_WIDE | {"eraseTenant"} and case == "own space") else scoped
        # a tenant-wide operation names no space: it cannot reach another tenant at all
        in_scope = (case == "own space" or name in CALLER
                    or (name in TENANT_WIDE and case == "other tenant"))
        expected = "allowed" if capability in ROLE_CAPABILITIES[role] and in_scope else "denied"
        variables = {} if name in TENANT_WIDE | CALLER else {
            "s": named.get(name, named["space"])}
        if name in BY_ID:  # the space a global id names, in the key's tenant unless another
            space = variables["s"] if variables["s"].count("/") == 3 else (
                f"{tenant}/{variables['s']}")
            variables = {"s": str(global_id("Fact", space, "missing"))}
        body = api.gql(token, document, variables)
        denied = "FORBIDDEN" in codes(body)
        if denied:
            assert all(e["message"].startswith("Access denied: ") for e in body["errors"]), body
        assert "INTERNAL" not in codes(body), body
        outcomes[name] = (expected, "denied" if denied else "allowed", body)
    return outcomes


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("role", sorted(ROLE_CAPABILITIES))
def test_authorization_matrix(api: Api, role: str, case: str) -> None:
    tenant, other = new_tenant(), new_tenant()
    outcomes = _call(api, role, case, tenant, other)
    wrong = {name: (expected, got, body) for name, (expected, got, body) in outcomes.items()
             if expected != got}
    assert not wrong, wrong
    denied = {name for name, (expected, _, _) in outcomes.items() if expected == "denied"}
    api.flush_audit()
    rows = audit.listing(api.keys.store, tenant, 1000)
    audited = {r.operation for r in rows if r.outcome == "denied"}
    assert denied <= audited, denied - audited


def test_the_audit_log_is_confined_to_the_callers_tenant(api: Api) -> None:
    a, b = new_tenant(), new_tenant()
    api.ok(api.key("writer", a), OPERATIONS["stats"][1], {"s": "u"})
    api.ok(api.key("writer", b), OPERATIONS["stats"][1], {"s": "u"})
    api.flush_audit()
    rows = api.ok(api.key("auditor", a), "{ auditLog(limit: 500) { tenant space caller } }")
    assert rows["auditLog"] and {r["tenant"] for r in rows["auditLog"]} == {a}


def test_a_denied_write_stores_nothing(api: Api) -> None:
    tenant = new_tenant()
    scoped = api.key("writer", tenant, ("alice",))
    body = api.gql(scoped, OPERATIONS["rememberFacts"][1], {"s": "bob/bot/r1"})
    assert codes(body) == ["FORBIDDEN"]
    admin = api.key("admin", tenant)
    assert api.ok(admin, OPERATIONS["stats"][1], {"s": "bob/bot/r1"})["stats"]["active"] == 0
    reader = api.key("reader", tenant)
    body = api.gql(reader, OPERATIONS["rememberFacts"][1], {"s": "alice/bot/r1"})
    assert codes(body) == ["FORBIDDEN"]
    assert api.ok(admin, OPERATIONS["stats"][1], {"s": "alice/bot/r1"})["stats"]["active"] == 0


def test_another_tenants_data_is_invisible_under_the_same_space_name(api: Api) -> None:
    a, b = new_tenant(), new_tenant()
    writer_a = api.key("writer", a)
    stored = api.ok(writer_a, "mutation { rememberFacts(space: \"u/a/r\", facts: ["
                              + FACT + "]) { factId } }")
    fact_id = stored["rememberFacts"][0]["factId"]
    reader_b = api.key("reader", b)
    assert api.ok(reader_b, OPERATIONS["facts"][1], {"s": "u/a/r"})["facts"]["totalCount"] == 0
    body = api.gql(reader_b, "query($s: String!, $id: ID!) { fact(space: $s, id: $id) { id } }",
                   {"s": "u/a/r", "id": fact_id})
    assert codes(body) == ["NOT_FOUND"]
    body = api.gql(reader_b, OPERATIONS["facts"][1], {"s": f"{a}/u/a/r"})
    assert codes(body) == ["FORBIDDEN"]
