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
from dataclasses import dataclass, replace
from typing import Protocol

# English function words: they join the phrases that name relations and never name one
FUNCTION_WORDS = frozenset("""
a an the this that these those some any each every all both either neither no not
of in on at to for from by with about into onto over under between through during before
after above below near via per as than then so too very just also only behind
around across against along among beside beyond inside outside toward towards upon within
without
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
_LEADING = frozenset({"in", "at", "from", "for", "to", "on", "by", "with", "of", "behind",
                      "under", "near", "inside", "within", "about", "over", "into"})
_BE = frozenset({"is", "are", "was", "were", "be", "been", "being"})
_PARTICLES = frozenset({"out", "up", "down", "off", "back", "together", "away"})
NOUN, VERB = "noun", "verb"


class Grammar(Protocol):
    """What the reader asks a lexicon: whether a word is an inflected verb (`hires`,
    `directed`) and whether it can be a verb at all."""

    def is_verb_form(self, word: str) -> bool: ...

    def verb(self, word: str) -> bool: ...

    def noun(self, word: str) -> bool: ...


def _participle(grammar: Grammar | None, word: str) -> bool:
    return (grammar is not None and grammar.is_verb_form(word)
            and not word.endswith(("s", "ing")))
_ARTICLES = frozenset({"the", "a", "an"})
_RELATIVE = frozenset({"where", "that", "which", "who", "whom", "whose"})
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_POSSESSIVE = re.compile(r"['’]s$")


@dataclass(frozen=True)
class Phrase:
    """Words of the question that name one relation or kind of entity; `before` when they
    stand before the named entity (a verb there takes the entity as its object). `kind`:
    a noun naming the entity reached, a verb said of the entity, or "" when unknown; for a
    verb, `subject` when the entity is its subject and `passive` when the verb is (then
    the entity is what it acts on, or, after `by`, its doer)."""

    text: str
    before: bool
    kind: str = ""
    subject: bool = False
    passive: bool = False
    # a noun naming the entity by its relation to the last ("X's manager", "the employer
    # of X"), not by its class ("the company X works for")
    relational: bool = False
    # what a verb's other end is called ("the company that hires X": company; the last verb of
    # "who ...?": person)
    expects: str = ""
    answer: bool = False  # the noun of `which city`: the answer's class, maybe its relation

    @property
    def agent(self) -> bool:
        """The entity does what the verb says (`X directed`, `written by X`)."""
        return self.subject != self.passive


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


@dataclass
class _Run:
    words: list[str]
    after: str | None = None  # the function word right after the run, if one is
    before: str | None = None  # the function word right before it
    split: bool = False  # split from the noun before it ("films | written by")


def _runs(words: list[str], grammar: Grammar | None) -> list[_Run]:
    """Runs of content words; a possessive ends its run (`boss's manager`: two runs), and so
    does a noun before a participle (`films written`: the films, then what was written)."""
    found: list[_Run] = []
    current: _Run | None = None
    previous: str | None = None
    for word in words:
        possessive = bool(_POSSESSIVE.search(word))
        bare = _POSSESSIVE.sub("", word)
        if bare in FUNCTION_WORDS:
            if current is not None:
                current.after = bare
                current = None
            previous = bare
            continue
        split = current is not None and grammar is not None and (
            _participle(grammar, bare) or (bare.endswith("ing") and grammar.verb(bare))
            # two verbs in a row ("wrote direct"): two clauses' verbs
            or (grammar.is_verb_form(current.words[-1]) and grammar.verb(bare)
                and bare not in _PARTICLES))
        if split:
            current = None
        if current is None:
            current = _Run([], None, previous, split)
            found.append(current)
        current.words.append(bare)
        previous = None
        if possessive:
            current = None
    return found


def _phrases(words: list[str], before: bool, grammar: Grammar | None = None) -> list[Phrase]:
    return [Phrase(" ".join(r.words), before) for r in _runs(words, grammar)]


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


def read(question: str, name: str, others: tuple[str, ...] = (),
         grammar: Grammar | None = None) -> Question:
    """Read `question` around the mention of `name` (both normalised by `normalise`); the
    words of `others` (other named entities) name no relation. With a `grammar`, each
    phrase is told apart as a noun or a verb and placed against the entity."""
    text = normalise(question)
    at = text.find(name)
    if at < 0:
        return Question(tuple(_phrases(_drop(_words(text), others), False, grammar)), None,
                        others)
    pre = _drop(_words(text[:at]), others)
    rest = text[at + len(name):]
    post = _drop(_words(rest), others)
    kind, lead = _wh(pre)
    chain: list[str] = []
    if re.match(r"['’]s\b", rest):  # the name's possessive chain: "X's boss's manager"
        post = post[1:] if post and post[0] == "s" else post
        asked_with_do = bool({"do", "does", "did"} & set(pre))
        # the verb a `do` asks about is the last content word
        last_content = max((k for k, w in enumerate(post) if w not in FUNCTION_WORDS),
                           default=-1)
        in_clause = _clause_subject(pre)  # "the company X's manager works for"
        while post:
            word = post.pop(0)
            chain.append(word)
            if _POSSESSIVE.search(word):
                continue
            more = post[0] if post else None
            # a possessed noun runs on through nouns ("X's home city", "X's doctoral
            # advisor") up to a verb, a function word, or the verb a `do` asks about
            if (grammar is None or more is None or more in FUNCTION_WORDS or in_clause
                    or not grammar.noun(_POSSESSIVE.sub("", more))
                    or _participle(grammar, _POSSESSIVE.sub("", more))
                    or (asked_with_do and len(chain) == last_content)):
                break
    passive = bool(_BE & set(pre)) or "by" in post
    phrases = [Phrase(" ".join(r.words), False, NOUN if grammar else "",
                      relational=bool(grammar)) for r in _runs(chain, grammar)]
    if grammar is None:  # no lexicon: the clause's verb first, then the words before
        opening = _runs(post, grammar)[:1] if _clause_subject(pre) else []
        later = _runs(post, grammar)[len(opening):]
        phrases += [_verb_after(r, None, False) for r in opening]
        phrases += [_before(r, None, False) for r in reversed(_runs(lead, grammar))]
        phrases += [_verb_after(r, None, False) for r in later]
        return Question(tuple(phrases), kind, others)
    verbs = _runs(post, grammar)  # the verbs after the name, in the order they come
    verb_since = False  # a verb before the name since the last clause opened
    for k, run in enumerate(reversed(_runs(lead, grammar))):
        adjacent = k == 0 and not _clause_subject(pre)
        phrase = _before(run, grammar, adjacent)
        opens = (phrase.kind == NOUN and not phrase.relational
                 and run.after not in _LEADING)
        if opens and not verb_since and verbs:
            # "the films [the writer of X] wrote", "the company [X] works for": a class
            # noun opens a clause whose verb stands after the name
            verb = verbs.pop(0)
            phrases.append(_verb_after(verb, grammar, passive=_participle(
                grammar, verb.words[-1]) and (verb.after == "by" or verb.before in _BE)))
        verb_since = (verb_since or phrase.kind == VERB) and not opens
        phrases.append(phrase)
    phrases += [_verb_after(r, grammar, passive) for r in verbs]
    return Question(_expecting(phrases, kind), kind, others)


def _expecting(phrases: list[Phrase], kind: str | None) -> tuple[Phrase, ...]:
    """Each verb told what its other end is called: the class noun after it in outward
    order, or, for the last, what the question asks for."""
    found = list(phrases)
    for k, phrase in enumerate(found):
        if phrase.kind != VERB:
            continue
        after = found[k + 1] if k + 1 < len(found) else None
        if after is not None and after.kind == NOUN and not after.relational:
            found[k] = replace(phrase, expects=after.text)
        elif after is None and kind:
            found[k] = replace(phrase, expects=kind)
    return tuple(found)


def _verb_after(run: _Run, grammar: Grammar | None, passive: bool) -> Phrase:
    """A run after the entity: the entity is its subject (a verb), or it is a noun."""
    text = " ".join(run.words)
    if grammar is None:
        return Phrase(text, False)
    if grammar.verb(run.words[-1]) or grammar.is_verb_form(run.words[-1]):
        return Phrase(text, False, VERB, subject=True,
                      passive=passive and _participle(grammar, run.words[-1]))
    return Phrase(text, False, NOUN)


def _before(run: _Run, grammar: Grammar | None, adjacent: bool) -> Phrase:
    """A run before the entity. Next to it: a noun when `of` joins them ("the employer of
    X"), else a verb taking it as object ("hires X", "reports to X"), or, after `by`,
    as doer ("written by X"); a participle followed by another preposition acts on what
    names the entity's place ("headquartered in X"). Further off: the noun the question
    is about ("the company that hires X"), or a participle said of it."""
    text = " ".join(run.words)
    if grammar is None:
        return Phrase(text, True)
    last = run.words[-1]
    verbish = grammar.is_verb_form(last) or grammar.verb(last)
    # a participle is passive after a noun ("films written") or a form of `be`
    passive = _participle(grammar, last) and (run.split or run.before in _BE)
    if adjacent and run.after != "of" and verbish and (run.after is None
                                                        or run.after in _LEADING):
        by = run.after == "by" or (passive and run.after is not None)
        return Phrase(text, True, VERB, subject=False, passive=by)
    if not adjacent and grammar.is_verb_form(last) and (
            passive or run.split or run.before is None or run.before in _RELATIVE):
        return Phrase(text, True, VERB, subject=False, passive=passive)
    # "the employer of X", "the actors in X": named by relation; "the company that ...",
    # "the films X directed": named by class
    return Phrase(text, True, NOUN, relational=run.after in _LEADING)


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
