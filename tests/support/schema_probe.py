"""A probe label of the test's own, declared like the model's labels, with its constraint and
index created in the test Neo4j and dropped afterwards.

The schema check must see a declared constraint or index vanish; the test database may be
shared, so the model's own are never dropped. A label no one else uses, made from a fresh
uuid, is declared (a uniqueness constraint and a composite index), its schema created, and
the test drops what it wants to see reported.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from neomodel import StringProperty

from graphmem.graph.driver import GraphDriver
from graphmem.graph.nodes import GraphNode


@dataclass(frozen=True)
class Probe:
    graph: GraphDriver
    declaration: type[GraphNode]
    label: str
    constraint: str
    index: str

    def drop(self, name: str) -> None:
        kind = "CONSTRAINT" if name == self.constraint else "INDEX"
        self._ddl(f"DROP {kind} {name} IF EXISTS")

    def _ddl(self, statement: str) -> None:
        with self.graph.session() as session:
            session.run(statement).consume()


@pytest.fixture
def schema_probe(graph: GraphDriver) -> Iterator[Probe]:
    tag = uuid.uuid4().hex[:12]
    label = f"GraphmemProbe{tag}"
    assert re.fullmatch(r"GraphmemProbe[0-9a-f]{12}", label)  # it is placed in DDL text
    declaration = type(label, (GraphNode,), {
        "__module__": __name__, "__label__": label,
        "composite_indexes": (("space", "key"),),
        "uid": StringProperty(db_property="id", unique_index=True),
        "space": StringProperty(), "key": StringProperty()})
    probe = Probe(graph, declaration, label, f"probe_{tag}_id", f"probe_{tag}_space_key")
    probe._ddl(f"CREATE CONSTRAINT {probe.constraint} FOR (p:{label}) REQUIRE p.id IS UNIQUE")
    probe._ddl(f"CREATE INDEX {probe.index} FOR (p:{label}) ON (p.space, p.key)")
    try:
        yield probe
    finally:
        probe.drop(probe.constraint)
        probe.drop(probe.index)
