"""HTTP write load on real servers and the checks that follow it: writers that stream one
fact per call and keep what was acknowledged, and the stores' answer to whether every
acknowledged write is there once, with one active value per slot."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx

from graphmem.graph.driver import GraphDriver

from support import loopback

WRITE = ("mutation($s: String!, $f: [FactInput!]!) { rememberFacts(space: $s, facts: $f)"
         " { action factId } }")
STORING = {"ADD", "SUPERSEDE"}
SLOTS = 10


@dataclass(eq=False)
class Writer(threading.Thread):
    """Streams one fact per call to `base`; keeps what was acknowledged and counts each kind
    of failure (an error code, an HTTP status, a transport error's type)."""

    base: str
    token: str
    space: str
    shared: bool
    stop: threading.Event
    label: str
    pace: float = 0.0  # seconds between two writes (0: as fast as the server answers)
    deadline: float = 120.0  # seconds a call may take; a later answer is a ReadTimeout
    acknowledged: list[tuple[str, str, str]] = field(default_factory=list)
    failed: Counter[str] = field(default_factory=Counter)
    messages: Counter[str] = field(default_factory=Counter)
    retry_after: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        super().__init__(daemon=True, name=self.label)

    def run(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        with loopback.client(timeout=self.deadline, headers=headers) as http:
            n = 0
            while not self.stop.is_set():
                subject = f"slot_{n % SLOTS}" if self.shared else f"{self.label}_k{n}"
                value = f"{self.label}-v{n}"
                n += 1
                try:
                    reply = http.post(f"{self.base}/graphql", json={"query": WRITE, "variables": {
                        "s": self.space, "f": [{"subject": subject, "value": value,
                                                "confidence": 0.9}]}})
                    body = reply.json() if reply.status_code == 200 else {"errors": [
                        {"extensions": {"code": f"HTTP {reply.status_code}"}}]}
                except (httpx.HTTPError, ValueError) as e:
                    self.failed[type(e).__name__] += 1
                    self.stop.wait(0.05)
                    continue
                if body.get("errors"):
                    error = body["errors"][0]
                    self.failed[str(error.get("extensions", {}).get("code"))] += 1
                    self.messages[str(error.get("message"))] += 1
                    self.retry_after[reply.headers.get("Retry-After", "")] += 1
                    self.stop.wait(0.05)  # a client that backs off a little, as clients do
                    continue
                for result in body["data"]["rememberFacts"]:
                    if result["action"] in STORING:
                        self.acknowledged.append((self.space, subject, value))
                if self.pace:
                    self.stop.wait(self.pace)


def gql(base: str, token: str, query: str, variables: dict[str, Any]) -> dict[str, Any]:
    reply = loopback.post(f"{base}/graphql", json={"query": query, "variables": variables},
                          headers={"Authorization": f"Bearer {token}"}, timeout=120)
    body: dict[str, Any] = reply.json()
    assert not body.get("errors"), body
    return body["data"]  # type: ignore[no-any-return]


def rows(graph: GraphDriver, cypher: str, **params: Any) -> list[dict[str, Any]]:
    with graph.session() as session:
        return [r.data() for r in session.run(cypher, params)]


def pending(graph: GraphDriver, tenant: str, older_than: float = 0.0) -> int:
    """The tenant's outbox entries not applied yet (committed over `older_than` seconds ago)."""
    return int(rows(graph, "MATCH (o:Outbox) WHERE o.done = false AND o.space STARTS WITH $t"
                           " AND o.created_at <= datetime() - duration({seconds: $s})"
                           " RETURN count(o) AS n", t=tenant + "/", s=older_than)[0]["n"])


def assert_every_acknowledged_write_once(graph: GraphDriver, tenant: str,
                                         acknowledged: list[tuple[str, str, str]]) -> None:
    """Every acknowledged (space, subject, value) stored, none twice, one active value per
    slot of the tenant's spaces."""
    stored = Counter((r["space"], r["subject"], r["value"]) for r in rows(
        graph, "MATCH (f:Fact) WHERE f.space STARTS WITH $t RETURN f.space AS space,"
               " f.subject AS subject, f.value AS value", t=tenant + "/"))
    lost = [a for a in acknowledged if not stored[(f"{tenant}/{a[0]}", a[1], a[2])]]
    assert lost == [], f"{len(lost)} acknowledged writes lost, e.g. {lost[:3]}"
    assert [k for k, n in stored.items() if n > 1] == []
    assert rows(graph, "MATCH (f:Fact:Active) WHERE f.space STARTS WITH $t WITH f.space AS s,"
                       " f.subject AS subject, count(*) AS n WHERE n > 1 RETURN s, subject",
                t=tenant + "/") == []
