"""Receipts, retention and subtree erasure through the real server: attest, receipt,
exportPublicKey, verifyReceipt, setRetention, eraseUser and eraseTenant, each with bad
input (wrong ids, malformed receipts, another space or tenant, a missing capability)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from graphmem import verify_receipt
from graphmem.mirror import audit
from graphmem.mirror.keys import public_pem

from support.api_support import Api, codes, new_tenant

REMEMBER = ("mutation($s: String!, $f: [FactInput!]!) { rememberFacts(space: $s, facts: $f)"
            " { action } }")
COUNT = "query($s: String!) { facts(space: $s) { totalCount } }"
ATTEST = ("mutation($s: String!, $subjects: [String!]) { attest(space: $s, subjects:"
          " $subjects) { document } }")
VERIFY = ("query($r: JSON!, $k: String) { verifyReceipt(receipt: $r, publicKey: $k)"
          " { ok reason } }")
RECEIPT = "query($id: ID!) { receipt(id: $id) { document } }"
RETENTION = ("mutation($s: String!, $d: Float) { setRetention(space: $s, days: $d)"
             " { message } }")
PURGE = "mutation($s: String!) { purge(space: $s) { document } }"
ERASE_USER = "mutation($u: String!) { eraseUser(user: $u) { document } }"
ERASE_TENANT = "mutation($t: String!) { eraseTenant(tenant: $t) { document } }"


def remember(api: Api, token: str, space: str, *pairs: tuple[str, str]) -> None:
    facts = [{"subject": s, "value": v} for s, v in pairs]
    api.ok(token, REMEMBER, {"s": space, "f": facts})


def count(api: Api, token: str, space: str) -> int:
    return int(api.ok(token, COUNT, {"s": space})["facts"]["totalCount"])


def verdict(api: Api, token: str, receipt: Any, key: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = api.ok(token, VERIFY, {"r": receipt, "k": key})["verifyReceipt"]
    return found


def pem(api: Api, token: str) -> str:
    return str(api.ok(token, "{ exportPublicKey }")["exportPublicKey"])


def audited(api: Api, tenant: str, operation: str) -> list[str]:
    api.flush_audit()
    return [r.outcome for r in audit.listing(api.keys.store, tenant, 1000)
            if r.operation == operation]


# ---- attest, receipt, exportPublicKey, verifyReceipt ---------------------------------------
def test_an_attestation_verifies_with_the_exported_public_key_alone(api: Api) -> None:
    tenant = new_tenant()
    writer, auditor = api.key("writer", tenant), api.key("auditor", tenant)
    remember(api, writer, "alice/bot", ("editor", "vim"), ("shell", "zsh"))
    attested = api.ok(writer, ATTEST, {"s": "alice/bot", "subjects": ["editor"]})
    receipt = attested["attest"]["document"]
    assert receipt["receipt"]["kind"] == "attestation"
    assert [f["value"] for f in receipt["facts"]] == ["vim"]
    key = pem(api, api.key("reader", tenant))
    assert key.startswith("-----BEGIN PUBLIC KEY-----")
    # a third party: only the receipt and the PEM, no server and no database
    assert verify_receipt(receipt, key)
    assert verdict(api, auditor, receipt, key)["ok"]
    assert verdict(api, auditor, receipt)["ok"]  # against the deployment's own keys
    assert audited(api, tenant, "verify_receipt") == ["ok", "ok"]  # the key given or not
    whole = api.ok(writer, ATTEST, {"s": "alice/bot", "subjects": None})["attest"]["document"]
    assert sorted(f["value"] for f in whole["facts"]) == ["vim", "zsh"]


def test_an_altered_receipt_or_another_key_does_not_verify(api: Api) -> None:
    tenant = new_tenant()
    writer, auditor = api.key("writer", tenant), api.key("auditor", tenant)
    remember(api, writer, "u", ("editor", "vim"))
    receipt = api.ok(writer, ATTEST, {"s": "u", "subjects": ["editor"]})["attest"]["document"]
    forged = copy.deepcopy(receipt)
    forged["facts"][0]["value"] = "emacs"
    assert "not the ones it signed" in verdict(api, auditor, forged)["reason"]
    changed = copy.deepcopy(receipt)
    changed["receipt"]["space"] = "elsewhere"
    assert not verdict(api, auditor, changed)["ok"]
    stranger = public_pem(Ed25519PrivateKey.generate().public_key())
    found = verdict(api, auditor, receipt, stranger)
    assert not found["ok"] and "not one of the trusted keys" in found["reason"]


@pytest.mark.parametrize("receipt", [
    {}, {"receipt": 5, "signature": "x"}, {"receipt": {"key_id": {}}, "signature": "x"},
    {"receipt": {"key_id": "k"}, "signature": 7}, {"receipt": {"key_id": "k"}},
    {"receipt": {"key_id": "0000000000000000", "kind": "erasure"}, "signature": "%%%"},
])
def test_a_malformed_receipt_is_a_clear_verdict_never_an_error(api: Api,
                                                              receipt: dict[str, Any]) -> None:
    found = verdict(api, api.key("auditor"), receipt)
    assert found["ok"] is False and found["reason"]


@pytest.mark.parametrize("receipt,key", [
    ("not an object", None), ([1, 2], None), ({}, "not a key"), ({}, "AAAA"),
])
def test_a_receipt_that_is_no_object_or_a_bad_public_key_is_bad_input(
        api: Api, receipt: Any, key: str | None) -> None:
    body = api.gql(api.key("auditor"), VERIFY, {"r": receipt, "k": key})
    assert codes(body) == ["BAD_USER_INPUT"], body


def test_a_receipt_is_found_by_id_only_inside_its_tenant(api: Api) -> None:
    tenant = new_tenant()
    writer = api.key("writer", tenant)
    remember(api, writer, "u", ("editor", "vim"))
    issued = api.ok(writer, ATTEST, {"s": "u", "subjects": ["editor"]})["attest"]["document"]
    rid = issued["receipt"]["id"]
    found = api.ok(api.key("reader", tenant), RECEIPT, {"id": rid})["receipt"]["document"]
    assert found["receipt"] == issued["receipt"] and verify_receipt(found, pem(api, writer))
    assert codes(api.gql(api.key("reader"), RECEIPT, {"id": rid})) == ["NOT_FOUND"]
    assert codes(api.gql(writer, RECEIPT, {"id": "r0000"})) == ["NOT_FOUND"]


def test_receipt_fields_need_their_capability_and_scope(api: Api) -> None:
    tenant, other = new_tenant(), new_tenant()
    reader, limited = api.key("reader", tenant), api.key("admin", tenant, ("alice",))
    denied = [
        (reader, VERIFY, {"r": {}}),  # verify capability
        (limited, VERIFY, {"r": {}}),  # a key for the whole tenant
        (limited, "{ exportPublicKey }", None),
        (limited, RECEIPT, {"id": "r0000"}),
        (limited, ATTEST, {"s": "bob"}),  # another space
        (reader, ATTEST, {"s": f"{other}/alice/bot/r1"}),  # another tenant
    ]
    for token, document, variables in denied:
        body = api.gql(token, document, variables)
        assert codes(body) == ["FORBIDDEN"], (document, body)
        assert body["errors"][0]["message"].startswith("Access denied: ")
    assert api.post("{ exportPublicKey }").status_code == 401
    assert "denied" in audited(api, tenant, "verifyReceipt")


def test_attest_with_no_subject_or_an_unknown_one(api: Api) -> None:
    writer = api.key("writer")
    assert codes(api.gql(writer, ATTEST, {"s": "u", "subjects": []})) == ["BAD_USER_INPUT"]
    empty = api.ok(writer, ATTEST, {"s": "u", "subjects": ["nothing_here"]})["attest"]["document"]
    assert empty["facts"] == [] and empty["receipt"]["fact_ids"] == []


# ---- setRetention ---------------------------------------------------------------------------
def retired_before(receipt: dict[str, Any]) -> timedelta:
    """How far back from now a purge receipt's cut-off lies."""
    return datetime.now(UTC) - datetime.fromisoformat(receipt["receipt"]["retired_before"])


