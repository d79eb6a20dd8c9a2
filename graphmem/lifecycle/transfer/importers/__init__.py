"""Other systems' exports as timed facts for a replay: graphmem's own export, Vayl's
`export_memory` JSON, Mem0's `get_all()` JSON, and plain CSV or JSON Lines of
`subject,value,time[,source,scope]`. Each importer says what it could not map."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from graphmem.errors import InvalidInput
from graphmem.lifecycle.transfer.importers import mem0, plain, vayl
from graphmem.lifecycle.transfer.importers.items import Item, Source

FORMATS = ("auto", "graphmem", "vayl", "mem0", "csv", "jsonl")

__all__ = ["FORMATS", "Item", "Source", "detect", "load"]


def _first_line(path: Path) -> str:
    with path.open(encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.strip():
                return line.strip()
    return ""


def detect(path: Path) -> str:
    """The format of a file, from what it holds (its name only breaks a tie for CSV)."""
    first = _first_line(path)
    if not first:
        raise InvalidInput(f"{path} is empty: nothing to import")
    if first.startswith("{"):
        try:
            record = json.loads(first)
        except json.JSONDecodeError:
            record = None
        if isinstance(record, dict):
            if record.get("type") == "header" and record.get("format") == "graphmem-export":
                return "graphmem"
            if {"subject", "value"} <= set(record):
                return "jsonl"
        return _json_document(path)
    if first.startswith("["):
        return _json_document(path)
    return "csv"


def _json_document(path: Path) -> str:
    data = _whole_json(path)
    if isinstance(data, dict) and isinstance(data.get("records"), list) and isinstance(
            data.get("space"), dict):
        return "vayl"
    if mem0.looks_like(data):
        return "mem0"
    raise InvalidInput(f"{path}: a JSON document graphmem cannot place (not a Vayl"
                       " export_memory, a Mem0 get_all() or a graphmem export); name the"
                       " format with --format")


def _whole_json(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise InvalidInput(f"{path} is not JSON: {e}") from None


def digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def load(path: Path, fmt: str) -> Source:
    """A foreign file's timed facts (not graphmem's own export, which `transfer` reads)."""
    if fmt == "vayl":
        return vayl.load(_whole_json(path), digest(path))
    if fmt == "mem0":
        return mem0.load(_whole_json(path), digest(path))
    if fmt == "csv":
        return plain.load_csv(path, digest(path))
    if fmt == "jsonl":
        return plain.load_jsonl(path, digest(path))
    raise InvalidInput(f"unknown import format {fmt!r}: use one of {', '.join(FORMATS)}")
