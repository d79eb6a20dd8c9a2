"""What WordNet says about the words of questions and relations: how closely two words are
related, what part of speech a word can be, whether a noun names a doer, and whether a noun
names a kind of entity (a `manager` is a person, a `city` a location).

Relatedness spreads from each word over its senses (the first ones weigh most) and the
synsets one link away: derivationally related forms (`employer` ↔ `employ`), hypernyms
(`produce` → `make`), hyponyms of small synsets, verb groups, similar and pertaining
adjectives, and the words of the first senses' definitions (`live`: "inhabit or live in"). Two
words are as related as the best synset both reach, by the product of the weights.
Everything is computed on demand and remembered.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from graphmem.lexicon.wordnet import Synset, WordNet

SenseId = tuple[str, int]
Cloud = dict[SenseId, tuple[float, bool]]  # weight, reached only by climbing

SENSE_DECAY = 0.85  # the weight of each further sense of a word
MAX_SENSES = 8
LINKS = {"+": 0.85, "@": 0.7, "@i": 0.7, "$": 0.8, "&": 0.8, "<": 0.8, "\\": 0.8,
         "^": 0.6, "~": 0.6, "~i": 0.5, "*": 0.6, ">": 0.5}
MAX_HYPONYMS = 12
# a synset with more hyponyms is too general to relate those it covers
SECOND_STEP_SENSES = 3  # senses whose hypernyms' and derivations' derivations are reached
GLOSS_WEIGHT = 0.25
SIBLINGS = 0.5  # two words that meet only at a synset above both
SPECIFIC = 4  # a hypernym this deep or deeper makes the nouns under it cousins
GLOSS_SENSES = 2
_GLOSS_WORD = re.compile(r"[a-z]+(?:-[a-z]+)?")
_NOT_CONTENT = frozenset("""
a an the of in on at to for from by with about into as or and but not no is are be been
being was were has have had do does did that which who whom whose what when where how this
these those it its their his her one ones someone something somebody usually especially
often etc e g i used use make made give given take taken get any some other such than
more most very certain particular person people thing things
""".split())
# genus words of a definition that say what kind of thing a noun is ("a person or business")
_GENUS_STOP = frozenset({"that", "who", "which", "whose", "whom", "in", "of", "for", "to",
                         "with", "from", "on", "at", "by", "as", ";"})
AGENT_LEXNAMES = frozenset({"noun.person", "noun.group"})
# nouns a definition names a collection by: "a group of X" is X's kind
COLLECTIVES = frozenset({"group", "set", "collection", "body", "number", "class", "crowd",
                         "kind", "type"})


class Senses:
    """Relatedness, parts of speech and kinds over one WordNet, cached."""

    def __init__(self, wordnet: WordNet, cache: int = 50_000) -> None:
        self.wn = wordnet
        self.cloud = lru_cache(maxsize=cache)(self._cloud)
        self.related = lru_cache(maxsize=cache)(self._related)
        self.closure = lru_cache(maxsize=cache)(self._closure)
        self.kind = lru_cache(maxsize=cache)(self._kind)
        self.same_lemma = lru_cache(maxsize=cache)(self._same_lemma)
        self._depths: dict[SenseId, int] = {}
        self.agentive = lru_cache(maxsize=cache)(self._agentive)
        self.parts_of_speech = lru_cache(maxsize=cache)(
            self._parts_of_speech)

    # ---- parts of speech ----------------------------------------------------------------
    def _parts_of_speech(self, word: str) -> frozenset[str]:
        return frozenset(p for p in ("n", "v", "a", "r") if self.wn.base_forms(word, p))

    def is_verb_form(self, word: str) -> bool:
        """An inflected verb (`hires`, `directed`, `starring`, `written`), not a base form
        that could as well be a noun."""
        word = word.casefold()
        bases = self.wn.base_forms(word, "v")
        return bool(bases) and word not in bases

    def noun_only(self, word: str) -> bool:
        return self.parts_of_speech(word) == frozenset({"n"})

    def verb(self, word: str) -> bool:
        return "v" in self.parts_of_speech(word)

    def noun(self, word: str) -> bool:
        return "n" in self.parts_of_speech(word)

    # ---- relatedness --------------------------------------------------------------------
    def _senses(self, word: str, pos: Iterable[str]) -> list[tuple[float, Synset]]:
        found: dict[SenseId, tuple[float, Synset]] = {}
        for p in pos:
            for rank, synset, _ in self.wn.lookup(word, p):
                if rank >= MAX_SENSES:
                    continue
                weight = SENSE_DECAY ** rank
                if found.get(synset.id, (0.0,))[0] < weight:
                    found[synset.id] = (weight, synset)
        return list(found.values())

    def _cloud(self, word: str, pos: str = "nvar") -> Cloud:
        """The synsets `word` reaches, each with the weight of its best route and whether
        that route only climbed to it (a hypernym): two words that meet only above both
        are siblings (two verbs whose only link is `have`), weaker evidence than a link."""
        cloud: Cloud = {}

        def reach(sense: SenseId, weight: float, up: bool = False) -> None:
            was = cloud.get(sense)
            if was is None or was[0] < weight or (was[0] == weight and was[1] and not up):
                cloud[sense] = (weight, up)

        for rank, (weight, synset) in enumerate(self._senses(word, pos)):
            reach(synset.id, weight)
            hyponyms = sum(1 for p in synset.pointers if p.symbol == "~")
            for pointer in synset.pointers:
                factor = LINKS.get(pointer.symbol)
                if factor is None or (pointer.symbol == "~" and hyponyms > MAX_HYPONYMS):
                    continue
                up = pointer.symbol in ("@", "@i")
                reach((pointer.pos, pointer.offset), weight * factor, up)
                if rank < SECOND_STEP_SENSES and pointer.symbol in ("@", "+"):
                    # a second step to the verb behind a noun's kind (boss → superior →
                    # supervise) or a derivation's own (employer → hire → employee)
                    for second in self.wn.synset(pointer.pos, pointer.offset).pointers:
                        if second.symbol == "+":
                            reach((second.pos, second.offset),
                                  weight * factor * LINKS["+"], up)
        for weight, synset in self._senses(word, pos)[:GLOSS_SENSES]:
            for gloss_word in self.gloss_words(synset):
                for w2, s2 in self._senses(gloss_word, "nv")[:2]:
                    reach(s2.id, weight * w2 * GLOSS_WEIGHT)
        return cloud

    @staticmethod
    def gloss_words(synset: Synset) -> list[str]:
        """The content words of a synset's definition (not its quoted examples)."""
        definition = synset.gloss.split(";")[0].split('"')[0].casefold()
        return [w for w in _GLOSS_WORD.findall(definition) if w not in _NOT_CONTENT
                and len(w) > 2 and w not in synset.words]

    def _related(self, a: str, b: str) -> float:
        """How related two words are, from 0 (nothing links them) to 1 (the same lemma)."""
        a, b = a.casefold(), b.casefold()
        if a == b:
            return 1.0
        if self.same_lemma(a, b):
            return 1.0
        one, two = self.cloud(a), self.cloud(b)
        if len(two) < len(one):
            one, two = two, one
        best = 0.0
        for sense, (weight, up) in one.items():
            other = two.get(sense)
            if other is not None:
                value = weight * other[0] * (SIBLINGS if up and other[1] else 1.0)
                best = max(best, value)
        return best

    def _same_lemma(self, a: str, b: str) -> bool:
        """Two forms of one word (`hires`/`hired`, `headquarters`/`headquartered`)."""
        forms = {f for p in ("n", "v", "a") for f in self.wn.base_forms(a, p)}
        if forms & {f for p in ("n", "v", "a") for f in self.wn.base_forms(b, p)}:
            return True
        stem_a, stem_b = _stem(a), _stem(b)
        return len(stem_a) > 4 and stem_a == stem_b

    # ---- kinds --------------------------------------------------------------------------
    def _closure(self, pos: str, offset: int, depth: int = 10) -> frozenset[SenseId]:
        """The synset and every hypernym above it."""
        seen: set[SenseId] = set()
        frontier = [(pos, offset)]
        for _ in range(depth):
            grown = []
            for sense in frontier:
                if sense in seen:
                    continue
                seen.add(sense)
                synset = self.wn.synset(*sense)
                grown += [(p.pos, p.offset) for p in synset.pointers
                          if p.symbol in ("@", "@i")]
            frontier = grown
            if not frontier:
                break
        return frozenset(seen)

    def _kind(self, noun: str, kind: str) -> float:
        """How surely `noun` names a `kind` of thing (0 to 1): a sense of the noun below a
        sense of the kind (a manager is a person), or the kind below the noun (a city is a
        place), weighted by how common each sense is; the genus words of a noun's definition
        count too ("employer: a person or ... that hires")."""
        noun, kind = noun.casefold(), kind.casefold()
        if noun == kind or self.same_lemma(noun, kind):
            return 1.0
        targets = [(w, s.id) for w, s in self._senses(kind, "n")[:3]]
        if not targets:
            return 0.0
        best = 0.0
        for weight, synset in self._senses(noun, "n"):
            above = self.closure(*synset.id)
            for w2, target in targets:
                if target in above:
                    best = max(best, weight * w2)
                elif synset.id in self.closure(*target):
                    best = max(best, 0.9 * weight * w2)
        for weight, synset in self._senses(noun, "n")[:3]:
            # cousins: both a kind of one thing, two links up at most (a city and a village
            # are municipalities; a college and a university, educational institutions)
            near = self._near(synset.id)
            for w2, target in targets:
                if near & self._near(target):
                    best = max(best, 0.7 * weight * w2)
        for weight, synset in self._senses(noun, "n")[:2]:
            for genus in self.genus(synset):
                for w2, sense in self._senses(genus, "n")[:1]:
                    above = self.closure(*sense.id)
                    if any(t in above for _, t in targets):
                        best = max(best, 0.8 * weight * w2)
        return best

    def _near(self, sense: SenseId) -> frozenset[SenseId]:
        """The hypernyms one and two links above a synset that are specific: far enough
        from the top (`physical entity` makes no cousins)."""
        first = [(p.pos, p.offset) for p in self.wn.synset(*sense).pointers
                 if p.symbol in ("@", "@i")]
        second = [(p.pos, p.offset) for s in first for p in self.wn.synset(*s).pointers
                  if p.symbol in ("@", "@i")]
        return frozenset(s for s in first + second if self.depth(s) >= SPECIFIC)

    def depth(self, sense: SenseId) -> int:
        """Links from the top of WordNet's hierarchy down to the synset (shortest way)."""
        found = self._depths.get(sense)
        if found is None:
            up = [(p.pos, p.offset) for p in self.wn.synset(*sense).pointers
                  if p.symbol in ("@", "@i")]
            self._depths[sense] = 0  # a cycle (none in WordNet 3.0) ends here
            found = self._depths[sense] = 1 + min((self.depth(u) for u in up), default=-1)
        return found

    def genus(self, synset: Synset) -> list[str]:
        """The words a definition opens with, up to its first relative or preposition, its
        parenthesised remarks left out; for a plural noun, through `of` after a collective
        ("people: (plural) any group of human beings": human beings)."""
        gloss = synset.gloss.split(";")[0].casefold()
        plural = gloss.startswith("(plural)")  # a plural noun: its members are the kind
        definition = re.sub(r"\([^)]*\)", " ", gloss)
        found: list[str] = []
        for word in _GLOSS_WORD.findall(definition):
            if plural and word == "of" and found and found[-1] in COLLECTIVES:
                found.pop()
                continue
            if word in _GENUS_STOP:
                break
            if word in ("a", "an", "the", "or", "and", "any", "one", "some"):
                continue
            if not plural and word not in self.wn.base_forms(word, "n") \
                    and self.wn.base_forms(word, "n"):
                continue  # "the persons who make up a body": a body of them, no person
            found.append(word)
        return found[:4]

    def _agentive(self, noun: str) -> bool:
        """The noun's most common sense names a doer: a person or a group (`director`,
        `producer`), not a thing done."""
        senses = self._senses(noun, "n")
        if not senses:
            return False
        top = max(senses, key=lambda s: s[0])[1]
        return top.lexname in AGENT_LEXNAMES

    def converses(self, verb: str, senses: int = 3) -> list[tuple[str, float]]:
        """Verbs the first senses of `verb` are defined as the passive of, with the sense's
        weight: a verb glossed "be hired" is the passive of `hire`, whose doer is the other end."""
        found: dict[str, float] = {}
        for weight, synset in self._senses(verb, "v")[:senses]:
            definition = _GLOSS_WORD.findall(synset.gloss.split(";")[0].casefold())
            for k, word in enumerate(definition[:-1]):
                if word in ("be", "is", "are", "being") and definition[k + 1] not in (
                        "a", "an", "the"):
                    participle = definition[k + 1]
                    for base in self.wn.base_forms(participle, "v"):
                        if base != participle and base != verb:
                            found[base] = max(found.get(base, 0.0), weight)
                    break
        return list(found.items())

    def derived_nouns(self, verb: str, senses: int = 5) -> list[tuple[str, bool, float]]:
        """Nouns derived from the verb's first senses, each with whether it names the doer
        (`direct` → director (True), direction (False)) and the weight of its sense."""
        found: dict[str, tuple[bool, float]] = {}
        for weight, synset in self._senses(verb, "v")[:senses]:
            for pointer in synset.pointers:
                if pointer.symbol != "+" or pointer.pos != "n":
                    continue
                target = self.wn.synset("n", pointer.offset)
                word = target.words[pointer.target - 1] if pointer.target else target.words[0]
                agent = target.lexname in AGENT_LEXNAMES
                was = found.get(word)
                if was is None or weight > was[1]:
                    found[word] = (agent or (was[0] if was else False), weight)
        return [(w, a, x) for w, (a, x) in found.items()]


_SUFFIX = re.compile(r"(?:ers|er|ors|or|ing|ed|es|s)$")


def _stem(word: str) -> str:
    return _SUFFIX.sub("", word) if len(word) > 5 else word
