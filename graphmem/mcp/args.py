"""The tools' argument types: the input schemas MCP clients see are generated from them.

Bounds are part of the types, so an oversized or malformed argument is refused by the
schema before any work (with the field named), and the service layer's own checks stay the
last word on what a fact may hold.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

PART = r"^[A-Za-z0-9_.@:\-]{1,128}$"

UserId = Annotated[str, Field(
    pattern=PART, max_length=128,
    description="Whose memory: the user part of the space (tenant/user/agent/run); the tenant"
                " comes from the caller's key.")]
AgentId = Annotated[str, Field(pattern=PART, max_length=128,
                               description="The agent part of the space.")]
RunId = Annotated[str, Field(pattern=PART, max_length=128,
                             description="The run (session) part of the space.")]
Text = Annotated[str, Field(max_length=1_000_000, description="A message in natural language.")]
Question = Annotated[str, Field(min_length=1, max_length=10_000)]
Subject = Annotated[str, Field(min_length=1, max_length=10_000,
                               description="A subject (slot name), e.g. primary_database.")]
Source = Annotated[str, Field(max_length=200, description="Who asserts it (e.g. crm).")]
Identifier = Annotated[str, Field(min_length=1, max_length=200)]
Note = Annotated[str, Field(max_length=10_000)]
Instant = Annotated[AwareDatetime | None, Field(
    description="ISO 8601 with a timezone, e.g. 2026-03-01T00:00:00+00:00.")]
Subjects = Annotated[list[Subject], Field(min_length=1, max_length=500)]


class FactIn(BaseModel):
    """One fact: what it is about (subject), its value, and how it relates to what memory
    holds (scope, kind, time, the proposed action, confidence), or a graph triple."""

    model_config = ConfigDict(extra="forbid")

    subject: Annotated[str | None, Field(
        max_length=10_000, description="What it is about, in snake_case (e.g. state); a"
                                       " graph triple's relation when left out.")] = None
    value: Annotated[str, Field(max_length=200_000)] = ""
    scope: Annotated[str | None, Field(max_length=200, description="global by default")] = None
    kind: Literal["state", "event"] | None = None
    time_ref: Literal["current", "past", "future", "unknown"] | None = None
    action: Literal["ADD", "SUPERSEDE", "RETRACT", "REFINE", "DEDUP", "COEXIST", "FLAG",
                    "SKIP", "ARCHIVE"] | None = Field(
        None, description="The proposed action; reconciliation decides the final one.")
    confidence: Annotated[float | None, Field(ge=0.0, le=1.0)] = None
    head: Annotated[str | None, Field(max_length=1000)] = None
    relation: Annotated[str | None, Field(max_length=200)] = None
    tail: Annotated[str | None, Field(max_length=1000)] = None
    head_type: Annotated[str | None, Field(max_length=100)] = None
    tail_type: Annotated[str | None, Field(max_length=100)] = None
    cardinality: Literal["one", "many"] | None = None
    reason: Annotated[str | None, Field(max_length=10_000)] = None
    category: Annotated[str | None, Field(max_length=100)] = None
    valid_from: Instant = None
    valid_to: Instant = None

    def proposal(self) -> dict[str, object]:
        """The dict GraphMem.remember_facts takes (unset fields left out)."""
        return self.model_dump(mode="json", exclude_none=True)


Facts = Annotated[list[FactIn], Field(max_length=1000)]


class EntityRef(BaseModel):
    """A start entity of recall_related: its type and name."""

    model_config = ConfigDict(extra="forbid")

    type: Annotated[str, Field(min_length=1, max_length=100)]
    name: Annotated[str, Field(min_length=1, max_length=1000)]
