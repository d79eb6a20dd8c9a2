"""LangGraph's long-term memory on graphmem: `GraphMemStore`, a `BaseStore`.

A LangGraph namespace is a graphmem space of the store's tenant: its one to three labels are
the space's user, agent and run (`("memories", "alice")` is `memories/alice/default`). A key
is a fact's subject and an item's value (a JSON object) the fact's value, so a `put` is a
reconciled write: a new value for a key supersedes the old one and the history keeps both;
`delete` (or `put(..., None)`) retracts it, leaving its tombstone in the history. A key that
is not already a snake_case subject (a UUID, say) is stored under a lossless base32
spelling, `key_b32_…`, and read back as it was given. `get` reads
the current value, `search` ranks a namespace's items by the query with graphmem's recall
(no model call) and `list_namespaces` lists the tenant's spaces. Past states are read with
`get_as_of` and a key's versions with `history`, beyond LangGraph's interface.

Item times: `created_at` is when the key was first written, `updated_at` when its current
value was recorded. A search's `score` is the item's rank as recall ordered them, 1.0 for the
best and smaller for each one after (graphmem ranks; it does not expose a similarity).
"""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Iterable, Iterator, Mapping
from datetime import UTC, datetime
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from graphmem.errors import InvalidInput
from graphmem.integrations.facts import rank_score
from graphmem.model import DEFAULT_PART, Fact, Space
from graphmem.runtime import Runtime
from graphmem.service.memory import Caller, GraphMem
from graphmem.slots.names import MAX_SUBJECT_LENGTH, normalise_subject

MAX_LABELS = 3  # user, agent, run
SOURCE = "langgraph"
ENCODED = "key_b32_"  # the subject of a key graphmem would not keep as it is


