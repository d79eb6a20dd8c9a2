"""Redaction on the real write path: a corpus of secrets and personal data written through
the Python API (and one message through the model) leaves no trace in any store: the graph
(facts, messages, outbox entries, entities, vectors), the mirror (its rows opened with the
field cipher), the logs, the model's requests and an export; the results and the audit rows
say which kinds were redacted."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

import pytest

from graphmem import GraphMem
from graphmem.mirror.apply import fact_binding
from graphmem.mirror.listings import events_from
from graphmem.remember.redact import Redactor
from graphmem.runtime import Runtime

from support import isolation
from support.llm_server import LLMServer
from support.redaction_corpus import Positive, positives

POSITIVES = positives()
BATCH = 40


def traces(haystack: str, found: list[Positive]) -> list[str]:
    """The positives whose value, or its first or last eight characters, are in the text."""
    return [p.kind + ": " + p.value[:12] for p in found
            if p.value in haystack or (len(p.value) >= 12 and (
                p.value[:8] in haystack or p.value[-8:] in haystack))]


def graph_text(mem: GraphMem) -> str:
    with mem.runtime.graph.session() as session:
        nodes = [r["p"] for r in session.run(
            "MATCH (n) WHERE n.space = $s OR n.key = $s RETURN properties(n) AS p",
            s=mem.space.key)]
        edges = [r["p"] for r in session.run(
            "MATCH (n)-[r]->() WHERE n.space = $s RETURN properties(r) AS p", s=mem.space.key)]
    return json.dumps([nodes, edges], default=str)


def mirror_text(mem: GraphMem) -> str:
    runtime, key = mem.runtime, mem.space.key
    cipher = runtime.mirror.cipher
    rows = runtime.store.query("SELECT id, subject, value, raw, metadata, source, triple"
                               " FROM mirror_facts WHERE space = ?", (key,))
    opened = [cipher.open(v, fact_binding(str(r[0]), key, column)) if v else ""
              for r in rows
              for column, v in zip(("subject", "value", "raw", "metadata", "source", "triple"),
                                   r[1:], strict=True)]
    events = [e.payload for e in events_from(runtime.store, cipher, key, 0, "", 100_000)]
    audit = runtime.store.query("SELECT detail FROM audit_log WHERE space = ?", (key,))
    raw = runtime.store.query("SELECT * FROM mirror_facts WHERE space = ?", (key,))
    return json.dumps([opened, events, [a[0] for a in audit], raw], default=str)


def test_no_store_holds_what_was_redacted(make_llm_mem: Callable[..., GraphMem],
                                          llm: LLMServer,
                                          caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    mem = make_llm_mem(settings={"redaction": "personal"})
    kinds: set[str] = set()
    for start in range(0, len(POSITIVES), BATCH):
        part = POSITIVES[start:start + BATCH]
        results = mem.remember_facts(
            [{"subject": f"credential_{start + i}", "value": p.shown, "raw": p.text,
              "metadata": {"heard": p.text}, "confidence": 0.95} for i, p in enumerate(part)],
            text=" ".join(p.text for p in part), source_ref=part[0].shown)
        assert all(r.action.value == "ADD" for r in results), results
        kinds |= set(results[0].redacted)
    assert kinds >= {"aws_key", "github_token", "card_number", "iban", "private_key",
                     "password", "jwt", "token", "email", "phone"}
    said = POSITIVES[0]  # one message through the model: it sees only the placeholder
    redacted = Redactor.of("personal").text(said.text)[0]
    llm.extraction(redacted, {"subject": "deploy_key", "value": "[REDACTED:aws_key]",
                              "confidence": 0.9})
    heard = mem.remember(said.text)
    assert [(r.subject, r.value) for r in heard] == [("deploy_key", "[REDACTED:aws_key]")]
    assert heard[0].redacted == ("aws_key",)
    assert traces(json.dumps([r.body for r in llm.requests], default=str), POSITIVES) == []
    assert mem.records.wait_for_embeddings(120)
    mem.records.drain()
    stored = mem.active("credential_0")[0]
    assert stored.value.startswith("[REDACTED:") and stored.raw.count("[REDACTED:") >= 1
    exported, _ = mem.transfer.export_inline()
    audit = mem.records.audit_log(limit=20, operation="remember_facts")
    assert audit and all("redacted" in json.loads(row.detail) for row in audit)
    for name, text in (("graph", graph_text(mem)), ("mirror", mirror_text(mem)),
                       ("logs", caplog.text), ("export", exported)):
        assert traces(text, POSITIVES) == [], name
    recalled = mem.recall("what is the deploy key?")
    assert traces(str(recalled), POSITIVES) == []


def test_a_tenant_or_a_space_may_turn_redaction_off(make_runtime: Callable[..., Runtime]
                                                    ) -> None:
    tenant, other = isolation.tenant(), isolation.tenant()
    runtime = make_runtime(redaction_overrides={tenant: "off", f"{other}/u/a/r": "personal"})
    key = "AKIAIOSFODNN7EXAMPLE"
    with GraphMem(space=tenant, runtime=runtime) as off:
        kept = off.remember_facts([{"subject": "k", "value": key, "confidence": 0.9}])[0]
        assert kept.redacted == () and [f.value for f in off.active("k")] == [key]
    with GraphMem(space=f"{other}/u/a/r", runtime=runtime) as personal:
        lost = personal.remember_facts([{"subject": "k", "value": "ada@example.com"}])[0]
        assert (lost.value, lost.redacted) == ("[REDACTED:email]", ("email",))
    with GraphMem(space=other, runtime=runtime) as default:
        lost = default.remember_facts([{"subject": "k", "value": f"key {key}"}])[0]
        assert (lost.value, lost.redacted) == ("key [REDACTED:aws_key]", ("aws_key",))
        kept = default.remember_facts([{"subject": "m", "value": "ada@example.com"}])[0]
        assert kept.redacted == ()
