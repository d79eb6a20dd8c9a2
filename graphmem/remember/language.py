"""Removal-language detection for the retract upgrade (rule 4 of the reconciliation rules).

The extractor sometimes labels "we dropped Sentry" as ADD. Code, not the model, decides that the
sentence removes something, so the upgrade is deterministic and testable. The detection is
deliberately conservative: any hedge, question, negation or sarcasm marker vetoes it, because a
missed upgrade leaves a fact in place while a false one silently deletes it.

Every check is linear in the text (the write transaction holding the space's lock runs them):
a negation is looked for by walking back from each removal phrase over at most one word, and
clauses are split in one pass. A message longer than MAX_TEXT characters is never judged to be
a removal, so for a long document the extractor's own label stands.
"""

from __future__ import annotations

import re

__all__ = ["MAX_TEXT", "has_hedge", "has_sarcasm", "is_removal", "is_removal_of"]

MAX_TEXT = 10_000
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

# A removal phrase directly preceded by a negation ("never dropped", "didn't remove"), at most
# one word between them: the negation, whitespace, optionally a word and whitespace, then the
# phrase. `_NEGATION_END` matches a negation ending exactly where it is asked to.
_NEGATION_END = re.compile(r"(?:\b(?:not|never|hardly)|n't|n’t)\Z", _FLAGS)
_LONGEST_NEGATION = len("hardly")

# "don't use it anymore" carries its own negation, so a preceding "n't" does not cancel it.
_INHERENTLY_NEGATIVE = re.compile(r"any\s?more|no\s+longer|no\s+more", _FLAGS)

# After a removal phrase, a value named behind one of these is what replaced the removed one:
# "we dropped Redux for Zustand" removes Redux, not Zustand. "to" only counts after "moved off"
# ("no longer allergic to peanuts" still removes peanuts).
_REPLACEMENT = re.compile(r"\b(?:for|in\s+favou?r\s+of|replac\w*|instead|now)\b", _FLAGS)
_MOVE_TARGET = re.compile(
    r"\b(?:for|to|onto|into|in\s+favou?r\s+of|replac\w*|instead|now)\b", _FLAGS
)

# Clauses end at sentence punctuation or a newline, or at a conjunction between whitespace
# ("…, and …", "… but …"); `_split_clauses` finds these in one pass.
_TERMINATORS = re.compile(r"[.;!?\n]+")
_CONJUNCTION = re.compile(
    r"(?:and|but|while|whereas|although|though|then|also|plus)\b\s+", _FLAGS)
_SPLIT_START = re.compile(r"[.;!?\n]|,(?=\s)|\s")
_SPACE_RUN = re.compile(r"\s+")


def has_hedge(text: str) -> bool:
    """A hedge or question marker makes a removal tentative."""
    return bool(_HEDGE.search(text))


def has_sarcasm(text: str) -> bool:
    """A sarcasm marker anywhere in the message makes every claim in it unreliable."""
    return bool(_SARCASM.search(text))


def _space_before(text: str, end: int) -> int:
    start = end
    while start > 0 and text[start - 1].isspace():
        start -= 1
    return start


def _word_before(text: str, end: int) -> int:
    start = end
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    return start


def _negation_ends_at(text: str, end: int) -> bool:
    return _NEGATION_END.search(text, max(0, end - _LONGEST_NEGATION), end) is not None


def _negated_before(text: str, end: int) -> bool:
    """A negation, whitespace, optionally one word and whitespace, right before `end`.

    Walks back over the whitespace, then over the word and the whitespace before it:
    the work is the length of that stretch, never the whole text before the phrase.
    """
    gap = _space_before(text, end)
    if gap == end:
        return False
    if _negation_ends_at(text, gap):
        return True
    word = _word_before(text, gap)
    if word == gap or word == 0 or not text[word - 1].isspace():
        return False
    return _negation_ends_at(text, _space_before(text, word))


def _definite_removal_phrase(text: str) -> bool:
    """At least one removal phrase that is not negated."""
    return any(
        _INHERENTLY_NEGATIVE.fullmatch(m.group(0)) or not _negated_before(text, m.start())
        for m in _REMOVAL.finditer(text)
    )


def is_removal(text: str) -> bool:
    """Definite removal language with no hedge or sarcasm marker (MAX_TEXT at most)."""
    if not text or len(text) > MAX_TEXT or has_sarcasm(text) or has_hedge(text):
        return False
    return _definite_removal_phrase(text)


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


def _next_split(text: str, start: int, run: list[int]) -> tuple[int, int] | None:
    """The first clause boundary at or after `start`, as (start, end).

    Sentence punctuation or a newline ends a clause; so does a conjunction after whitespace
    (with the comma before it and the whitespace after it). Every position of a whitespace run
    leads to the same conjunction check, so each run is read once: `run` holds the end of
    the last run read and whether a conjunction follows it.
    """
    while (found := _SPLIT_START.search(text, start)) is not None:
        at = found.start()
        if text[at] in ".;!?\n":
            return at, _end(_TERMINATORS.match(text, at))
        space = at + 1 if text[at] == "," else at
        if run[0] <= space:
            run[:] = [_end(_SPACE_RUN.match(text, space)), 0]
            conjunction = _CONJUNCTION.match(text, run[0])
            run[1] = conjunction.end() if conjunction else 0
        if run[1]:
            return at, run[1]
        newline = text.find("\n", at, run[0])
        if newline >= 0:
            return newline, _end(_TERMINATORS.match(text, newline))
        start = run[0]
    return None


def _end(match: re.Match[str] | None) -> int:
    assert match is not None
    return match.end()


def _split_clauses(text: str) -> list[str]:
    """The message cut at clause boundaries in one pass: what splitting on punctuation runs
    and on whitespace-conjunction-whitespace gives, without reading a whitespace run once
    per position in it."""
    clauses: list[str] = []
    last = 0
    run = [-1, 0]
    while (found := _next_split(text, last, run)) is not None:
        clauses.append(text[last:found[0]])
        last = found[1]
    clauses.append(text[last:])
    return clauses


def _clauses_mentioning(text: str, value: str) -> list[str]:
    needle = _fold(value)
    if not needle:
        return []
    return [c for c in _split_clauses(text) if needle in _fold(c)]


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
    if not text or len(text) > MAX_TEXT or has_sarcasm(text):
        return False
    clauses = _clauses_mentioning(text, value)
    if not clauses:
        return is_removal(text)
    return any(is_removal(c) and not _names_replacement(c, value) for c in clauses)
