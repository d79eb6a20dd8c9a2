"""The authorization matrix, through the real server: every root operation (query, mutation,
subscription) × who calls where:

  wide-own        a key for the whole tenant, on a space of its tenant
  scoped-own      a key restricted to one space, on that space
  scoped-sibling  the same key, on another space of its tenant
  scoped-other    the same key, on a space of another tenant
  wide-other      a key for the whole tenant, on a space of another tenant

then every operation × every role (own space, tenant-wide key), and every operation that
takes an id given another tenant's id. Expectations are written out here, independently of
the server's registry, so a wrong rule there fails here.

Allowed means the call succeeded: no error, and `data` with every root field non-null. Each
operation gets arguments that can succeed: a real fact, a real open conflict, a real pending
proposal, a real receipt; a fresh one whenever the call consumes it; the scripted model for
remember, forget and recall. Denied means FORBIDDEN (`Access denied: …`), no data, and a
`denied` audit row. An allowed subscription must deliver the event a later write provokes.
"""

from __future__ import annotations

import base64
import json
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import graphql
import pytest

from graphmem.mirror import audit
from graphmem.resolvers.registry import OPERATIONS as REGISTRY
from graphmem.schema import SDL_PATH

from support.api_support import Api, codes, new_tenant
from support.live_events import FIELDS, Socket, errors_of, open_conflict, propose, provoke
from support.llm_fixtures import llm_overrides
from support.llm_server import LLMServer
from support.seeded import Seeded, seed_space

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
OWN, SIBLING = "alice/bot/r1", "bob/bot/r1"
REMEMBERED = "we use Redux for state"
FORGOTTEN = "we dropped Redux"
SECRET = f"B-secret-{uuid.uuid4().hex[:8]}"


@dataclass
class Target:
    """Where one call goes: the space argument, what that space holds, and a key of its
    tenant that may write there (to make fresh objects a call consumes)."""

    api: Api
    space: str
    seeded: Seeded
    writer: str
    tenant: str
    user: str  # the user eraseUser names
    tag: str

    def fresh_fact(self, subject: str | None = None) -> str:
        data = self.api.ok(self.writer, "mutation($s: String!, $f: [FactInput!]!) {"
                           " rememberFacts(space: $s, facts: $f) { factId } }",
                           {"s": self.space, "f": [{"subject": subject or f"x-{self.tag}",
                                                    "value": "fresh"}]})
        fact_id: str = data["rememberFacts"][0]["factId"]
        return fact_id

    def fresh_event(self) -> str:
        """A write by this target's writer: another key's event, which only an approver
        may undo."""
        data = self.api.ok(self.writer, "mutation($s: String!, $f: [FactInput!]!) {"
                           " rememberFacts(space: $s, facts: $f) { eventId } }",
                           {"s": self.space, "f": [{"subject": f"u-{self.tag}",
                                                    "value": "fresh"}]})
        event_id: str = data["rememberFacts"][0]["eventId"]
        return event_id

    def conflict(self) -> dict[str, Any]:
        return open_conflict(self.api, self.writer, self.space, self.tag)

    def proposal(self) -> dict[str, Any]:
        return propose(self.api, self.writer, self.space, self.tag)


Variables = Callable[[Target], dict[str, Any]]


def _space(t: Target) -> dict[str, Any]:
    return {"s": t.space}


def _with(**extra: Callable[[Target], Any]) -> Variables:
    return lambda t: {"s": t.space, **{k: f(t) for k, f in extra.items()}}


def _conflict(t: Target) -> dict[str, Any]:
    flagged = t.conflict()
    return {"s": t.space, "c": flagged["conflictId"], "w": flagged["factId"]}


