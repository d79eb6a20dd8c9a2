"""The weights of the multi-hop path score, named so that a benchmark or a caller can try
others (graphmem.recall.path_rank explains what each one weighs)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PathRanking:
    """The weights of the score (named, so a benchmark or a caller can try others)."""

    threshold: float = 0.1  # a hop must be asked for by a phrase this much to pay for itself
    unasked: float = 0.25  # a last hop no phrase asks for ("in which city is X": where it is)
    unasked_inner: float = 0.5  # a hop before the last no phrase asks for
    rivalry: float = 0.6  # how much the best rival relation's evidence is held against a hop
    type_weight: float = 0.6  # a noun's kind against the type of the entity reached
    understood: float = 0.3  # word evidence from which a phrase counts as understood
    faint: float = 0.2  # word evidence below this is noise (a word of a definition)
    typed: float = 0.6  # kind evidence from which a noun is explained by an entity's type
    unexplained: float = 1.2  # a phrase nothing on the path explains
    misfit: float = 0.15  # evidence kept when a reading walks the relation the other way
    undirected: float = 0.85  # kept when nothing says which way, and the default way is taken
    against_default: float = 0.6  # kept when nothing says which way, against the default
    answer_kind: float = 0.5  # the answer entity's type against the kind asked for
    mismatch: float = 0.3  # below this fit, the path's end is not what `who`/`when` asks for
    hub: float = 0.03  # per natural log of the edges a hop chose among
    named: float = 1.5  # a path to another entity the question names ("how is X related to Y")
    beam: int = 32  # partial paths kept after each hop
    per_group: int = 8  # edges read per entity, relation and direction


DEFAULT = PathRanking()
