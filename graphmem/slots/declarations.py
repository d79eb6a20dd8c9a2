"""Declared slots: the strictly validated `SlotSchema` and the packaged presets.

Two statements about the same thing only reconcile if they land on the same subject (see
docs/concepts/slots.md). A `SlotSchema` maps every declared name and alias to its slot;
it is loaded from a dict, a JSON file or a built-in preset, each checked by the pydantic
models of `slots.document`. A malformed schema fails at start-up with one line that says what
is wrong and how to fix it, never halfway through a write.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from graphmem.errors import ConfigError
from graphmem.model import SlotSpec
from graphmem.slots.document import check_spec, parse_document
from graphmem.slots.names import MAX_RAW_LENGTH, fold_key, normalise_subject

__all__ = ["PRESETS", "PRESET_PREFIX", "SlotSchema", "load_slot_schema"]

PRESETS: tuple[str, ...] = ("assistant", "clinical", "coding", "finance", "sales", "support")
PRESET_PREFIX = "preset:"

_MAX_FILE_BYTES = 1_000_000


# --------------------------------------------------------------------------------------------
# Schema
# --------------------------------------------------------------------------------------------


def _build_index(slots: tuple[SlotSpec, ...], where: str) -> dict[str, SlotSpec]:
    """Map the fold key of every name and alias to its slot; refuse any ambiguity."""
    index: dict[str, SlotSpec] = {}
    spelled: dict[str, str] = {}
    for i, spec in enumerate(slots):
        label = f"{where}: slots[{i}]"
        if not isinstance(spec, SlotSpec):
            raise ConfigError(f"{label}: expected a SlotSpec, got {type(spec).__name__}")
        if isinstance(spec.name, str):
            label += f" ({spec.name!r})"
        check_spec(spec, label)
        for spelling in (spec.name, *spec.aliases):
            key = fold_key(spelling)
            other = index.get(key)
            if other is None:
                index[key] = spec
                spelled[key] = spelling
            elif other is not spec:
                what = "name" if spelling == spec.name else "alias"
                raise ConfigError(
                    f"{label}: {what} {spelling!r} collides with {spelled[key]!r} of slot "
                    f"{other.name!r} (both fold to {key!r}): rename or remove one of them"
                )
    return index


@dataclass(frozen=True)
class SlotSchema:
    """The declared slots of a deployment; empty means subjects are named freely.

    Construction validates every slot and refuses a name or alias that two slots would share,
    so `resolve` can never be ambiguous.
    """

    slots: tuple[SlotSpec, ...] = ()
    _index: dict[str, SlotSpec] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        slots: Any = self.slots
        if isinstance(slots, list):
            slots = tuple(slots)
            object.__setattr__(self, "slots", slots)
        if not isinstance(slots, tuple):
            raise ConfigError(
                f"slot schema: 'slots' must be a tuple of SlotSpec, got {type(slots).__name__}"
            )
        object.__setattr__(self, "_index", _build_index(slots, "slot schema"))

    def resolve(self, subject: str) -> SlotSpec | None:
        """The declared slot whose name or alias matches `subject` spelling-tolerantly."""
        if not self._index or not isinstance(subject, str) or len(subject) > MAX_RAW_LENGTH:
            return None
        key = fold_key(subject)
        return self._index.get(key) if key else None

    def canonical(self, subject: str) -> str:
        """The declared name when `subject` resolves, else its snake_case form.

        Raises ValueError (from normalise_subject) for an undeclared subject that has no
        letters or digits or is too long.
        """
        spec = self.resolve(subject)
        return spec.name if spec is not None else normalise_subject(subject)

    def get(self, name: str) -> SlotSpec:
        """The slot `name` resolves to; KeyError when it is not declared."""
        spec = self.resolve(name)
        if spec is None:
            raise KeyError(name)
        return spec

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.slots)

    def to_dict(self) -> dict[str, Any]:
        """The document's JSON shape; `load_slot_schema(schema.to_dict())` gives an equal schema."""
        return {
            "slots": [
                {
                    "name": s.name,
                    "aliases": list(s.aliases),
                    "description": s.description,
                    "category": s.category,
                    "multi": s.multi,
                    "confirm": s.confirm,
                    "verbatim": s.verbatim,
                }
                for s in self.slots
            ]
        }

    def __len__(self) -> int:
        return len(self.slots)

    def __iter__(self) -> Iterator[SlotSpec]:
        return iter(self.slots)

    def __contains__(self, subject: object) -> bool:
        return isinstance(subject, str) and self.resolve(subject) is not None


