"""GraphQL validation limits: tokens, fragments, spreads, depth, aliases and a cost budget;
`hops` and pages capped.

Every request repeats parsing (token-limited), graphql-core's validation (no rule depends on
the request) and the limit walk; one extension does each once per distinct query text (the
walk once per query text and integer variables, the only ones `first` can take) and keeps
the outcome. A document not seen before is checked on a small pool of worker threads, never
on the event loop: parsed (linear, capped at MAX_TOKENS), then walked and validated within
GRAPHMEM_API_CHECK_SECONDS of the thread's CPU time: the limit walk is linear
(graphmem.schema.measure) and runs first, so graphql-core only validates a document within
every cap, and a deadline (graphmem.schema.deadline) stops whatever still runs too long.
Cost: every field costs 1, a field taking `first` or `limit` multiplies the cost of its
selection by it (the field's default when omitted), `hops` doubles it for every hop past the
first, a field that calls a model costs MODEL_CALL_COST more, and one that answers a whole
space's memory (an inline export) WHOLE_SPACE_COST more (graphmem.schema.measure).
An introspection root (`__schema`, `__type`) costs INTROSPECTION_COST more and introspection
fields add no depth. Model calls are also budgeted per key and
minute (GRAPHMEM_API_MODEL_CALLS_PER_MIN): a document whose calls the key's budget cannot pay
for is refused with RATE_LIMITED before it runs; the count comes with the cached outcome,
so the budget costs one token-bucket update per request.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any, Generic, TypeVar

from graphql import DocumentNode, GraphQLError, GraphQLObjectType, GraphQLSchema
from graphql.language.parser import parse
from graphql.validation import ASTValidationRule
from strawberry.extensions import SchemaExtension
from strawberry.schema.schema import validate_document
from strawberry.types.graphql import OperationType

from graphmem import consistency
from graphmem.errors import InvalidInput
from graphmem.schema.deadline import TooSlow, within
from graphmem.schema.lanes import HEAVY_CHARS, Lanes, elsewhere, runs_elsewhere
from graphmem.schema.measure import Census, CostRules, FragmentCycle, Measurer
from graphmem.service.model_budget import ModelBudget, payer
from graphmem.settings import Settings

MAX_TOKENS = 20_000
CACHED_DOCUMENTS = 512
# Parsed documents kept, by their text's length: a syntax tree holds about 50 bytes a
# character, and every object in it is walked by each full garbage collection.
CACHED_CHARS = 2_000_000
CHECK_THREADS = 2
MAX_REPEATED = 100  # fields of one selection that answer to the same name
# A document this short is checked on the event loop at once (a millisecond or two at most:
# it cannot hold more than a few dozen fields), never queued behind larger ones on the pool.
INLINE_CHECK_CHARS = 1000

K = TypeVar("K")
V = TypeVar("V")
Rules = tuple[type[ASTValidationRule], ...]
Ints = tuple[tuple[str, int], ...]
# What a document refused for its size stands on: it is answered with its errors and never
# executed, so its own syntax tree need not be kept.
REFUSED = parse("{ __typename }")


@dataclass(frozen=True)
class Limits:
    depth: int
    aliases: int
    cost: int
    paged: frozenset[str]
    fragments: int
    spreads: int
    seconds: float = 1.0
    model_calls: int = 30
    heavy_lanes: int = 1
    heavy_cost: int = 2000
    heavy_items: int = 100


@dataclass(frozen=True)
class Checked:
    """A document's outcome: the parsed document (None when it does not parse), the errors
    to answer with (none: execute it), the model calls it makes at most and its cost."""

    document: DocumentNode | None
    errors: tuple[GraphQLError, ...]
    calls: int = 0
    cost: int = 0


@dataclass(frozen=True)
class Assessment:
    problems: list[str]
    calls: int = 0
    cost: int = 0


class _Lru(Generic[K, V]):
    """A bounded, thread-safe mapping that forgets the least recently used entries: at most
    `size` of them, and at most `weight` in all when a put says what each one weighs."""

    def __init__(self, size: int, weight: int | None = None) -> None:
        self.size, self.weight, self._held = size, weight, 0
        self._items: OrderedDict[K, V] = OrderedDict()
        self._weights: dict[K, int] = {}
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: K, value: V, weight: int = 0) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            self._held += weight - self._weights.get(key, 0)
            self._weights[key] = weight
            while len(self._items) > self.size or (
                    self.weight is not None and self._held > self.weight and self._items):
                gone, _ = self._items.popitem(last=False)
                self._held -= self._weights.pop(gone, 0)


class Documents:
    """Per schema, bounded: parsed documents by query text, validation errors by query
    text, and outcomes by query text and integer variables."""

    def __init__(self, limits: Limits, size: int = CACHED_DOCUMENTS,
                 budget: ModelBudget | None = None) -> None:
        self.limits = limits
        self._parsed: _Lru[str, DocumentNode] = _Lru(size, CACHED_CHARS)
        self._validated: _Lru[tuple[str, Rules], tuple[GraphQLError, ...]] = _Lru(size)
        self._checked: _Lru[tuple[str, Ints], Checked] = _Lru(size)
        self._pool = ThreadPoolExecutor(CHECK_THREADS, thread_name_prefix="graphmem-check")
        self._rules: CostRules | None = None
        self._turns: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        self.budget = budget or ModelBudget(limits.model_calls)
        self.lanes = Lanes(limits.heavy_lanes, limits.heavy_cost, limits.heavy_items)

    def rules(self, schema: GraphQLSchema) -> CostRules:
        """The schema's defaults for `limit` and `hops`, read once."""
        if self._rules is None:
            self._rules = cost_rules(schema)
        return self._rules

    async def check(self, schema: GraphQLSchema, query: str, variables: dict[str, Any],
                    rules: Rules, who: str = "-", gauge: Any = None) -> Checked:
        """The outcome for this query text: from the cache; a short one worked out at once;
        else worked out on the pool, one document at a time per client (`who`: its key,
        else its address), so one client never holds more than one of the pool's threads;
        a document long enough to be heavy is checked in a heavy lane (`gauge` counts it)."""
        key = (query, _ints(variables))
        found = self._checked.get(key)
        if found is None and len(query) <= INLINE_CHECK_CHARS:
            return self.check_now(schema, query, key[1], rules)  # a small one: at once
        if found is None:
            async with self._turn(who):
                found = self._checked.get(key)  # another request of this client checked it
                if found is None:
                    async with self.lanes.lane(gauge, len(query) > HEAVY_CHARS):
                        loop = asyncio.get_running_loop()
                        found = await loop.run_in_executor(self._pool, self.check_now,
                                                           schema, query, key[1], rules)
        return found

    def _turn(self, who: str) -> asyncio.Lock:
        """The client's lock: held by whoever of its requests checks a document now; gone
        once no request holds or waits for it."""
        found = self._turns.get(who)
        if found is None:
            found = self._turns[who] = asyncio.Lock()
        return found

    def check_now(self, schema: GraphQLSchema, query: str, ints: Ints,
                  rules: Rules) -> Checked:
        """Parse, then walk the limits and validate within the deadline (on a worker
        thread). Parsing is linear in the document and capped at MAX_TOKENS, so it runs
        outside the deadline, where it costs a third of what it costs under the profile
        hook: a flood of fields is refused by its rule, never by the clock."""
        found = self._outcome(schema, query, ints, rules)
        self._checked.put((query, ints), found)
        return found

    def _outcome(self, schema: GraphQLSchema, query: str, ints: Ints, rules: Rules) -> Checked:
        document = self._parsed.get(query)
        if document is None:
            try:
                document = parse(query, max_tokens=MAX_TOKENS)
            except GraphQLError as e:
                return Checked(None, (e,))
        try:
            return within(self.limits.seconds,
                          partial(self._work, schema, query, document, ints, rules))
        except TooSlow:  # remembered, so sending it again costs nothing more
            return Checked(None, (GraphQLError(
                f"checking this query took more than {self.limits.seconds:g}s of CPU time"
                " (GRAPHMEM_API_CHECK_SECONDS): send a smaller or simpler document"),))

    def _work(self, schema: GraphQLSchema, query: str, document: DocumentNode, ints: Ints,
              rules: Rules) -> Checked:
        """A refused document's syntax tree is not kept: only its errors are."""
        found = assess(document, dict(ints), self.limits, self.rules(schema))
        if found.problems:
            return Checked(REFUSED, tuple(GraphQLError(p) for p in found.problems))
        self._parsed.put(query, document, len(query))
        errors = self._validated.get((query, rules))
        if errors is None:
            errors = tuple(validate_document(schema, document, rules))
            self._validated.put((query, rules), errors)
        return Checked(document, errors, found.calls, found.cost)


