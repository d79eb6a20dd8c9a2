"""`graphmem export` and `graphmem import`: a space's whole memory out to a signed JSON Lines
file, and a file (graphmem's own, or another system's export) back in.

On a terminal both show a progress bar (rich, on stderr); otherwise they print one summary
line when done.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from graphmem.cli.common import clean_errors, instant, open_memory
from graphmem.errors import InvalidInput

SpaceOption = Annotated[str | None, typer.Option(
    "--space", help="tenant/user/agent/run (missing parts default).")]
TenantOption = Annotated[str | None, typer.Option(
    "--tenant", help="Every space of this tenant (export), or into this tenant (import of a"
                     " tenant export: each space keeps its user, agent and run).")]


def _space(space: str | None, tenant: str | None) -> tuple[str | None, bool]:
    if space is not None and tenant is not None:
        raise InvalidInput("give --space or --tenant, not both")
    if tenant is not None:
        return f"{tenant}/default/default/default", True
    return space, False


@contextmanager
def _progress(what: str) -> Iterator[Callable[[int, int], None] | None]:
    """A rich progress bar on a terminal, nothing otherwise (the summary line follows)."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), transient=True,
                  console=Console(stderr=True)) as bar:
        task = bar.add_task(what, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total or None)

        yield update


@clean_errors
def export_command(
    output: Annotated[Path, typer.Option("-o", "--output", help="The file to write.")],
    space: SpaceOption = None,
    tenant: TenantOption = None,
    as_of: Annotated[str | None, typer.Option(
        "--as-of", help="As memory held it then (ISO 8601 with timezone).")] = None,
) -> None:
    """Export a space (or a tenant) to a signed JSON Lines file."""
    key, whole = _space(space, tenant)
    with open_memory(key) as mem, _progress("exporting facts") as progress:
        result = mem.transfer.export(output, tenant=whole, as_of=instant(as_of), progress=progress)
    typer.echo(f"{output}: {result}")


@clean_errors
def import_command(
    file: Annotated[Path, typer.Argument(help="A graphmem export, a Vayl export_memory or"
                                              " Mem0 get_all() JSON, or a CSV/JSONL of"
                                              " subject,value,time[,source,scope].")],
    space: SpaceOption = None,
    tenant: TenantOption = None,
    mode: Annotated[str, typer.Option(
        help="restore (a graphmem export, as it was, into an empty space), replay (each"
             " value reconciled at its original time) or auto.")] = "auto",
    format: Annotated[str, typer.Option(
        "--format", help="auto, graphmem, vayl, mem0, csv or jsonl.")] = "auto",
    public_key: Annotated[Path | None, typer.Option(
        "--public-key", help="The exporting deployment's public key (PEM), to trust an"
                             " export made elsewhere.")] = None,
    batch: Annotated[int | None, typer.Option(
        min=1, max=100_000, help="Records per transaction (default GRAPHMEM_IMPORT_BATCH).")]
    = None,
) -> None:
    """Import a file; a re-run after an interruption continues where it stopped."""
    key, whole = _space(space, tenant)
    trusted = public_key.read_text() if public_key is not None else None
    with open_memory(key) as mem, _progress("importing records") as progress:
        report = mem.transfer.import_memory(file, mode=mode, format=format, tenant=whole,
                                   public_key=trusted, batch=batch, progress=progress)
    typer.echo(str(report))
