"""Entities as the service returns them: one entity, its view at a point of time (attributes
and links), the vocabulary the extractor is shown, the result of a placeholder sweep."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from graphmem.model import Fact

UNKNOWN = "unknown"


@dataclass(frozen=True)
class Entity:
    """One entity of a space as the graph holds it."""

    key: str
    type: str
    name: str
    created_at: datetime | None = None

    @property
    def placeholder(self) -> bool:
        return self.type == UNKNOWN

    @property
    def norm(self) -> str:
        """The normalised name: the key's half after the type."""
        return self.key.split(":", 1)[1]

    def __str__(self) -> str:
        return f"{self.name} ({self.type})"


@dataclass(frozen=True)
class Vocabulary:
    """What the extractor is shown so later mentions land on known names and labels."""

    entities: tuple[Entity, ...]
    relations: tuple[str, ...]


@dataclass(frozen=True)
class SweepResult:
    attached: tuple[tuple[str, str], ...]
    left: tuple[str, ...]

    def __str__(self) -> str:
        lines = [f"attached {p} → {t}" for p, t in self.attached]
        lines.append(f"{len(self.attached)} placeholder(s) attached, {len(self.left)} left"
                     " (no typed entity of that name, or more than one)")
        return "\n".join(lines)


@dataclass(frozen=True)
class Link:
    """An edge of the entity's: the relation fact, the entity at the other end, and the
    attribute key the relation is known by (`works at` → works_at)."""

    fact: Fact
    other: Entity
    outgoing: bool
    key: str = ""

    def __str__(self) -> str:
        label = self.fact.relation or self.fact.subject
        arrow = f"-[{label}]->" if self.outgoing else f"<-[{label}]-"
        return f"{arrow} {self.other}"


@dataclass(frozen=True)
class EntityView:
    """An entity with its attributes (key → facts) and its edges, at one point of time."""

    entity: Entity
    attributes: dict[str, tuple[Fact, ...]]
    links: tuple[Link, ...]
    truncated: bool = False  # it holds only the newest of the entity's facts

    def value(self, attribute: str) -> str | None:
        """The single value of an attribute or relation (its tail), None when it has none."""
        facts = self.attributes.get(attribute, ())
        if facts:
            return facts[-1].value
        tails = [link.other.name for link in self.links
                 if link.outgoing and link.key == attribute]
        return tails[-1] if tails else None

    def __str__(self) -> str:
        lines = [str(self.entity)]
        for key, facts in sorted(self.attributes.items()):
            lines.append(f"  {key} = " + ", ".join(f.value for f in facts))
        lines += [f"  {link}" for link in self.links]
        return "\n".join(lines)
