"""Output types of export and import."""

from __future__ import annotations

import strawberry

from graphmem.model.transfer import ExportResult, ImportReport
from graphmem.schema.scalars import JSON


@strawberry.type(description="A space's whole memory as a signed JSON Lines export.")
class MemoryExport:
    jsonl: str = strawberry.field(description="The export file's content.")
    counts: JSON = strawberry.field(description="Records by type.")
    hash: str = strawberry.field(description="The hash over every record (signed).")
    key_id: str = strawberry.field(description="The signing key's id.")

    @classmethod
    def from_result(cls, text: str, result: ExportResult) -> MemoryExport:
        return cls(jsonl=text, counts=JSON(dict(result.counts)), hash=result.digest,
                   key_id=result.key_id)


@strawberry.type(description="What an import wrote, and what it could not map.")
class ImportResult:
    mode: str
    format: str
    spaces: list[str]
    records: int
    written: JSON
    actions: JSON
    skipped: int = strawberry.field(description="Records an earlier, interrupted run wrote.")
    unmapped: list[str]
    already: bool = strawberry.field(description="The same file was imported before.")
    message: str

    @classmethod
    def from_model(cls, r: ImportReport) -> ImportResult:
        return cls(mode=r.mode, format=r.format, spaces=list(r.spaces), records=r.records,
                   written=JSON(dict(r.written)), actions=JSON(dict(r.actions)),
                   skipped=r.skipped, unmapped=list(r.unmapped), already=r.already,
                   message=str(r))