# name → (capability, document, its variables for a target)
OPERATIONS: dict[str, tuple[str, str, Variables]] = {
    "facts": ("read", "query($s: String!) { facts(space: $s) { totalCount } }", _space),
    "fact": ("read", "query($s: String!, $id: ID!) { fact(space: $s, id: $id) { id value } }",
             _with(id=lambda t: t.seeded.fact)),
    "history": ("read", 'query($s: String!) { history(space: $s, subject: "state") { text } }',
                _space),
    "conflicts": ("read", "query($s: String!) { conflicts(space: $s) { totalCount } }", _space),
    "pendingChanges": ("read", "query($s: String!) { pendingChanges(space: $s) { totalCount }"
                               " }", _space),
    "reconcilePolicy": ("read", "query($s: String!) { reconcilePolicy(space: $s) { mode } }",
                        _space),
    "stats": ("read", "query($s: String!) { stats(space: $s) { active } }", _space),
    "rememberFacts": ("write", "mutation($s: String!, $f: [FactInput!]!) { rememberFacts("
                               "space: $s, facts: $f) { action factId } }",
                      _with(f=lambda t: [{"subject": f"r-{t.tag}", "value": "Redux"}])),
    "forgetFacts": ("write", "mutation($s: String!, $f: [FactInput!]!) { forgetFacts("
                             "space: $s, facts: $f) { action } }",
                    _with(f=lambda t: [{"subject": f"g-{t.tag}", "value": "fresh",
                                        "targetId": t.fresh_fact(f"g-{t.tag}")}])),
    "confirmChange": ("approve", "mutation($s: String!, $f: ID!) { confirmChange(space: $s,"
                                 " factId: $f) { action message } }",
                      _with(f=lambda t: t.proposal()["factId"])),
    "rejectChange": ("approve", "mutation($s: String!, $f: ID!) { rejectChange(space: $s,"
                                " factId: $f) { action message } }",
                     _with(f=lambda t: t.proposal()["factId"])),
    "resolveConflict": ("approve", "mutation($s: String!, $c: ID!, $w: ID!) { resolveConflict("
                                   "space: $s, conflictId: $c, winner: $w) { message } }",
                        _conflict),
    "dismissConflict": ("approve", "mutation($s: String!, $c: ID!) { dismissConflict(space: $s,"
                                   " conflictId: $c) { message } }", _conflict),
    "recall": ("read", 'query($s: String!) { recall(space: $s, question: "which state?")'
                       " { answer text } }", _space),
    "changes": ("read", 'query($s: String!) { changes(space: $s, from:'
                        ' "2026-01-01T00:00:00+00:00") { totalCount } }', _space),
    # the guard asks for write; undoing another key's event takes approve (the service)
    "undoEvent": ("approve", "mutation($s: String!, $e: ID!) { undoEvent(space: $s,"
                             " eventId: $e) { eventId } }",
                  _with(e=lambda t: t.fresh_event())),
    "checkBeforeAct": ("read", 'query($s: String!) { checkBeforeAct(space: $s,'
                               ' subjects: ["state"]) { allowed } }', _space),
    "entities": ("read", "query($s: String!) { entities(space: $s) { totalCount } }", _space),
    "entity": ("read", 'query($s: String!) { entity(space: $s, type: "person", name: "Ann")'
                       " { entity { key } } }", _space),
    "neighbourhood": ("read", 'query($s: String!) { neighbourhood(space: $s, type: "person",'
                              ' name: "Ann") { text } }', _space),
    "recallRelated": ("read", 'query($s: String!) { recallRelated(space: $s, question:'
                              ' "who knows Ann?") { text } }', _space),
    "remember": ("write", f'mutation($s: String!) {{ remember(space: $s, text: "{REMEMBERED}")'
                          " { action } }", _space),
    "forget": ("write", f'mutation($s: String!) {{ forget(space: $s, text: "{FORGOTTEN}")'
                        " { action } }", _space),
    "createEntity": ("write", 'mutation($s: String!, $n: String!) { createEntity(space: $s,'
                              ' type: "person", name: $n) { key } }',
                     _with(n=lambda t: f"Eve {t.tag}")),
    "recordDecision": ("write", 'mutation($s: String!) { recordDecision(space: $s,'
                                ' action: "deploy", subjects: ["state"]) { decisionId } }',
                       _space),
    "delete": ("delete", "mutation($s: String!, $f: ID!) { delete(space: $s, factId: $f)"
                         " { receiptId factCount } }", _with(f=lambda t: t.fresh_fact())),
    "deleteAll": ("delete", "mutation($s: String!) { deleteAll(space: $s) { receiptId } }",
                  _space),
    "purge": ("delete", "mutation($s: String!) { purge(space: $s, retentionDays: 30)"
                        " { receiptId } }", _space),
    "auditLog": ("verify", "query { auditLog(limit: 5) { seq operation outcome } }",
                 lambda t: {}),
    "verifyAudit": ("verify", "query { verifyAudit { ok rows } }", lambda t: {}),
    "setReconcilePolicy": ("admin", "mutation($s: String!) { setReconcilePolicy(space: $s,"
                                    " mode: RECENCY) { message } }", _space),
    "setRetention": ("admin", "mutation($s: String!) { setRetention(space: $s, days: 30)"
                              " { message } }", _space),
    "attest": ("read", 'mutation($s: String!) { attest(space: $s, subjects: ["state"])'
                       " { receiptId } }", _space),
    "exportPublicKey": ("read", "query { exportPublicKey }", lambda t: {}),
    "receipt": ("read", "query($id: ID!) { receipt(id: $id) { receiptId } }",
                lambda t: {"id": t.seeded.receipt}),
    "verifyReceipt": ("verify", "query($r: JSON!) { verifyReceipt(receipt: $r) { ok reason } }",
                      lambda t: {"r": t.seeded.receipt_document}),
    "eraseUser": ("delete", "mutation($u: String!) { eraseUser(user: $u) { receiptId } }",
                  lambda t: {"u": t.user}),
    "eraseTenant": ("delete", "mutation($t: String!) { eraseTenant(tenant: $t)"
                              " { receiptId } }", lambda t: {"t": t.tenant}),
    "searchEntities": ("read", 'query($s: String!) { searchEntities(space: $s, query: "an")'
                               " { totalCount } }", _space),
    "entityHistory": ("read", 'query($s: String!) { entityHistory(space: $s, type: "person",'
                              ' name: "Ann", attribute: "knows") { totalCount } }', _space),
    "vocabulary": ("read", "query($s: String!) { vocabulary(space: $s) { relations } }",
                   _space),
    "relations": ("read", "query($s: String!) { relations(space: $s) { type } }", _space),
    "relationSchema": ("read", "query($s: String!) { relationSchema(space: $s) { version } }",
                       _space),
    "declareRelations": ("admin", 'mutation($s: String!) { declareRelations(space: $s,'
                                  ' relations: [{label: "knows"}]) { version } }', _space),
    "describeRelations": ("write", "mutation($s: String!) { describeRelations(space: $s)"
                                   " { model } }", _space),
    "fsck": ("admin", "query($s: String!) { fsck(space: $s) { space } }", _space),
    "spaces": ("read", "query { spaces { totalCount } }", lambda t: {}),
    "auditEntries": ("verify", "query { auditEntries(first: 5) { totalCount } }",
                     lambda t: {}),
    "node": ("read", "query($id: ID!) { node(id: $id) { id } }",
             lambda t: {"id": t.seeded.fact_gid}),
    "nodes": ("read", "query($ids: [ID!]!) { nodes(ids: $ids) { id } }",
              lambda t: {"ids": [t.seeded.fact_gid, t.seeded.conflict_gid]}),
    "changeCursor": ("read", "query($s: String!) { changeCursor(space: $s) }", _space),
    "viewer": ("read", "query { viewer { name role capabilities allowedSpaces } }",
               lambda t: {}),
    "serverInfo": ("read", "query { serverInfo { version } }", lambda t: {}),
    "exportMemory": ("read", "query($s: String!) { exportMemory(space: $s) { hash } }", _space),
    "importMemory": ("backfill", 'mutation($s: String!) { importMemory(space: $s, data:'
                                 ' "subject,value,time\\nplan,Pro,2024-01-01\\n") { records } }',
                     _space),
}
# no space argument: the caller's own tenant (a key for the whole tenant)
TENANT_WIDE = {"auditLog", "verifyAudit", "exportPublicKey", "receipt", "verifyReceipt",
               "spaces", "auditEntries", "eraseTenant"}
