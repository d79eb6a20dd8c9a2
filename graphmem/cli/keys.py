"""`graphmem keys create|list|revoke`: API keys from the command line; a key is shown once."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer

from graphmem.auth.keys import KeyStore
from graphmem.auth.roles import ROLES
from graphmem.cli.common import clean_errors
from graphmem.mirror.db import RelationalStore
from graphmem.settings import load_settings

keys_app = typer.Typer(no_args_is_help=True, help="API keys for the GraphQL server.")


@contextmanager
def _store() -> Iterator[KeyStore]:
    settings = load_settings()
    store = RelationalStore(settings.relational_url)
    try:
        yield KeyStore.open(store, settings)  # revoke rewrites this host's stamp
    finally:
        store.close()


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
) -> None:
    """Create a key and print it once: it is stored only as a digest."""
    allowed = tuple(s.strip() for s in spaces.split(",") if s.strip()) if spaces else None
    with _store() as keys:
        issued = keys.create(tenant, role, allowed, name)
    p = issued.principal
    typer.echo(issued.token)
    typer.echo(f"key {issued.key_id} for {p.name} (tenant {p.tenant}, role {p.role}, spaces"
               f" {','.join(p.spaces) if p.spaces else 'all'}): store it now, it is not shown"
               " again", err=True)


@keys_app.command("list")
@clean_errors
def list_keys(tenant: Annotated[str | None, typer.Option()] = None) -> None:
    """Every key (never the secret): id, principal, tenant, role, spaces, created, revoked."""
    with _store() as keys:
        found = keys.keys(tenant)
    if not found:
        typer.echo("no API keys")
    for k in found:
        p = k.principal
        state = f"revoked {k.revoked_at}" if k.revoked_at else "active"
        typer.echo(f"{k.key_id}  {p.name}  tenant={p.tenant}  role={p.role}  spaces="
                   f"{','.join(p.spaces) if p.spaces else 'all'}  created={k.created_at}"
                   f"  {state}")


@keys_app.command("revoke")
@clean_errors
def revoke(key_id: str) -> None:
    """Revoke a key: servers on this host refuse it from the next request on, others within
    GRAPHMEM_API_KEY_CACHE_SECONDS."""
    with _store() as keys:
        info = keys.revoke(key_id)
    typer.echo(f"revoked {info.key_id} ({info.principal.name}, tenant {info.principal.tenant})")
