"""No comment, docstring or schema description cites a document the repository's readers do
not have: the behavioural seeds ("seed 000 rule 3", "seed 001's fsck", "the seed's JSON
shape") or the design notes ("DESIGN reading 6", "STYLE 11"). Such a line states the rule, or
links the docs page that does (docs/concepts/reconciliation-rules.md and its neighbours)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TREES = ("graphmem", "schema", "resolvers", "cypher")
SUFFIXES = {".py", ".cypher", ".graphql"}
CITATION = re.compile(
    r"\bseeds?\s+\d{3}\b"             # seed 000, Seed 001's, seeds 002
    r"|\bseed's\b|\bseeds'|\bthe seeds\b"  # the seed's rendering, the seeds' tool names
    r"|\bDESIGN\b|\breadings?\s+\d"   # DESIGN "Flows", DESIGN reading 6, readings 1-9
    r"|\bSTYLE\s+\d",                 # STYLE 6
    re.IGNORECASE)


def is_citation(line: str) -> bool:
    match = CITATION.search(line)
    # DESIGN and STYLE are the documents' names only in capitals
    return bool(match) and (match.group(0).lower() not in ("design", "style")
                            or match.group(0).isupper())


def sources() -> list[Path]:
    return sorted(p for tree in TREES for p in (ROOT / tree).rglob("*")
                  if p.suffix in SUFFIXES and "__pycache__" not in p.parts)


def test_no_source_line_cites_a_seed_or_a_design_reading() -> None:
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for path in sources()
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if is_citation(line)]
    assert found == [], "state the rule or link its docs page instead:\n" + "\n".join(found)


@pytest.mark.parametrize("line", [
    '"""Removal-language detection for the retract upgrade (seed 000 rule 3, DESIGN reading 8).',
    '"""Seed 001: a source may only overwrite its own belief with equal or higher confidence.',
    '"""Near-duplicate entities: pairs whose names embed with cosine >= 0.95 (seed 001\'s fsck).',
    '    """One subject\'s timeline, oldest → newest; `str()` is the seed\'s rendering.',
    'Rule order (DESIGN "Domain model" and readings 1-9):',
    "The prompt and the pydantic model the reply is parsed into live together here (STYLE 6).",
    "// Fact clustering (seed 002): ACTIVE facts whose entity set overlaps",
])
def test_the_check_finds_each_kind_of_citation(line: str) -> None:
    assert is_citation(line)


@pytest.mark.parametrize("line", [
    '    """Seed a canonical entity before ingestion so later mentions land on it."""',
    "The Ed25519 signing seed derives from GRAPHMEM_KEY when it is set, else from",
    '    """The seed an earlier release derived from a passphrase (HKDF-SHA256, fixed salt)."""',
    "  WITH e ORDER BY coalesce(e.seeded, false) DESC, e.created_at, e.key",
    "# the design of the outbox: one entry per write, applied in order",
    "    reading the 3 newest rows of the chain",
])
def test_the_check_leaves_other_seeds_and_designs_alone(line: str) -> None:
    assert not is_citation(line)
