"""The graph model, declared once: every node label, its properties, keys and indexes, and the
fixed relationship types, as neomodel classes.

What the declarations are used for: `graph.constraints` derives from them the constraints and
indexes the database must hold (fsck checks them; a test checks that `cypher/migrations/`
builds exactly those), and the cold reads turn a returned node into an object with
`ConflictNode.inflate(node)`. What they are not used for: neomodel never connects and never
writes. Statements run by name through `GraphDriver` (hot paths included), and the schema is
installed by the versioned migrations, not by `install_labels`.

neomodel declares one property per index or constraint. A composite index or key is declared
on the class as `composite_indexes` / `composite_keys` (property names in index order), read
by `graph.constraints` like the rest. Projection edges between entities have a type per
relation (`graph.identifiers.relation_type`), which no class can name: `ProjectionEdge`
declares the properties every one of them carries. The statements set a fact's status label
(`STATUS_LABELS`) for Neo4j Browser; they are its optional labels.
"""

from __future__ import annotations

from typing import Any, ClassVar

from neomodel import (
    ArrayProperty,
    BooleanProperty,
    DateTimeNeo4jFormatProperty,
    FloatProperty,
    FulltextIndex,
    IntegerProperty,
    JSONProperty,
    RelationshipTo,
    StringProperty,
    StructuredNode,
    StructuredRel,
    VectorIndex,
)

from graphmem.model import (
    Action,
    Cardinality,
    Conflict,
    ConflictKind,
    ConflictStatus,
    Kind,
    Status,
    TimeRef,
)

EMBEDDING_DIMENSIONS = 384  # all-MiniLM-L6-v2, the fact_vector index's dimensions
STATUS_LABELS: tuple[str, ...] = ("Active", "Flagged", "Superseded", "Historical")

Composite = tuple[tuple[str, ...], ...]


def _choices(values: type[Any]) -> dict[str, str]:
    return {member.value: member.value for member in values}


class GraphNode(StructuredNode):
    """A declared label: neomodel's properties plus what neomodel cannot declare."""

    __abstract_node__ = True
    composite_keys: ClassVar[Composite] = ()
    composite_indexes: ClassVar[Composite] = ()


# ---- relationships with properties -------------------------------------------------------
class Succession(StructuredRel):
    """SUPERSEDES and RETRACTS: the newer fact points at the one it retired."""

    at = DateTimeNeo4jFormatProperty(required=True)


class About(StructuredRel):
    """A fact points at the entities it is about, as the relation's head or tail."""

    role = StringProperty(required=True, choices={"head": "head", "tail": "tail"})


class ProjectionEdge(StructuredRel):
    """An entity's edge to another for one relation fact, typed by the relation; it copies
    the fact's status and times so traversals filter edges without reading facts."""

    fact_id = StringProperty(required=True)
    space = StringProperty(required=True)
    relation = StringProperty()
    subject = StringProperty()  # the fact's subject: the role the relation gives the tail
    status = StringProperty(choices=_choices(Status))
    confidence = FloatProperty()
    valid_from = DateTimeNeo4jFormatProperty()
    valid_to = DateTimeNeo4jFormatProperty()
    held_from = DateTimeNeo4jFormatProperty()
    retired_at = DateTimeNeo4jFormatProperty()
    recorded_at = DateTimeNeo4jFormatProperty()
    archived = BooleanProperty()
    coexist = BooleanProperty()


# ---- nodes -------------------------------------------------------------------------------
class SpaceNode(GraphNode):
    """A memory space: the write lock and counter, the stored policy, the relation schema,
    the claiming mirror and the mirror sweep's claim."""

    __label__ = "Space"
    key = StringProperty(unique_index=True, required=True)
    created_at = DateTimeNeo4jFormatProperty()
    writes = IntegerProperty()
    policy = StringProperty()
    mirror = StringProperty()
    relation_labels = ArrayProperty(StringProperty())
    # the declared relation schema and the models' descriptions of relations (JSON)
    relation_schema = StringProperty()
    relation_descriptions = StringProperty()
    # the host whose mirror sweep holds the space until sweep_until (outbox/claim_stale);
    # sweep_lock is written only to take the node's lock, inside that statement
    sweep_holder = StringProperty()
    sweep_until = DateTimeNeo4jFormatProperty()
    sweep_lock = BooleanProperty()


