"""WordNet 3.0 read from its own database files (the WNDB format: `index.<pos>`,
`data.<pos>` and the `<pos>.exc` exception lists), as Debian's `wordnet-base` installs them.

Nothing is loaded up front: the index files are sorted, so a lemma is found by binary search
over a memory map, and a synset is read where its byte offset says. Parsed synsets are kept
in a bounded cache. The format is documented in WordNet's `wndb(5WN)` manual page.
"""

from __future__ import annotations

import mmap
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

POS = ("n", "v", "a", "r")
_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
# The lexicographer files, numbered as lexnames(5WN) numbers them: a synset's broad class.
LEXNAMES = (
    "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact",
    "noun.attribute", "noun.body", "noun.cognition", "noun.communication", "noun.event",
    "noun.feeling", "noun.food", "noun.group", "noun.location", "noun.motive", "noun.object",
    "noun.person", "noun.phenomenon", "noun.plant", "noun.possession", "noun.process",
    "noun.quantity", "noun.relation", "noun.shape", "noun.state", "noun.substance",
    "noun.time", "verb.body", "verb.change", "verb.cognition", "verb.communication",
    "verb.competition", "verb.consumption", "verb.contact", "verb.creation", "verb.emotion",
    "verb.motion", "verb.perception", "verb.possession", "verb.social", "verb.stative",
    "verb.weather", "adj.ppl",
)
# Morphy's detachment rules (morphy(7WN)): an inflected ending and what replaces it.
_DETACH = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
          ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
          ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}
SYNSET_CACHE = 20_000


class WordNetMissing(RuntimeError):
    """The WordNet database files are not where the settings say."""


@dataclass(frozen=True)
class Pointer:
    """A link to another synset: `symbol` as wndb(5WN) spells it (`@` hypernym, `+`
    derivationally related form, ...); `source`/`target` number the words a lexical link
    joins (0 for a link between whole synsets)."""

    symbol: str
    offset: int
    pos: str
    source: int
    target: int


@dataclass(frozen=True)
class Synset:
    offset: int
    pos: str  # n, v, a, r (satellite adjectives read as a)
    lexname: str
    words: tuple[str, ...]  # lemmas, lower case, spaces for underscores
    pointers: tuple[Pointer, ...]
    gloss: str

    @property
    def id(self) -> tuple[str, int]:
        return (self.pos, self.offset)


class WordNet:
    """One WordNet database directory, read lazily and safe to share between threads."""

    def __init__(self, root: Path) -> None:
        self.root = root
        missing = [f"{kind}.{_FILES[p]}" for p in POS for kind in ("index", "data")
                   if not (root / f"{kind}.{_FILES[p]}").is_file()]
        if missing:
            raise WordNetMissing(f"WordNet database files missing under {root}: "
                                 f"{', '.join(missing)}")
        self._lock = threading.Lock()
        self._index = {p: self._map(root / f"index.{_FILES[p]}") for p in POS}
        self._data = {p: self._map(root / f"data.{_FILES[p]}") for p in POS}
        self._exceptions = {p: self._read_exceptions(root / f"{_FILES[p]}.exc") for p in POS}
        self.synset = lru_cache(maxsize=SYNSET_CACHE)(self._synset)
        self.senses = lru_cache(maxsize=SYNSET_CACHE)(self._senses)
        self.base_forms = lru_cache(maxsize=SYNSET_CACHE)(self._base_forms)

    @staticmethod
    def _map(path: Path) -> mmap.mmap:
        with path.open("rb") as f:
            return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)

    @staticmethod
    def _read_exceptions(path: Path) -> dict[str, tuple[str, ...]]:
        if not path.is_file():
            return {}
        found: dict[str, tuple[str, ...]] = {}
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            parts = line.split()
            if len(parts) > 1:
                found[parts[0]] = tuple(parts[1:])
        return found

    def _index_line(self, pos: str, lemma: str) -> str | None:
        """The index line of `lemma` (underscored, lower case), by binary search."""
        data = self._index[pos]
        key = lemma.encode("utf-8") + b" "
        lo, hi = 0, len(data)
        with self._lock:  # mmap.readline moves the map's shared position
            while lo < hi:
                mid = (lo + hi) // 2
                start = data.rfind(b"\n", 0, mid) + 1
                end = data.find(b"\n", start)
                end = len(data) if end < 0 else end
                line = data[start:end]
                if line.startswith(b"  "):  # the licence at the top sorts before every lemma
                    lo = end + 1
                    continue
                if line.startswith(key):
                    return line.decode("utf-8", "replace")
                if line < key:
                    lo = end + 1
                else:
                    hi = start
        return None

    def _senses(self, lemma: str, pos: str) -> tuple[int, ...]:
        """The synset offsets of `lemma` as a `pos` word, most frequent sense first."""
        line = self._index_line(pos, lemma.replace(" ", "_"))
        if line is None:
            return ()
        parts = line.split()
        pointers = int(parts[3])
        senses = int(parts[2])
        return tuple(int(o) for o in parts[6 + pointers:6 + pointers + senses])

    def _synset(self, pos: str, offset: int) -> Synset:
        data = self._data[pos]
        end = data.find(b"\n", offset)
        line = data[offset:end if end >= 0 else len(data)].decode("utf-8", "replace")
        body, _, gloss = line.partition(" | ")
        parts = body.split()
        lexname = LEXNAMES[int(parts[1])]
        count = int(parts[3], 16)
        words = tuple(_word(w) for w in parts[4:4 + 2 * count:2])
        at = 4 + 2 * count
        links = int(parts[at])
        pointers = []
        for k in range(links):
            first = at + 1 + 4 * k
            symbol, target, target_pos, numbers = parts[first:first + 4]
            pointers.append(Pointer(symbol, int(target), "a" if target_pos == "s"
                                    else target_pos, int(numbers[:2], 16),
                                    int(numbers[2:], 16)))
        return Synset(int(parts[0]), pos, lexname, words, tuple(pointers), gloss.strip())

    def _base_forms(self, word: str, pos: str) -> tuple[str, ...]:
        """Morphy: the lemmas an inflected `word` may come from, the word itself first when
        it is one (`hires` → hire, `men` → man, `headquartered` → headquarter)."""
        word = word.casefold().strip()
        found: list[str] = []
        if self.senses(word, pos):
            found.append(word)
        found += [b for b in self._exceptions[pos].get(word.replace(" ", "_"), ())
                  if self.senses(b.replace("_", " "), pos)]
        for ending, replacement in _DETACH[pos]:
            if word.endswith(ending) and len(word) > len(ending):
                base = word[:len(word) - len(ending)] + replacement
                if self.senses(base, pos):
                    found.append(base)
        return tuple(dict.fromkeys(b.replace("_", " ") for b in found))

    def lookup(self, word: str, pos: str) -> Iterator[tuple[int, Synset, str]]:
        """(sense rank, synset, lemma) for every sense of every base form of `word`."""
        for lemma in self.base_forms(word, pos):
            for rank, offset in enumerate(self.senses(lemma, pos)):
                yield rank, self.synset(pos, offset), lemma

    def close(self) -> None:
        for m in (*self._index.values(), *self._data.values()):
            m.close()


def _word(raw: str) -> str:
    """A data file's word: underscores are spaces, an adjective's marker `(a)`/`(p)`/`(ip)`
    goes."""
    cut = raw.find("(")
    return (raw[:cut] if cut > 0 else raw).replace("_", " ").casefold()
