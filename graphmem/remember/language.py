"""Removal-language detection for the retract upgrade (seed 000 rule 3, DESIGN reading 8).

The extractor sometimes labels "we dropped Sentry" as ADD. Code, not the model, decides that the
sentence removes something, so the upgrade is deterministic and testable. The detection is
deliberately conservative: any hedge, question, negation or sarcasm marker vetoes it, because a
missed upgrade leaves a fact in place while a false one silently deletes it.
"""

from __future__ import annotations

import re

__all__ = ["has_hedge", "has_sarcasm", "is_removal", "is_removal_of"]

_FLAGS = re.IGNORECASE

# Definite removal phrases. "dropped to 20 mg" is a dose change, not a removal.
_REMOVAL = re.compile(
    r"\b(?:"
    r"drop(?:s|ped|ping)?(?!\s+(?:to|from|by|down|below|under)\b)"
    r"|no\s+longer"
    r"|no\s+more(?!\s+than)"
    r"|any\s?more"
    r"|remov(?:e|es|ed|ing)"
    r"|discontinu(?:e|es|ed|ing)"
    r"|stop(?:s|ped|ping)?\s+(?:using|taking|running|paying\s+for|with)"
    r"|(?:got|gotten|get|getting)\s+rid\s+of"
    r"|ditch(?:ed|es)?"
    r"|retired"
    r"|deprecated"
    r"|uninstall(?:ed|s)?"
    r"|cancell?ed"
    r"|abandoned"
    r"|moved\s+(?:off|away\s+from)"
    r"|quit(?:s|ting)?"
    r"|sunset(?:ted)?"
    r"|deleted"
    r"|scrapped"
    r"|decommissioned"
    r"|dumped"
    r"|(?:phased|ripped|taken|took)\s+out"
    r"|(?:shut|turned|switched)\s+(?:down|off)"
    r")\b"
    r"|(?:\b(?:is|are|was|were|now)|'s|’s)\s+(?:now\s+)?gone\b",
    _FLAGS,
)

# Anything that makes the statement tentative, conditional, future or a question.
_HEDGE = re.compile(
    r"\?"
    r"|\b(?:"
    r"maybe|might|perhaps|possibly|probably|hopefully|likely|unless|if"
    r"|should|could|would|shall|will|won't|'ll"
    r"|consider(?:s|ed|ing)?|thinking\s+(?:about|of)|what\s+if|wonder(?:ing)?"
    r"|planning\s+to|plan(?:s|ned)?\s+to|going\s+to|gonna|about\s+to"
    r"|want(?:s)?\s+to|hope\s+to|not\s+sure|unsure|tbd"
    r"|(?:we|i|they|you)\s+may|may\s+(?:be|have|want|need)"
    r")\b"
    r"|'ll\b|’ll\b",
    _FLAGS,
)

_SARCASM = re.compile(
    r"\b(?:yeah|yea|ya)\W+(?:right|sure)\b"
    r"|\b(?:oh|yeah)\W+(?:sure|totally)\b"
    r"|\bsure\s*(?:\.{2,}|…)"
    r"|\bas\s+if\b"
    r"|\b(?:lol|lmao|rofl|haha\w*|jk|kidding)\b"
    r"|\btotally\b"
    r"|(?:^|\s)/s\b"
    r"|🙄|😏|😂",
    _FLAGS,
)

# A removal phrase directly preceded by a negation ("never dropped", "didn't remove").
_NEGATED = re.compile(r"(?:\b(?:not|never|hardly)|n't|n’t)\s+(?:\w+\s+)?$", _FLAGS)

# "don't use it anymore" carries its own negation, so a preceding "n't" does not cancel it.
_INHERENTLY_NEGATIVE = re.compile(r"any\s?more|no\s+longer|no\s+more", _FLAGS)

# After a removal phrase, a value named behind one of these is what replaced the removed one:
# "we dropped Redux for Zustand" removes Redux, not Zustand. "to" only counts after "moved off"
# ("no longer allergic to peanuts" still removes peanuts).
_REPLACEMENT = re.compile(r"\b(?:for|in\s+favou?r\s+of|replac\w*|instead|now)\b", _FLAGS)
_MOVE_TARGET = re.compile(
    r"\b(?:for|to|onto|into|in\s+favou?r\s+of|replac\w*|instead|now)\b", _FLAGS
)

_CLAUSE_SPLIT = re.compile(
    r"[.;!?\n]+|,?\s+\b(?:and|but|while|whereas|although|though|then|also|plus)\b\s+", _FLAGS
)


def has_hedge(text: str) -> bool:
    """A hedge or question marker makes a removal tentative."""
    return bool(_HEDGE.search(text))


def has_sarcasm(text: str) -> bool:
    """A sarcasm marker anywhere in the message makes every claim in it unreliable."""
    return bool(_SARCASM.search(text))


def _definite_removal_phrase(text: str) -> bool:
    """At least one removal phrase that is not negated."""
    return any(
        _INHERENTLY_NEGATIVE.fullmatch(m.group(0)) or not _NEGATED.search(text[: m.start()])
        for m in _REMOVAL.finditer(text)
    )


def is_removal(text: str) -> bool:
    """Definite removal language with no hedge or sarcasm marker."""
    if not text or has_sarcasm(text) or has_hedge(text):
        return False
    return _definite_removal_phrase(text)


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


def _clauses_mentioning(text: str, value: str) -> list[str]:
    needle = _fold(value)
    if not needle:
        return []
    return [c for c in _CLAUSE_SPLIT.split(text) if needle in _fold(c)]


def _names_replacement(clause: str, value: str) -> bool:
    """True when `value` appears only as the replacement after the removal phrase."""
    folded, needle = _fold(clause), _fold(value)
    removal = _REMOVAL.search(folded)
    if removal is None:
        return False
    tail = folded[removal.end() :]
    markers = _MOVE_TARGET if removal.group(0).startswith("moved") else _REPLACEMENT
    marker = markers.search(tail)
    if marker is None:
        return False
    before = (folded[: removal.start()], tail[: marker.start()])
    return needle in tail[marker.end() :] and all(needle not in part for part in before)


def is_removal_of(text: str, value: str) -> bool:
    """Definite removal language about `value`, judged clause by clause.

    "We moved to Postgres and dropped Redis" removes Redis, not Postgres: when the value is
    named in the message only the clauses naming it count (sarcasm still vetoes message-wide).
    When the extractor reworded the value, the whole message is judged.
    """
    if not text or has_sarcasm(text):
        return False
    clauses = _clauses_mentioning(text, value)
    if not clauses:
        return is_removal(text)
    return any(is_removal(c) and not _names_replacement(c, value) for c in clauses)
