"""What an operator runs against a deployment from the command line: schema versions, the
space listing, the audit log and its signing key, receipts, the mirror's check, erasure of
a tenant's subtree and the graph's rebuild from the mirror."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from graphmem.graph import migrations as graph_migrations
from graphmem.graph.spaces import listing as space_listing
from graphmem.lifecycle import restore as restoring
from graphmem.lifecycle.check_mirror import check_mirror
from graphmem.mirror import audit, keys, receipts
from graphmem.mirror import migrations as store_migrations
from graphmem.model import DEFAULT_PART, Space
from graphmem.model.audit import AuditRow
from graphmem.model.health import Problems
from graphmem.model.receipts import Verdict
from graphmem.model.transfer import RestoreResult
from graphmem.runtime import Runtime
from graphmem.service.memory import GraphMem
from graphmem.settings import Settings


def schema_versions(runtime: Runtime) -> dict[str, tuple[int, int]]:
    """Each store's (current, latest) schema version."""
    runtime.graph.verify()
    return {"graph": (graph_migrations.current_version(runtime.graph),
                      graph_migrations.latest_version()),
            "relational": (store_migrations.current_version(runtime.store),
                           store_migrations.latest_version())}


def space_names(runtime: Runtime) -> list[str]:
    """Every space the graph knows."""
    return space_listing(runtime.graph)


def audit_rows(runtime: Runtime, tenant: str | None, limit: int) -> list[AuditRow]:
    """The newest audit rows of a tenant, or of every tenant (None)."""
    return audit.listing(runtime.store, tenant, limit)


def missing_anchor(runtime: Runtime, checkpoint_file: Path | None = None) -> str | None:
    """Why the chain has no anchor outside the database to be checked against (its rows
    could be rolled back undetected), or None: the checkpoint file is missing while the
    chain holds rows."""
    path = checkpoint_file or runtime.mirror.checkpoints.path
    head = audit.signed_head(runtime.store)
    if path.exists() or head is None or not int(head[0]):
        return None
    return (f"warning: no checkpoint file at {path}, so the chain was checked against nothing"
            " outside the database: restore the file (or its copy from write-once storage),"
            " pass --checkpoints, or point GRAPHMEM_AUDIT_CHECKPOINT_DIR at the hosts' shared"
            " one")


def signing_public_key(settings: Settings) -> str:
    """The audit signing key's public half (PEM), for whoever verifies receipts."""
    return keys.public_pem(keys.signer(settings).public)


def verify_receipt(receipt: Mapping[str, Any] | str, public_key: str) -> Verdict:
    """A receipt checked with a public key alone: no database, no server."""
    return receipts.verify_receipt(receipt, public_key)


def rotate_signing_key(runtime: Runtime, new_secret: str | None) -> tuple[str, str]:
    """Sign with a new key from now on (derived from `new_secret` when the deployment's key
    comes from GRAPHMEM_KEY, else a new seed file); the old public key stays trusted for what
    it signed. Returns the (retired, current) key ids."""
    old = runtime.mirror.ensure_registered()
    if new_secret is not None:
        new = keys.signer_from_secret(new_secret, runtime.settings)
    else:
        new = keys.new_seed_file(runtime.settings)
    keys.rotate(runtime.store, old, new)
    runtime.mirror.use_signer(new)
    audit.resign_head(runtime.store, new)
    return old.key_id, new.key_id


def mirror_problems(runtime: Runtime, space: str | None) -> Problems:
    """How the mirror differs from the graph (one space, or every space); only reads."""
    return check_mirror(runtime, space)


def erase_subtree(runtime: Runtime, tenant: str, user: str | None) -> dict[str, Any]:
    """Erase a tenant's spaces, or one user's in it, audited like any erasure; the signed
    receipt."""
    space = Space(tenant, user or DEFAULT_PART)
    with GraphMem(space, runtime=runtime) as mem:
        return mem.erasure.erase_subtree("user" if user else "tenant")


def event_count(runtime: Runtime) -> int:
    """How many events the mirror's log holds (what a rebuild replays)."""
    return restoring.event_count(runtime)


def rebuild_graph(runtime: Runtime, spaces: Iterable[str] | None, embed: bool,
                  progress: restoring.Progress | None = None) -> RestoreResult:
    """Rebuild an empty graph (or the given spaces) from the mirror's event log."""
    return restoring.restore(runtime, spaces, embed=embed, progress=progress)
