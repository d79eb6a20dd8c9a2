"""The settings reference documents every setting the settings object reads, each with what it
means, its type and its default as the object declares them."""

from __future__ import annotations

import re
from pathlib import Path

from graphmem.settings import Settings

PAGE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "settings.md"
CELL = r"((?:[^|\\]|\\.)+)"  # a table cell: anything but an unescaped pipe
ROW = re.compile(rf"^\| `GRAPHMEM_([A-Z0-9_]+)` \| {CELL} \| {CELL} \| {CELL} \|$", re.M)


def test_every_setting_is_documented_in_the_settings_reference() -> None:
    rows = {name.lower(): (kind, default, meaning) for name, kind, default, meaning
            in ROW.findall(PAGE.read_text())}
    missing = [f"GRAPHMEM_{name.upper()}" for name in Settings.model_fields if name not in rows]
    assert missing == [], f"run `python scripts/gen_docs.py` to document {missing}"
    unknown = sorted(set(rows) - set(Settings.model_fields))
    assert unknown == [], f"the settings reference names settings that do not exist: {unknown}"
    undescribed = [name for name, (_, _, meaning) in rows.items() if not meaning.strip()]
    assert undescribed == []


def test_the_reference_gives_each_default_as_the_settings_object_declares_it() -> None:
    rows = {name.lower(): default.strip() for name, _, default, _ in ROW.findall(PAGE.read_text())}
    assert rows["home"] == "`.graphmem`"
    assert rows["confidence_floor"] == f"`{Settings.model_fields['confidence_floor'].default}`"
    assert rows["neo4j_uri"] == "unset" and rows["auth_required"] == "`on`"
    assert rows["critical_categories"] == "`critical`" and rows["trusted_sources"] == "empty"
