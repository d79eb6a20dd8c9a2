"""What the multi-hop ranking was never tuned on stays out of it: the words only the
benchmark's held-out domain uses, and the words only the held-out phrasings of the other
domains use, appear nowhere in the ranking's code (the question reader, the scoring, the
relation readings, the lexicon), and the held-out domain's relation labels nowhere in
graphmem; so the lexicon and the rules, not a table of expected relations, answer them."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from graphmem.recall.question import FUNCTION_WORDS

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # the benchmark's domains; last, so nothing installed is shadowed

from bench.multihop.domains import DOMAINS, HELD_OUT  # noqa: E402
from bench.multihop.world import DEV, HELD, Domain  # noqa: E402

PLACEHOLDERS = {"x", "be", "do", "was"}
# words the ranking's code uses in its own sense: programming (`group`, `join`, `label`,
# `items`, `form`), grammar (`head`, `subject`, `kind`, `articles`), and its entity types
CODE_WORDS = frozenset({"form", "group", "join", "known", "label", "member", "members",
                        "together", "head", "kind", "subject", "items", "organisation",
                        "made", "articles"})


def _words(text: str) -> set[str]:
    """Content words of four letters or more (function words join any text)."""
    return {w for w in re.findall(r"[a-z]+", text.casefold())
            if len(w) > 3 and w not in FUNCTION_WORDS and w not in CODE_WORDS}


def _templates(domain: Domain, split: str | None = None) -> list[str]:
    return [t for way in domain.phrasings.values() for t, s in (*way.inner, *way.final)
            if split is None or s == split]


def _vocabulary(domain: Domain, split: str | None = None) -> set[str]:
    found = {w for t in _templates(domain, split) for w in _words(t)}
    if split in (None, DEV):
        found |= {w for r in domain.relations.values()
                  for w in _words(f"{r.label} {r.head} {r.tail} {r.role}")}
    return found - PLACEHOLDERS


RANKING = [ROOT / "graphmem" / "lexicon", *(
    ROOT / "graphmem" / "recall" / f"{name}.py"
    for name in ("question", "path_rank", "path_search", "related", "related_answer",
                 "relation_readings", "relation_knowledge", "relation_schema"))]


def _code(paths: list[Path] | None = None) -> dict[Path, set[str]]:
    """The ranking's code (by default), or every file under `paths`."""
    files = [p for root in (paths or RANKING)
             for p in ([root] if root.is_file() else root.rglob("*"))
             if p.is_file() and p.suffix in (".py", ".cypher", ".json", ".txt")]
    return {p: _words(p.read_text(errors="replace")) for p in files}


def test_the_held_out_domain_is_named_nowhere_in_graphmem() -> None:
    held = DOMAINS[HELD_OUT]
    others = set().union(*(_vocabulary(d) for name, d in DOMAINS.items() if name != HELD_OUT))
    own = _vocabulary(held) - others
    labels = {r.label for r in held.relations.values()}
    assert len(own) > 20, sorted(own)
    for path, words in _code().items():
        assert not words & own, f"{path.relative_to(ROOT)} names {sorted(words & own)}"
    for path in _code([ROOT / "graphmem", ROOT / "cypher"]):
        text = path.read_text(errors="replace").casefold()
        named = [label for label in labels if " " in label
                 and re.search(rf"\b{re.escape(label)}\b", text)]
        assert not named, f"{path.relative_to(ROOT)} names the relations {named}"


def test_the_held_out_phrasings_are_named_nowhere_in_the_ranking() -> None:
    """Words only `held` phrasings use (`supervises`, `helmed`, `mentored`)."""
    tuned = [d for name, d in DOMAINS.items() if name != HELD_OUT]
    seen = set().union(*(_vocabulary(d, DEV) for d in tuned))
    held = set().union(*(_vocabulary(d, HELD) for d in tuned)) - seen
    assert {"supervises", "helmed", "mentored"} <= held
    for path, words in _code().items():
        assert not words & held, f"{path.relative_to(ROOT)} names {sorted(words & held)}"