# about the caller itself: no space or tenant to be out of
CALLER = {"viewer", "serverInfo"}
# they name a user: a key must hold all of that user's spaces, which one space does not
USER_WIDE = {"eraseUser"}
CASES = ["wide-own", "scoped-own", "scoped-sibling", "scoped-other", "wide-other"]
SUBSCRIPTIONS = {name: (f"subscription($s: String!, $a: String) {{ {name}(space: $s,"
                        " after: $a) { cursor space } }") for name in FIELDS}


def expected(name: str, case: str) -> str:
    """allowed, denied, or refused (by id: NOT_FOUND or FORBIDDEN, nothing leaked)."""
    if name in CALLER or case == "wide-own":
        return "allowed"
    wide, own = case.startswith("wide"), case.endswith("own")
    if name in TENANT_WIDE:
        if not wide:
            return "denied"
        if name == "eraseTenant":  # names the other tenant
            return "denied"
        return "refused" if name == "receipt" else "allowed"  # the other tenant's receipt
    if name in USER_WIDE:
        return "allowed" if wide and own else "denied"
    return "allowed" if own else "denied"


# ---- fixtures: one server, two tenants, three seeded spaces, for the module -----------------
@dataclass
class World:
    api: Api
    a: str
    b: str
    admin_a: str
    admin_b: str
    own: Seeded
    sibling: Seeded
    other: Seeded
    secret: str  # a fact of tenant B, value SECRET