def _client(context: Any) -> str:
    """Whose request it is: its key, else its address."""
    principal = getattr(context, "principal", None)
    return payer(getattr(principal, "key_id", None), f"client:{getattr(context, 'client', '-')}")


def _gauge(context: Any) -> Any:
    """The server's gauge of heavy requests by state (none outside a server)."""
    metrics = getattr(context, "metrics", None)
    return getattr(metrics, "heavy", None)


def _ints(variables: dict[str, Any]) -> Ints:
    return tuple(sorted((k, v) for k, v in variables.items()
                        if isinstance(v, int) and not isinstance(v, bool)))


def _fresh(errors: tuple[GraphQLError, ...]) -> list[GraphQLError]:
    """Copies: error handling edits the errors it is given, and these are cached."""
    return [GraphQLError(e.message, e.nodes, e.source, e.positions, e.path, e.original_error)
            for e in errors]


class QueryLimits(SchemaExtension):
    """The one extension on every request: parse and validate through the document cache,
    and refuse a document over its token, fragment, spread, depth, alias or cost limit
    (BAD_USER_INPUT). One extension rather than several: each adds hook plumbing to every
    request."""

    def __init__(self, documents: Documents) -> None:
        self.documents = documents
        self._checked: Checked | None = None
        self._after: str | None = None
        self._token: str | None = None

    async def on_parse(self) -> AsyncIterator[None]:
        if self.execution_context.graphql_document is None:
            checked = await self._check()
            if checked is not None and checked.document is None:
                raise _fresh(checked.errors)[0]
            if checked is not None:
                self.execution_context.graphql_document = checked.document
        yield

    async def on_validate(self) -> AsyncIterator[None]:
        ctx = self.execution_context
        checked = self._checked or await self._check()  # a document parsed elsewhere too
        if checked is not None and ctx.pre_execution_errors is None:
            ctx.pre_execution_errors = _fresh(checked.errors) or self._over_budget(checked)
        token = getattr(ctx.context, "consistency", None)
        if token and not ctx.pre_execution_errors:
            try:
                consistency.decode(token)
                self._after = token
            except InvalidInput as e:
                ctx.pre_execution_errors = [GraphQLError(
                    str(e), extensions={"code": "BAD_USER_INPUT"})]
        yield

    def _over_budget(self, checked: Checked) -> list[GraphQLError]:
        """Refuse (RATE_LIMITED) a document whose model calls the caller's budget cannot pay
        for; take them from it otherwise."""
        if not checked.calls:
            return []
        who = _client(self.execution_context.context)
        refused = self.documents.budget.refusal(who, checked.calls)
        if refused is None:
            return []
        return [GraphQLError(refused, extensions={"code": "RATE_LIMITED"})]

    async def on_execute(self) -> AsyncIterator[None]:
        """A heavy query or mutation waits for a lane and executes off the event loop; the
        operation's reads wait for the request's consistency token, and a mutation's writes'
        token is the response's `extensions.consistencyToken`."""
        ctx, checked, lanes = self.execution_context, self._checked, self.documents.lanes
        with consistency.tracking(self._after) as tracker:
            if (checked is not None and ctx.result is None and runs_elsewhere(ctx)
                    and lanes.heavy(checked.cost, ctx.query, ctx.variables)):
                async with lanes.lane(_gauge(ctx.context)):
                    ctx.result = await elsewhere(ctx)
            yield
        if ctx.operation_type == OperationType.MUTATION:  # a read's own upkeep is no write
            self._token = tracker.token()

    def get_results(self) -> dict[str, Any]:
        return {"consistencyToken": self._token} if self._token else {}

    async def _check(self) -> Checked | None:
        ctx = self.execution_context
        if ctx.query:
            self._checked = await self.documents.check(
                ctx.schema._schema, ctx.query, ctx.variables or {}, tuple(ctx.validation_rules),
                _client(ctx.context), _gauge(ctx.context))
        return self._checked


