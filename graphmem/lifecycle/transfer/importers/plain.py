"""Plain CSV or JSON Lines of `subject,value,time[,source,scope]`, for anything else.

Each row is a value said at a time, taken as certain (confidence 1) unless a `confidence`
column says otherwise. A CSV's first row names the columns when it holds `subject` and
`value`; otherwise the columns are taken in the order above. Other columns are reported,
not imported; a row without subject, value or a valid time stops the import before
anything is written, naming its line.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from graphmem.errors import InvalidInput
from graphmem.lifecycle.transfer.importers.items import Item, Source, instant
from graphmem.model.transfer import plural

COLUMNS = ("subject", "value", "time", "source", "scope")
OPTIONAL = ("confidence",)


def _item(row: Mapping[str, Any], where: str) -> Item:
    subject, value = row.get("subject"), row.get("value")
    if subject is None or not str(subject).strip():
        raise InvalidInput(f"{where}: subject is missing")
    if value is None or not str(value).strip():
        raise InvalidInput(f"{where}: value is missing")
    fact: dict[str, Any] = {"subject": str(subject), "value": str(value), "confidence": 1.0}
    if row.get("scope"):
        fact["scope"] = str(row["scope"])
    if row.get("confidence") not in (None, ""):
        try:
            fact["confidence"] = float(str(row["confidence"]))
        except ValueError:
            raise InvalidInput(f"{where}: confidence {row['confidence']!r} is not a"
                               " number") from None
    source = str(row["source"]) if row.get("source") else None
    return Item(fact, where, instant(row.get("time"), where), source)


def _notes(unmapped: Counter[str], rows: int) -> tuple[str, ...]:
    return tuple(f"column {name!r} not imported ({plural(n, 'row')} of {rows} had it)"
                 for name, n in sorted(unmapped.items()))


def _rows(reader: Iterable[list[str]]) -> Iterable[tuple[int, dict[str, str], list[str]]]:
    header: list[str] | None = None
    for number, cells in enumerate(reader, 1):
        if not any(c.strip() for c in cells):
            continue
        if header is None:
            names = [c.strip().lower() for c in cells]
            header = names if {"subject", "value"} <= set(names) else list(COLUMNS)
            if names is header:
                continue
        extra = [f"column {i + 1}" for i in range(len(header), len(cells))]
        yield number, dict(zip(header, cells, strict=False)), extra


def load_csv(path: Path, digest: str) -> Source:
    items, unmapped = [], Counter[str]()
    with path.open(newline="", encoding="utf-8") as f:
        for number, row, extra in _rows(csv.reader(f)):
            where = f"line {number}"
            for name, cell in row.items():
                if name not in COLUMNS + OPTIONAL and cell.strip():
                    unmapped[name] += 1
            unmapped.update(extra)
            items.append(_item(row, where))
    return Source("csv", tuple(items), _notes(unmapped, len(items)), digest)


def load_jsonl(path: Path, digest: str) -> Source:
    items, unmapped = [], Counter[str]()
    with path.open(encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            where = f"line {number}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise InvalidInput(f"{where}: not JSON ({e.msg})") from None
            if not isinstance(row, dict):
                raise InvalidInput(f"{where}: not a JSON object")
            unmapped.update(k for k in row if k not in COLUMNS + OPTIONAL)
            items.append(_item(row, where))
    return Source("jsonl", tuple(items), _notes(unmapped, len(items)), digest)