@pytest.fixture(scope="module")
def world(serve_api: Callable[..., Api], llm_server: LLMServer) -> World:
    api = serve_api(slot_schema="preset:clinical", api_model_calls_per_min=1_000_000,
                    embedding_base_url=llm_server.url, embedding_model="scripted",
                    **llm_overrides(llm_server))
    a, b = new_tenant(), new_tenant()
    admin_a, admin_b = api.key("admin", a), api.key("admin", b)
    own = seed_space(api, admin_a, OWN)
    sibling = seed_space(api, admin_a, SIBLING)
    other = seed_space(api, admin_b, f"{b}/{OWN}")
    secret = api.ok(admin_b, "mutation($s: String!) { rememberFacts(space: $s, facts:"
                             f' [{{subject: "secret", value: "{SECRET}"}}]) {{ factId }} }}',
                    {"s": OWN})["rememberFacts"][0]["factId"]
    return World(api, a, b, admin_a, admin_b, own, sibling, other, secret)


@pytest.fixture(autouse=True)
def _scripted_model(llm_server: LLMServer) -> Iterator[None]:
    """What the model extracts from the texts remember and forget are given."""
    llm_server.extraction(REMEMBERED, {"subject": "state", "value": "Redux"})
    llm_server.extraction(FORGOTTEN, {"subject": "state", "value": "Redux",
                                      "action": "RETRACT"})
    yield


def _target(w: World, name: str, case: str, tag: str) -> Target:
    """Where the call of `name` goes in this case; an erasure of a whole space, user or
    tenant allowed here gets one of its own (with a fact in it), so the shared ones stay."""
    if case.endswith("other"):
        return Target(w.api, f"{w.b}/{OWN}", w.other, w.admin_b, w.b, f"{w.b}/alice", tag)
    if case == "scoped-sibling":
        return Target(w.api, SIBLING, w.sibling, w.admin_a, w.a, "bob", tag)
    space = f"alice/wipe/{tag}" if name == "deleteAll" else OWN
    target = Target(w.api, space, w.own, w.admin_a, w.a, f"erased-{tag}", tag)
    if name == "deleteAll":
        target.fresh_fact()
    if name == "eraseUser":
        Target(w.api, f"erased-{tag}", w.own, w.admin_a, w.a, "", tag).fresh_fact()
    return target


def _token(w: World, role: str, case: str, target: Target, name: str) -> str:
    if case.startswith("wide"):
        if name == "eraseTenant" and case == "wide-own":  # its own tenant, made to be erased
            tenant = new_tenant()
            writer = w.api.key("admin", tenant)
            Target(w.api, "u", w.own, writer, tenant, "", target.tag).fresh_fact()
            target.tenant = tenant
            return w.api.key(role, tenant)
        return w.api.key(role, w.a)
    return w.api.key(role, w.a, (target.space if case == "scoped-own" else OWN,))


def _outcome(body: dict[str, Any], name: str) -> str:
    """allowed, denied or refused; anything else fails here."""
    found = codes(body)
    if not found:
        data = body.get("data")
        assert data is not None and data.get(name) is not None, body
        if isinstance(data[name], list):
            assert all(item is not None for item in data[name]), body
        return "allowed"
    assert "INTERNAL" not in found, body
    if found == ["FORBIDDEN"] and all(e["message"].startswith("Access denied: ")
                                      for e in body["errors"]):
        assert body.get("data") is None or body["data"].get(name) in (None, [None]), body
        return "denied"
    assert set(found) <= {"NOT_FOUND", "FORBIDDEN"}, body
    return "refused"


