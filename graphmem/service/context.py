"""What every operation of one space shares: who calls, on which space, with which rules."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import islice
from typing import Concatenate, ParamSpec, TypeVar

from neo4j import ManagedTransaction

from graphmem.errors import AccessDenied, InvalidInput
from graphmem.graph.driver import GraphDriver
from graphmem.graph.outbox import Outbox
from graphmem.model import Policy, Space
from graphmem.model.audit import AuditCall
from graphmem.model.paging import Window
from graphmem.model.roles import CAPABILITIES
from graphmem.recall.retrieve import Ranker
from graphmem.runtime import Runtime
from graphmem.settings import Settings
from graphmem.slots import SlotSchema, normalise_subject

T = TypeVar("T")
P = ParamSpec("P")

MAX_SUBJECTS = 1000  # subjects one call may name (check before act, decisions, attestations)


@dataclass(frozen=True)
class Caller:
    """Who is calling: the local process is an admin unless a principal is given.

    `sources`: the sources it is bound to (None: any, the trusted in-process caller; a
    principal's are its key's `--source` and its tenant's mapping, graphmem.auth.sources);
    `source`: the one its writes name when they name none; `tenant`: the one tenant a
    principal's key acts in (None: the in-process operator, who may read the records of the
    whole deployment)."""

    name: str = "local"
    capabilities: frozenset[str] = CAPABILITIES
    sources: frozenset[str] | None = None
    source: str = ""
    tenant: str | None = None

    def can(self, capability: str) -> bool:
        return capability in self.capabilities


def now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class SpaceContext:
    """One space's settings (which may differ from the runtime's), slot schema, policy
    override, trusted sources and caller."""

    space: Space
    runtime: Runtime
    settings: Settings
    schema: SlotSchema
    policy: Policy | None
    trusted: frozenset[str]
    caller: Caller

    @property
    def key(self) -> str:
        return self.space.key

    @property
    def graph(self) -> GraphDriver:
        return self.runtime.graph

    def require(self, capability: str) -> None:
        if not self.caller.can(capability):
            raise AccessDenied(f"{self.caller.name!r} lacks the {capability} capability")

    def subject(self, subject: str | None) -> str | None:
        """The canonical subject (a declared slot's name for its aliases)."""
        if subject is None:
            return None
        try:
            return self.schema.canonical(subject)
        except ValueError as e:
            raise InvalidInput(str(e)) from None

    def scope(self, scope: str | None) -> str | None:
        """A scope as facts store it (normalised like a subject)."""
        if scope is None:
            return None
        try:
            return normalise_subject(scope)
        except ValueError as e:
            raise InvalidInput(str(e)) from None

    def subjects(self, subjects: Iterable[str]) -> list[str]:
        """The subjects one call names (an action's, a decision's, an attestation's), at
        most MAX_SUBJECTS of them."""
        named = list(islice(subjects, MAX_SUBJECTS + 1))
        if len(named) > MAX_SUBJECTS:
            raise InvalidInput(f"more than {MAX_SUBJECTS} subjects in one call: name the ones"
                               " the action depends on, or split the call")
        return [self.subject(s) or "" for s in named]

    def window(self, kind: str, first: int | None = None, after: str | None = None,
               last: int | None = None, before: str | None = None,
               count: bool = True) -> Window:
        """A page asked for, checked against GRAPHMEM_API_MAX_PAGE before any read."""
        return Window.of(kind, first, after, last, before, self.settings.api_max_page, count)

    def limit(self, value: int) -> int:
        """A count of items asked for, checked against GRAPHMEM_API_MAX_PAGE (every
        transport's one bound of it)."""
        top = self.settings.api_max_page
        if not 1 <= value <= top:
            raise InvalidInput(f"limit must be between 1 and {top} (GRAPHMEM_API_MAX_PAGE),"
                               f" got {value}")
        return value

    def ranked(self) -> Ranker:
        """The Ranker, once this process's writes to the space have their vectors."""
        if self.settings.embed_background:
            self.runtime.embed_worker.wait(self.key)
        return self.runtime.ranker

    def write(self, call: AuditCall,
              fn: Callable[Concatenate[ManagedTransaction, Outbox, P], T],
              *args: P.args, **kwargs: P.kwargs) -> T:
        """One write transaction in this space, its outbox entries carrying `call`'s row."""
        return self.runtime.write(self.key, call, fn, *args, **kwargs)
