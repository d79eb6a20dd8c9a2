"""Export and import of a space's (or its tenant's) whole memory.

Export needs read; sealed relational content (decision actions and snapshots, receipt
bodies) is decrypted into the file only for a caller with verify. Import needs write and
backfill: a restore writes records with their original times and outcomes, a replay
reconciles each value at its original time.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import IO

from graphmem.errors import AccessDenied, InvalidInput
from graphmem.graph.reads import aware
from graphmem.graph.spaces import listing
from graphmem.lifecycle.transfer import codec, importers, replay
from graphmem.lifecycle.transfer import restore as restoring
from graphmem.lifecycle.transfer.export import export
from graphmem.lifecycle.transfer.importers import graphmem as own_format
from graphmem.model import Proposal, Space
from graphmem.model.audit import AuditCall
from graphmem.model.transfer import ExportRequest, ExportResult, ImportReport
from graphmem.remember.proposals import parse_proposal
from graphmem.service.audit import Auditor, audited
from graphmem.service.context import SpaceContext
from graphmem.service.redaction import redactor_for
from graphmem.service.writes import Writes

Progress = Callable[[int, int], None]
MODES = ("auto", "restore", "replay")


@contextmanager
def _destination(out: str | Path | IO[str]) -> Iterator[IO[str]]:
    """A stream as given, or a file written beside its path and renamed into place once
    whole (a failed export leaves no partial file)."""
    if not isinstance(out, str | Path):
        yield out
        return
    path = Path(out)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or Path("."))
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n", buffering=1 << 20) as stream:
            yield stream
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class _Bounded(io.StringIO):
    """An export in memory that stops once it grows past the inline limit."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        self.size = 0

    def write(self, text: str, /) -> int:
        self.size += len(text.encode())
        if self.size > self.limit:
            raise InvalidInput(f"the export is larger than GRAPHMEM_EXPORT_INLINE_MAX"
                               f" ({self.limit} bytes): use `graphmem export`")
        return super().write(text)


