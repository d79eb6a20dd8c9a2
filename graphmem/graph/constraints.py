"""The constraints and indexes the graph model declares (`graph.nodes`), and which of them
the database lacks.

A declared item is matched by what it is (uniqueness, range, full-text, vector), its label or
relationship type and its properties in order, never by name: the migrations name them, neomodel
would name them otherwise. A full-text or vector index must also carry the declared options
(analyzer, eventual consistency, dimensions, similarity), and a FAILED index counts as absent.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from neomodel import StructuredRel
from neomodel.properties import Property

from graphmem.graph.driver import GraphDriver
from graphmem.graph.nodes import GraphNode

ItemKind = Literal["unique", "range", "fulltext", "vector"]
Options = tuple[tuple[str, Any], ...]

_NAMES: dict[str, str] = {"unique": "uniqueness constraint", "range": "range index",
                          "fulltext": "full-text index", "vector": "vector index"}
_CONSTRAINT_KINDS: dict[str, ItemKind] = {
    "UNIQUENESS": "unique", "NODE_KEY": "unique", "RELATIONSHIP_UNIQUENESS": "unique",
    "RELATIONSHIP_KEY": "unique"}
_INDEX_KINDS: dict[str, ItemKind] = {"RANGE": "range", "FULLTEXT": "fulltext",
                                     "VECTOR": "vector"}


@dataclass(frozen=True, order=True)
class Declared:
    """One constraint or index the declarations imply."""

    kind: ItemKind
    label: str
    properties: tuple[str, ...]
    options: Options = ()
    relationship: bool = False

    def __str__(self) -> str:
        target = f"()-[:{self.label}]-()" if self.relationship else f":{self.label}"
        text = f"{_NAMES[self.kind]} on {target}({', '.join(self.properties)})"
        if self.options:
            text += " {" + ", ".join(f"{k}: {_shown(v)}" for k, v in self.options) + "}"
        return text


@dataclass(frozen=True)
class Present:
    """One constraint or index as the database reports it."""

    name: str
    kind: str
    label: str
    properties: tuple[str, ...]
    relationship: bool
    config: dict[str, Any] = field(default_factory=dict)
    state: str = "ONLINE"

    def shapes(self, item: Declared) -> bool:
        return (self.kind, self.label, self.properties, self.relationship) == (
            item.kind, item.label, item.properties, item.relationship)

    def carries(self, options: Options) -> bool:
        return all(k in self.config and _same(self.config[k], v) for k, v in options)


# ---- what the declarations imply ---------------------------------------------------------
def declared(classes: Iterable[type[GraphNode]]) -> tuple[Declared, ...]:
    """Every constraint and index the given node classes (and their relationships) imply."""
    items: set[Declared] = set()
    for cls in classes:
        items.update(_node_items(cls))
        items.update(_relationship_items(cls))
    return tuple(sorted(items))


def _node_items(cls: type[GraphNode]) -> Iterator[Declared]:
    label = cls.__label__
    for name, prop in cls.defined_properties(aliases=False, rels=False).items():
        yield from _property_items(label, prop.get_db_property_name(name), prop, False)
    yield from (Declared("unique", label, keys) for keys in cls.composite_keys)
    yield from (Declared("range", label, keys) for keys in cls.composite_indexes)


def _relationship_items(cls: type[GraphNode]) -> Iterator[Declared]:
    for rel in cls.defined_properties(aliases=False, properties=False, rels=True).values():
        model: type[StructuredRel] | None = rel.definition["model"]
        if model is None:
            continue
        rel_type = str(rel.definition["relation_type"])
        for name, prop in model.defined_properties(aliases=False, rels=False).items():
            yield from _property_items(rel_type, prop.get_db_property_name(name), prop, True)


def _property_items(label: str, name: str, prop: Property[Any], relationship: bool
                    ) -> Iterator[Declared]:
    if prop.unique_index:
        yield Declared("unique", label, (name,), relationship=relationship)
    if prop.index:
        yield Declared("range", label, (name,), relationship=relationship)
    if prop.fulltext_index is not None:
        ft = prop.fulltext_index
        text: Options = (("fulltext.analyzer", ft.analyzer),
                         ("fulltext.eventually_consistent", ft.eventually_consistent))
        yield Declared("fulltext", label, (name,), text, relationship)
    if prop.vector_index is not None:
        vi = prop.vector_index
        vector: Options = (("vector.dimensions", vi.dimensions),
                           ("vector.similarity_function", vi.similarity_function))
        yield Declared("vector", label, (name,), vector, relationship)


# ---- what the database holds ------------------------------------------------------------
def present(graph: GraphDriver) -> list[Present]:
    """The database's constraints and indexes (token lookups aside)."""
    found = [Present(r["name"], _CONSTRAINT_KINDS.get(r["type"], r["type"].lower()),
                     *_target(r)) for r in graph.read("fsck/constraints")]
    found += [Present(r["name"], _INDEX_KINDS.get(r["type"], r["type"].lower()), *_target(r),
                      config=dict(r["config"] or {}), state=r["state"])
              for r in graph.read("fsck/indexes")]
    return found


def _target(row: dict[str, Any]) -> tuple[str, tuple[str, ...], bool]:
    labels = row["labelsOrTypes"] or []
    return (labels[0] if len(labels) == 1 else "|".join(labels),
            tuple(row["properties"] or ()), row["entityType"] == "RELATIONSHIP")


def problems(items: Iterable[Declared], found: list[Present]) -> list[str]:
    """One line per declared item the database lacks, holds FAILED or holds otherwise."""
    lines: list[str] = []
    for item in items:
        same = [p for p in found if p.shapes(item)]
        usable = [p for p in same if p.state != "FAILED"]
        if not same:
            lines.append(f"missing {item}")
        elif not usable:
            lines.append(f"{item}: index {same[0].name} is FAILED")
        elif not any(p.carries(item.options) for p in usable):
            held = ", ".join(f"{k}: {_shown(usable[0].config.get(k))}" for k, _ in item.options)
            lines.append(f"{item}: index {usable[0].name} has {{{held}}}")
    return lines


def missing(graph: GraphDriver, classes: Iterable[type[GraphNode]]) -> list[str]:
    """`problems` of the given declarations against the connected database."""
    return problems(declared(classes), present(graph))


def _same(held: Any, wanted: Any) -> bool:
    if isinstance(wanted, str) and isinstance(held, str):
        return held.casefold() == wanted.casefold()
    return bool(held == wanted)


def _shown(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
