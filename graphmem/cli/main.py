"""The `graphmem` command line: every command group, assembled."""

from __future__ import annotations

import sys

import typer

from graphmem.cli.graph import fsck_command, graph_app
from graphmem.cli.keys import keys_app, sources_app
from graphmem.cli.mcp import mcp_command
from graphmem.cli.memory import (
    conflicts_command,
    history_command,
    recall_command,
    related_command,
    relations_command,
    remember_command,
)
from graphmem.cli.mirror import audit_app, erase_command, mirror_app, restore_command
from graphmem.cli.server import doctor, migrate_app, neo4j_app, serve
from graphmem.cli.transfer import export_command, import_command
from graphmem.errors import GraphMemError

app = typer.Typer(
    no_args_is_help=True, add_completion=False, pretty_exceptions_show_locals=False,
    help="graphmem: graph-native memory.",
)
app.add_typer(neo4j_app, name="neo4j")
app.add_typer(migrate_app, name="migrate")
app.add_typer(keys_app, name="keys")
app.add_typer(sources_app, name="sources")
app.add_typer(graph_app, name="graph")
app.add_typer(audit_app, name="audit")
app.add_typer(mirror_app, name="mirror")
graph_app.command("restore")(restore_command)
app.command("serve")(serve)
app.command("mcp")(mcp_command)
app.command("doctor")(doctor)
app.command("fsck")(fsck_command)
app.command("erase")(erase_command)
app.command("remember")(remember_command)
app.command("recall")(recall_command)
app.command("related")(related_command)
app.command("relations")(relations_command)
app.command("history")(history_command)
app.command("conflicts")(conflicts_command)
app.command("export")(export_command)
app.command("import")(import_command)


def main() -> None:
    try:
        app()
    except GraphMemError as e:  # raised while building settings, before a command ran
        typer.echo(f"error: {e}", err=True)
        sys.exit(1)
