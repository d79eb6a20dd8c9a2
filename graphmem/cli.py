"""The `graphmem` command line. Errors are one line on stderr and exit code 1, never a
traceback: every GraphMemError already says what is wrong and what to do."""
# NOTE for contributors working in parallel: this is a shared file. Make small, targeted
# edits in your own section only; never rewrite or reformat it, and do not run git commands
# (the lead commits). Migration versions: 2 = audit/mirror, 3 = API keys.


from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from typing import Annotated, Any, TypeVar

import typer

from graphmem.errors import GraphMemError
from graphmem.settings import Settings, load_settings

app = typer.Typer(
    no_args_is_help=True, add_completion=False, pretty_exceptions_show_locals=False,
    help="graphmem: graph-native memory.",
)
neo4j_app = typer.Typer(no_args_is_help=True, help="The managed local Neo4j server.")
migrate_app = typer.Typer(no_args_is_help=True, help="Graph and relational schema versions.")
app.add_typer(neo4j_app, name="neo4j")
app.add_typer(migrate_app, name="migrate")

# ---- API keys (issue 6): graphmem keys create|list|revoke ----
from graphmem.auth.commands import keys_app  # noqa: E402

app.add_typer(keys_app, name="keys")

# ---- entity graph (issue 4): graphmem graph rebuild|sweep, graphmem fsck ----
from graphmem.graph.commands import fsck_command, graph_app  # noqa: E402

app.add_typer(graph_app, name="graph")
app.command("fsck")(fsck_command)

# ---- mirror, audit, erasure (issue 7): graphmem audit …, mirror …, erase, graph restore ----
from graphmem.mirror.commands import (  # noqa: E402
    audit_app,
    erase_command,
    mirror_app,
    restore_command,
)

app.add_typer(audit_app, name="audit")
app.add_typer(mirror_app, name="mirror")
app.command("erase")(erase_command)
graph_app.command("restore")(restore_command)

# ---- remember(text) and recall (issue 5): graphmem remember|recall|history|conflicts ----
from graphmem.recall.commands import (  # noqa: E402
    conflicts_command,
    history_command,
    recall_command,
    remember_command,
)

app.command("remember")(remember_command)
app.command("recall")(recall_command)
app.command("history")(history_command)
app.command("conflicts")(conflicts_command)

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


def settings() -> Settings:
    return load_settings()


def _local() -> Any:
    from graphmem.neo4j_local.manager import LocalNeo4j

    s = settings()
    if not s.managed_neo4j:
        raise GraphMemError(
            f"GRAPHMEM_NEO4J_URI is set ({s.neo4j_uri}): graphmem uses that server and does not"
            " manage one; unset it to use the managed local Neo4j"
        )
    return LocalNeo4j(s)


@neo4j_app.command("install")
@clean_errors
def neo4j_install() -> None:
    """Fetch Neo4j 5.26 LTS and Neo4j Browser from Maven Central, generate a password."""
    typer.echo(_local().install())


@neo4j_app.command("start")
@clean_errors
def neo4j_start() -> None:
    """Start in the background on loopback and wait until Bolt answers (idempotent)."""
    typer.echo(str(_local().start()))


@neo4j_app.command("stop")
@clean_errors
def neo4j_stop() -> None:
    typer.echo("stopped" if _local().stop() else "not running")


@neo4j_app.command("status")
@clean_errors
def neo4j_status() -> None:
    status = _local().status()
    typer.echo(str(status))
    if not status.running:
        raise typer.Exit(3)


@neo4j_app.command("logs")
@clean_errors
def neo4j_logs(lines: Annotated[int, typer.Option("--lines", "-n")] = 50) -> None:
    typer.echo(_local().log_tail(lines))


@migrate_app.command("status")
@clean_errors
def migrate_status() -> None:
    from graphmem.graph import migrations as gm
    from graphmem.mirror import migrations as sm
    from graphmem.runtime import Runtime

    runtime = Runtime.open(settings())
    try:
        runtime.graph.verify()
        typer.echo(f"graph: version {gm.current_version(runtime.graph)} of {gm.latest_version()}")
        typer.echo(
            f"relational: version {sm.current_version(runtime.store)} of {sm.latest_version()}"
        )
    finally:
        runtime.close()


@migrate_app.command("up")
@clean_errors
def migrate_up() -> None:
    from graphmem.runtime import Runtime

    runtime = Runtime.open(settings())
    try:
        done = runtime.migrate()
    finally:
        runtime.close()
    for store, steps in done.items():
        typer.echo(f"{store}: " + (", ".join(steps) if steps else "already current"))


@app.command("serve")
@clean_errors
def serve(
    host: Annotated[str | None, typer.Option()] = None,
    port: Annotated[int | None, typer.Option()] = None,
    workers: Annotated[int, typer.Option(min=1)] = 1,
) -> None:
    """Run the HTTP service (Starlette on Uvicorn)."""
    import uvicorn

    from graphmem.runtime import Runtime

    s = settings()
    runtime = Runtime.open(s)  # fail fast with a clear line before binding the port
    try:
        runtime.migrate()
    finally:
        runtime.close()
    from graphmem.http.logs import log_config  # issue 6: our access and error log lines

    uvicorn.run("graphmem.app:app_factory", factory=True, host=host or s.host,
                port=port or s.port, workers=workers, log_level=s.log_level.lower(),
                log_config=log_config(s.log_level), access_log=False, ws="websockets-sansio",
                ws_max_size=s.max_body,
                proxy_headers=False)  # graphmem.http.clients reads X-Forwarded-For itself


@app.command("doctor")
@clean_errors
def doctor() -> None:
    """Check Java, Maven, Neo4j, the relational store, embeddings and the LLM settings."""
    from graphmem.doctor import run_checks

    results = run_checks(settings())
    for check in results:
        typer.echo(str(check))
    if not all(c.ok for c in results):
        raise typer.Exit(1)


def main() -> None:
    try:
        app()
    except GraphMemError as e:  # raised while building settings, before a command ran
        typer.echo(f"error: {e}", err=True)
        sys.exit(1)
