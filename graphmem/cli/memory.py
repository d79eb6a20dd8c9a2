"""`graphmem remember|recall|related|relations|history|conflicts`: the memory operations
from a shell.

Each command opens one Runtime from the settings, runs one GraphMem operation on the space
given (the default space otherwise) and prints what the Python API's `str()` gives.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from graphmem.cli.common import clean_errors, instant, open_memory
from graphmem.errors import InvalidInput
from graphmem.model import Conflict

SpaceOption = Annotated[str | None, typer.Option(
    "--space", help="tenant/user/agent/run (missing parts default); default: the default space.")]


def _conflict_line(c: Conflict) -> str:
    facts = ", ".join(f"#{f}" for f in c.fact_ids)
    note = f" — {c.note}" if c.note else ""
    return f"{c.id} [{c.status.value}] {c.kind.value} ({c.severity}): {facts}{note}"


@clean_errors
def remember_command(
    text: Annotated[str, typer.Argument(help="A message, e.g. 'we moved to Postgres'.")],
    space: SpaceOption = None,
    source: Annotated[str, typer.Option(help="Who asserts it (e.g. crm).")] = "",
) -> None:
    """Extract facts from a message (one LLM call) and reconcile them."""
    with open_memory(space) as mem:
        for result in mem.remember(text, source=source):
            typer.echo(str(result))


@clean_errors
def recall_command(
    question: Annotated[str, typer.Argument(help="A question about the space's facts.")],
    space: SpaceOption = None,
    explain: Annotated[bool, typer.Option(help="List the facts behind the answer.")] = False,
    as_of: Annotated[str | None, typer.Option(
        "--as-of", help="Answer from what memory held then (ISO 8601 with timezone).")] = None,
    history: Annotated[bool, typer.Option(help="Add retired facts, tagged (history).")] = False,
) -> None:
    """Answer a question from the facts (one LLM call; the ranked facts without an LLM)."""
    with open_memory(space) as mem:
        typer.echo(str(mem.recall(question, explain=explain, include_history=history,
                                  as_of=instant(as_of))))


@clean_errors
def history_command(
    subject: Annotated[str, typer.Argument(help="A subject, e.g. primary_database.")],
    space: SpaceOption = None,
) -> None:
    """One subject's timeline, oldest to newest."""
    with open_memory(space) as mem:
        typer.echo(str(mem.history(subject)))


@clean_errors
def conflicts_command(
    space: SpaceOption = None,
    status: Annotated[str, typer.Option(
        help="open, resolved, dismissed or all.")] = "open",
) -> None:
    """The conflicts of a space (open ones by default)."""
    with open_memory(space) as mem:
        found = mem.review.conflicts(None if status == "all" else status)
        if not found:
            typer.echo(f"No {'' if status == 'all' else status + ' '}conflicts.")
        for conflict in found:
            typer.echo(_conflict_line(conflict))


@clean_errors
def related_command(
    question: Annotated[str | None, typer.Argument(
        help="A multi-hop question, e.g. 'Where does Ada's manager live?'.")] = None,
    space: SpaceOption = None,
    path: Annotated[list[str] | None, typer.Option(
        "--path", help="Follow exact relations instead, one per option, each"
                       " RELATION[:IN] (e.g. --path REPORTS_TO --path WORKS_AT:IN)")] = None,
    entity: Annotated[list[str] | None, typer.Option(
        "--entity", help="A start entity's name (with --path, or instead of a question).")]
        = None,
    as_of: Annotated[str | None, typer.Option(
        "--as-of", help="As memory held it then (ISO 8601 with timezone).")] = None,
) -> None:
    """Multi-hop: the paths that answer a question (ranked; the answer only when every word
    was understood), or the paths along an exact relation pattern."""
    steps = [(p.split(":")[0], "IN" if p.upper().endswith(":IN") else "OUT")
             for p in path or ()]
    with open_memory(space) as mem:
        typer.echo(str(mem.recall_related(question, entities=entity or None,
                                          as_of=instant(as_of), path=steps or None)))


@clean_errors
def relations_command(
    space: SpaceOption = None,
    declare: Annotated[typer.FileText | None, typer.Option(
        "--declare", help="Declare relations from a JSON file: a list of {label, description,"
                          " forward, inverse, head_nouns, tail_nouns, head_type, tail_type,"
                          " cardinality} (admin).")] = None,
    replace: Annotated[bool, typer.Option(
        help="With --declare: drop the declarations the file does not give.")] = False,
    describe: Annotated[bool, typer.Option(
        help="Have the configured model describe the relations no declaration covers.")]
        = False,
) -> None:
    """The space's relations and the words that read each, by source; or declare them."""
    with open_memory(space) as mem:
        if declare is not None:
            try:
                items = json.load(declare)
            except json.JSONDecodeError as e:
                raise InvalidInput(f"{declare.name}: not JSON ({e})") from None
            if not isinstance(items, list):
                raise InvalidInput(f"{declare.name}: give a JSON list of relations")
            schema = mem.entities.declare_relations(items, replace)
            typer.echo(f"Relation schema version {schema.version}:"
                       f" {len(schema.relations)} relation(s) declared.")
        if describe:
            made = mem.entities.describe_relations()
            typer.echo(f"Described {len(made)} relation(s).")
        for info in mem.entities.relations():
            ends = f"{'/'.join(info.head_types) or '?'} -> {'/'.join(info.tail_types) or '?'}"
            typer.echo(f"{info.type} ({', '.join(info.labels)}; {ends})")
            for reading in info.readings:
                typer.echo(f"  {reading.source.value:8} {reading.kind.value:8} {reading.words}")
