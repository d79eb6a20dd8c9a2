"""The readings of a relation, from each source: its label read grammatically, the lexicon's
derivations of the label's verb, the text its facts were written from, a model's
description and the space's declaration. Pure: the lexicon is passed in.

A label is read as English labels are written: a verb (`works at`, `makes`), a passive or
stative participle (`directed by`, `headquartered in`: the head is what the verb acts on),
a noun the head has (`has part`, `release year`, `starred actors`: the noun names the
tail) or a noun the head is (`part of`: the noun names the head). The lexicon adds the
nouns derived from the label's verb, each naming the end it stands for: the doer of an
active verb is its head (`produces` → producer), of a `by` passive its tail (`directed by` →
director); what an active verb makes or acts on is its tail (`makes` → product).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from graphmem.lexicon.senses import Senses
from graphmem.model.relations import (
    Reading,
    ReadingKind,
    ReadingSource,
    RelationDeclaration,
)
from graphmem.recall.question import FUNCTION_WORDS

PREPOSITIONS = frozenset({"at", "in", "to", "by", "of", "for", "from", "with", "on", "into",
                          "under", "over", "as", "about", "onto", "via"})
HAVING = frozenset({"has", "have", "had", "having", "with"})
_WORD = re.compile(r"[^\W\d_]+")


def words(text: str) -> list[str]:
    """Lower-case letter words: `directed_by` → [directed, by]; `worksAt` → [works, at]."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    return [w.casefold() for w in _WORD.findall(spaced)]


def content(text: str) -> list[str]:
    return [w for w in words(text) if w not in FUNCTION_WORDS]


def participle(senses: Senses, word: str) -> bool:
    """A past participle (`directed`, `written`, `based`): an inflected verb form that is
    not a present tense or a gerund."""
    return senses.is_verb_form(word) and not word.endswith(("s", "ing"))


def passive_phrase(senses: Senses, text: str) -> bool:
    """Verb words that put the patient first: a participle followed by a preposition
    (`directed by`, `located in`)."""
    found = words(text)
    return any(participle(senses, w) and nxt in PREPOSITIONS
               for w, nxt in zip(found, found[1:], strict=False))


def _noun_readings(senses: Senses, nouns: Sequence[str], kind: ReadingKind,
                   source: ReadingSource) -> list[Reading]:
    return [Reading(n, kind, source, agent=senses.agentive(n.split()[-1])) for n in nouns]


def label_readings(label: str, senses: Senses | None) -> list[Reading]:
    """The label read grammatically, and the nouns the lexicon derives from its verb."""
    tokens = words(label)
    kept = [w for w in tokens if w not in FUNCTION_WORDS or w in PREPOSITIONS]
    main = [w for w in tokens if w not in FUNCTION_WORDS]
    text = " ".join(main) or label.casefold()
    if senses is None or not main:
        return [Reading(text, ReadingKind.FORWARD, ReadingSource.LABEL)]
    first = main[0]
    ends_with_of = bool(tokens) and tokens[-1] == "of"
    having = bool(tokens) and tokens[0] in HAVING
    verb_first = senses.is_verb_form(first) and not ends_with_of and not having
    nouns = [w for w in main if not senses.is_verb_form(w) and "n" in senses.parts_of_speech(w)]
    if verb_first and not (participle(senses, first) and len(main) > 1 and nouns
                           and tokens[-1] not in PREPOSITIONS):
        return _verb_label(senses, " ".join(kept), first)
    # a noun label: what the head has (`release year`), or is (`part of`)
    kind = ReadingKind.HEAD if ends_with_of else ReadingKind.TAIL
    found = _noun_readings(senses, [" ".join(nouns)] if nouns else [text], kind,
                           ReadingSource.LABEL)
    found += [Reading(w, ReadingKind.FORWARD, ReadingSource.LABEL)
              for w in main if senses.is_verb_form(w)]
    return found


def _verb_label(senses: Senses, phrase: str, verb: str) -> list[Reading]:
    passive = passive_phrase(senses, phrase)
    found = [Reading(phrase, ReadingKind.FORWARD, ReadingSource.LABEL, passive=passive)]
    by = phrase.split()[-1] == "by"
    found += _derived(senses, verb, head_does=not passive, doer_known=by or not passive)
    if not passive:
        # a verb defined as another's passive ("X: be Y-ed") reads the other way round
        # with the other verb, whose doer is the tail
        for other, weight in senses.converses(verb):
            found.append(Reading(other, ReadingKind.INVERSE, ReadingSource.LEXICON,
                                 weight=weight))
            found += [replace(r, weight=r.weight * weight) for r in _derived(
                senses, other, head_does=False, doer_known=True)]
    return found


def _derived(senses: Senses, verb: str, head_does: bool, doer_known: bool) -> list[Reading]:
    """The nouns derived from `verb`, each naming the end it stands for: the doer is the
    head when `head_does`, else the tail; what the verb acts on is the other end."""
    found = []
    for noun, agent, weight in senses.derived_nouns(verb):
        agent = agent and not noun.endswith("ee")  # an advisee is advised, not advising
        if agent and doer_known:
            kind = ReadingKind.HEAD if head_does else ReadingKind.TAIL
        elif not agent and (head_does or noun.endswith("ee")):
            kind = ReadingKind.TAIL if head_does else ReadingKind.HEAD
        else:
            continue
        found.append(Reading(noun, kind, ReadingSource.LEXICON, agent=agent, weight=weight))
    return found


def subject_readings(roles: Iterable[str], senses: Senses | None, label: str
                     ) -> list[Reading]:
    """The roles facts' subjects gave the tail (`amara_dunmore_manager` → manager): the
    writer's own word for it, unless it only repeats the label."""
    label_words = set(words(label))
    found = []
    for role in dict.fromkeys(roles):
        role_words = content(role)
        if not role_words or set(role_words) <= label_words:
            continue
        agent = senses.agentive(role_words[-1]) if senses else False
        found.append(Reading(" ".join(role_words), ReadingKind.TAIL, ReadingSource.TEXT,
                             agent=agent))
    return found


def declared_readings(declaration: RelationDeclaration, senses: Senses | None,
                      source: ReadingSource = ReadingSource.DECLARED) -> list[Reading]:
    """A declaration's (or a model's description's) words, each its own reading."""
    found: list[Reading] = []
    for phrase in declaration.forward:
        found.append(Reading(phrase.casefold(), ReadingKind.FORWARD, source,
                             passive=senses is not None and passive_phrase(senses, phrase)))
    for phrase in declaration.inverse:
        found.append(Reading(phrase.casefold(), ReadingKind.INVERSE, source,
                             passive=senses is not None and passive_phrase(senses, phrase)))
    for nouns, kind in ((declaration.tail_nouns, ReadingKind.TAIL),
                        (declaration.head_nouns, ReadingKind.HEAD)):
        for noun in nouns:
            last = content(noun)[-1:] or [noun]
            found.append(Reading(noun.casefold(), kind, source,
                                 agent=senses is not None and senses.agentive(last[0])))
    return found
