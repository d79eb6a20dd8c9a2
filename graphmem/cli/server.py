"""`graphmem neo4j …`, `graphmem migrate …`, `graphmem serve` and `graphmem doctor`: running
the service and what it stands on."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from graphmem.cli.common import clean_errors
from graphmem.errors import GraphMemError
from graphmem.settings import Settings, load_settings

neo4j_app = typer.Typer(no_args_is_help=True, help="The managed local Neo4j server.")
migrate_app = typer.Typer(no_args_is_help=True, help="Graph and relational schema versions.")


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
    from graphmem.runtime import Runtime
    from graphmem.service.operations import schema_versions

    runtime = Runtime.open(settings())
    try:
        versions = schema_versions(runtime)
    finally:
        runtime.close()
    for store, (current, latest) in versions.items():
        typer.echo(f"{store}: version {current} of {latest}")


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
    from graphmem.http.logs import log_config

    uvicorn.run("graphmem.http.app:app_factory", factory=True, host=host or s.host,
                port=port or s.port, workers=workers, log_level=s.log_level.lower(),
                log_config=log_config(s.log_level), access_log=False, ws="websockets-sansio",
                ws_max_size=s.max_body,
                proxy_headers=False)  # graphmem.http.clients reads X-Forwarded-For itself


@clean_errors
def doctor() -> None:
    """Check Java, Maven, Neo4j, the relational store, embeddings and the LLM settings."""
    from graphmem.service.doctor import run_checks

    results = run_checks(settings())
    for check in results:
        typer.echo(str(check))
    if not all(c.ok for c in results):
        raise typer.Exit(1)
