"""Export and import over GraphQL: an export returned inline (bounded by
GRAPHMEM_EXPORT_INLINE_MAX; `graphmem export` has no bound), and an import of a file's
content sent in the request (bounded by GRAPHMEM_MAX_BODY)."""

from __future__ import annotations

from datetime import datetime

from graphmem.model.transfer import ExportResult, ImportReport
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation


@operation("exportMemory", "read")
def export_memory(call: Call, as_of: datetime | None = None) -> tuple[str, ExportResult]:
    return call.mem().transfer.export_inline(as_of=as_of)


@operation("importMemory", "backfill")
def import_memory(call: Call, data: str, mode: str = "auto", format: str = "auto",
                  public_key: str | None = None) -> ImportReport:
    return call.mem().transfer.import_text(data, mode=mode, format=format,
                                           public_key=public_key)