class GraphMemStore(BaseStore):
    """A LangGraph store whose items are graphmem facts of one tenant's spaces.

    `runtime`: the clients to use (one is opened from the environment's settings when
    None, and closed by `close`); `tenant`: whose spaces the namespaces are; `caller`: who
    the audit log says wrote (the store's writes are audited as any other); `confidence`:
    what each put is written with (a put is the agent's own statement, so 1.0 by default:
    a lower one may be flagged for review instead of replacing the value)."""

    supports_ttl = False

    def __init__(self, runtime: Runtime | None = None, *, tenant: str = DEFAULT_PART,
                 caller: Caller | None = None, source: str = SOURCE,
                 confidence: float = 1.0) -> None:
        self._owns = runtime is None
        self._confidence = confidence
        self._runtime = runtime or Runtime.open()
        self._tenant = Space(tenant=tenant).tenant
        self._caller = caller
        self._source = source
        self._memories: dict[str, GraphMem] = {}

    def close(self) -> None:
        for mem in self._memories.values():
            mem.close()
        self._memories.clear()
        if self._owns:
            self._runtime.close()

    # ---- LangGraph's interface -------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Each op in order; runs of puts to one namespace go in one reconciled write (the
        last value given for a key wins, as in LangGraph's own stores)."""
        listed = list(ops)
        results: list[Result] = [None] * len(listed)
        for start, run in _runs(listed):
            first = run[0]
            if isinstance(first, PutOp):
                self._put_run(run)  # type: ignore[arg-type]
            elif isinstance(first, GetOp):
                results[start] = self._get(first.namespace, first.key)
            elif isinstance(first, SearchOp):
                results[start] = self._search(first)
            elif isinstance(first, ListNamespacesOp):
                results[start] = self._namespaces(first)
            else:
                raise InvalidInput(f"GraphMemStore cannot run {type(first).__name__}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """`batch` on a worker thread: graphmem's calls are blocking."""
        return await asyncio.to_thread(self.batch, list(ops))

    # ---- beyond LangGraph's interface --------------------------------------------------------
    def get_as_of(self, namespace: tuple[str, ...], key: str, as_of: datetime) -> Item | None:
        """The item as memory held it at `as_of` (record time), or None if it had none."""
        mem = self._memory(namespace)
        found = mem.active(subject_of(key), as_of=as_of)
        return _item(namespace, key, found[0], self._created(mem, key)) if found else None

    def history(self, namespace: tuple[str, ...], key: str) -> list[Item]:
        """Every value the key has had, oldest first (a retracted one included)."""
        mem = self._memory(namespace)
        entries = list(mem.history(subject_of(key)))
        created = _recorded(entries[0].fact) if entries else datetime.now(UTC)
        return [_item(namespace, key, e.fact, created) for e in entries]

    # ---- the ops ---------------------------------------------------------------------------
    def _put_run(self, run: list[PutOp]) -> None:
        latest: dict[str, Mapping[str, Any] | None] = {}
        for op in run:
            latest[op.key] = op.value
        mem = self._memory(run[0].namespace)
        writes = [{"subject": subject_of(key), "value": _encoded(value),
                   "confidence": self._confidence}
                  for key, value in latest.items() if value is not None]
        if writes:
            mem.remember_facts(writes, source=self._source)
        removals = [key for key, value in latest.items() if value is None]
        current = [f for key in removals for f in mem.active(subject_of(key))]
        if current:
            mem.forget(facts=[{"subject": f.subject, "value": f.value} for f in current],
                       source=self._source)

    def _get(self, namespace: tuple[str, ...], key: str) -> Item | None:
        mem = self._memory(namespace)
        found = mem.active(subject_of(key))
        return _item(namespace, key, found[0], self._created(mem, key)) if found else None

    def _search(self, op: SearchOp) -> list[SearchItem]:
        found: list[SearchItem] = []
        for namespace in self._under(op.namespace_prefix):
            mem = self._memory(namespace)
            if op.query:
                facts = [r.fact for r in mem.recall(op.query, answer=False).facts
                         if not r.history]
            else:
                facts = sorted(mem.active(), key=_recorded, reverse=True)
            for fact in facts:
                value = _decoded(fact.value)
                if op.filter and not _matches(value, op.filter):
                    continue
                found.append(SearchItem(namespace, key_of(fact.subject), value,
                                        _recorded(fact), _recorded(fact)))
        if op.query:  # recall's order, each namespace's best first, scored by rank
            found = [SearchItem(i.namespace, i.key, i.value, i.created_at, i.updated_at,
                                score=rank_score(rank)) for rank, i in enumerate(found)]
        return found[op.offset:op.offset + op.limit]

    def _namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        names = sorted(set(self._all_namespaces()))
        for condition in op.match_conditions or ():
            path = tuple(condition.path)
            names = [n for n in names if _match(n, path, condition.match_type)]
        if op.max_depth is not None:
            names = sorted(set(n[:op.max_depth] for n in names))
        return names[op.offset:op.offset + op.limit]

    # ---- spaces and namespaces ---------------------------------------------------------------
    def _memory(self, namespace: tuple[str, ...]) -> GraphMem:
        key = self._space(namespace).key
        if key not in self._memories:
            self._memories[key] = GraphMem(key, runtime=self._runtime, caller=self._caller)
        return self._memories[key]

    def _space(self, namespace: tuple[str, ...]) -> Space:
        if not 1 <= len(namespace) <= MAX_LABELS:
            raise InvalidNamespaceError(
                f"a graphmem namespace has one to {MAX_LABELS} labels (the space's user,"
                f" agent and run), got {namespace!r}")
        parts = (*namespace, *([DEFAULT_PART] * (MAX_LABELS - len(namespace))))
        try:
            return Space(self._tenant, *parts)
        except ValueError as e:
            raise InvalidNamespaceError(f"namespace {namespace!r}: {e}") from None

    def _all_namespaces(self) -> Iterator[tuple[str, ...]]:
        lister = self._memory((DEFAULT_PART,))
        after: str | None = None
        while True:
            page = lister.records.spaces(first=100, after=after, count=False)
            for info in page.items:
                space = Space.parse(info.key)
                if space.tenant == self._tenant:
                    yield _namespace(space)
            if not page.has_next or not page.cursors:
                return
            after = page.cursors[-1]

    def _under(self, prefix: tuple[str, ...]) -> list[tuple[str, ...]]:
        """The namespaces a search of `prefix` covers: itself when it names a space, and
        every written namespace below it."""
        below = [n for n in self._all_namespaces() if n[:len(prefix)] == prefix]
        own = [prefix] if 1 <= len(prefix) <= MAX_LABELS else []
        return list(dict.fromkeys(own + sorted(below)))

    def _created(self, mem: GraphMem, key: str) -> datetime | None:
        entries = list(mem.history(subject_of(key)))
        return _recorded(entries[0].fact) if entries else None


def _runs(ops: list[Op]) -> Iterator[tuple[int, list[Op]]]:
    """Consecutive puts to one namespace together; every other op alone."""
    i = 0
    while i < len(ops):
        op = ops[i]
        j = i + 1
        if isinstance(op, PutOp):
            while j < len(ops) and isinstance(ops[j], PutOp) and \
                    ops[j].namespace == op.namespace:  # type: ignore[union-attr]
                j += 1
        yield i, ops[i:j]
        i = j


def subject_of(key: str) -> str:
    """The subject a key is stored under: itself when graphmem keeps it as it is (a
    snake_case name), else its lossless base32 spelling."""
    try:
        kept = normalise_subject(key) == key and not key.startswith(ENCODED)
    except ValueError:
        kept = False
    if kept:
        return key
    spelled = ENCODED + base64.b32encode(key.encode()).decode().rstrip("=").lower()
    if len(spelled) > MAX_SUBJECT_LENGTH:
        raise InvalidInput(f"key {key[:40]!r}… is too long for graphmem: a snake_case key of"
                           f" at most {MAX_SUBJECT_LENGTH} characters, or any other of at most"
                           f" {(MAX_SUBJECT_LENGTH - len(ENCODED)) * 5 // 8} bytes")
    return spelled


def key_of(subject: str) -> str:
    """The key a subject was stored for (`subject_of` undone)."""
    if not subject.startswith(ENCODED):
        return subject
    body = subject[len(ENCODED):].upper()
    return base64.b32decode(body + "=" * (-len(body) % 8)).decode()


def _namespace(space: Space) -> tuple[str, ...]:
    """A space's labels with the defaulted tail dropped (`memories/alice/default`:
    `("memories", "alice")`)."""
    labels = [space.user, space.agent, space.run]
    while len(labels) > 1 and labels[-1] == DEFAULT_PART:
        labels.pop()
    return tuple(labels)


def _match(namespace: tuple[str, ...], path: tuple[str, ...], kind: str) -> bool:
    part = namespace[:len(path)] if kind == "prefix" else namespace[-len(path):]
    return len(part) == len(path) and all(p in ("*", n) for p, n in zip(path, part,
                                                                        strict=True))


def _encoded(value: Mapping[str, Any]) -> str:
    if not isinstance(value, Mapping):
        raise InvalidInput(f"a store item's value is a JSON object, got {type(value).__name__}")
    return json.dumps(dict(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _decoded(text: str) -> dict[str, Any]:
    """A fact's value as an item's: the JSON object it holds, or `{"value": text}` for a fact
    another writer stored as plain text."""
    try:
        value = json.loads(text)
    except ValueError:
        return {"value": text}
    return value if isinstance(value, dict) else {"value": value}


def _matches(value: dict[str, Any], wanted: dict[str, Any]) -> bool:
    return all(value.get(k) == v for k, v in wanted.items())


def _recorded(fact: Fact) -> datetime:
    return fact.recorded_at or fact.valid_from or datetime.now(UTC)


def _item(namespace: tuple[str, ...], key: str, fact: Fact, created: datetime | None) -> Item:
    return Item(value=_decoded(fact.value), key=key, namespace=namespace,
                created_at=created or _recorded(fact), updated_at=_recorded(fact))
