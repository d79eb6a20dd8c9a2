"""Waiting for a space's background work (vectors, mirror, marks) to be done, so that a test
that next holds a lock or counts transactions sees only what it starts itself."""

from __future__ import annotations

from graphmem import GraphMem
from graphmem.graph import outbox


def settled(mem: GraphMem) -> None:
    """The background work done: vectors stored, every outbox entry applied and marked."""
    assert mem.records.wait_for_embeddings(120)
    mem.runtime.mirror.drain([mem.space.key])
    pending, _ = outbox.pending_count(mem.runtime.graph, mem.space.key)
    assert pending == 0
