"""`graphmem audit …`, `graphmem mirror …`, `graphmem erase` and `graphmem graph restore`."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from graphmem.cli.common import clean_errors, open_runtime
from graphmem.errors import GraphMemError, InvalidInput

audit_app = typer.Typer(no_args_is_help=True, help="The signed audit chain, keys, receipts.")
mirror_app = typer.Typer(no_args_is_help=True, help="The relational mirror and its outbox.")


@audit_app.command("verify")
@clean_errors
def audit_verify(
        deep: Annotated[bool, typer.Option(
            "--deep", help="Also verify every row's own signature (slower).")] = False,
        since_receipt: Annotated[Path | None, typer.Option(
            "--since-receipt", help="A receipt graphmem issued (JSON): fail when the chain no"
                                    " longer holds the audit head it saw.")] = None,
        checkpoints: Annotated[Path | None, typer.Option(
            help="A copy of the checkpoint file (from write-once storage) to check against,"
                 " instead of the home's.")] = None,
) -> None:
    """Check the whole chain: hashes, links, the signed head, the checkpoint file, the event
    log (exit 1 when broken)."""
    receipt = None
    if since_receipt is not None:
        try:
            receipt = json.loads(since_receipt.read_text())
        except (OSError, ValueError) as e:
            raise InvalidInput(f"cannot read the receipt {since_receipt}: {e}") from None
        if not isinstance(receipt, dict):
            raise InvalidInput(f"{since_receipt} does not hold a receipt (a JSON object)")
    if checkpoints is not None and not checkpoints.is_file():
        raise InvalidInput(f"no checkpoint file {checkpoints}")
    from graphmem.service.operations import missing_anchor

    with open_runtime() as runtime:
        unanchored = missing_anchor(runtime, checkpoints)  # before the verify anchors it
        report = runtime.mirror.verify(deep, receipt=receipt, checkpoint_file=checkpoints)
    typer.echo(str(report))
    if unanchored is not None:
        typer.echo(unanchored, err=True)
    if not report.ok or unanchored is not None:
        raise typer.Exit(1)


@audit_app.command("log")
@clean_errors
def audit_log(tenant: Annotated[str | None, typer.Option(help="Only this tenant.")] = None,
              limit: Annotated[int, typer.Option(min=1, max=10_000)] = 50) -> None:
    """The newest audit rows (every tenant unless --tenant), one JSON object per line."""
    from graphmem.service.operations import audit_rows

    with open_runtime() as runtime:
        for row in audit_rows(runtime, tenant, limit):
            typer.echo(json.dumps(row.as_dict(), sort_keys=True))


@audit_app.command("public-key")
@clean_errors
def audit_public_key() -> None:
    """The signing public key (PEM): give it to whoever verifies receipts."""
    from graphmem.service.operations import signing_public_key
    from graphmem.settings import load_settings

    typer.echo(signing_public_key(load_settings()), nl=False)


@audit_app.command("verify-receipt")
@clean_errors
def audit_verify_receipt(
        receipt: Annotated[Path, typer.Argument(help="The receipt JSON ('-' for stdin).")],
        public_key: Annotated[Path, typer.Option("--public-key", help="PEM file.")]) -> None:
    """Check a receipt with only a public key: no database, no server."""
    from graphmem.service.operations import verify_receipt

    text = sys.stdin.read() if str(receipt) == "-" else receipt.read_text()
    verdict = verify_receipt(text, public_key.read_text())
    typer.echo(verdict.reason)
    if not verdict:
        raise typer.Exit(1)


@audit_app.command("rotate-key")
@clean_errors
def audit_rotate_key(new_key_env: Annotated[str | None, typer.Option(
        help="With GRAPHMEM_KEY set: the environment variable holding the new key.")] = None
                     ) -> None:
    """Sign with a new key from now on; the old public key stays trusted for what it signed."""
    from graphmem.service.operations import rotate_signing_key

    with open_runtime() as runtime:
        secret = None
        if runtime.settings.key is not None:
            env = new_key_env or ""
            secret = os.environ.get(env) if env else None  # reads-env: the --new-key-env name
            if not secret:
                raise InvalidInput("GRAPHMEM_KEY is set: put the new key in an environment"
                                   " variable and name it with --new-key-env")
        old, new = rotate_signing_key(runtime, secret)
    typer.echo(f"signing key {old} retired, {new} current")
    if runtime.settings.key is not None:
        typer.echo(f"now set GRAPHMEM_KEY to the value of {new_key_env} everywhere")


@audit_app.command("new-encryption-key")
def audit_new_encryption_key() -> None:
    """Print a fresh key for GRAPHMEM_ENCRYPTION_KEY (set it before the store holds data)."""
    from cryptography.fernet import Fernet

    typer.echo(Fernet.generate_key().decode())


@mirror_app.command("status")
@clean_errors
def mirror_status() -> None:
    """Outbox entries waiting for the mirror, and the last drain error."""
    with open_runtime() as runtime:
        typer.echo(json.dumps(runtime.mirror.status(), sort_keys=True))


@mirror_app.command("drain")
@clean_errors
def mirror_drain() -> None:
    """Apply every pending outbox entry to the relational store now."""
    with open_runtime() as runtime:
        typer.echo(f"applied {runtime.mirror.drain()} outbox entries")


@mirror_app.command("check")
@clean_errors
def mirror_check(space: Annotated[str | None, typer.Option()] = None) -> None:
    """Compare the mirror with the graph (exit 1 on a difference)."""
    from graphmem.service.operations import mirror_problems

    with open_runtime() as runtime:
        problems = mirror_problems(runtime, space)
    typer.echo("\n".join(problems) if problems else str(problems))
    if problems:
        raise typer.Exit(1)


@clean_errors
def erase_command(
        space: Annotated[str | None, typer.Option(help="tenant/user/agent/run.")] = None,
        fact: Annotated[str | None, typer.Option(help="Erase this fact id.")] = None,
        subject: Annotated[str | None, typer.Option(help="Erase every fact of it.")] = None,
        all_: Annotated[bool, typer.Option("--all", help="Erase the whole space.")] = False,
        expired: Annotated[bool, typer.Option(help="Purge history past retention.")] = False,
        days: Annotated[float | None, typer.Option(help="Retention for --expired.")] = None,
        tenant: Annotated[str | None, typer.Option(help="Erase a tenant's spaces.")] = None,
        user: Annotated[str | None, typer.Option(help="With --tenant: one user's.")] = None,
) -> None:
    """Erase for good (both stores, embeddings, caches) and print the signed receipt."""
    from graphmem.service.memory import GraphMem
    from graphmem.service.operations import erase_subtree

    chosen = [fact is not None, subject is not None, all_, expired, tenant is not None]
    if sum(chosen) != 1 or (tenant is None) != (space is not None) or (user and not tenant):
        raise InvalidInput("give --space with one of --fact, --subject, --all, --expired;"
                           " or --tenant (and optionally --user) alone")
    with open_runtime() as runtime:
        if tenant is not None:
            receipt = erase_subtree(runtime, tenant, user)
        else:
            mem = GraphMem(space, runtime=runtime)
            if expired:
                receipt = mem.erasure.purge_expired(days)
            elif all_:
                receipt = mem.erasure.delete_all()
            else:
                receipt = mem.erasure.delete(fact_id=fact, subject=subject)
    typer.echo(json.dumps(receipt, indent=2, sort_keys=True))


@clean_errors
def restore_command(
        from_mirror: Annotated[bool, typer.Option(
            "--from-mirror", help="Replay the relational mirror's event log.")] = False,
        space: Annotated[list[str] | None, typer.Option(help="Only these spaces.")] = None,
        embed: Annotated[bool, typer.Option(help="Compute embeddings again.")] = True,
) -> None:
    """Rebuild an empty Neo4j database from the mirror's event log."""
    from graphmem.service.operations import event_count, rebuild_graph

    if not from_mirror:
        raise GraphMemError("the only source is the mirror: pass --from-mirror")
    with open_runtime() as runtime:
        total = event_count(runtime)
        with typer.progressbar(length=total, label="replaying events") as bar:
            result = rebuild_graph(runtime, space, embed=embed,
                                   progress=lambda done, _: bar.update(done - bar.pos))
    typer.echo(str(result))
