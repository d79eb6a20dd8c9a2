"""GraphQL validation limits: tokens, depth, aliases and a cost budget; `hops` and pages capped.

Depth, aliases and cost are measured in one walk of the parsed document, with the variables
known. One extension does what every request repeats, each once per distinct query text:
parsing (token-limited), graphql-core's validation (no rule depends on the request) and the
limit walk (once per query text and integer variables, the only ones `first` can take).
Cost: every field costs 1, and a field taking `first` multiplies the cost of its selection by
it (the default page size when omitted). Introspection fields are free and add no depth.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from graphql import (
    DocumentNode,
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
from graphql.language.parser import parse
from graphql.validation import ASTValidationRule, validate
from strawberry.extensions import SchemaExtension

from graphmem.errors import InvalidInput
from graphmem.schema.pagination import DEFAULT_PAGE
from graphmem.settings import Settings

MAX_TOKENS = 20_000
CACHED_DOCUMENTS = 512
MAX_RETENTION_DAYS = 1_000_000


@dataclass(frozen=True)
class Limits:
    depth: int
    aliases: int
    cost: int
    paged: frozenset[str]


@dataclass(frozen=True)
class _Walk:
    fragments: dict[str, FragmentDefinitionNode]
    variables: dict[str, Any]
    paged: frozenset[str]


class Documents:
    """Per schema, bounded: parsed documents by query text, validation errors by document,
    limit problems by query text and integer variables."""

    def __init__(self, limits: Limits, size: int = CACHED_DOCUMENTS) -> None:
        self.limits = limits
        self.parse = lru_cache(maxsize=size)(partial(parse, max_tokens=MAX_TOKENS))
        self._validate = lru_cache(maxsize=size)(_validate)
        self._problems = lru_cache(maxsize=size)(self._check)

    def errors(self, schema: Any, document: DocumentNode, query: str,
               variables: dict[str, Any], rules: tuple[type[ASTValidationRule], ...]
               ) -> list[GraphQLError]:
        """Validation errors, then limit problems; fresh objects (error handling edits them)."""
        ints = tuple(sorted((k, v) for k, v in variables.items()
                            if isinstance(v, int) and not isinstance(v, bool)))
        found = [*self._validate(schema, document, rules),
                 *(GraphQLError(p) for p in self._problems(query, document, ints))]
        return [GraphQLError(e.message, e.nodes, e.source, e.positions, e.path,
                             e.original_error) for e in found]

    def _check(self, query: str, document: DocumentNode,
               ints: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
        return tuple(check(document, dict(ints), self.limits))


def _validate(schema: Any, document: DocumentNode,
              rules: tuple[type[ASTValidationRule], ...]) -> tuple[GraphQLError, ...]:
    return tuple(validate(schema, document, rules))


class QueryLimits(SchemaExtension):
    """The one extension on every request: parse and validate through the document cache,
    and refuse a document over its token, depth, alias or cost limit (BAD_USER_INPUT). One
    extension rather than four: each adds hook plumbing to every request."""

    def __init__(self, documents: Documents) -> None:
        self.documents = documents

    def on_parse(self) -> Iterator[None]:
        ctx = self.execution_context
        if ctx.graphql_document is None and ctx.query:
            ctx.graphql_document = self.documents.parse(ctx.query)
        yield

    def on_validate(self) -> Iterator[None]:
        ctx = self.execution_context
        if ctx.graphql_document is not None and ctx.query and ctx.pre_execution_errors is None:
            ctx.pre_execution_errors = self.documents.errors(
                ctx.schema._schema, ctx.graphql_document, ctx.query, ctx.variables or {},
                tuple(ctx.validation_rules))
        yield


def check(document: DocumentNode, variables: dict[str, Any], limits: Limits) -> list[str]:
    fragments = {d.name.value: d for d in document.definitions
                 if isinstance(d, FragmentDefinitionNode)}
    walk = _Walk(fragments, variables, limits.paged)
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    problems = []
    aliases = sum(_aliases(d.selection_set) for d in document.definitions
                  if isinstance(d, OperationDefinitionNode | FragmentDefinitionNode))
    if aliases > limits.aliases:
        problems.append(f"{aliases} aliases exceed the limit of {limits.aliases}")
    depth = max((_depth(o.selection_set, walk, frozenset()) for o in operations), default=0)
    if depth > limits.depth:
        problems.append(f"query depth {depth} exceeds the limit of {limits.depth}")
    cost = max((_cost(o.selection_set, walk, frozenset()) for o in operations), default=0)
    if cost > limits.cost:
        problems.append(f"query cost {cost} exceeds the budget of {limits.cost}: ask for"
                        " fewer fields, smaller pages (first) or fewer aliases")
    return problems


def _children(selection_set: SelectionSetNode | None, walk: _Walk,
              seen: frozenset[str]) -> Iterator[tuple[FieldNode, frozenset[str]]]:
    """The fields of a selection, fragments spread in (each fragment once per path)."""
    if selection_set is None:
        return
    for node in selection_set.selections:
        if isinstance(node, FieldNode):
            if not node.name.value.startswith("__"):
                yield node, seen
        elif isinstance(node, InlineFragmentNode):
            yield from _children(node.selection_set, walk, seen)
        elif isinstance(node, FragmentSpreadNode) and node.name.value not in seen:
            fragment = walk.fragments.get(node.name.value)
            if fragment is not None:
                yield from _children(fragment.selection_set, walk, seen | {node.name.value})


def _cost(selection_set: SelectionSetNode | None, walk: _Walk, seen: frozenset[str]) -> int:
    return sum(1 + _multiplier(field, walk) * _cost(field.selection_set, walk, inner)
               for field, inner in _children(selection_set, walk, seen))


def _depth(selection_set: SelectionSetNode | None, walk: _Walk, seen: frozenset[str]) -> int:
    return max((1 + _depth(field.selection_set, walk, inner)
                for field, inner in _children(selection_set, walk, seen)), default=0)


def _aliases(selection_set: SelectionSetNode | None) -> int:
    if selection_set is None:
        return 0
    total = 0
    for node in selection_set.selections:
        if isinstance(node, FieldNode):
            total += (node.alias is not None) + _aliases(node.selection_set)
        elif isinstance(node, InlineFragmentNode):
            total += _aliases(node.selection_set)
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
    """The per-request extension factory, over one document cache for the schema."""
    limits = Limits(settings.api_max_depth, settings.api_max_aliases,
                    settings.api_max_complexity, paged)
    return [partial(QueryLimits, Documents(limits))]


def check_hops(hops: int, settings: Settings) -> int:
    if not 1 <= hops <= settings.api_max_hops:
        raise InvalidInput(f"hops must be between 1 and {settings.api_max_hops}, got {hops}")
    return hops


def check_limit(limit: int, settings: Settings) -> int:
    if not 1 <= limit <= settings.api_max_page:
        raise InvalidInput(f"limit must be between 1 and {settings.api_max_page}, got {limit}")
    return limit


def check_days(days: float | None) -> float | None:
    """A retention period a date can hold (the service layer refuses zero and negatives)."""
    if days is not None and days > MAX_RETENTION_DAYS:
        raise InvalidInput(f"a retention period is at most {MAX_RETENTION_DAYS:,} days, got"
                           f" {days:g}")
    return days