class Transfer:
    """The space's memory to and from files: signed exports, restores and replays."""

    def __init__(self, ctx: SpaceContext, auditor: Auditor) -> None:
        self.ctx = ctx
        self.auditor = auditor

    # ---- export ---------------------------------------------------------------------------
    @audited("export")
    def export(self, call: AuditCall, out: str | Path | IO[str], *, tenant: bool = False,
               as_of: datetime | None = None, progress: Progress | None = None
               ) -> ExportResult:
        """Write this space's (with `tenant`, every space of its tenant) whole memory to a
        signed JSON Lines file: facts with every field and their links, entities, conflicts
        with their outcome, pending proposals, decisions; `as_of`: as memory held it then."""
        ctx = self.ctx
        ctx.require("read")
        if tenant:
            prefix = ctx.space.tenant + "/"
            keys = tuple(k for k in listing(ctx.graph) if k.startswith(prefix))
        else:
            keys = (ctx.key,)
        req = ExportRequest(keys, "tenant" if tenant else "space",
                            ctx.space.tenant if tenant else ctx.key, aware(as_of, "as_of"),
                            ctx.caller.can("verify"))
        with _destination(out) as stream:
            return export(ctx.runtime, req, stream, progress)

    def export_inline(self, as_of: datetime | None = None) -> tuple[str, ExportResult]:
        """The export as text, for a caller over the network: refused once it grows past
        GRAPHMEM_EXPORT_INLINE_MAX (`graphmem export` writes a file of any size)."""
        out = _Bounded(self.ctx.settings.export_inline_max)
        result = self.export(out, as_of=as_of)
        return out.getvalue(), result

    # ---- import ---------------------------------------------------------------------------
    def import_text(self, data: str, *, mode: str = "auto", format: str = "auto",
                    public_key: str | None = None) -> ImportReport:
        """An import of a file's content sent over the network (bounded by the request's
        size), read as `import_memory` reads a file."""
        with tempfile.TemporaryDirectory(prefix="graphmem-import-") as folder:
            path = Path(folder) / "import"
            path.write_text(data, encoding="utf-8")
            return self.import_memory(path, mode=mode, format=format, public_key=public_key)

    @audited("import")
    def import_memory(self, call: AuditCall, source: str | Path, *, mode: str = "auto",
                      format: str = "auto", tenant: bool = False,
                      public_key: str | None = None, batch: int | None = None,
                      progress: Progress | None = None) -> ImportReport:
        """Import a file into this space (with `tenant`, each space of a tenant export into
        this tenant). `restore` (graphmem exports; the default for them) writes the records
        as they were into an empty space, after checking the file whole; `replay` (the only
        mode for other formats) reconciles each value at its original time. Needs write and
        backfill; a re-run after an interruption continues where it stopped."""
        ctx = self.ctx
        fmt = format
        ctx.require("write")
        ctx.require("backfill")
        if mode not in MODES:
            raise InvalidInput(f"import mode {mode!r}: use one of {', '.join(MODES)}")
        path = Path(source)
        if not path.is_file():
            raise InvalidInput(f"{path}: no such file to import")
        fmt = importers.detect(path) if fmt == "auto" else fmt
        size = batch or ctx.settings.import_batch
        if fmt == "graphmem":
            return self._own(call, path, mode, tenant, public_key, size, progress)
        if mode == "restore":
            raise InvalidInput(f"a {fmt} file holds values, not graphmem's records: import it"
                               " with mode replay (restore takes a graphmem export)")
        found = importers.load(path, fmt)
        return self._replay(call, ctx.key, found, size, progress)

    def _own(self, call: AuditCall, path: Path, mode: str, tenant: bool,
             public_key: str | None, size: int, progress: Progress | None) -> ImportReport:
        ctx = self.ctx
        runtime = ctx.runtime
        admin = ctx.caller.can("admin")
        if public_key is not None and not admin:
            raise AccessDenied(f"{ctx.caller.name!r} may import files this deployment signed;"
                               " trusting another public key needs the admin capability")
        trusted = codec.trusted_keys(runtime.mirror.trusted(), public_key)
        ids: dict[str, list[str]] = {}
        settings: list[str] = []
        with path.open(encoding="utf-8") as stream:
            verified = codec.verify(stream, trusted, restoring.collect_ids(ids, settings))
        targets = self._targets([str(s) for s in verified.header.get("spaces") or []], tenant)
        if settings and not admin and mode in ("auto", "restore"):
            raise AccessDenied(f"the file sets {settings[0]}, which only an admin may set:"
                               f" ask an admin to restore it, or import it with mode replay"
                               f" (the values only)")

        def opener() -> IO[str]:
            return path.open(encoding="utf-8")

        if mode in ("auto", "restore"):
            writes = Writes(ctx)
            job = restoring.Restore(runtime, call, verified, targets, size, self._index,
                                    progress, writes.recorded_source)
            return job.run(opener, job.plan(ids))
        reports = []
        for origin, target in targets.items():
            found = own_format.load(restoring.lines(opener, verified), verified.digest, origin)
            reports.append(self._replay(call, target, found, size, progress))
        return _combined(reports)

    def _targets(self, sources: list[str], tenant: bool) -> dict[str, str]:
        """Where each space of an export goes: the one file space into this space, or with
        `tenant` each space into this tenant, keeping its user, agent and run."""
        if not tenant:
            if len(sources) != 1:
                raise InvalidInput(f"the export holds {len(sources)} spaces: import it into a"
                                   " tenant (each space keeps its user, agent and run)")
            return {sources[0]: self.ctx.key}
        own = self.ctx.space.tenant
        return {s: Space(own, *Space.parse(s).key.split("/")[1:]).key for s in sources}

    def _replay(self, call: AuditCall, target: str, found: importers.Source, size: int,
                progress: Progress | None) -> ImportReport:
        writes = Writes(replace(self.ctx, space=Space.parse(target)))
        schema = self.ctx.schema
        redactor = redactor_for(self.ctx.settings, target)

        def parse(raw: dict[str, object]) -> Proposal:
            """A record of another system's export, redacted as any write is."""
            return parse_proposal(redactor.fact(raw)[0], schema)

        return replay.replay(self.ctx.runtime, call, target, found, parse,
                             lambda props: writes.checked(props), self._index, size, progress)

    def _index(self, space: str, fact_ids: list[str]) -> None:
        """The imported facts' vectors and full-text, as after any write."""
        Writes(replace(self.ctx, space=Space.parse(space))).index(fact_ids)


def _combined(reports: list[ImportReport]) -> ImportReport:
    if len(reports) == 1:
        return reports[0]
    first = reports[0]
    written: dict[str, int] = {}
    actions: dict[str, int] = {}
    for r in reports:
        for k, v in r.written.items():
            written[k] = written.get(k, 0) + v
        for k, v in r.actions.items():
            actions[k] = actions.get(k, 0) + v
    return ImportReport(first.mode, first.format, tuple(s for r in reports for s in r.spaces),
                        sum(r.records for r in reports), written, actions,
                        sum(r.skipped for r in reports), first.unmapped,
                        all(r.already for r in reports))