# --------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------


def _parse(data: Any, origin: str) -> SlotSchema:
    """Validate a decoded schema document; `origin` names where it came from in messages."""
    slots = parse_document(data, origin)
    _build_index(slots, origin)  # collisions reported against the user's own origin
    return SlotSchema(slots)


def _reject_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """json.loads keeps the last of two equal keys silently; a schema must not."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _decode(text: str, origin: str) -> Any:
    try:
        return json.loads(text, object_pairs_hook=_reject_duplicate_keys)
    except json.JSONDecodeError as e:
        raise ConfigError(
            f"{origin}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg}): fix the syntax"
        ) from e
    except ValueError as e:
        raise ConfigError(f"{origin}: {e} in a JSON object: keep one of them") from e


def _preset_hint() -> str:
    return ", ".join(PRESET_PREFIX + p for p in PRESETS)


@lru_cache(maxsize=len(PRESETS))
def _load_preset(name: str) -> SlotSchema:
    """Read a packaged preset once; SlotSchema is immutable, so sharing it is safe."""
    origin = f"slot preset {name!r}"
    try:
        text = (resources.files("graphmem.slots.presets") / f"{name}.json").read_text("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(
            f"{origin}: packaged file is missing or unreadable ({e}): reinstall graphmem"
        ) from e
    return _parse(_decode(text, origin), origin)


def _load_file(path: Path) -> SlotSchema:
    origin = f"slot schema file '{path}'"
    try:
        size = path.stat().st_size
        if size > _MAX_FILE_BYTES:
            raise ConfigError(
                f"{origin}: {size} bytes is too large for a slot schema "
                f"(limit {_MAX_FILE_BYTES}): point it at the right file"
            )
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError as e:
        hint = ""
        if str(path).casefold() in PRESETS:
            hint = f" (did you mean {PRESET_PREFIX}{str(path).casefold()}?)"
        raise ConfigError(
            f"{origin}: no such file{hint}: give a readable JSON file path or one of "
            f"{_preset_hint()}"
        ) from e
    except IsADirectoryError as e:
        raise ConfigError(f"{origin}: is a directory: give the path of a JSON file") from e
    except PermissionError as e:
        raise ConfigError(f"{origin}: permission denied: make it readable by this process") from e
    except UnicodeDecodeError as e:
        raise ConfigError(f"{origin}: not UTF-8 text ({e.reason}): save it as UTF-8 JSON") from e
    except OSError as e:
        raise ConfigError(f"{origin}: cannot be read ({e.strerror or e}): check the path") from e
    return _parse(_decode(text, origin), origin)


def load_slot_schema(
    spec: Mapping[str, Any] | str | os.PathLike[str] | SlotSchema | None,
) -> SlotSchema:
    """Load a slot schema from a dict, `preset:NAME`, or a JSON file path.

    None or "" gives the empty schema (subjects named freely). Every problem raises ConfigError
    with one line saying what is wrong and how to fix it.
    """
    if isinstance(spec, SlotSchema):
        return spec
    if spec is None:
        return SlotSchema()
    if isinstance(spec, Mapping):
        return _parse(spec, "slot schema")
    if isinstance(spec, str):
        text = spec.strip()
        if not text:
            return SlotSchema()
        if text[: len(PRESET_PREFIX)].casefold() == PRESET_PREFIX:
            name = text[len(PRESET_PREFIX) :].strip().casefold()
            if name not in PRESETS:
                raise ConfigError(
                    f"unknown slot preset {text[len(PRESET_PREFIX) :].strip()!r}: "
                    f"use one of {_preset_hint()}"
                )
            return _load_preset(name)
        return _load_file(Path(text).expanduser())
    if isinstance(spec, os.PathLike):
        return _load_file(Path(os.fspath(spec)).expanduser())
    raise ConfigError(
        f"slot schema must be a dict, a JSON file path or preset:NAME, got {type(spec).__name__}"
    )
