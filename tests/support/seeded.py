"""A space with one of everything an operation can name by id: facts (an attribute and a
relation between two entities), an open conflict, a pending proposal (the server's slot
schema must be `preset:clinical`) and a signed receipt, written through the API."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from support.api_support import Api
from support.live_events import open_conflict, propose

REMEMBER = ("mutation($s: String!, $f: [FactInput!]!) { rememberFacts(space: $s, facts: $f)"
            " { action factId conflictId fact { id space } } }")
ENTITY = ('mutation($s: String!) { createEntity(space: $s, type: "person", name: "Ann")'
          " { id key } }")
CONFLICTS = ("query($s: String!) { conflicts(space: $s) { nodes { id conflictId kind"
             " factIds } } }")
ATTEST = "mutation($s: String!) { attest(space: $s) { receiptId document } }"


@dataclass
class Seeded:
    """What one space holds, by id: own ids as mutations take them, global ids as `node`
    takes them."""

    space: str  # its full key, tenant first
    fact: str
    fact_gid: str
    relation_fact: str
    entity_gid: str
    conflict: str  # open, LOW_CONFIDENCE: the claims are `conflict_facts`
    conflict_gid: str
    conflict_facts: list[str]
    pending: str  # a proposal's fact id; `pending_conflict` is its PENDING conflict
    pending_conflict: str
    receipt: str
    receipt_document: dict[str, Any]  # the signed document, as verifyReceipt takes it

    @property
    def fact_ids(self) -> list[str]:
        return [self.fact, self.relation_fact, *self.conflict_facts, self.pending]

    @property
    def global_ids(self) -> list[str]:
        return [self.fact_gid, self.entity_gid, self.conflict_gid]


def seed_space(api: Api, token: str, space: str, tag: str = "seed") -> Seeded:
    """Write one of everything into `space` with `token` (a key that may write, approve
    nothing it has not opened, and read there)."""
    stored = api.ok(token, REMEMBER, {"s": space, "f": [
        {"subject": "state", "value": "Redux"},
        {"head": "Ann", "headType": "person", "relation": "knows", "tail": "Bob",
         "tailType": "person"}]})["rememberFacts"]
    entity = api.ok(token, ENTITY, {"s": space})["createEntity"]
    flagged = open_conflict(api, token, space, tag)
    proposal = propose(api, token, space, tag)
    conflicts = api.ok(token, CONFLICTS, {"s": space})["conflicts"]["nodes"]
    opened = next(c for c in conflicts if c["conflictId"] == flagged["conflictId"])
    receipt = api.ok(token, ATTEST, {"s": space})["attest"]
    return Seeded(space=stored[0]["fact"]["space"], fact=stored[0]["factId"],
                  fact_gid=stored[0]["fact"]["id"], relation_fact=stored[1]["factId"],
                  entity_gid=entity["id"], conflict=flagged["conflictId"],
                  conflict_gid=opened["id"], conflict_facts=list(opened["factIds"]),
                  pending=proposal["factId"], pending_conflict=proposal["conflictId"],
                  receipt=receipt["receiptId"], receipt_document=receipt["document"])
