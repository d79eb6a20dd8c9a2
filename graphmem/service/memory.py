"""`GraphMem`: the Python API, one memory space per instance.

The GraphQL resolvers, the MCP tools and the CLI call these same operations. The class
holds no business rule: the core verbs (remember, remember_facts, forget, recall,
recall_related, active, history) are each one audited call of a collaborator, and the rest
sit in the service classes that are its namespaces (`mem.review` is
graphmem.service.review.Review, `mem.entities`, `mem.records`, `mem.erasure`,
`mem.transfer` likewise), each public method audited under its operation's name. They call
the stages (remember, recall, lifecycle) that decide and the stores that apply.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, TypeVar

from graphmem.errors import InvalidInput
from graphmem.model import Fact, Policy, Result, Space
from graphmem.model.audit import AuditCall
from graphmem.model.history import History
from graphmem.model.paths import PathStep, Related, StartSpec
from graphmem.model.recall import Recall
from graphmem.model.requests import Write
from graphmem.remember.policy import make_policy
from graphmem.runtime import Runtime
from graphmem.service.audit import Auditor
from graphmem.service.context import Caller, SpaceContext
from graphmem.service.entities import Entities
from graphmem.service.erasure import Erasure
from graphmem.service.reads import Reads
from graphmem.service.records import Listing, Records
from graphmem.service.review import Review
from graphmem.service.transfer import Transfer
from graphmem.service.writes import Writes
from graphmem.settings import Settings, load_settings
from graphmem.slots import SlotSchema, load_slot_schema

T = TypeVar("T")

__all__ = ["Caller", "GraphMem", "Listing"]

# Deprecated flat names: each still works, with a DeprecationWarning that names its place
# (`mem.<namespace>.<name>`); see docs/changelog.md.
MOVED: dict[str, tuple[str, str]] = {
    "forget_facts": ("", "forget"),
    "prefilter": ("records", "prefilter"),
    "wait_for_embeddings": ("records", "wait_for_embeddings"),
    "check_before_act": ("records", "check_before_act"),
    "fact": ("records", "fact"),
    "facts_by_id": ("records", "facts_by_id"),
    "superseded_by": ("records", "superseded_by"),
    "list_memories": ("records", "list_memories"),
    "list_facts": ("records", "page"),
    "history_page": ("records", "history_page"),
    "stats": ("records", "stats"),
    "spaces": ("records", "spaces"),
    "space_info": ("records", "space_info"),
    "spaces_stats": ("records", "spaces_stats"),
    "flagged": ("review", "flagged"),
    "pending": ("review", "pending"),
    "pending_changes": ("review", "pending_changes"),
    "conflicts": ("review", "conflicts"),
    "list_conflicts": ("review", "list_conflicts"),
    "conflict": ("review", "conflict"),
    "confirm": ("review", "confirm"),
    "reject": ("review", "reject"),
    "resolve_conflict": ("review", "resolve_conflict"),
    "dismiss_conflict": ("review", "dismiss_conflict"),
    "set_reconcile_policy": ("review", "set_reconcile_policy"),
    "get_reconcile_policy": ("review", "get_reconcile_policy"),
    "create_entity": ("entities", "create"),
    "entities": ("entities", "all"),
    "entity": ("entities", "get"),
    "neighbourhood": ("entities", "neighbourhood"),
    "entity_history": ("entities", "history"),
    "entity_history_page": ("entities", "history_page"),
    "list_entities": ("entities", "page"),
    "entity_by_key": ("entities", "by_key"),
    "entity_aliases": ("entities", "aliases"),
    "graph_vocabulary": ("entities", "vocabulary"),
    "rebuild_projection": ("entities", "rebuild_projection"),
    "sweep_placeholders": ("entities", "sweep_placeholders"),
    "verify_audit": ("records", "verify_audit"),
    "audit_log": ("records", "audit_log"),
    "audit_page": ("records", "audit_page"),
    "audit_entry": ("records", "audit_entry"),
    "record_decision": ("records", "record_decision"),
    "attest": ("records", "attest"),
    "receipt": ("records", "receipt"),
    "export_public_key": ("records", "export_public_key"),
    "verify_receipt": ("records", "verify_receipt"),
    "fsck": ("records", "fsck"),
    "drain": ("records", "drain"),
    "delete": ("erasure", "delete"),
    "delete_all": ("erasure", "delete_all"),
    "purge_expired": ("erasure", "purge_expired"),
    "set_retention": ("erasure", "set_retention"),
    "erase_subtree": ("erasure", "erase_subtree"),
    "export": ("transfer", "export"),
    "import_memory": ("transfer", "import_memory"),
}
# Deprecated state, with what to use instead.
FORMER_STATE = {"key": "the space's key: use mem.space.key",
                "graph": "the graph driver: use mem.runtime.graph",
                "settings": "the settings: use mem.runtime.settings"}


class GraphMem:
    """Memory for one space; usable as a context manager."""

    def __init__(self, space: str | Space | None = None,
                 slot_schema: Mapping[str, Any] | str | SlotSchema | None = None,
                 policy: Mapping[str, Any] | None = None,
                 trusted_sources: Iterable[str] | None = None, *,
                 settings: Settings | None = None, runtime: Runtime | None = None,
                 caller: Caller | None = None) -> None:
        try:
            self.space = Space.parse(space)
        except ValueError as e:
            raise InvalidInput(str(e)) from None
        self._settings = settings or (runtime.settings if runtime else load_settings())
        schema = load_slot_schema(slot_schema if slot_schema is not None
                                  else self._settings.slot_schema)
        chosen: Policy | None = None
        if policy is not None:
            chosen = make_policy(policy.get("mode", "RECENCY"), policy.get("authority"),
                                 policy.get("curated", ()))
        trusted = frozenset(trusted_sources if trusted_sources is not None
                            else self._settings.trusted_sources)
        caller = caller or Caller()
        self._owns_runtime = runtime is None
        self._runtime = runtime or Runtime.open(self._settings)
        ctx = SpaceContext(self.space, self._runtime, self._settings, schema, chosen, trusted,
                           caller)
        self._ctx = ctx
        self._auditor = Auditor(self._runtime, self.space, caller.name)
        self._writes = Writes(ctx)
        self._reads = Reads(ctx)
        self.review = Review(ctx, self._auditor, self._writes)
        self.entities = Entities(ctx, self._auditor)
        self.records = Records(ctx, self._auditor)
        self.erasure = Erasure(ctx, self._auditor)
        self.transfer = Transfer(ctx, self._auditor)

    @property
    def runtime(self) -> Runtime:
        """The clients this memory runs on; pass it to another `GraphMem` to share them."""
        return self._runtime

    def close(self) -> None:
        if self._owns_runtime:
            self._runtime.close()

    def __enter__(self) -> GraphMem:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __getattr__(self, name: str) -> Any:
        """The former flat names and state, each with a DeprecationWarning."""
        if name in MOVED:
            namespace, new = MOVED[name]
            if not namespace:
                warnings.warn(f"GraphMem.{name} is deprecated: use mem.{new}(facts=…)",
                              DeprecationWarning, stacklevel=2)
                return lambda facts, *args, **kwargs: self.forget(
                    *args, facts=facts, **kwargs)
            warnings.warn(f"GraphMem.{name} is deprecated: use mem.{namespace}.{new}",
                          DeprecationWarning, stacklevel=2)
            return getattr(getattr(self, namespace), new)
        if name in FORMER_STATE:
            warnings.warn(f"GraphMem.{name} is deprecated: {FORMER_STATE[name]}",
                          DeprecationWarning, stacklevel=2)
            if name == "key":
                return self.space.key
            return self._runtime.graph if name == "graph" else self._settings
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _run(self, operation: str, work: Callable[[AuditCall], T]) -> T:
        """One public operation with its audit row (see graphmem.service.audit)."""
        return self._auditor.run(operation, work)

    # ---- writes ----------------------------------------------------------------------------
    def remember_facts(self, facts: Sequence[Mapping[str, Any]] | Write, text: str = "",
                       source: str = "", metadata: Mapping[str, Any] | None = None,
                       source_ref: str = "") -> list[Result]:
        """Reconcile pre-extracted facts; one transaction under the space's lock. A transport
        passes the `Write` it built instead of the arguments."""
        return self._submit("remember_facts", lambda: facts if isinstance(facts, Write) else
                            Write(_listed(facts), text, source, source_ref, metadata))

    def remember(self, text: str | Write, source: str = "",
                 metadata: Mapping[str, Any] | None = None,
                 source_ref: str = "") -> list[Result]:
        """Prefilter, one extraction call, then reconcile the facts (as remember_facts);
        `source_ref` says where the text came from (a permalink, a message id)."""
        return self._submit("remember", lambda: text if isinstance(text, Write) else
                            Write(None, text, source, source_ref, metadata))

    def forget(self, text: str | Write = "", source: str = "", *,
               facts: Sequence[Mapping[str, Any]] | None = None,
               metadata: Mapping[str, Any] | None = None) -> list[Result]:
        """Retract what the text says (one extraction with every action forced to RETRACT;
        no prefilter), or, given `facts`, those facts (each action forced to RETRACT, no
        model call, `text` kept as their raw text). No match says so plainly."""
        if isinstance(text, Write):
            return self._submit("forget_facts" if text.facts is not None else "forget",
                                lambda: text)
        if facts is not None:
            return self._submit("forget_facts", lambda: Write(
                _listed(facts), text, source, "", metadata, retract=True))
        return self._submit("forget", lambda: Write(None, text, source, retract=True))

    def _submit(self, operation: str, build: Callable[[], Write]) -> list[Result]:
        """One write, audited as `operation`; a `Write` that asks for another operation is
        refused (its arguments would be read as something they are not)."""
        def work(call: AuditCall) -> list[Result]:
            write = build()
            if write.operation != operation:
                raise InvalidInput(f"{operation} was given a request for {write.operation}")
            return self._writes.submit(call, write)

        return self._run(operation, work)

    # ---- reads -----------------------------------------------------------------------------
    def recall(self, question: str, explain: bool = False, include_history: bool = False,
               as_of: datetime | None = None,
               critical_categories: Iterable[str] | None = None,
               valid_at: datetime | None = None, answer: bool = True) -> Recall:
        """The facts for the question (ranked when the space is large), one answer call;
        `as_of` and `valid_at` answer from memory as it stood, or what was true, then.
        `answer=False`: a search: the facts ranked by the question however few, and no
        model call."""
        return self._run("recall", lambda call: self._reads.recall(
            question, explain, include_history, as_of, critical_categories, valid_at,
            answer))

    def active(self, subject: str | None = None, as_of: datetime | None = None,
               valid_at: datetime | None = None) -> list[Fact]:
        return self._run("active", lambda call: self._reads.active(subject, as_of, valid_at))

    def history(self, subject: str, scope: str | None = None,
                as_of: datetime | None = None) -> History:
        return self._run("history", lambda call: self._reads.history(subject, scope, as_of))

    def recall_related(self, question: str | None = None,
                       entities: Sequence[StartSpec] | None = None,
                       hops: int | None = None, as_of: datetime | None = None,
                       valid_at: datetime | None = None, limit: int = 50,
                       answer: bool = True,
                       path: Sequence[PathStep | tuple[str, str]] | None = None,
                       after: str | None = None) -> Related:
        """Paths from the question's (or the given) entities, with the facts behind each edge.
        With a question they are searched and ranked by it, best first, up to `hops` edges
        (4 when not given), and `answers` names the entities the best paths end at, when
        the best path explains every relation phrase of the question (`unexplained` and
        `guessed` say which words it did not); without one, the neighbourhood is walked
        `hops` deep (2 when not given). A `path` pattern (`[("REPORTS_TO", "OUT"),
        ("WORKS_AT", "IN")]`) follows exactly those relations, a page at a time
        (`after`: the result's `next_cursor`). A configured LLM writes an answer from the
        top paths, otherwise the paths are the answer."""
        return self.entities.recall_related(question, entities, hops, as_of, valid_at, limit,
                                            answer, path_steps(path) if path else None, after)


def path_steps(path: Sequence[PathStep | tuple[str, str]]) -> list[PathStep]:
    """Steps of a path pattern: `PathStep`s, or (relation, "OUT" | "IN") pairs."""
    steps = []
    for step in path:
        if isinstance(step, PathStep):
            steps.append(step)
            continue
        relation, direction = step
        if str(direction).upper() not in ("OUT", "IN"):
            raise InvalidInput(f"a path step's direction is OUT or IN, got {direction!r}")
        steps.append(PathStep(relation, str(direction).upper() == "OUT"))
    return steps


def _listed(facts: Any) -> tuple[Mapping[str, Any], ...]:
    if not isinstance(facts, list | tuple):
        raise InvalidInput(f"facts must be a list, got {type(facts).__name__}")
    return tuple(facts)
