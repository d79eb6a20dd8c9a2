"""Write operations: the `Write` the schema built, reconciled; results out (subscribers hear
of them from the change log every write commits, see graphmem.service.feed)."""

from __future__ import annotations

from graphmem.model import Result
from graphmem.model.requests import Write
from graphmem.model.undo import UndoResult
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation


@operation("rememberFacts", "write")
def remember_facts(call: Call, write: Write) -> list[Result]:
    return call.mem().remember_facts(write)


@operation("forgetFacts", "write")
def forget_facts(call: Call, write: Write) -> list[Result]:
    return call.mem().forget(write)


@operation("remember", "write")
def remember(call: Call, write: Write) -> list[Result]:
    """Extraction by the configured LLM, then the same reconciliation as rememberFacts."""
    return call.mem().remember(write)


@operation("forget", "write")
def forget(call: Call, write: Write) -> list[Result]:
    return call.mem().forget(write)


@operation("undoEvent", "write")
def undo_event(call: Call, event_id: str, force: bool = False) -> UndoResult:
    """The service checks the rest: approve, or the writer's own event within its window."""
    return call.mem().review.undo(event_id, force)
