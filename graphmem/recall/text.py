"""How a fact reads as text, for the full-text index and the embedder alike.

Subjects are snake_case (`primary_database`); an analyzer keeps `primary_database` as one
token, so the question "which database is primary?" would never meet it. Both rankers see
the same words instead: `primary database: Postgres`.
"""

from __future__ import annotations

import re

from graphmem.model import DEFAULT_SCOPE

_WORD = re.compile(r"\w+", re.UNICODE)


def words(name: str) -> str:
    return " ".join(name.replace("_", " ").split())


def fact_text(subject: str, value: str, scope: str = DEFAULT_SCOPE) -> str:
    """`primary database: Postgres`, or `state (mobile): MobX` outside the global scope."""
    where = "" if scope == DEFAULT_SCOPE else f" ({words(scope)})"
    return f"{words(subject)}{where}: {value}"


def lucene_terms(question: str, limit: int = 64) -> str:
    """The question as bare lower-case terms for a Lucene OR query.

    Only `\\w+` runs survive, lower-cased, so no operator (AND, NOT, `:`, `*`, quotes) can
    reach the query parser, whatever the question holds.
    """
    seen: dict[str, None] = {}
    for token in _WORD.findall(question.replace("_", " ")):
        seen.setdefault(token.lower(), None)
    return " ".join(list(seen)[:limit])
