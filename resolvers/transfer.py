"""Export and import over GraphQL: an export returned inline (bounded by
GRAPHMEM_EXPORT_INLINE_MAX; `graphmem export` has no bound), and an import of a file's
content sent in the request (bounded by GRAPHMEM_MAX_BODY)."""

from __future__ import annotations

import io
import tempfile
from datetime import datetime
from pathlib import Path

from graphmem.errors import InvalidInput
from graphmem.model.transfer import ExportResult, ImportReport
from graphmem.resolvers.guard import Call
from graphmem.resolvers.registry import operation


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


@operation("exportMemory", "read")
def export_memory(call: Call, as_of: datetime | None = None) -> tuple[str, ExportResult]:
    out = _Bounded(call.context.runtime.settings.export_inline_max)
    result = call.mem().transfer.export(out, as_of=as_of)
    return out.getvalue(), result


@operation("importMemory", "backfill")
def import_memory(call: Call, data: str, mode: str = "auto", format: str = "auto",
                  public_key: str | None = None) -> ImportReport:
    with tempfile.TemporaryDirectory(prefix="graphmem-import-") as folder:
        path = Path(folder) / "import"
        path.write_text(data, encoding="utf-8")
        return call.mem().transfer.import_memory(path, mode=mode, format=format,
                                        public_key=public_key)
