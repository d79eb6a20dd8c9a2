"""Output types of recall, the entity graph, its vocabulary and its checks."""

from __future__ import annotations

from datetime import datetime

import strawberry

from graphmem.model import entities as model_entities
from graphmem.model import paths as related
from graphmem.model import relations as model_relations
from graphmem.model.fsck import Report
from graphmem.model.recall import ActCheck, Recall
from graphmem.model.recall import OpenConflict as ModelOpenConflict
from graphmem.model.relations import ReadingKind, ReadingSource
from graphmem.resolvers import loaders
from graphmem.schema.fields import GraphInfo, field
from graphmem.schema.relay import Node, global_id
from graphmem.schema.types import Fact


@strawberry.type(description="A fact placed in the answer's context.")
class RecalledFact:
    fact: Fact
    history: bool = strawberry.field(description="True when the fact is no longer current.")
    line: str


@strawberry.type
class ConflictClaim:
    id: strawberry.ID
    subject: str
    scope: str
    value: str
    status: str


@strawberry.type(description="An open conflict touching a recalled fact.")
class OpenConflict:
    id: strawberry.ID
    kind: str
    facts: list[ConflictClaim]

    @classmethod
    def from_model(cls, c: ModelOpenConflict) -> OpenConflict:
        return cls(id=strawberry.ID(c.id), kind=c.kind, facts=[
            ConflictClaim(id=strawberry.ID(f.id), subject=f.subject, scope=f.scope,
                          value=f.value, status=f.status) for f in c.facts])


@strawberry.type(description="recall's answer: model-written when a model is configured.")
class RecallResult:
    question: str
    answer: str | None
    model_answered: bool
    facts: list[RecalledFact]
    conflicts: list[OpenConflict]
    method: str
    note: str
    text: str = strawberry.field(description="What a person or an agent reads.")

    @classmethod
    def from_model(cls, r: Recall, as_of: datetime | None = None) -> RecallResult:
        return cls(question=r.question, answer=r.answer, model_answered=r.model_answered,
                   facts=[RecalledFact(fact=Fact.from_model(f.fact, as_of), history=f.history,
                                       line=f.line()) for f in r.facts],
                   conflicts=[OpenConflict.from_model(c) for c in r.conflicts],
                   method=r.method, note=r.note, text=str(r))


@strawberry.type(description="Whether an action may rely on these subjects now, and why not.")
class ActCheckResult:
    allowed: bool
    reasons: list[str]
    facts: list[Fact]
    text: str

    @classmethod
    def from_model(cls, c: ActCheck, as_of: datetime | None = None) -> ActCheckResult:
        return cls(allowed=c.allowed, reasons=list(c.reasons),
                   facts=[Fact.from_model(f, as_of) for f in c.facts], text=str(c))


@strawberry.type(description="An entity of a space, keyed by (type, name).")
class Entity(Node):
    key: str
    type: str
    name: str
    created_at: datetime | None
    placeholder: bool
    space: str

    @field("Spellings facts used for the entity other than its name"
                                  " (a head or tail as written); entities have no other"
                                  " alias: names match exactly.")
    async def aliases(self, info: GraphInfo) -> list[str]:
        return list(await loaders.aliases(info.context, self.space).load(self.key))

    @classmethod
    def from_model(cls, e: model_entities.Entity, space: str) -> Entity:
        return cls(id=global_id("Entity", space, e.key), key=e.key, type=e.type, name=e.name,
                   created_at=e.created_at, placeholder=e.placeholder, space=space)


@strawberry.type
class EntityAttribute:
    key: str
    facts: list[Fact]


@strawberry.type(description="An edge of the entity: the relation fact and the other end.")
class EntityLink:
    fact: Fact
    other: Entity
    outgoing: bool
    text: str


@strawberry.type(description="An entity with its attributes and edges at one point of time.")
class EntityView:
    entity: Entity
    attributes: list[EntityAttribute]
    links: list[EntityLink]
    truncated: bool = strawberry.field(description="The view holds only the entity's newest"
                                                   " 1000 facts; page through the rest with"
                                                   " `entityHistory` and `facts`.")

    @classmethod
    def from_model(cls, v: model_entities.EntityView, space: str,
                   as_of: datetime | None = None) -> EntityView:
        return cls(entity=Entity.from_model(v.entity, space), attributes=[
            EntityAttribute(key=k, facts=[Fact.from_model(f, as_of) for f in facts])
            for k, facts in sorted(v.attributes.items())], links=[
            EntityLink(fact=Fact.from_model(link.fact, as_of),
                       other=Entity.from_model(link.other, space), outgoing=link.outgoing,
                       text=str(link)) for link in v.links], truncated=v.truncated)