class EntityNode(GraphNode):
    """An entity of a space, identified by its composite key `type:name` within the space."""

    __label__ = "Entity"
    composite_keys = (("space", "key"),)
    space = StringProperty(required=True)
    key = StringProperty(required=True)
    type = StringProperty(required=True)
    name = StringProperty(required=True,
                          fulltext_index=FulltextIndex(eventually_consistent=True))
    norm = StringProperty(required=True)
    created_at = DateTimeNeo4jFormatProperty()
    seeded = BooleanProperty()


class FactNode(GraphNode):
    """A fact as stored; `graph.facts` maps it to and from `model.Fact` on the hot paths."""

    __label__ = "Fact"
    __optional_labels__ = list(STATUS_LABELS)
    composite_indexes = (
        ("space", "subject", "scope", "status"),
        ("space", "status"),
        ("space", "message_key"),
        ("space", "category", "status"),
        ("space", "subject"),
        ("space", "recorded_at"),
        ("space", "held_from"),
        ("space", "retired_at"),
        ("space", "refined_at"),
        ("space", "valid_from"),
        ("space", "valid_to"),
        ("space", "rel_key"),
    )
    uid = StringProperty(db_property="id", unique_index=True, required=True)
    space = StringProperty(index=True, required=True)
    subject = StringProperty(required=True)
    scope = StringProperty(required=True)
    value = StringProperty(required=True)
    value_key = StringProperty()
    kind = StringProperty(choices=_choices(Kind))
    time_ref = StringProperty(choices=_choices(TimeRef))
    status = StringProperty(required=True, choices=_choices(Status))
    confidence = FloatProperty()
    source = StringProperty()
    source_ref = StringProperty()
    raw = StringProperty()
    metadata = JSONProperty()
    category = StringProperty()
    head = StringProperty()
    relation = StringProperty()
    tail = StringProperty()
    head_type = StringProperty()
    tail_type = StringProperty()
    cardinality = StringProperty(choices=_choices(Cardinality))
    action = StringProperty(choices=_choices(Action))
    proposed_action = StringProperty(choices=_choices(Action))
    archived = BooleanProperty()
    coexist = BooleanProperty()
    revisions = ArrayProperty(StringProperty())
    message_key = StringProperty()
    message_id = StringProperty()  # the Message whose text is this fact's raw (none: raw)
    valid_from = DateTimeNeo4jFormatProperty()
    valid_to = DateTimeNeo4jFormatProperty()
    valid_to_at = DateTimeNeo4jFormatProperty()  # when a retirement closed the validity
    held_from = DateTimeNeo4jFormatProperty()
    recorded_at = DateTimeNeo4jFormatProperty()
    retired_at = DateTimeNeo4jFormatProperty()
    refined_at = DateTimeNeo4jFormatProperty()
    # the events (outbox entry ids) that recorded, held, retired and last refined the fact
    event = StringProperty()
    held_event = StringProperty()
    retired_event = StringProperty()
    refined_event = StringProperty()
    # the undo that retired, withdrew or voided the fact (its validity emptied then)
    undone_by = StringProperty()
    undone_at = DateTimeNeo4jFormatProperty()
    head_key = StringProperty()
    tail_key = StringProperty()
    rel_type = StringProperty()
    rel_key = StringProperty()
    entity_keys = ArrayProperty(StringProperty())
    search_text = StringProperty(
        fulltext_index=FulltextIndex(analyzer="english", eventually_consistent=True))
    supersedes = RelationshipTo("FactNode", "SUPERSEDES", model=Succession)
    retracts = RelationshipTo("FactNode", "RETRACTS", model=Succession)
    restores = RelationshipTo("FactNode", "RESTORES", model=Succession)
    about = RelationshipTo("EntityNode", "ABOUT", model=About)


class ConflictNode(GraphNode):
    """An open or closed conflict over the facts it involves."""

    __label__ = "Conflict"
    composite_indexes = (("space", "status"),)
    uid = StringProperty(db_property="id", unique_index=True, required=True)
    space = StringProperty(required=True)
    subject = StringProperty()
    scope = StringProperty()
    kind = StringProperty(required=True, choices=_choices(ConflictKind))
    status = StringProperty(required=True, choices=_choices(ConflictStatus))
    severity = StringProperty(default="medium")
    note = StringProperty(default="")
    by = StringProperty(default="")
    winner = StringProperty()
    created_at = DateTimeNeo4jFormatProperty()
    closed_at = DateTimeNeo4jFormatProperty()
    involves = RelationshipTo("FactNode", "INVOLVES")

    def conflict(self, fact_ids: list[str]) -> Conflict:
        """The plain `model.Conflict` of this node and the ids of the facts it involves."""
        return Conflict(
            id=self.uid, space=self.space, kind=ConflictKind(self.kind),
            status=ConflictStatus(self.status), fact_ids=tuple(fact_ids),
            severity=self.severity, note=self.note, by=self.by, winner=self.winner,
            created_at=self.created_at, closed_at=self.closed_at, subject=self.subject or "",
            scope=self.scope or "")


