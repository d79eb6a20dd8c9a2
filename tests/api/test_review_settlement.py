"""The review mutations through the real server on a conflict holding two proposals: each
`confirmChange`/`rejectChange` settles the proposal it names and the other stays waiting,
visible in `pendingChanges` and its open conflict, until it is settled too; no flagged fact
is ever outside an open conflict (seed 000's confirmation gate, seed 002's lifecycle)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from support.api_support import Api, codes, new_tenant

REMEMBER = ("mutation($f: [FactInput!]!) { rememberFacts(space: \"u\", facts: $f)"
            " { action factId conflictId } }")
PENDING = "query { pendingChanges(space: \"u\") { totalCount nodes { factId value } } }"
OPEN = ("query { conflicts(space: \"u\", status: OPEN) { nodes { conflictId kind"
        " facts { value status } } } }")
CLOSED = ("query { conflicts(space: \"u\", status: RESOLVED) { nodes { conflictId winner } } }")
FLAGGED = ("query { facts(space: \"u\", status: FLAGGED_CONFLICT) { nodes { factId value } } }")
ACTIVE = ("query { facts(space: \"u\", subject: \"active_medication\") { nodes { value } } }")
CONFIRM = "mutation($f: ID!) { confirmChange(space: \"u\", factId: $f) { message conflictId } }"
REJECT = "mutation($f: ID!) { rejectChange(space: \"u\", factId: $f) { message conflictId } }"
RESOLVE = ("mutation($c: ID!, $w: ID!) { resolveConflict(space: \"u\", conflictId: $c,"
           " winner: $w) { message } }")


def propose(api: Api, token: str, value: str, action: str = "SUPERSEDE") -> dict[str, Any]:
    found: dict[str, Any] = api.ok(token, REMEMBER, {"f": [{
        "subject": "active_medication", "value": value, "action": action,
        "confidence": 0.95}]})["rememberFacts"][0]
    assert found["action"] == "FLAG", found
    return found


def two_proposals(serve_api: Callable[..., Api]) -> tuple[Api, str, dict[str, Any],
                                                           dict[str, Any]]:
    api = serve_api(slot_schema="preset:clinical")
    token = api.key("approver", new_tenant())
    api.ok(token, REMEMBER, {"f": [{"subject": "active_medication", "value": "Warfarin 5mg",
                                    "confidence": 0.95}]})
    first, second = propose(api, token, "Warfarin 7.5mg"), propose(api, token, "Warfarin 10mg")
    assert first["conflictId"] == second["conflictId"]
    return api, token, first, second


def flagged_outside_open_conflicts(api: Api, token: str) -> set[str]:
    held = {n["factId"] for n in api.ok(token, FLAGGED)["facts"]["nodes"]}
    waiting = {n["factId"] for n in api.ok(token, PENDING)["pendingChanges"]["nodes"]}
    return held - waiting


def active(api: Api, token: str) -> list[str]:
    return sorted(n["value"] for n in api.ok(token, ACTIVE)["facts"]["nodes"])


def test_confirm_gate_confirm_change_leaves_the_other_proposal_pending(
        serve_api: Callable[..., Api]) -> None:
    api, token, first, second = two_proposals(serve_api)
    done = api.ok(token, CONFIRM, {"f": first["factId"]})["confirmChange"]
    assert done == {"message": "Stored: [SUPERSEDE] active_medication = Warfarin 7.5mg",
                    "conflictId": first["conflictId"]}
    assert api.ok(token, PENDING)["pendingChanges"] == {
        "totalCount": 1, "nodes": [{"factId": second["factId"], "value": "Warfarin 10mg"}]}
    (conflict,) = api.ok(token, OPEN)["conflicts"]["nodes"]
    assert (conflict["conflictId"], conflict["kind"]) == (first["conflictId"], "PENDING")
    assert {(f["value"], f["status"]) for f in conflict["facts"]} == {
        ("Warfarin 5mg", "SUPERSEDED"), ("Warfarin 7.5mg", "ACTIVE"),
        ("Warfarin 10mg", "FLAGGED_CONFLICT")}
    assert flagged_outside_open_conflicts(api, token) == set()
    api.ok(token, CONFIRM, {"f": second["factId"]})
    assert active(api, token) == ["Warfarin 10mg"]
    assert api.ok(token, OPEN)["conflicts"]["nodes"] == []
    assert api.ok(token, CLOSED)["conflicts"]["nodes"] == [
        {"conflictId": first["conflictId"], "winner": second["factId"]}]
    assert api.ok(token, FLAGGED)["facts"]["nodes"] == []


def test_confirm_gate_reject_change_leaves_the_other_proposal_pending(
        serve_api: Callable[..., Api]) -> None:
    api, token, first, second = two_proposals(serve_api)
    done = api.ok(token, REJECT, {"f": first["factId"]})["rejectChange"]
    assert done["message"] == "Rejected: [SUPERSEDE] active_medication = Warfarin 7.5mg"
    assert [n["factId"] for n in api.ok(token, PENDING)["pendingChanges"]["nodes"]] == [
        second["factId"]]
    assert flagged_outside_open_conflicts(api, token) == set()
    body = api.gql(token, CONFIRM, {"f": first["factId"]})
    assert codes(body) == ["ALREADY_SETTLED"], body
    assert "is already rejected" in body["errors"][0]["message"]
    api.ok(token, REJECT, {"f": second["factId"]})
    assert active(api, token) == ["Warfarin 5mg"]
    assert api.ok(token, OPEN)["conflicts"]["nodes"] == []
    assert api.ok(token, FLAGGED)["facts"]["nodes"] == []


def test_confirm_gate_resolve_conflict_after_a_confirm_settles_the_rest(
        serve_api: Callable[..., Api]) -> None:
    api, token, first, second = two_proposals(serve_api)
    api.ok(token, CONFIRM, {"f": first["factId"]})
    done = api.ok(token, RESOLVE, {"c": first["conflictId"], "w": second["factId"]})
    assert done["resolveConflict"]["message"] == (
        "Stored: [SUPERSEDE] active_medication = Warfarin 10mg")
    assert active(api, token) == ["Warfarin 10mg"]
    assert api.ok(token, OPEN)["conflicts"]["nodes"] == []
    assert api.ok(token, FLAGGED)["facts"]["nodes"] == []
