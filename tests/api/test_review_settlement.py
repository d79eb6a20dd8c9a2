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


UNDO = ("mutation($s: String!, $e: ID!, $force: Boolean!) { undoEvent(space: $s, eventId: $e,"
        " force: $force) { eventId undone lines restored retired forced } }")
WRITE_EVENT = ("mutation($s: String!, $f: [FactInput!]!) { rememberFacts(space: $s, facts: $f)"
               " { action factId eventId } }")


def test_undo_and_redo_over_graphql_with_who_may_undo(api: Api) -> None:
    tenant = new_tenant()
    writer, other, approver = (api.key("writer", tenant), api.key("writer", tenant),
                               api.key("approver", tenant))
    api.ok(writer, WRITE_EVENT, {"s": "u", "f": [{"subject": "city", "value": "Paris",
                                                  "confidence": 0.95}]})
    moved = api.ok(writer, WRITE_EVENT, {"s": "u", "f": [{"subject": "city", "value": "Berlin",
                                                          "confidence": 0.95}]})
    event = moved["rememberFacts"][0]["eventId"]
    assert moved["rememberFacts"][0]["action"] == "SUPERSEDE" and event
    denied = api.gql(other, UNDO, {"s": "u", "e": event, "force": False})
    assert codes(denied) == ["FORBIDDEN"], denied
    undone = api.ok(writer, UNDO, {"s": "u", "e": event, "force": False})["undoEvent"]
    assert undone["undone"] == event and len(undone["restored"]) == 1
    city = '{ facts(space: "u", subject: "city") { nodes { value } } }'
    assert api.ok(writer, city)["facts"]["nodes"] == [{"value": "Paris"}]
    again = api.gql(writer, UNDO, {"s": "u", "e": event, "force": False})
    assert codes(again) == ["ALREADY_SETTLED"], again
    redo = api.ok(approver, UNDO, {"s": "u", "e": undone["eventId"], "force": False})
    assert api.ok(writer, city)["facts"]["nodes"] == [{"value": "Berlin"}]
    later = api.ok(writer, WRITE_EVENT, {"s": "u", "f": [{"subject": "city", "value": "Rome",
                                                          "confidence": 0.95}]})
    blocked = api.gql(approver, UNDO, {"s": "u", "e": redo["undoEvent"]["eventId"],
                                       "force": False})
    assert codes(blocked) == ["UNDO_BLOCKED"], blocked
    assert later["rememberFacts"][0]["factId"] in blocked["errors"][0]["message"]
    missing = api.gql(approver, UNDO, {"s": "u", "e": "e000000000000", "force": False})
    assert codes(missing) == ["NOT_FOUND"], missing


def test_a_write_says_what_redaction_removed_over_graphql(api: Api) -> None:
    token = api.key("writer", new_tenant())
    done = api.ok(token, "mutation($s: String!, $f: [FactInput!]!) { rememberFacts(space: $s,"
                         " facts: $f) { value redacted fact { value raw } } }",
                  {"s": "u", "f": [{"subject": "ci", "value": "token ghp_" + "a1B2c3D4" * 4
                                    + "e5F6", "raw": "card 4111 1111 1111 1111"}]})
    line = done["rememberFacts"][0]
    assert line["redacted"] == ["card_number", "github_token"]
    assert line["fact"] == {"value": "token [REDACTED:github_token]",
                            "raw": "card [REDACTED:card_number]"}