def _audited_denial(w: World, name: str, tenant: str) -> bool:
    w.api.flush_audit()
    rows = audit.listing(w.api.keys.store, tenant, 200, operation=name)
    return any(r.outcome == "denied" for r in rows)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_authorization_matrix(world: World, name: str, case: str) -> None:
    capability, document, variables = OPERATIONS[name]
    tag = uuid.uuid4().hex[:10]
    target = _target(world, name, case, tag)
    token = _token(world, "admin", case, target, name)
    body = world.api.gql(token, document, variables(target))
    want = expected(name, case)
    assert _outcome(body, name) == want, body
    if want == "denied":
        assert _audited_denial(world, name, world.a), name
    if want != "allowed":  # the other tenant's name may be echoed: the caller gave it
        assert SECRET not in json.dumps(body), body


@pytest.mark.parametrize("role", sorted(ROLE_CAPABILITIES))
@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_each_role_may_do_what_its_capabilities_allow(world: World, name: str,
                                                      role: str) -> None:
    capability, document, variables = OPERATIONS[name]
    tag = uuid.uuid4().hex[:10]
    target = _target(world, name, "wide-own", tag)
    token = _token(world, role, "wide-own", target, name)
    body = world.api.gql(token, document, variables(target))
    allowed = capability in ROLE_CAPABILITIES[role]
    assert _outcome(body, name) == ("allowed" if allowed else "denied"), body


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("name", sorted(SUBSCRIPTIONS))
def test_subscription_matrix(world: World, name: str, case: str) -> None:
    """Allowed: the event a write after subscribing provokes arrives. Denied: FORBIDDEN."""
    tag = uuid.uuid4().hex[:10]
    target = _target(world, name, case, tag)
    token = _token(world, "admin", case, target, name)
    start = world.api.gql(token, "query($s: String!) { changeCursor(space: $s) }",
                          {"s": target.space})
    after = (start.get("data") or {}).get("changeCursor")
    with Socket(world.api, token) as socket:
        socket.subscribe("m", SUBSCRIPTIONS[name], {"s": target.space, "a": after})
        if expected(name, case) == "denied":
            reply = socket.first("m")
            assert reply is not None and reply["type"] in ("error", "next"), reply
            errors = errors_of(reply)
            assert [e["extensions"]["code"] for e in errors] == ["FORBIDDEN"], reply
            assert all(e["message"].startswith("Access denied: ") for e in errors), reply
            return
        provoke(world.api, target.writer, name, target.space, tag)
        reply = socket.first("m")
    assert reply is not None and reply["type"] == "next" and not errors_of(reply), reply
    event = reply["payload"]["data"][name]
    assert event["space"] == target.seeded.space and event["cursor"], reply


# ---- objects by id: tenant B's ids with tenant A's key, in A's own space --------------------
def _b_fact(w: World) -> str:
    return w.secret


def _b_conflict(w: World) -> dict[str, Any]:
    return open_conflict(w.api, w.admin_b, OWN, uuid.uuid4().hex[:10])


def _b_event(w: World) -> str:
    """An event of tenant B's space."""
    data = w.api.ok(w.admin_b, "mutation($s: String!, $f: String!) { rememberFacts(space: $s,"
                               ' facts: [{subject: $f, value: "other"}]) { eventId } }',
                    {"s": OWN, "f": f"undo-{uuid.uuid4().hex[:8]}"})
    event_id: str = data["rememberFacts"][0]["eventId"]
    return event_id


def _b_proposal(w: World) -> dict[str, Any]:
    return propose(w.api, w.admin_b, OWN, uuid.uuid4().hex[:10])