class OutboxNode(GraphNode):
    """A change the mirror has yet to apply (or applied, until pruned)."""

    __label__ = "Outbox"
    composite_indexes = (("space", "seq"),)
    uid = StringProperty(db_property="id", unique_index=True, required=True)
    space = StringProperty(required=True)
    kind = StringProperty(required=True)
    payload = StringProperty(required=True)
    audit = StringProperty()
    seq = IntegerProperty()
    done = BooleanProperty(index=True, required=True)
    created_at = DateTimeNeo4jFormatProperty(required=True)
    applied_at = DateTimeNeo4jFormatProperty()


class OutboxFloorNode(GraphNode):
    """Per space, the write counter below which pruning or an erasure removed outbox
    entries: a change-feed cursor under it reads the mirror's event log instead."""

    __label__ = "OutboxFloor"
    space = StringProperty(unique_index=True, required=True)
    seq = IntegerProperty()


class VectorSeqNode(GraphNode):
    """Per space, the last sequence number given to a stored fact vector. It lives apart from
    the Space node so that storing vectors never waits for the space's write lock."""

    __label__ = "VectorSeq"
    space = StringProperty(unique_index=True, required=True)
    seq = IntegerProperty()
    erasures = IntegerProperty()  # counted by each erasure, whose update locks the node


class FactVectorNode(GraphNode):
    """A fact's embedding, on a node of its own that names the fact (`fact_id`) by property.

    Storing a vector writes only this node and the space's VectorSeq: it takes no lock a
    writer takes (a relationship to the fact, or a property on it, would lock the fact), so
    no write waits for the embedding thread. `seq` orders a space's vectors for the caches
    that fetch what changed since they last looked."""

    __label__ = "FactVector"
    composite_indexes = (("space", "seq"),)
    fact_id = StringProperty(unique_index=True, required=True)
    space = StringProperty(required=True)
    seq = IntegerProperty(required=True)
    embedding = ArrayProperty(FloatProperty(), vector_index=VectorIndex(
        dimensions=EMBEDDING_DIMENSIONS, similarity_function="cosine"))


class MessageNode(GraphNode):
    """The text of one write, stored once: each fact the write stored from it names it
    (`message_id`) instead of holding a copy as its `raw`."""

    __label__ = "Message"
    uid = StringProperty(db_property="id", unique_index=True, required=True)
    space = StringProperty(index=True, required=True)
    text = StringProperty(required=True)
    recorded_at = DateTimeNeo4jFormatProperty(required=True)


class ImportNode(GraphNode):
    """How far an import into a space got: moved in the transaction of each batch it writes,
    so an interrupted import continues after its last committed batch. A handful per space
    at most, found by id and space: no index."""

    __label__ = "Import"
    uid = StringProperty(db_property="id", required=True)
    space = StringProperty(required=True)
    mode = StringProperty(choices={"restore": "restore", "replay": "replay"})
    source = StringProperty()
    remap = BooleanProperty()
    line = IntegerProperty()
    done = BooleanProperty()
    written = IntegerProperty()
    started_at = DateTimeNeo4jFormatProperty()
    updated_at = DateTimeNeo4jFormatProperty()


class SchemaVersionNode(GraphNode):
    """The graph schema version the migrations installed."""

    __label__ = "SchemaVersion"
    uid = StringProperty(db_property="id", required=True)
    version = IntegerProperty(required=True)
    name = StringProperty()
    applied_at = DateTimeNeo4jFormatProperty()


class LogScrubNode(GraphNode):
    """A node that exists for the length of three transactions after an erasure: its `pad`
    fills Neo4j's current transaction log so that the log rotates (graph.txlog)."""

    __label__ = "LogScrub"
    uid = StringProperty(db_property="id", required=True)
    pad = StringProperty()


DECLARED: tuple[type[GraphNode], ...] = (
    SpaceNode, EntityNode, FactNode, ConflictNode, OutboxNode, OutboxFloorNode, VectorSeqNode,
    FactVectorNode, MessageNode, ImportNode, SchemaVersionNode, LogScrubNode)