def check(document: DocumentNode, variables: dict[str, Any], limits: Limits,
          rules: CostRules | None = None) -> list[str]:
    """What is wrong with the document's size."""
    return assess(document, variables, limits, rules).problems


def assess(document: DocumentNode, variables: dict[str, Any], limits: Limits,
           rules: CostRules | None = None) -> Assessment:
    """What is wrong with the document's size, and the model calls of its costliest
    operation; the caps first, so nothing over them is measured any further."""
    census = Census.of(document)
    problems = []
    if census.fragment_count > limits.fragments:
        problems.append(f"{census.fragment_count} fragments exceed the limit of"
                        f" {limits.fragments}")
    if census.spreads > limits.spreads:
        problems.append(f"{census.spreads} fragment spreads exceed the limit of"
                        f" {limits.spreads}")
    if problems:
        return Assessment(problems)
    if census.aliases > limits.aliases:
        problems.append(f"{census.aliases} aliases exceed the limit of {limits.aliases}")
    count, name = census.repeated
    if count > MAX_REPEATED:
        problems.append(f"{count} fields answer to {name!r} in one selection: at most"
                        f" {MAX_REPEATED} (every pair of them is compared while validating)")
    try:
        measurer = Measurer(census, variables, limits.paged, limits.cost + 1, rules)
    except FragmentCycle as e:
        return Assessment([*problems, f"fragment {e.name} spreads itself"])
    measures = [measurer.selection(o.selection_set) for o in census.operations]
    depth = max((m.depth for m in measures), default=0)
    if depth > limits.depth:
        problems.append(f"query depth {depth} exceeds the limit of {limits.depth}")
    cost = max((m.cost for m in measures), default=0)
    if cost > limits.cost:
        problems.append(f"query cost exceeds the budget of {limits.cost}: ask for fewer"
                        " fields, smaller pages (first, limit), fewer hops, fewer aliases or"
                        " fewer model-calling fields (recall, recallRelated, remember,"
                        " forget)")
    return Assessment(problems, max((m.calls for m in measures), default=0), cost)