# name (and variant) → (document, its variables: B's objects, in A's own space)
BY_ID: dict[str, tuple[str, Callable[[World], dict[str, Any]]]] = {
    "fact": ("query($s: String!, $id: ID!) { fact(space: $s, id: $id) { id value } }",
             lambda w: {"s": OWN, "id": _b_fact(w)}),
    "fact (global id)": ("query($s: String!, $id: ID!) { fact(space: $s, id: $id)"
                         " { id value } }", lambda w: {"s": OWN, "id": w.other.fact_gid}),
    "node": ("query($id: ID!) { node(id: $id) { id ... on Fact { value } } }",
             lambda w: {"id": w.other.fact_gid}),
    "node (conflict)": ("query($id: ID!) { node(id: $id) { id } }",
                        lambda w: {"id": w.other.conflict_gid}),
    "nodes": ("query($ids: [ID!]!) { nodes(ids: $ids) { id } }",
              lambda w: {"ids": [w.own.fact_gid, w.other.fact_gid]}),
    "confirmChange": ("mutation($s: String!, $f: ID!) { confirmChange(space: $s, factId: $f)"
                      " { message } }", lambda w: {"s": OWN, "f": _b_proposal(w)["factId"]}),
    "rejectChange": ("mutation($s: String!, $f: ID!) { rejectChange(space: $s, factId: $f)"
                     " { message } }", lambda w: {"s": OWN, "f": _b_proposal(w)["factId"]}),
    "resolveConflict": ("mutation($s: String!, $c: ID!, $w: ID!) { resolveConflict(space: $s,"
                        " conflictId: $c, winner: $w) { message } }",
                        lambda w: (lambda c: {"s": OWN, "c": c["conflictId"],
                                              "w": c["factId"]})(_b_conflict(w))),
    "resolveConflict (own conflict, B's winner)": (
        "mutation($s: String!, $c: ID!, $w: ID!) { resolveConflict(space: $s,"
        " conflictId: $c, winner: $w) { message } }",
        lambda w: {"s": OWN, "c": open_conflict(w.api, w.admin_a, OWN, uuid.uuid4().hex[:10])
                   ["conflictId"], "w": _b_fact(w)}),
    "dismissConflict": ("mutation($s: String!, $c: ID!) { dismissConflict(space: $s,"
                        " conflictId: $c) { message } }",
                        lambda w: {"s": OWN, "c": _b_conflict(w)["conflictId"]}),
    "delete": ("mutation($s: String!, $f: ID!) { delete(space: $s, factId: $f) { factCount } }",
               lambda w: {"s": OWN, "f": _b_fact(w)}),
    "undoEvent": ("mutation($s: String!, $e: ID!) { undoEvent(space: $s, eventId: $e)"
                  " { eventId } }", lambda w: {"s": OWN, "e": _b_event(w)}),
    "receipt": ("query($id: ID!) { receipt(id: $id) { receiptId } }",
                lambda w: {"id": w.other.receipt}),
}


def _b_state(w: World) -> str:
    """What tenant B holds, as its own admin reads it."""
    data = w.api.ok(w.admin_b, "query($s: String!) { stats(space: $s) { active flagged"
                               " openConflicts pendingChanges } facts(space: $s, subject:"
                               ' "secret") { nodes { value status } } }', {"s": OWN})
    return json.dumps(data, sort_keys=True)


def _decoded(ids: list[str]) -> str:
    """What global ids say when decoded (type, space, id): a refusal may name what the
    caller's own id already said."""
    out = []
    for value in ids:
        try:
            out.append(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode())
        except (ValueError, UnicodeError):
            continue
    return " ".join(out)


@pytest.mark.parametrize("name", sorted(BY_ID))
def test_another_tenants_ids_are_refused_and_nothing_leaks(world: World, name: str) -> None:
    document, variables = BY_ID[name]
    given = variables(world)
    before = _b_state(world)
    body = world.api.gql(world.admin_a, document, given)
    found = codes(body)
    assert found and set(found) <= {"NOT_FOUND", "FORBIDDEN"}, body
    root = name.split(" ")[0]
    data = body.get("data") or {}
    if root == "nodes":  # the caller's own node may come back; the other tenant's may not
        assert data.get(root) is None or data[root][1] is None, body
    else:
        assert data.get(root) is None, body
    assert SECRET not in json.dumps(body), body
    ids = [v for v in given.values() if isinstance(v, str)] + given.get("ids", [])
    if world.b not in _decoded(ids):
        assert world.b not in json.dumps(body), body
    assert _b_state(world) == before