@strawberry.type(description="One projection edge, in its own direction (head to tail).")
class RelatedEdge:
    fact_id: strawberry.ID
    type: str
    relation: str
    head: str
    tail: str
    status: str
    confidence: float | None
    valid_from: datetime | None
    valid_to: datetime | None

    @classmethod
    def from_model(cls, e: related.Edge) -> RelatedEdge:
        return cls(fact_id=strawberry.ID(e.fact_id), type=e.type, relation=e.relation,
                   head=e.head, tail=e.tail, status=e.status, confidence=e.confidence,
                   valid_from=e.valid_from, valid_to=e.valid_to)


@strawberry.type(description="Entity keys from a start entity outwards, with the edges. A path"
                             " ranked against a question carries its score (higher is better)"
                             " and, per edge, the question's words that asked for it.")
class RelatedPath:
    keys: list[str]
    edges: list[RelatedEdge]
    text: str
    score: float | None = strawberry.field(
        default=None, description="How well the path answers the question; null when the"
                                  " paths are a neighbourhood, not ranked.")
    matched: list[str | None] = strawberry.field(
        default_factory=list, description="Per edge, the words of the question it answers"
                                          " (null: none asked for it).")
    explain: str | None = strawberry.field(
        default=None, description="The score and the words each edge answered, as text.")
    sources: list[str] = strawberry.field(
        default_factory=list, description="Per edge, where the knowledge that read its words"
                                          " came from: declared, model, text, lexicon, label,"
                                          " embedding, or `type` (guessed from the type of"
                                          " entity alone); empty where no words asked.")
    unexplained: list[str] = strawberry.field(
        default_factory=list, description="Words of the question no relation on the path"
                                          " explains.")
    guessed: list[str] = strawberry.field(
        default_factory=list, description="Words the path matched only by the type of entity"
                                          " they name.")
    readings: list[str] = strawberry.field(
        default_factory=list, description="Per edge, the relation's words its question words"
                                          " matched (empty where none did).")


@strawberry.type(description="Paths from the start entities, with the facts behind each edge.")
class RelatedResult:
    start: list[Entity]
    paths: list[RelatedPath]
    entities: list[Entity]
    facts: list[Fact]
    truncated: bool
    hops: int
    answer: str | None
    matched_by: str
    notes: list[str]
    text: str
    ranked: bool = strawberry.field(
        default=False, description="The paths are ranked against the question, best first.")
    answers: list[Entity] = strawberry.field(
        default_factory=list, description="The entities the best paths end at: the answer to"
                                          " the question, without a model. Empty when the best"
                                          " path leaves words of the question unexplained or"
                                          " guessed.")
    unexplained: list[str] = strawberry.field(
        default_factory=list, description="Words of the question the best path leaves"
                                          " unexplained (no relation in the space reads as"
                                          " them): why no answer is named.")
    guessed: list[str] = strawberry.field(
        default_factory=list, description="Words the best path matched by the type of entity"
                                          " alone: declare the relation's readings to answer.")
    next_cursor: str | None = strawberry.field(
        default=None, description="With a path pattern: the cursor of the next page of"
                                  " paths (`after`), null on the last.")
    why_no_answer: str | None = strawberry.field(
        default=None, description="Why no answer is named though ranked paths were found"
                                  " (words not understood or only guessed, a relation no"
                                  " words asked for, an end of another kind); null otherwise.")

    @classmethod
    def from_model(cls, r: related.Related, space: str,
                   as_of: datetime | None = None) -> RelatedResult:
        return cls(
            start=[Entity.from_model(e, space) for e in r.start],
            paths=[RelatedPath(keys=list(p.keys), text=r.render(p),
                               edges=[RelatedEdge.from_model(e) for e in p.edges],
                               score=p.score, matched=list(p.matched),
                               explain=r.explain(p) if p.score is not None else None,
                               sources=list(p.sources), unexplained=list(p.unexplained),
                               guessed=list(p.guessed), readings=list(p.readings))
                   for p in r.paths],
            unexplained=list(r.unexplained), guessed=list(r.guessed),
            next_cursor=r.next_cursor,
            why_no_answer=r.why_no_answer() if r.ranked and not r.answers else None,
            ranked=r.ranked,
            answers=[Entity.from_model(r.entities[k], space) for k in r.answers
                     if k in r.entities],
            entities=[Entity.from_model(e, space) for e in r.entities.values()],
            facts=[Fact.from_model(f, as_of) for f in r.facts.values()], truncated=r.truncated,
            hops=r.hops, answer=r.answer, matched_by=r.matched_by, notes=list(r.notes),
            text=str(r))