@pytest.mark.parametrize("default_days", [None, 90.0], ids=["no-default", "default-90"])
def test_a_space_retention_drives_purge_until_it_is_reset(
        serve_api: Callable[..., Api], default_days: float | None) -> None:
    """Once with no deployment default (GRAPHMEM_RETENTION_DAYS unset) and once with one: a
    reset space falls back to the default, or purge without a period is bad input."""
    api = serve_api(retention_days=default_days)
    tenant = new_tenant()
    admin = api.key("admin", tenant)
    message = api.ok(admin, RETENTION, {"s": "u", "d": 30})["setRetention"]["message"]
    assert message == "retention: 30 days"
    receipt = api.ok(admin, PURGE, {"s": "u"})["purge"]["document"]
    assert receipt["receipt"]["scope"] == "expired" and receipt["receipt"]["facts"] == 0
    assert timedelta(days=29) < retired_before(receipt) < timedelta(days=31)
    reset = api.ok(admin, RETENTION, {"s": "u", "d": None})["setRetention"]["message"]
    assert reset == "retention: default"
    if default_days is None:
        body = api.gql(admin, PURGE, {"s": "u"})
        assert codes(body) == ["BAD_USER_INPUT"], body
        assert "no retention period" in body["errors"][0]["message"]
    else:
        receipt = api.ok(admin, PURGE, {"s": "u"})["purge"]["document"]
        assert receipt["receipt"]["scope"] == "expired"
        assert timedelta(days=89) < retired_before(receipt) < timedelta(days=91)


