"""The recall answer: one model call from the retrieved facts only, plus what code adds.

The first line is model-written; everything after it is deterministic: the open-conflicts
warning and, with `explain`, the exact facts the model saw (docs/concepts/sources.md):
`• #2 state = Zustand [conf 0.95, from crm, supersedes #1]`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphmem.model.recall import (
    OpenConflict,
    RecalledFact,
)

if TYPE_CHECKING:  # openai is imported only when a model is used
    from graphmem.llm import LLM


SYSTEM = """\
You answer a question from a memory store's facts, and only from them. Never use outside
knowledge and never guess. Facts are current unless tagged: (history) marks a former value
that is no longer true, (flagged) a claim held for review that is not current. Prefer current
facts; mention a former or flagged value only when the question asks about the past or the
conflict matters. If open conflicts are listed, say the answer is contested. If the facts
do not answer the question, say you don't know. Answer in one or two plain sentences, without
fact ids.
"""


def prompt(question: str, facts: tuple[RecalledFact, ...],
           conflicts: tuple[OpenConflict, ...]) -> str:
    lines = [f"Question: {question}", "", "Facts:"]
    lines += [f.line() for f in facts] or ["(none)"]
    if conflicts:
        lines += ["", "Open conflicts:", *(c.line() for c in conflicts)]
    return "\n".join(lines)


def write_answer(llm: LLM, question: str, facts: tuple[RecalledFact, ...],
                 conflicts: tuple[OpenConflict, ...]) -> str:
    """The one answer call."""
    text = llm.complete_text(SYSTEM, prompt(question, facts, conflicts)).strip()
    return text or "(the model returned an empty answer)"
