"""What every command shares: one error wrapper, and the runtime or memory it opens.

Errors are one line on stderr and exit code 1, never a traceback: every GraphMemError
already says what is wrong and what to do. The driver and the models load only when a
command runs, so `graphmem --help` stays fast.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar

import typer

from graphmem.errors import GraphMemError, InvalidInput
from graphmem.settings import load_settings

if TYPE_CHECKING:
    from graphmem.runtime import Runtime
    from graphmem.service.memory import GraphMem

F = TypeVar("F", bound=Callable[..., Any])


def clean_errors(fn: F) -> F:
    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except GraphMemError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(1) from None

    return wrapper  # type: ignore[return-value]


@contextmanager
def open_runtime() -> Iterator[Runtime]:
    """A runtime from the settings, with Neo4j checked before the command runs."""
    from graphmem.runtime import Runtime

    runtime = Runtime.open(load_settings())
    try:
        runtime.graph.verify()
        yield runtime
    finally:
        runtime.close()


@contextmanager
def open_memory(space: str | None) -> Iterator[GraphMem]:
    from graphmem.service.memory import GraphMem

    with GraphMem(space, settings=load_settings()) as mem:
        yield mem


def memory_in(runtime: Runtime, space: str) -> GraphMem:
    from graphmem.service.memory import GraphMem

    return GraphMem(space, runtime=runtime)


def spaces(runtime: Runtime, space: str | None) -> list[str]:
    """The space given, or every space the graph knows."""
    from graphmem.service.operations import space_names

    return [space] if space is not None else space_names(runtime)


def instant(text: str | None, option: str = "--as-of") -> datetime | None:
    if text is None:
        return None
    try:
        at = datetime.fromisoformat(text)
    except ValueError:
        raise InvalidInput(f"{option} {text!r} is not an ISO 8601 time") from None
    if at.tzinfo is None:
        raise InvalidInput(f"{option} needs a timezone, e.g. 2026-03-01T00:00:00+00:00")
    return at
