"""The GraphQL enums are graphmem.model's own enums, registered with Strawberry here.

`strawberry.enum` marks each model enum as a GraphQL enum in place, so the schema and the
Python API share one declaration: a member added to the model appears in the SDL (and the
SDL drift test says so).
"""

from __future__ import annotations

import strawberry

from graphmem.model import (
    Action,
    Cardinality,
    ConflictKind,
    ConflictStatus,
    Kind,
    PolicyMode,
    Status,
    TimeRef,
)
from graphmem.model.relations import ReadingKind, ReadingSource

strawberry.enum(Action, description="What reconciliation did with a proposed fact.")
strawberry.enum(Status, description="Where a fact stands: only ACTIVE and FLAGGED_CONFLICT are"
                                    " hot.")
strawberry.enum(Kind, description="A state holds until replaced; an event happened once.")
strawberry.enum(TimeRef, description="The tense the fact was stated in.")
strawberry.enum(ConflictKind, description="Why a conflict was opened.")
strawberry.enum(ConflictStatus, description="A conflict's lifecycle: open, then resolved or"
                                            " dismissed.")
strawberry.enum(PolicyMode, description="How cross-source conflicts resolve in a space.")
strawberry.enum(Cardinality, description="A relation holds one value (a new one supersedes)"
                                         " or many (each value is its own item).")

__all__ = ["Action", "Cardinality", "ConflictKind", "ConflictStatus", "Kind", "PolicyMode",
           "Status", "TimeRef"]
strawberry.enum(ReadingKind, description="How a reading reads a relation: FORWARD words go head"
                                         " to tail, INVERSE tail to head; TAIL and HEAD nouns"
                                         " name an end; ABOUT words describe it.")
strawberry.enum(ReadingSource, description="Where a reading came from, most trusted first: the"
                                           " declared schema, a model's description, the text"
                                           " the facts were written from, the lexicon"
                                           " (WordNet), the label.")
