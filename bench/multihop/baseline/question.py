"""A question read for path ranking: the phrases that name its relations, in the order the
question applies them from the entity it names outwards, and the kind of answer it asks for.

"In which city is the employer of Amara Dunmore's manager headquartered?" applies, from Amara
outwards: manager (her possessive chain), employer (the `of` before her), headquartered (the
predicate); it asks for a city. The reading is grammatical only (function words, possessives,
the position of the name); which relation a phrase means is left to the ranking, which
compares phrases with the relations the graph holds.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# English function words: they join the phrases that name relations and never name one
FUNCTION_WORDS = frozenset("""
a an the this that these those some any each every all both either neither no not
of in on at to for from by with about into onto over under between through during before
after above below near via per as than then so too very just also only
and or but nor if because while whereas although though
is are was were be been being am do does did done doing has have had having
can could will would shall should may might must
it its they them their theirs he him his she her hers we us our ours you your yours
i me my mine one ones there here which what who whom whose where when why how
""".split())
# a wh-word asks for an entity of this kind
WH_KINDS = {"where": "place", "who": "person", "whom": "person", "whose": "person",
            "when": "time"}
_WH_NOUN = ("which", "what")
_LEADING = frozenset({"in", "at", "from", "for", "to", "on", "by", "with", "of"})
_ARTICLES = frozenset({"the", "a", "an"})
_RELATIVE = frozenset({"where", "that", "which", "who", "whom", "whose"})
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_POSSESSIVE = re.compile(r"['’]s$")


@dataclass(frozen=True)
class Phrase:
    """Words of the question that name one relation or kind of entity; `before` when they
    stand before the named entity (a verb there takes the entity as its object)."""

    text: str
    before: bool


@dataclass(frozen=True)
class Question:
    """The phrases in outward order from the named entity, the kind of answer asked for
    (`city`, `person`, ...; None when the question does not say), and the other entities the
    question names ("how is X related to Y": a path from X that ends at Y answers it)."""

    phrases: tuple[Phrase, ...]
    answer_kind: str | None
    others: tuple[str, ...] = ()  # other entities it names: a path may end at one of them


def normalise(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def _phrases(words: list[str], before: bool) -> list[Phrase]:
    """Runs of content words; a possessive ends its run (`boss's manager`: two phrases)."""
    found: list[Phrase] = []
    run: list[str] = []
    for word in words:
        possessive = bool(_POSSESSIVE.search(word))
        bare = _POSSESSIVE.sub("", word)
        if bare in FUNCTION_WORDS:
            if run:
                found.append(Phrase(" ".join(run), before))
                run = []
            continue
        run.append(bare)
        if possessive:
            found.append(Phrase(" ".join(run), before))
            run = []
    if run:
        found.append(Phrase(" ".join(run), before))
    return found


def _wh(lead: list[str]) -> tuple[str | None, list[str]]:
    """The kind of answer the leading wh-phrase asks for, and the words after it."""
    while lead and lead[0] in _LEADING:
        lead = lead[1:]
    if not lead:
        return None, lead
    if lead[0] in WH_KINDS:
        return WH_KINDS[lead[0]], lead[1:]
    if lead[0] in _WH_NOUN:
        if len(lead) > 1 and lead[1] not in FUNCTION_WORDS:
            return _POSSESSIVE.sub("", lead[1]), lead[2:]
        return None, lead[1:]
    return None, lead


def read(question: str, name: str, others: tuple[str, ...] = ()) -> Question:
    """Read `question` around the mention of `name` (both normalised by `normalise`); the
    words of `others` (other named entities) name no relation."""
    text = normalise(question)
    at = text.find(name)
    if at < 0:
        return Question(tuple(_phrases(_drop(_words(text), others), False)), None, others)
    pre = _drop(_words(text[:at]), others)
    rest = text[at + len(name):]
    post = _drop(_words(rest), others)
    kind, lead = _wh(pre)
    chain: list[str] = []
    if re.match(r"['’]s\b", rest):  # the name's possessive chain: "X's boss's manager"
        post = post[1:] if post and post[0] == "s" else post
        while post:
            word = post.pop(0)
            chain.append(word)
            if not _POSSESSIVE.search(word):
                break
    own: list[Phrase] = []
    if not chain and _clause_subject(pre):
        # "the company X works for", "the city where X is based": X is the subject of the
        # clause, so the verb after it is X's own relation
        own = _phrases(post, False)[:1]
        if own:
            post = _after(post, len(own[0].text.split()))
    phrases = (_phrases(chain, False) + own + list(reversed(_phrases(lead, True)))
               + _phrases(post, False))
    return Question(tuple(phrases), kind, others)


def _after(words: list[str], content: int) -> list[str]:
    """The words after the first `content` content words."""
    for k, word in enumerate(words):
        if _POSSESSIVE.sub("", word) not in FUNCTION_WORDS:
            content -= 1
            if not content:
                return words[k + 1:]
    return []


def _clause_subject(pre: list[str]) -> bool:
    """The name opens a relative clause: after `the <noun>` or a relative word."""
    if pre and pre[-1] in _RELATIVE:
        return True
    return len(pre) > 1 and pre[-1] not in FUNCTION_WORDS and pre[-2] in _ARTICLES


def _drop(words: list[str], others: tuple[str, ...]) -> list[str]:
    gone = {w for other in others for w in _words(other)}
    return [w for w in words if _POSSESSIVE.sub("", w) not in gone]
