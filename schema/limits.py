"""GraphQL validation limits: depth, aliases, tokens and a complexity budget; `hops` capped.

Complexity is estimated before validation, with the variables known: every field costs 1,
and a field taking `first` multiplies the cost of its selection by it (the default page
size when omitted). Introspection fields are free.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from graphmem.schema.pagination import DEFAULT_PAGE
from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    VariableNode,
)
from strawberry.extensions import (
    MaxAliasesLimiter,
    MaxTokensLimiter,
    QueryDepthLimiter,
    SchemaExtension,
)

from graphmem.errors import InvalidInput
from graphmem.settings import Settings

MAX_TOKENS = 20_000


class QueryCost(SchemaExtension):
    """`paged` names the fields that take `first` (found in the schema when it is built)."""

    def __init__(self, budget: int, paged: frozenset[str] = frozenset()) -> None:
        self.budget = budget
        self.paged = paged

    def on_validate(self) -> Iterator[None]:
        """Before graphql-core validates: strawberry only skips execution on errors that
        exist when validation ends, and a budget error set here is one of them."""
        ctx = self.execution_context
        document = ctx.graphql_document
        if document is not None:
            fragments = {d.name.value: d for d in document.definitions
                         if isinstance(d, FragmentDefinitionNode)}
            walk = _Walk(fragments, ctx.variables or {}, self.paged)
            cost = max((_cost(d.selection_set, walk, set()) for d in document.definitions
                        if isinstance(d, OperationDefinitionNode)), default=0)
            if cost > self.budget:
                ctx.pre_execution_errors = [GraphQLError(
                    f"query cost {cost} exceeds the budget of {self.budget}: ask for fewer"
                    " fields, smaller pages (first) or fewer aliases")]
        yield


@dataclass(frozen=True)
class _Walk:
    fragments: dict[str, FragmentDefinitionNode]
    variables: dict[str, Any]
    paged: frozenset[str]


def _cost(selection_set: SelectionSetNode | None, walk: _Walk, seen: set[str]) -> int:
    if selection_set is None:
        return 0
    total = 0
    for node in selection_set.selections:
        if isinstance(node, FieldNode):
            if node.name.value.startswith("__"):
                continue
            total += 1 + _multiplier(node, walk) * _cost(node.selection_set, walk, seen)
        elif isinstance(node, InlineFragmentNode):
            total += _cost(node.selection_set, walk, seen)
        elif isinstance(node, FragmentSpreadNode) and node.name.value not in seen:
            fragment = walk.fragments.get(node.name.value)
            if fragment is not None:
                total += _cost(fragment.selection_set, walk, seen | {node.name.value})
    return total


def _multiplier(node: FieldNode, walk: _Walk) -> int:
    for argument in node.arguments or ():
        if argument.name.value != "first":
            continue
        value = argument.value
        if isinstance(value, IntValueNode):
            return max(1, int(value.value))
        if isinstance(value, VariableNode):
            given = walk.variables.get(value.name.value)
            if isinstance(given, int) and not isinstance(given, bool):
                return max(1, given)
    return DEFAULT_PAGE if node.name.value in walk.paged else 1


def extensions(settings: Settings, paged: frozenset[str]) -> list[Callable[[], Any]]:
    return [
        partial(MaxTokensLimiter, max_token_count=MAX_TOKENS),
        partial(QueryDepthLimiter, max_depth=settings.api_max_depth),
        partial(MaxAliasesLimiter, max_alias_count=settings.api_max_aliases),
        partial(QueryCost, settings.api_max_complexity, paged),
    ]


def check_hops(hops: int, settings: Settings) -> int:
    if not 1 <= hops <= settings.api_max_hops:
        raise InvalidInput(f"hops must be between 1 and {settings.api_max_hops}, got {hops}")
    return hops


def check_limit(limit: int, settings: Settings) -> int:
    if not 1 <= limit <= settings.api_max_page:
        raise InvalidInput(f"limit must be between 1 and {settings.api_max_page}, got {limit}")
    return limit
