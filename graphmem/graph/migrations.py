"""Versioned graph schema: cypher/migrations/NNN_name.cypher files applied in order, recorded on
a (:SchemaVersion {id: 'graph'}) node. Every schema statement is `IF NOT EXISTS` and every data
move finds nothing left to move the second time, so `up` twice is a no-op and a half-applied
step is safe to re-run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphmem.graph.driver import GraphDriver
from graphmem.graph.statements import registry, statements

_MIGRATION = re.compile(r"^migrations/(\d{3})_([a-z0-9_]+)$")


@dataclass(frozen=True)
class GraphMigration:
    version: int
    name: str
    query_name: str


def migrations() -> list[GraphMigration]:
    found = []
    for name in registry():
        match = _MIGRATION.match(name)
        if match:
            found.append(GraphMigration(int(match.group(1)), match.group(2), name))
    return sorted(found, key=lambda m: m.version)


def latest_version() -> int:
    return migrations()[-1].version


def current_version(graph: GraphDriver) -> int:
    return int(graph.read("migrations/version_get")[0]["version"])


def pending(graph: GraphDriver) -> list[GraphMigration]:
    current = current_version(graph)
    return [m for m in migrations() if m.version > current]


def up(graph: GraphDriver) -> list[GraphMigration]:
    """Apply what is pending; schema statements cannot share a transaction with data writes."""
    applied = []
    for migration in pending(graph):
        with graph.session() as session:
            for statement in statements(migration.query_name):
                session.run(statement).consume()
        graph.write("migrations/version_set", version=migration.version, name=migration.name)
        applied.append(migration)
    return applied
