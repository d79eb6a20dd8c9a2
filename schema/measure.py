"""The size of a GraphQL document: fragments, spreads, aliases, depth, cost and model calls,
in linear time.

A census walks every definition once (without following spreads) and counts what the caps
bound. Depth and cost then measure each fragment once, in dependency order, and a spread
reuses its fragment's measure: the work is linear in the document however often a fragment
is spread, where expanding spreads would double with every level of a chain. Cost saturates
just past the budget, so its arithmetic stays small. A fragment that spreads itself,
directly or through others, is reported instead of measured.

The cost of a field is 1, plus MODEL_CALL_COST when it calls a model (`CostRules`), plus its
selection's cost times its multiplier: the page it asks for (`first` or `limit`, given or
the field's default). A traversal (`hops`) returns at most its page, but the paths it walks
to find them double with every hop past the first: it costs the page times (2^(hops-1) - 1)
more. Model calls are counted too, for the per-key budget of model calls.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from graphql import (
    BooleanValueNode,
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    VariableNode,
)

from graphmem.schema.pagination import DEFAULT_PAGE

MODEL_CALL_COST = 500
# What an introspection root field (`__schema`, `__type`) costs beyond its selection: its
# answer grows with the whole schema, whatever the selection says.
INTROSPECTION_COST = 2400  # two trees at most fit the default budget of one document
INTROSPECTION_ROOTS = frozenset({"__schema", "__type"})
# Fields whose answer is a whole space's memory (an export inline, up to
# GRAPHMEM_EXPORT_INLINE_MAX bytes) cost this much beyond their selection: two at most fit
# the default budget of one document.
WHOLE_SPACE_COST = 2000
WHOLE_SPACE_FIELDS = frozenset({"exportMemory"})
# Fields that call a model (an LLM, or the embedder for the question), with the boolean
# argument that turns the call off when it is given as false.
MODEL_FIELDS: Mapping[str, str | None] = {"recall": None, "recallRelated": "answer",
                                          "remember": None, "forget": None}


@dataclass(frozen=True)
class CostRules:
    """What the cost model knows of the schema: the default `limit` and `hops` of the fields
    that take them, and the fields that call a model."""

    limits: Mapping[str, int] = field(default_factory=dict)
    hops: Mapping[str, int] = field(default_factory=dict)
    models: Mapping[str, str | None] = field(default_factory=lambda: MODEL_FIELDS)


@dataclass(frozen=True)
class Measure:
    depth: int
    cost: int
    calls: int = 0


NOTHING = Measure(0, 0)
ROOT = "<root>"  # an operation's own selection: its fields are the root type's
ROOT_TYPES = ("Query", "Mutation", "Subscription")


@dataclass
class Census:
    """Counts over the document as written: definitions, spreads and aliases."""

    fragments: dict[str, FragmentDefinitionNode] = field(default_factory=dict)
    operations: list[OperationDefinitionNode] = field(default_factory=list)
    uses: dict[str, list[str]] = field(default_factory=dict)  # fragment -> fragments it spreads
    fragment_count: int = 0
    spreads: int = 0
    aliases: int = 0
    repeated: tuple[int, str] = (0, "")  # the most fields of one selection with one name

    @classmethod
    def of(cls, document: DocumentNode) -> Census:
        census = cls()
        for definition in document.definitions:
            if isinstance(definition, FragmentDefinitionNode):
                census.fragment_count += 1
                census.fragments[definition.name.value] = definition
                census.uses[definition.name.value] = census._count(definition.selection_set)
            elif isinstance(definition, OperationDefinitionNode):
                census.operations.append(definition)
                census._count(definition.selection_set)
        return census

    def _count(self, selection_set: SelectionSetNode) -> list[str]:
        """Count aliases and spreads under one definition; the fragments it spreads."""
        used: list[str] = []
        for node in _selections(selection_set):
            if isinstance(node, FragmentSpreadNode):
                self.spreads += 1
                used.append(node.name.value)
            elif isinstance(node, FieldNode) and node.alias is not None:
                self.aliases += 1
            if isinstance(node, FieldNode | InlineFragmentNode) and node.selection_set:
                self._names(node.selection_set)
        self._names(selection_set)
        return used

    def _names(self, selection_set: SelectionSetNode) -> None:
        """The most fields answering to one name in this selection: graphql-core's check
        that such fields can merge compares every pair of them."""
        names = Counter((n.alias or n.name).value for n in selection_set.selections
                        if isinstance(n, FieldNode))
        if names:
            name, count = names.most_common(1)[0]
            if count > self.repeated[0]:
                self.repeated = (count, name)


class FragmentCycle(Exception):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def dependency_order(uses: dict[str, list[str]]) -> list[str]:
    """Fragments with every fragment they spread before them (an iterative depth-first
    walk, so a long chain cannot exhaust the stack); a cycle raises FragmentCycle."""
    order: list[str] = []
    state: dict[str, bool] = {}  # False: on the current path, True: done
    for root in uses:
        if root in state:
            continue
        state[root] = False
        path: list[tuple[str, Iterator[str]]] = [(root, iter(uses[root]))]
        while path:
            name, pending = path[-1]
            for used in pending:
                if used not in uses:
                    continue  # an unknown fragment: validation names it
                seen = state.get(used)
                if seen is False:
                    raise FragmentCycle(used)
                if seen is None:
                    state[used] = False
                    path.append((used, iter(uses[used])))
                    break
            else:
                path.pop()
                state[name] = True
                order.append(name)
    return order


class Measurer:
    """Depth and cost of selection sets, with the fragments measured beforehand."""

    def __init__(self, census: Census, variables: dict[str, Any], paged: frozenset[str],
                 cap: int, rules: CostRules | None = None) -> None:
        self.variables = variables
        self.paged = paged
        self.anywhere = frozenset(_nested_names(paged))
        self.cap = cap
        self.rules = rules or CostRules()
        self.done: dict[str, Measure] = {}
        for name in dependency_order(census.uses):
            fragment = census.fragments[name]
            self.done[name] = self.selection(fragment.selection_set,
                                             fragment.type_condition.name.value)

    def selection(self, selection_set: SelectionSetNode | None,
                  parent: str | None = ROOT) -> Measure:
        """Every field costs 1 plus its multiplier times its selection, and an introspection
        root INTROSPECTION_COST more; introspection fields add no depth (the standard
        introspection query nests deeper than any document needs to); fragments add their
        measure, not a level.
        `parent` names the type the selection is on when the document says it (an
        operation's root, a fragment's type condition), else None."""
        if selection_set is None:
            return NOTHING
        depth = cost = calls = 0
        for node in selection_set.selections:
            if isinstance(node, FieldNode):
                if node.name.value.startswith("__"):
                    inner = self.selection(node.selection_set, None)
                    root = node.name.value in INTROSPECTION_ROOTS
                    cost += 1 + root * INTROSPECTION_COST + inner.cost
                    cost = min(cost, self.cap)
                    continue
                inner = self.selection(node.selection_set, None)
                times = self.multiplier(node, parent)
                walk = min(self.cap, times * (self.hop_factor(node) - 1))
                own = self.model_call(node)
                whole = node.name.value in WHOLE_SPACE_FIELDS
                depth = max(depth, 1 + inner.depth)
                cost += (1 + own * MODEL_CALL_COST + whole * WHOLE_SPACE_COST + walk
                         + min(self.cap, times * inner.cost))
                calls += own + min(self.cap, times * inner.calls)
            else:
                inner = self._fragment(node, parent)
                depth = max(depth, inner.depth)
                cost += inner.cost
                calls += inner.calls
            cost, calls = min(cost, self.cap), min(calls, self.cap)
        return Measure(depth, cost, calls)

    def _fragment(self, node: object, parent: str | None) -> Measure:
        if isinstance(node, InlineFragmentNode):
            condition = node.type_condition
            return self.selection(node.selection_set,
                                  parent if condition is None else condition.name.value)
        if isinstance(node, FragmentSpreadNode):
            return self.done.get(node.name.value, NOTHING)
        return NOTHING

    def is_paged(self, name: str, parent: str | None) -> bool:
        """A field taking `first`: `Type.field` in `paged` where the type is known (a field
        of that name on another type is no page), else any entry of that name that is not
        a root type's; a bare `field` entry counts on every type."""
        if name in self.paged:
            return True
        if parent == ROOT:
            return any(f"{root}.{name}" in self.paged for root in ROOT_TYPES)
        if parent is not None:
            return f"{parent}.{name}" in self.paged
        return name in self.anywhere

    def multiplier(self, node: FieldNode, parent: str | None = None) -> int:
        """`first` or `limit` when given (literally or as an integer variable), else the
        default page for a paged field or the field's default limit, else 1; never above
        the cap."""
        for name in ("first", "limit"):
            given = self._int(node, name)
            if given is not None:
                return given
        name = node.name.value
        if name in self.rules.limits:
            return min(self.cap, max(1, self.rules.limits[name]))
        return DEFAULT_PAGE if self.is_paged(name, parent) else 1

    def hop_factor(self, node: FieldNode) -> int:
        """2^(hops-1): the paths walked grow twofold with every hop past the first (`hops`,
        given or the field's default)."""
        hops = self._int(node, "hops")
        if hops is None:
            hops = self.rules.hops.get(node.name.value, 1)
        return 1 << min(max(hops - 1, 0), 30)

    def model_call(self, node: FieldNode) -> int:
        """1 when the field calls a model (unless its switch is given as false)."""
        name = node.name.value
        if name not in self.rules.models:
            return 0
        switch = self.rules.models[name]
        for argument in node.arguments or ():
            if argument.name.value == switch and isinstance(argument.value, BooleanValueNode):
                return int(argument.value.value)
        return 1

    def _int(self, node: FieldNode, name: str) -> int | None:
        """An integer argument given literally or as an integer variable (at least 1)."""
        for argument in node.arguments or ():
            if argument.name.value != name:
                continue
            value = argument.value
            if isinstance(value, IntValueNode):
                digits = value.value.lstrip("-")
                return self.cap if len(digits) > 9 else min(self.cap, max(1, int(value.value)))
            if isinstance(value, VariableNode):
                given = self.variables.get(value.name.value)
                if isinstance(given, int) and not isinstance(given, bool):
                    return min(self.cap, max(1, given))
        return None


def _nested_names(paged: frozenset[str]) -> Iterator[str]:
    """Names of paged fields on types other than the roots (those a nested selection, whose
    type the document does not say, may reach)."""
    for entry in paged:
        owner, _, name = entry.rpartition(".")
        if owner not in ROOT_TYPES:
            yield name


def _selections(selection_set: SelectionSetNode) -> Iterator[Any]:
    """Every selection under a selection set, nested ones included, without recursion."""
    stack = [selection_set]
    while stack:
        for node in stack.pop().selections:
            yield node
            nested = getattr(node, "selection_set", None)
            if nested is not None:
                stack.append(nested)
