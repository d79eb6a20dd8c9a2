"""The recall_related answer: one model call over the paths, when an LLM is configured.

Without a model the paths are the answer; with one, the model sees only the paths (the best
few, when they are ranked by the question) and the facts behind their edges (with
provenance), and must say when they do not answer the question.
"""

from __future__ import annotations

from typing import Protocol

from graphmem.model.paths import Related, provenance

SYSTEM = (
    "You answer a question about how entities are related, using only the graph paths and"
    " facts given. Name the entities and relations that support the answer, cite facts by"
    " their #id, and say plainly when the paths do not answer the question. If the traversal"
    " was truncated, say that the answer may be incomplete."
)


class TextModel(Protocol):
    def complete_text(self, system: str, user: str) -> str: ...


TOP_PATHS = 5  # ranked paths the model reads: the best, and a few to weigh it against


def prompt(question: str, related: Related) -> str:
    paths = related.paths[:TOP_PATHS] if related.ranked else related.paths
    behind = {e.fact_id for p in paths for e in p.edges}
    lines = [f"Question: {question}", "",
             "Paths (best first):" if related.ranked else "Paths:"]
    lines += [f"- {related.render(p)}" for p in paths] or ["- (none)"]
    lines += ["", "Facts behind the edges:"]
    lines += [f"- #{f.id} {f.subject} = {f.value}{provenance(f)}"
              for f in related.facts.values() if f.id in behind] or ["- (none)"]
    if related.truncated:
        lines += ["", "Note: the traversal was truncated by its limits."]
    return "\n".join(lines)


def answer(model: TextModel, question: str, related: Related) -> str:
    return model.complete_text(SYSTEM, prompt(question, related)).strip()
