"""`graphmem graph rebuild|sweep` and `graphmem fsck`: the entity graph's maintenance."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from graphmem.errors import GraphMemError
from graphmem.settings import load_settings

if TYPE_CHECKING:  # the driver and the models load only when a command runs
    from graphmem.service.memory import GraphMem
    from graphmem.runtime import Runtime

graph_app = typer.Typer(no_args_is_help=True, help="The entity graph projection.")
F = TypeVar("F", bound=Callable[..., Any])
SpaceOption = Annotated[str | None, typer.Option(
    "--space", help="tenant/user/agent/run (missing parts default); default: every space.")]


def _clean(fn: F) -> F:
    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except GraphMemError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(1) from None

    return wrapper  # type: ignore[return-value]


@contextmanager
def _runtime() -> Iterator[Runtime]:
    from graphmem.runtime import Runtime

    runtime = Runtime.open(load_settings())
    try:
        runtime.graph.verify()
        yield runtime
    finally:
        runtime.close()


def _spaces(runtime: Runtime, space: str | None) -> list[str]:
    from graphmem.graph.spaces import listing as spaces

    return [space] if space is not None else spaces(runtime.graph)


def _mem(key: str, runtime: Runtime) -> GraphMem:
    from graphmem.service.memory import GraphMem

    return GraphMem(key, runtime=runtime)


@graph_app.command("rebuild")
@_clean
def rebuild(space: SpaceOption = None) -> None:
    """Rebuild every projection (entities' ABOUT and typed edges) from the Fact nodes."""
    with _runtime() as runtime:
        for key in _spaces(runtime, space):
            with _mem(key, runtime) as mem:
                typer.echo(f"{mem.key}: {mem.rebuild_projection()}")


@graph_app.command("sweep")
@_clean
def sweep(space: SpaceOption = None) -> None:
    """Attach placeholders (type unknown) to the one typed entity of the same name."""
    with _runtime() as runtime:
        for key in _spaces(runtime, space):
            with _mem(key, runtime) as mem:
                typer.echo(f"{mem.key}: {mem.sweep_placeholders()}")


@_clean
def fsck_command(
    space: SpaceOption = None,
    strict: Annotated[bool, typer.Option(help="Near-duplicate entities fail the run too.")]
    = False,
) -> None:
    """Check the graph's invariants and report near-duplicate entities; exit 1 on a problem."""
    failed = False
    with _runtime() as runtime:
        for key in _spaces(runtime, space):
            with _mem(key, runtime) as mem:
                report = mem.fsck(strict=strict)
            typer.echo(str(report))
            failed = failed or not report.ok
    if failed:
        raise typer.Exit(1)
