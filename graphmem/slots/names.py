"""Subject names: the snake_case form a fact is stored under and the spelling-tolerant key.

Two statements about the same thing only reconcile if they land on the same subject (see
docs/concepts/slots.md). `normalise_subject` gives the snake_case form a free subject is
stored under; `fold_key` the key aliases match on. Every stage shares these two functions.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

__all__ = ["MAX_RAW_LENGTH", "MAX_SUBJECT_LENGTH", "fold_key", "normalise_subject", "short"]

MAX_SUBJECT_LENGTH = 200
# Raw input beyond this cannot be a sensible subject; refusing early keeps a hostile 100 KB
# string from costing a full normalisation pass on the write path.
MAX_RAW_LENGTH = 1000


def short(text: str, limit: int = 60) -> str:
    """Quote a possibly huge or hostile string for an error message without echoing it all."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"... ({len(text)} chars)"


def _fold_case(text: str) -> str:
    """NFKC + casefold + NFKC: full-width, ligature and case variants of a letter compare equal.

    The composition is idempotent over all of Unicode, so folding a folded string is a no-op.
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def _words(text: str) -> list[str]:
    """Split on every character that is not a letter, digit or a mark attached to one."""
    words: list[str] = []
    current: list[str] = []
    for ch in text:
        major = unicodedata.category(ch)[0]
        if major in "LN" or (major == "M" and current):
            current.append(ch)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return words


def _upper(ch: str) -> bool:
    """Upper case that folding changes: Cherokee capitals fold to themselves, so splitting at
    them would split the folded subject again (normalising must be idempotent)."""
    return ch.isupper() and ch.casefold() != ch


def _split_camel(text: str) -> str:
    """Insert a space at camelCase boundaries (`activeMedication`, `HTTPServer`, `ec2Instance`).

    A trailing plural `s` on an acronym (`APIs`, `URLs`) is kept with it rather than split off.
    """
    out: list[str] = []
    n = len(text)
    for i, ch in enumerate(text):
        if i > 0 and _upper(ch):
            prev = text[i - 1]
            if prev.islower() or prev.isdigit():
                out.append(" ")
            elif _upper(prev) and i + 1 < n and text[i + 1].islower():
                plural = text[i + 1] == "s" and (i + 2 == n or not text[i + 2].islower())
                if not plural:
                    out.append(" ")
        out.append(ch)
    return "".join(out)


def normalise_subject(subject: str) -> str:
    """Return the snake_case subject a fact is stored under.

    Case is folded, camelCase is split, and every run of spaces, hyphens, dots, slashes, quotes
    or other non-word characters becomes one `_`; letters and digits of any script are kept.
    The result contains only letters, digits, marks and `_`, so it is inert wherever it lands.
    Raises ValueError when nothing is left or the result is longer than 200 characters.
    """
    if not isinstance(subject, str):
        raise ValueError(f"subject must be a string, got {type(subject).__name__}")
    return _normalise(subject)


@lru_cache(maxsize=65_536)  # pure, and a write path normalises each subject more than once
def _normalise(subject: str) -> str:
    if len(subject) > MAX_RAW_LENGTH:
        raise ValueError(
            f"subject {short(subject)} is too long: use a short snake_case name "
            f"of at most {MAX_SUBJECT_LENGTH} characters"
        )
    text = unicodedata.normalize("NFKC", subject)
    words = _words(_fold_case(_split_camel(text)))
    result = "_".join(words)
    if not result:
        raise ValueError(
            f"subject {short(subject)} has no letters or digits: "
            "name what the fact is about, e.g. 'primary_database'"
        )
    if len(result) > MAX_SUBJECT_LENGTH:
        raise ValueError(
            f"subject {short(subject)} is {len(result)} characters once normalised: "
            f"use a name of at most {MAX_SUBJECT_LENGTH} characters"
        )
    return result


def fold_key(name: str) -> str:
    """Return the spelling-tolerant key aliases match on.

    Case, spaces, hyphens, underscores and all other punctuation are ignored, so
    `Drug-Allergy`, `drug allergy`, `drugAllergy` and `DRUG_ALLERGY` share one key. Matching is
    by spelling only, never by meaning. Anything that is not a string folds to "".
    """
    if not isinstance(name, str):
        return ""
    return "".join(_words(_fold_case(name)))