@pytest.mark.parametrize("days", [0, -1, 835_312.66, 1e12])
def test_a_retention_that_is_not_a_positive_period_is_bad_input(api: Api, days: float) -> None:
    body = api.gql(api.key("admin"), RETENTION, {"s": "u", "d": days})
    assert codes(body) == ["BAD_USER_INPUT"], body
    body = api.gql(api.key("admin"), "mutation($d: Float) { purge(space: \"u\","
                                     " retentionDays: $d) }", {"d": days})
    assert codes(body) == ["BAD_USER_INPUT"], body


def test_setting_retention_needs_admin_in_scope(api: Api) -> None:
    tenant, other = new_tenant(), new_tenant()
    for token, space in ((api.key("steward", tenant), "u"),
                         (api.key("admin", tenant, ("alice",)), "bob"),
                         (api.key("admin", tenant), f"{other}/u/a/r")):
        assert codes(api.gql(token, RETENTION, {"s": space, "d": 7})) == ["FORBIDDEN"]
    assert audited(api, tenant, "setRetention").count("denied") == 3


# ---- eraseUser and eraseTenant -----------------------------------------------------------------
def test_erasing_a_user_empties_every_space_of_that_user_only(api: Api) -> None:
    tenant = new_tenant()
    writer = api.key("writer", tenant)
    remember(api, writer, "alice/bot/r1", ("editor", "vim"))
    remember(api, writer, "alice/notes", ("shell", "zsh"), ("font", "mono"))
    remember(api, writer, "bob/bot/r1", ("editor", "nano"))
    steward = api.key("steward", tenant, ("alice",))  # holds the whole user alice
    receipt = api.ok(steward, ERASE_USER, {"u": "alice"})["eraseUser"]["document"]
    body = receipt["receipt"]
    assert body["scope"] == "user" and body["user"] == "alice" and body["facts"] == 3
    assert {f"{tenant}/alice/bot/r1", f"{tenant}/alice/notes/default"} <= set(body["spaces"])
    assert all(s.startswith(f"{tenant}/alice/") for s in body["spaces"])
    assert verify_receipt(receipt, pem(api, writer))
    assert count(api, writer, "alice/bot/r1") == 0 and count(api, writer, "alice/notes") == 0
    assert count(api, writer, "bob/bot/r1") == 1
    assert set(audited(api, tenant, "erase_subtree")) == {"ok"}


def test_erasing_a_user_needs_delete_and_the_whole_user(api: Api) -> None:
    tenant, other = new_tenant(), new_tenant()
    writer = api.key("writer", tenant)
    remember(api, writer, "alice/bot", ("editor", "vim"))
    for token, user in ((writer, "alice"),  # no delete capability
                        (api.key("steward", tenant, ("alice/bot",)), "alice"),  # part of it
                        (api.key("steward", tenant, ("bob",)), "alice"),  # another user
                        (api.key("steward", tenant), f"{other}/alice")):  # another tenant
        body = api.gql(token, ERASE_USER, {"u": user})
        assert codes(body) == ["FORBIDDEN"], (user, body)
    assert count(api, writer, "alice/bot") == 1
    assert audited(api, tenant, "eraseUser").count("denied") == 4


@pytest.mark.parametrize("user", ["", "alice/bot/r1", "/alice", "alice/", "al ice", "x" * 200])
def test_a_malformed_user_is_bad_input(api: Api, user: str) -> None:
    body = api.gql(api.key("steward"), ERASE_USER, {"u": user})
    assert codes(body) == ["BAD_USER_INPUT"], body


def test_erasing_the_tenant_leaves_other_tenants_alone(api: Api) -> None:
    tenant, other = new_tenant(), new_tenant()
    writer, neighbour = api.key("writer", tenant), api.key("writer", other)
    remember(api, writer, "alice/bot", ("editor", "vim"))
    remember(api, writer, "bob", ("shell", "zsh"))
    remember(api, neighbour, "alice/bot", ("editor", "ed"))
    steward = api.key("steward", tenant)
    assert codes(api.gql(steward, ERASE_TENANT, {"t": other})) == ["FORBIDDEN"]
    assert codes(api.gql(api.key("steward", tenant, ("alice",)), ERASE_TENANT,
                         {"t": tenant})) == ["FORBIDDEN"]
    assert codes(api.gql(api.key("admin", tenant), ERASE_TENANT, {"t": "bad tenant"})) == [
        "FORBIDDEN"]
    receipt = api.ok(steward, ERASE_TENANT, {"t": tenant})["eraseTenant"]["document"]
    assert receipt["receipt"]["scope"] == "tenant" and receipt["receipt"]["facts"] == 2
    assert verify_receipt(receipt, pem(api, writer))
    assert count(api, writer, "alice/bot") == 0 and count(api, writer, "bob") == 0
    assert count(api, neighbour, "alice/bot") == 1
