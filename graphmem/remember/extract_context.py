"""What the extractor is shown besides the message (docs/concepts/remember-and-recall.md).

At most GRAPHMEM_RECONCILE_CONTEXT active facts (the most relevant, ranked like recall when
the space holds more, which costs one embedding of the message), the declared slots, and
the entity names and relation labels already in use. Reconcile still checks the invariants
against the full active set: this is only context, never a filter.
"""

from __future__ import annotations

from graphmem.graph import entities
from graphmem.model import Fact
from graphmem.recall.pipeline import retrieve
from graphmem.recall.retrieve import ACTIVE_POOL, FUSED, Ranker
from graphmem.remember.extract import ExtractionInput
from graphmem.slots import SlotSchema

VOCABULARY_LIMIT = 100


def context_facts(ranker: Ranker, space: str, text: str, limit: int) -> tuple[Fact, ...]:
    got = retrieve(ranker, space, text, ACTIVE_POOL, FUSED, limit)
    return tuple(f.fact for f in got.facts)


def extraction_input(ranker: Ranker, space: str, schema: SlotSchema, text: str, limit: int,
                     forget: bool = False) -> ExtractionInput:
    vocabulary = entities.vocabulary(ranker.graph, space, limit=VOCABULARY_LIMIT)
    known = tuple((e.name, e.type) for e in vocabulary.entities if not e.placeholder)
    return ExtractionInput(text=text, facts=context_facts(ranker, space, text, limit),
                           slots=tuple(schema), entities=known,
                           relations=tuple(vocabulary.relations), forget=forget)
