"""What recall and check_before_act return: the facts in an answer's context, the open
conflicts that contest them, the answer; and the verdict on an action."""

from __future__ import annotations

from dataclasses import dataclass

from graphmem.model import DEFAULT_SCOPE, Fact, Status

NO_MODEL = ("No model wrote an answer (no LLM configured: set GRAPHMEM_LLM_BASE_URL and"
            " GRAPHMEM_LLM_MODEL). The most relevant facts:")


NO_FACTS = "Nothing in memory bears on that: no facts to answer from."


@dataclass(frozen=True)
class RecalledFact:
    """A fact placed in the answer's context; `history` when it was not current."""

    fact: Fact
    history: bool = False

    def line(self) -> str:
        f = self.fact
        scope = "" if f.scope == DEFAULT_SCOPE else f" ({f.scope})"
        tags = " (history)" if self.history else (
            " (flagged)" if f.status == Status.FLAGGED_CONFLICT else "")
        notes = []
        if f.confidence is not None:
            notes.append(f"conf {f.confidence:.2f}")
        if f.source:
            notes.append(f"from {f.source}")
        notes += [f"supersedes #{old}" for old in f.supersedes]
        notes += [f"retracts #{old}" for old in f.retracts]
        detail = f" [{', '.join(notes)}]" if notes else ""
        return f"#{f.id} {f.subject} = {f.value}{scope}{tags}{detail}"


@dataclass(frozen=True)
class ConflictFact:
    id: str
    subject: str
    scope: str
    value: str
    status: str


@dataclass(frozen=True)
class OpenConflict:
    """An open conflict touching a retrieved fact."""

    id: str
    kind: str
    facts: tuple[ConflictFact, ...]

    def line(self) -> str:
        subjects = sorted({f.subject for f in self.facts})
        claims = " vs ".join(f"#{f.id} {f.value} [{f.status}]" for f in self.facts)
        return f"{self.id} ({self.kind}) on {', '.join(subjects)}: {claims}"


def warning(conflicts: tuple[OpenConflict, ...]) -> str:
    if not conflicts:
        return ""
    return "\n".join(["⚠ OPEN CONFLICTS: some of these facts are contested; resolve them"
                      " before relying on the answer:", *(f"  {c.line()}" for c in conflicts)])


@dataclass(frozen=True)
class Recall:
    """What recall returns; `str()` is what a person or an agent reads."""

    question: str
    answer: str | None
    facts: tuple[RecalledFact, ...]
    conflicts: tuple[OpenConflict, ...] = ()
    explain: bool = False
    method: str = "all"
    note: str = ""

    @property
    def model_answered(self) -> bool:
        return self.answer is not None

    def fact_list(self) -> str:
        return "\n".join(f"• {f.line()}" for f in self.facts)

    def __str__(self) -> str:
        if not self.facts and not self.conflicts:
            return NO_FACTS
        parts = [self.answer if self.answer is not None else NO_MODEL]
        if self.answer is None:
            parts[0] += "\n" + self.fact_list()
        if self.conflicts:
            parts.append(warning(self.conflicts))
        if self.explain and self.answer is not None:
            parts.append("Based on these facts:\n" + self.fact_list())
        return "\n\n".join(p for p in parts if p)


@dataclass(frozen=True)
class ActCheck:
    """The verdict; `str()` says OK with the facts relied on, or every reason to wait."""

    allowed: bool
    reasons: tuple[str, ...]
    facts: tuple[Fact, ...]

    def __bool__(self) -> bool:
        return self.allowed

    def __str__(self) -> str:
        if self.allowed:
            used = ", ".join(f"#{f.id} {f.subject} = {f.value}" for f in self.facts)
            return f"OK to act on: {used}"
        return "Refused: " + "; ".join(self.reasons)
