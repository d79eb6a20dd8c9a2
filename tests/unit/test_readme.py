"""The README documents every setting the settings object reads."""

from __future__ import annotations

from pathlib import Path

from graphmem.settings import Settings

README = Path(__file__).resolve().parents[2] / "README.md"


def test_every_setting_is_documented_in_the_readme() -> None:
    text = README.read_text()
    missing = [f"GRAPHMEM_{name.upper()}" for name in Settings.model_fields
               if f"`GRAPHMEM_{name.upper()}`" not in text]
    assert missing == [], f"document these settings in README.md: {missing}"