def test_another_tenants_fact_id_as_a_target_hint_touches_nothing_of_it(world: World) -> None:
    """`targetId` is a hint (an extractor may name a fact it saw): it is matched among the
    slot's values in the space written to, so another tenant's id matches nothing there. The
    write is an ADD in the caller's own space; tenant B's fact stays as it was."""
    before = _b_state(world)
    body = world.api.gql(world.admin_a, "mutation($s: String!, $f: [FactInput!]!) {"
                         " rememberFacts(space: $s, facts: $f) { action fact { space"
                         " supersedes } } }",
                         {"s": OWN, "f": [{"subject": f"hint-{uuid.uuid4().hex[:8]}",
                                           "value": "mine", "action": "SUPERSEDE",
                                           "targetId": world.secret}]})
    assert "errors" not in body, body
    [result] = body["data"]["rememberFacts"]
    assert result["action"] == "ADD" and result["fact"]["supersedes"] == [], body
    assert result["fact"]["space"] == world.own.space
    assert SECRET not in json.dumps(body) and world.b not in json.dumps(body), body
    assert _b_state(world) == before


# ---- the matrix covers the schema ------------------------------------------------------------
def test_the_matrix_covers_every_root_field() -> None:
    """A new operation fails here until it has a row in the matrix (and a rule)."""
    schema = graphql.build_schema(SDL_PATH.read_text())
    fields = {name for root in (schema.query_type, schema.mutation_type,
                                schema.subscription_type) if root for name in root.fields}
    assert fields == set(OPERATIONS) | set(SUBSCRIPTIONS)
    assert set(REGISTRY) == fields
    takes_ids = {name for root in (schema.query_type, schema.mutation_type) if root
                 for name, field in root.fields.items()
                 if any(graphql.get_named_type(a.type).name == "ID" for a in field.args.values())}
    assert takes_ids == {n.split(" ")[0] for n in BY_ID}, takes_ids


# ---- what the matrix does not show ----------------------------------------------------------
def test_the_audit_log_is_confined_to_the_callers_tenant(api: Api) -> None:
    a, b = new_tenant(), new_tenant()
    stats = OPERATIONS["stats"][1]
    api.ok(api.key("writer", a), stats, {"s": "u"})
    api.ok(api.key("writer", b), stats, {"s": "u"})
    api.flush_audit()
    rows = api.ok(api.key("auditor", a), "{ auditLog(limit: 500) { tenant space caller } }")
    assert rows["auditLog"] and {r["tenant"] for r in rows["auditLog"]} == {a}


def test_a_denied_write_stores_nothing(api: Api) -> None:
    tenant = new_tenant()
    remember = OPERATIONS["rememberFacts"][1]
    facts = [{"subject": "state", "value": "Redux"}]
    stats = OPERATIONS["stats"][1]
    scoped = api.key("writer", tenant, ("alice",))
    body = api.gql(scoped, remember, {"s": "bob/bot/r1", "f": facts})
    assert codes(body) == ["FORBIDDEN"]
    admin = api.key("admin", tenant)
    assert api.ok(admin, stats, {"s": "bob/bot/r1"})["stats"]["active"] == 0
    reader = api.key("reader", tenant)
    body = api.gql(reader, remember, {"s": "alice/bot/r1", "f": facts})
    assert codes(body) == ["FORBIDDEN"]
    assert api.ok(admin, stats, {"s": "alice/bot/r1"})["stats"]["active"] == 0


def test_another_tenants_data_is_invisible_under_the_same_space_name(api: Api) -> None:
    a, b = new_tenant(), new_tenant()
    writer_a = api.key("writer", a)
    stored = api.ok(writer_a, 'mutation { rememberFacts(space: "u/a/r", facts: [{subject:'
                              ' "state", value: "Redux"}]) { factId } }')
    fact_id = stored["rememberFacts"][0]["factId"]
    reader_b = api.key("reader", b)
    facts = OPERATIONS["facts"][1]
    assert api.ok(reader_b, facts, {"s": "u/a/r"})["facts"]["totalCount"] == 0
    body = api.gql(reader_b, "query($s: String!, $id: ID!) { fact(space: $s, id: $id) { id } }",
                   {"s": "u/a/r", "id": fact_id})
    assert codes(body) == ["NOT_FOUND"]
    body = api.gql(reader_b, facts, {"s": f"{a}/u/a/r"})
    assert codes(body) == ["FORBIDDEN"]