def cost_rules(schema: GraphQLSchema) -> CostRules:
    """The default `limit` and `hops` of every field that takes them."""
    limits: dict[str, int] = {}
    hops: dict[str, int] = {}
    for named in schema.type_map.values():
        if not isinstance(named, GraphQLObjectType) or named.name.startswith("__"):
            continue
        for name, found in named.fields.items():
            for argument, into in (("limit", limits), ("hops", hops)):
                default = getattr(found.args.get(argument), "default_value", None)
                if isinstance(default, int) and not isinstance(default, bool):
                    into[name] = max(into.get(name, 0), default)
    return CostRules(limits, hops)


def extensions(settings: Settings, paged: frozenset[str],
               budget: ModelBudget | None = None) -> list[Callable[[], Any]]:
    """The per-request extension factory, over one document cache for the schema; model
    calls are paid from `budget` (shared with the process's other transports)."""
    limits = Limits(settings.api_max_depth, settings.api_max_aliases,
                    settings.api_max_complexity, paged, settings.api_max_fragments,
                    settings.api_max_spreads, settings.api_check_seconds,
                    settings.api_model_calls_per_min, settings.api_heavy_lanes,
                    settings.api_heavy_cost, settings.api_heavy_items)
    return [partial(QueryLimits, Documents(limits, budget=budget))]


def check_limit(limit: int, settings: Settings) -> int:
    if not 1 <= limit <= settings.api_max_page:
        raise InvalidInput(f"limit must be between 1 and {settings.api_max_page}, got {limit}")
    return limit