@strawberry.type(description="Known entities (seeded first) and relation labels in use: what"
                             " the extractor is shown so later mentions reuse them.")
class Vocabulary:
    entities: list[Entity]
    relations: list[str]

    @classmethod
    def from_model(cls, v: model_entities.Vocabulary, space: str) -> Vocabulary:
        return cls(entities=[Entity.from_model(e, space) for e in v.entities],
                   relations=list(v.relations))


@strawberry.type(description="One check of fsck: its problems, and whether they fail the run.")
class FsckCheck:
    name: str
    ok: bool
    fails: bool
    problems: list[str]


@strawberry.type(description="fsck of one space: the graph's invariants, near-duplicate"
                             " entities and the mirror against the graph.")
class FsckReport:
    space: str
    ok: bool
    checks: list[FsckCheck]
    text: str

    @classmethod
    def from_model(cls, r: Report) -> FsckReport:
        return cls(space=r.space, ok=r.ok, text=str(r), checks=[
            FsckCheck(name=c.name, ok=c.ok, fails=c.fails, problems=list(c.problems))
            for c in r.checks])


@strawberry.type(description="Words that read a relation one way, and where they came from.")
class RelationReading:
    words: str
    kind: ReadingKind
    source: ReadingSource
    passive: bool = strawberry.field(description="Verb words that put the patient first"
                                                 " (`directed by`).")

    @classmethod
    def from_model(cls, r: model_relations.Reading) -> RelationReading:
        return cls(words=r.words, kind=r.kind, source=r.source, passive=r.passive)


@strawberry.type(description="A relation type of the space and everything that reads it: the"
                             " labels its facts were written with, the types written for its"
                             " ends, and its readings, each with its source.")
class Relation:
    type: str
    labels: list[str]
    description: str
    head_types: list[str]
    tail_types: list[str]
    readings: list[RelationReading]
    facts_read: int = strawberry.field(description="Facts sampled to learn its types and"
                                                   " words.")
    declared: bool
    described_by: str | None = strawberry.field(description="The model that described it,"
                                                            " when one did.")
    cardinality: str | None

    @classmethod
    def from_model(cls, r: model_relations.RelationInfo) -> Relation:
        return cls(type=r.type, labels=list(r.labels), description=r.description,
                   head_types=list(r.head_types), tail_types=list(r.tail_types),
                   readings=[RelationReading.from_model(x) for x in r.readings],
                   facts_read=r.facts_read, declared=r.declared, described_by=r.described_by,
                   cardinality=r.cardinality)


@strawberry.type(description="A declared relation, as declared.")
class RelationDeclaration:
    label: str
    description: str
    forward: list[str]
    inverse: list[str]
    head_nouns: list[str]
    tail_nouns: list[str]
    head_type: str | None
    tail_type: str | None
    cardinality: str | None

    @classmethod
    def from_model(cls, d: model_relations.RelationDeclaration) -> RelationDeclaration:
        return cls(label=d.label, description=d.description, forward=list(d.forward),
                   inverse=list(d.inverse), head_nouns=list(d.head_nouns),
                   tail_nouns=list(d.tail_nouns), head_type=d.head_type, tail_type=d.tail_type,
                   cardinality=d.cardinality)


@strawberry.type(description="The space's declared relations; each change raises the version.")
class RelationSchema:
    version: int
    updated_at: str | None
    relations: list[RelationDeclaration]

    @classmethod
    def from_model(cls, s: model_relations.RelationSchema) -> RelationSchema:
        return cls(version=s.version, updated_at=s.updated_at,
                   relations=[RelationDeclaration.from_model(d) for d in s.relations])


@strawberry.type(description="What a model said a relation means, and which model, when.")
class RelationDescription:
    model: str
    at: str | None
    relation: RelationDeclaration

    @classmethod
    def from_model(cls, d: model_relations.RelationDescription) -> RelationDescription:
        return cls(model=d.model, at=d.at, relation=RelationDeclaration.from_model(
            d.declaration))
