"""`graphmem keys create|list|revoke`: API keys from the command line; a key is shown once.
`graphmem sources set|list|remove`: a tenant's sources, the principals bound to them, and
which are trusted or curated (graphmem.auth.sources)."""

from __future__ import annotations

from typing import Annotated

import typer

from graphmem.cli.common import clean_errors
from graphmem.model.roles import ROLES
from graphmem.service.access import key_store, source_book
from graphmem.settings import load_settings

keys_app = typer.Typer(no_args_is_help=True, help="API keys for the GraphQL server.")
sources_app = typer.Typer(no_args_is_help=True, help="Which principals speak as which source,"
                                                     " per tenant.")


@keys_app.command("create")
@clean_errors
def create(
    role: Annotated[str, typer.Option(help=f"One of: {', '.join(ROLES)}.")],
    tenant: Annotated[str, typer.Option(help="The tenant every call of this key acts in.")],
    spaces: Annotated[str | None, typer.Option(
        help="Comma-separated allowed spaces (user, user/agent or user/agent/run); default:"
             " the whole tenant.")] = None,
    name: Annotated[str | None, typer.Option(
        help="Principal name (reused to rotate its keys); default: key-<id>.")] = None,
    source: Annotated[str | None, typer.Option(
        help="The source this principal speaks as (its writes name it, or name none);"
             " a source it is not bound to is recorded as claimed.")] = None,
) -> None:
    """Create a key and print it once: it is stored only as a digest."""
    allowed = tuple(s.strip() for s in spaces.split(",") if s.strip()) if spaces else None
    with key_store(load_settings()) as keys:
        issued = keys.create(tenant, role, allowed, name, source)
    p = issued.principal
    typer.echo(issued.token)
    typer.echo(f"key {issued.key_id} for {p.name} (tenant {p.tenant}, role {p.role}, spaces"
               f" {','.join(p.spaces) if p.spaces else 'all'}, source {p.source or 'none'}):"
               " store it now, it is not shown again", err=True)


@keys_app.command("list")
@clean_errors
def list_keys(tenant: Annotated[str | None, typer.Option()] = None) -> None:
    """Every key (never the secret): id, principal, tenant, role, spaces, created, revoked."""
    with key_store(load_settings()) as keys:
        found = keys.keys(tenant)
    if not found:
        typer.echo("no API keys")
    for k in found:
        p = k.principal
        state = f"revoked {k.revoked_at}" if k.revoked_at else "active"
        typer.echo(f"{k.key_id}  {p.name}  tenant={p.tenant}  role={p.role}  spaces="
                   f"{','.join(p.spaces) if p.spaces else 'all'}  source={p.source or '-'}"
                   f"  created={k.created_at}  {state}")


@keys_app.command("revoke")
@clean_errors
def revoke(key_id: str) -> None:
    """Revoke a key: servers on this host refuse it from the next request on, others within
    GRAPHMEM_API_KEY_CACHE_SECONDS."""
    with key_store(load_settings()) as keys:
        info = keys.revoke(key_id)
    typer.echo(f"revoked {info.key_id} ({info.principal.name}, tenant {info.principal.tenant})")


@sources_app.command("set")
@clean_errors
def sources_set(
    tenant: str, source: str,
    principal: Annotated[list[str] | None, typer.Option(
        help="A principal (by name) that speaks as this source; repeat for more.")] = None,
    trusted: Annotated[bool, typer.Option(
        help="Its writes skip the confirm gate (when made by a bound principal).")] = False,
    curated: Annotated[bool, typer.Option(
        help="Its facts are never overwritten by another source, in every space of the"
             " tenant.")] = False,
) -> None:
    """Bind a source to principals in a tenant, and mark it trusted or curated there."""
    with source_book(load_settings()) as book:
        row = book.set(tenant, source, tuple(principal or ()), trusted, curated)
    typer.echo(f"{row.tenant}: {row.source} <- {', '.join(row.principals) or 'no principal'}"
               f" (trusted: {'yes' if row.trusted else 'no'}, curated:"
               f" {'yes' if row.curated else 'no'})")


@sources_app.command("list")
@clean_errors
def sources_list(tenant: Annotated[str | None, typer.Option()] = None) -> None:
    """Every tenant's sources (or one tenant's)."""
    with source_book(load_settings()) as book:
        rows = book.rows(tenant)
    if not rows:
        typer.echo("no sources bound")
    for row in rows:
        typer.echo(f"{row.tenant}  {row.source}  principals={','.join(row.principals) or '-'}"
                   f"  trusted={'yes' if row.trusted else 'no'}"
                   f"  curated={'yes' if row.curated else 'no'}")


@sources_app.command("remove")
@clean_errors
def sources_remove(tenant: str, source: str) -> None:
    """Forget a tenant's entry for a source: it is bound to no one and neither trusted nor
    curated there any more."""
    with source_book(load_settings()) as book:
        book.remove(tenant, source)
    typer.echo(f"{tenant}: {source} removed")
