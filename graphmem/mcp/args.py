"""The tools' argument types: the input schemas MCP clients see are generated from them.

Bounds are part of the types, so an oversized or malformed argument is refused by the
schema before any work (with the field named), and the service layer's own checks stay the
last word on what a fact may hold.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from graphmem.model.fact_fields import MAX_TEXT_LENGTH, MAX_VALUE_LENGTH
from graphmem.service.context import MAX_SUBJECTS

PART = r"^[A-Za-z0-9_.@:\-]{1,128}$"

UserId = Annotated[str, Field(
    pattern=PART, max_length=128,
    description="Whose memory: the user part of the space (tenant/user/agent/run); the tenant"
                " comes from the caller's key.")]
AgentId = Annotated[str, Field(pattern=PART, max_length=128,
                               description="The agent part of the space.")]
RunId = Annotated[str, Field(pattern=PART, max_length=128,
                             description="The run (session) part of the space.")]
Text = Annotated[str, Field(max_length=MAX_TEXT_LENGTH,
                            description="A message in natural language.")]
Question = Annotated[str, Field(min_length=1, max_length=10_000)]
Subject = Annotated[str, Field(min_length=1, max_length=10_000,
                               description="A subject (slot name), e.g. primary_database.")]
Source = Annotated[str, Field(max_length=200, description="Who asserts it (e.g. crm).")]
Identifier = Annotated[str, Field(min_length=1, max_length=200)]
Note = Annotated[str, Field(max_length=10_000)]
Instant = Annotated[AwareDatetime | None, Field(
    description="ISO 8601 with a timezone, e.g. 2026-03-01T00:00:00+00:00.")]
Subjects = Annotated[list[Subject], Field(min_length=1,
                                          json_schema_extra={"maxItems": MAX_SUBJECTS})]


def _up_to(limit: int, description: str | None = None) -> Any:
    """A bound shown in the tool's schema and checked by the service layer, so a fact that
    breaks it is refused with the words GraphQL uses for it."""
    return Field(None, description=description, json_schema_extra={"maxLength": limit})


class FactIn(BaseModel):
    """One fact: what it is about (subject), its value, and how it relates to what memory
    holds (scope, kind, time, the proposed action, confidence, the stored fact it is about),
    or a graph triple. The same fields as GraphQL's FactInput, checked by the same code."""

    model_config = ConfigDict(extra="forbid")

    subject: str | None = _up_to(10_000, "What it is about, in snake_case (e.g. state); a"
                                         " graph triple's relation when left out.")
    value: str | None = _up_to(MAX_VALUE_LENGTH)
    scope: str | None = _up_to(200, "global by default")
    kind: Literal["state", "event"] | None = None
    time_ref: Literal["current", "past", "future", "unknown"] | None = None
    action: Literal["ADD", "SUPERSEDE", "RETRACT", "REFINE", "DEDUP", "COEXIST", "FLAG",
                    "SKIP", "ARCHIVE"] | None = Field(
        None, description="The proposed action; reconciliation decides the final one.")
    confidence: float | None = Field(None, description="0 to 1; a change below 0.7, or"
                                     " without one, is held for review.",
                                     json_schema_extra={"minimum": 0, "maximum": 1})
    head: str | None = _up_to(1000)
    relation: str | None = _up_to(200)
    tail: str | None = _up_to(1000)
    head_type: str | None = _up_to(100)
    tail_type: str | None = _up_to(100)
    cardinality: Literal["one", "many"] | None = None
    reason: str | None = _up_to(10_000)
    category: str | None = _up_to(100)
    target_id: str | None = _up_to(200, "The id of the stored fact this one is about: a"
                                        " REFINE changes that fact, a RETRACT retires it.")
    valid_from: Instant = None
    valid_to: Instant = None
    raw: str | None = _up_to(MAX_TEXT_LENGTH, "The sentence the fact came from.")
    source_ref: str | None = _up_to(2000, "Where it came from (a URL, a record id).")
    metadata: dict[str, Any] | None = Field(None, description="A JSON object kept with the"
                                            " fact, merged over the call's.")
    recorded_at: Instant = Field(None, description="When memory learnt it, for a backfill"
                                 " (backfill capability).")

    def proposal(self) -> dict[str, object]:
        """The dict GraphMem.remember_facts takes (unset fields left out)."""
        return self.model_dump(mode="json", exclude_none=True)


Facts = Annotated[list[FactIn], Field(description="At most GRAPHMEM_WRITE_MAX_FACTS facts"
                                      " (1000 by default) in one call.")]


class EntityRef(BaseModel):
    """A start entity of recall_related: its type and name."""

    model_config = ConfigDict(extra="forbid")

    type: Annotated[str, Field(min_length=1, max_length=100)]
    name: Annotated[str, Field(min_length=1, max_length=1000)]
