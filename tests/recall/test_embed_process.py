"""GRAPHMEM_EMBED_PROCESS=on: new facts are embedded and stored by a child process, on the
real model and a real Neo4j; a child that dies is started again, and the facts of the batch
it died on are embedded once a later batch succeeds."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.recall.embed_process import EmbedProcess

from support.mirror_support import wait_for

pytestmark = pytest.mark.races


def fact(subject: str, value: str) -> dict[str, Any]:
    return {"subject": subject, "value": value, "confidence": 0.95}


def has_vector(mem: GraphMem, ids: list[str]) -> list[bool]:
    with mem.runtime.graph.session() as session:
        found = {r["id"] for r in session.run(
            "MATCH (v:FactVector) WHERE v.fact_id IN $ids AND v.embedding IS NOT NULL"
            " RETURN v.fact_id AS id", ids=ids)}
    return [i in found for i in ids]


def written(mem: GraphMem, facts: list[dict[str, Any]]) -> list[str]:
    return [str(r.fact_id) for r in mem.remember_facts(facts)]


def child(mem: GraphMem) -> EmbedProcess:
    process = mem.runtime.embed_process
    assert process is not None, "the worker embeds through a child process"
    return process


def test_a_child_process_embeds_and_stores_the_vectors(
        make_plain_mem: Callable[..., GraphMem]) -> None:
    mem = make_plain_mem(settings={"embed_process": True})
    ids = written(mem, [fact("primary_database", "Postgres"), fact("cache", "Redis")])
    assert mem.records.wait_for_embeddings(120)
    assert has_vector(mem, ids) == [True, True]
    pid = child(mem).pid
    assert pid is not None and pid != os.getpid()


def test_a_killed_embedding_process_is_started_again_and_its_batch_embedded(
        make_plain_mem: Callable[..., GraphMem]) -> None:
    mem = make_plain_mem(settings={"embed_process": True})
    first = written(mem, [fact("k0", "v0")])
    assert mem.records.wait_for_embeddings(120)
    killed = child(mem).pid
    assert killed is not None
    os.kill(killed, signal.SIGKILL)
    wait_for(lambda: child(mem).pid != killed, timeout=30)
    second = written(mem, [fact("k1", "v1")])
    assert mem.records.wait_for_embeddings(120)
    third = written(mem, [fact("k2", "v2")])  # a batch that succeeds brings the backfill
    assert mem.records.wait_for_embeddings(120)
    wait_for(lambda: all(has_vector(mem, first + second + third)), timeout=120)
    restarted = child(mem).pid
    assert restarted not in (None, killed)
