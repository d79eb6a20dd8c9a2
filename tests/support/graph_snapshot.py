"""Everything the graph holds for some spaces, as plain comparable data (for restore tests)."""

from __future__ import annotations

import json
from typing import Any

from graphmem.graph.driver import GraphDriver

# Set after a write, not by it: vectors are computed again by restore (embed=True).
DERIVED = {"embedding", "search_text"}
# What a space node holds of the memory itself (the rest is bookkeeping: creation time, write
# counter, mirror claim, cache generations).
SPACE_FIELDS = {"key", "policy", "relation_labels"}

QUERIES = {
    "facts": "MATCH (f:Fact) WHERE f.space IN $spaces RETURN f {.*} AS row",
    "fact_edges": "MATCH (a:Fact)-[r:SUPERSEDES|RETRACTS|RESTORES]->(b:Fact)"
                  " WHERE a.space IN $spaces"
                  " RETURN {type: type(r), a: a.id, b: b.id, props: properties(r)} AS row",
    "conflicts": "MATCH (c:Conflict) WHERE c.space IN $spaces OPTIONAL MATCH"
                 " (c)-[:INVOLVES]->(f:Fact) WITH c, collect(f.id) AS facts"
                 " RETURN c {.*, involves: facts} AS row",
    "entities": "MATCH (e:Entity) WHERE e.space IN $spaces RETURN e {.*} AS row",
    "about": "MATCH (f:Fact)-[a:ABOUT]->(e:Entity) WHERE f.space IN $spaces"
             " RETURN {fact: f.id, entity: e.key, props: properties(a)} AS row",
    "projection": "MATCH (h:Entity)-[r]->(t:Entity) WHERE h.space IN $spaces"
                  " RETURN {type: type(r), h: h.key, t: t.key, props: properties(r)} AS row",
    "spaces": "MATCH (s:Space) WHERE s.key IN $spaces RETURN s {.*} AS row",
    "messages": "MATCH (m:Message) WHERE m.space IN $spaces RETURN m {.*} AS row",
}


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if hasattr(value, "iso_format"):
        return value.iso_format()
    return value


def snapshot(graph: GraphDriver, spaces: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    with graph.session() as session:
        for name, query in QUERIES.items():
            rows = []
            for record in session.run(query, spaces=spaces):
                row = _plain(record["row"])
                if name == "facts":
                    row = {k: v for k, v in row.items() if k not in DERIVED}
                elif name == "spaces":
                    row = {k: v for k, v in row.items() if k in SPACE_FIELDS}
                elif name == "conflicts":
                    row["involves"] = sorted(row["involves"])
                rows.append(json.dumps(row, sort_keys=True))
            out[name] = sorted(rows)
    return out


def wipe(graph: GraphDriver, spaces: list[str]) -> None:
    """Remove the spaces from the graph, as if the database were lost."""
    with graph.session() as session:
        session.run("MATCH (n) WHERE n.space IN $spaces DETACH DELETE n", spaces=spaces).consume()
        session.run("MATCH (s:Space) WHERE s.key IN $spaces DETACH DELETE s",
                    spaces=spaces).consume()
