"""Declared slots: canonical subject names, spelling-tolerant aliases and the packaged presets.

Two statements about the same thing only reconcile if they land on the same subject (seed 000,
"Declared slots and presets"). This module owns the two name functions every stage shares:
`normalise_subject` (the snake_case form a free subject is stored under) and `fold_key` (the
spelling-tolerant key aliases match on), plus the strictly validated `SlotSchema` loaded from a
dict, a JSON file or a built-in preset. A malformed schema fails at start-up with one line that
says what is wrong and how to fix it, never halfway through a write.
"""

from __future__ import annotations

import difflib
import json
import os
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from graphmem.errors import ConfigError
from graphmem.model import SlotSpec

__all__ = [
    "MAX_SUBJECT_LENGTH",
    "PRESETS",
    "PRESET_PREFIX",
    "SlotSchema",
    "fold_key",
    "load_slot_schema",
    "normalise_subject",
]

PRESETS: tuple[str, ...] = ("assistant", "clinical", "coding", "finance", "sales", "support")
PRESET_PREFIX = "preset:"

MAX_SUBJECT_LENGTH = 200
# Raw input beyond this cannot be a sensible subject; refusing early keeps a hostile 100 KB
# string from costing a full normalisation pass on the write path.
_MAX_RAW_LENGTH = 1000
_MAX_DESCRIPTION_LENGTH = 1000
_MAX_CATEGORY_LENGTH = 64
_MAX_ALIASES = 64
_MAX_FILE_BYTES = 1_000_000

_SLOT_FIELDS: tuple[str, ...] = (
    "name",
    "aliases",
    "description",
    "category",
    "multi",
    "confirm",
    "verbatim",
)
_TOP_FIELDS: tuple[str, ...] = ("slots",)


# --------------------------------------------------------------------------------------------
# Names
# --------------------------------------------------------------------------------------------


def _short(text: str, limit: int = 60) -> str:
    """Quote a possibly huge or hostile string for an error message without echoing it all."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"... ({len(text)} chars)"


def _fold_case(text: str) -> str:
    """NFKC + casefold + NFKC: full-width, ligature and case variants of a letter compare equal.

    The composition is idempotent over all of Unicode, so folding a folded string is a no-op.
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def _words(text: str) -> list[str]:
    """Split on every character that is not a letter, digit or a mark attached to one."""
    words: list[str] = []
    current: list[str] = []
    for ch in text:
        major = unicodedata.category(ch)[0]
        if major in "LN" or (major == "M" and current):
            current.append(ch)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return words


def _upper(ch: str) -> bool:
    """Upper case that folding changes: Cherokee capitals fold to themselves, so splitting at
    them would split the folded subject again (normalising must be idempotent)."""
    return ch.isupper() and ch.casefold() != ch


def _split_camel(text: str) -> str:
    """Insert a space at camelCase boundaries (`activeMedication`, `HTTPServer`, `ec2Instance`).

    A trailing plural `s` on an acronym (`APIs`, `URLs`) is kept with it rather than split off.
    """
    out: list[str] = []
    n = len(text)
    for i, ch in enumerate(text):
        if i > 0 and _upper(ch):
            prev = text[i - 1]
            if prev.islower() or prev.isdigit():
                out.append(" ")
            elif _upper(prev) and i + 1 < n and text[i + 1].islower():
                plural = text[i + 1] == "s" and (i + 2 == n or not text[i + 2].islower())
                if not plural:
                    out.append(" ")
        out.append(ch)
    return "".join(out)


def normalise_subject(subject: str) -> str:
    """Return the snake_case subject a fact is stored under.

    Case is folded, camelCase is split, and every run of spaces, hyphens, dots, slashes, quotes
    or other non-word characters becomes one `_`; letters and digits of any script are kept.
    The result contains only letters, digits, marks and `_`, so it is inert wherever it lands.
    Raises ValueError when nothing is left or the result is longer than 200 characters.
    """
    if not isinstance(subject, str):
        raise ValueError(f"subject must be a string, got {type(subject).__name__}")
    return _normalise(subject)


@lru_cache(maxsize=65_536)  # pure, and a write path normalises each subject more than once
def _normalise(subject: str) -> str:
    if len(subject) > _MAX_RAW_LENGTH:
        raise ValueError(
            f"subject {_short(subject)} is too long: use a short snake_case name "
            f"of at most {MAX_SUBJECT_LENGTH} characters"
        )
    text = unicodedata.normalize("NFKC", subject)
    words = _words(_fold_case(_split_camel(text)))
    result = "_".join(words)
    if not result:
        raise ValueError(
            f"subject {_short(subject)} has no letters or digits: "
            "name what the fact is about, e.g. 'primary_database'"
        )
    if len(result) > MAX_SUBJECT_LENGTH:
        raise ValueError(
            f"subject {_short(subject)} is {len(result)} characters once normalised: "
            f"use a name of at most {MAX_SUBJECT_LENGTH} characters"
        )
    return result


def fold_key(name: str) -> str:
    """Return the spelling-tolerant key aliases match on.

    Case, spaces, hyphens, underscores and all other punctuation are ignored, so
    `Drug-Allergy`, `drug allergy`, `drugAllergy` and `DRUG_ALLERGY` share one key. Matching is
    by spelling only, never by meaning. Anything that is not a string folds to "".
    """
    if not isinstance(name, str):
        return ""
    return "".join(_words(_fold_case(name)))


# --------------------------------------------------------------------------------------------
# Schema
# --------------------------------------------------------------------------------------------


def _check_spec(spec: SlotSpec, where: str) -> SlotSpec:
    """Validate one slot's values; `where` prefixes the message so the user can find it."""
    if not isinstance(spec, SlotSpec):
        raise ConfigError(f"{where}: expected a SlotSpec, got {type(spec).__name__}")
    name = spec.name
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"{where}: 'name' must be a non-empty string, e.g. \"allergy\"")
    try:
        canonical = normalise_subject(name)
    except ValueError as e:
        raise ConfigError(f"{where}: 'name' is invalid: {e}") from e
    if canonical != name:
        raise ConfigError(
            f"{where}: 'name' {_short(name)} is not snake_case: write it as {canonical!r} "
            "(other spellings belong in 'aliases')"
        )
    if not isinstance(spec.aliases, tuple) or not all(isinstance(a, str) for a in spec.aliases):
        raise ConfigError(f"{where}: 'aliases' must be a list of strings")
    if len(spec.aliases) > _MAX_ALIASES:
        raise ConfigError(
            f"{where}: {len(spec.aliases)} aliases is too many: keep at most {_MAX_ALIASES}"
        )
    for alias in spec.aliases:
        if len(alias) > MAX_SUBJECT_LENGTH or not fold_key(alias):
            raise ConfigError(
                f"{where}: alias {_short(alias)} must contain letters or digits and be at most "
                f"{MAX_SUBJECT_LENGTH} characters"
            )
    if not isinstance(spec.description, str):
        raise ConfigError(f"{where}: 'description' must be a string")
    if len(spec.description) > _MAX_DESCRIPTION_LENGTH:
        raise ConfigError(
            f"{where}: 'description' is {len(spec.description)} characters: keep it to one "
            f"sentence of at most {_MAX_DESCRIPTION_LENGTH} characters"
        )
    if spec.category is not None:
        cat = spec.category
        if (
            not isinstance(cat, str)
            or not cat
            or len(cat) > _MAX_CATEGORY_LENGTH
            or not all(c.isascii() and (c.isalnum() or c in "_-") for c in cat)
        ):
            raise ConfigError(
                f"{where}: 'category' must be 1-{_MAX_CATEGORY_LENGTH} ASCII letters, digits, "
                '_ or - (e.g. "critical"), or null'
            )
    for flag in ("multi", "confirm", "verbatim"):
        if not isinstance(getattr(spec, flag), bool):
            raise ConfigError(f"{where}: {flag!r} must be true or false")
    return spec


def _build_index(slots: tuple[SlotSpec, ...], where: str) -> dict[str, SlotSpec]:
    """Map the fold key of every name and alias to its slot; refuse any ambiguity."""
    index: dict[str, SlotSpec] = {}
    spelled: dict[str, str] = {}
    for i, spec in enumerate(slots):
        label = f"{where}: slots[{i}]"
        if isinstance(spec, SlotSpec) and isinstance(spec.name, str):
            label += f" ({spec.name!r})"
        _check_spec(spec, label)
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
        if not self._index or not isinstance(subject, str) or len(subject) > _MAX_RAW_LENGTH:
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
        """The seed's JSON shape; `load_slot_schema(schema.to_dict())` gives an equal schema."""
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


def _unknown_field(key: str, allowed: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(key, allowed, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return f"unknown field {key!r}: {hint}allowed fields are {', '.join(allowed)}"


def _parse_slot(entry: Any, where: str) -> SlotSpec:
    """Turn one JSON slot object into a SlotSpec, checking every field's JSON type."""
    if not isinstance(entry, Mapping):
        raise ConfigError(
            f'{where}: each slot must be an object like {{"name": "allergy"}}, '
            f"got {type(entry).__name__}"
        )
    name = entry.get("name")
    if isinstance(name, str) and name:
        where = f"{where} ({name!r})"
    for key in entry:
        if not isinstance(key, str) or key not in _SLOT_FIELDS:
            raise ConfigError(f"{where}: {_unknown_field(str(key), _SLOT_FIELDS)}")
    if "name" not in entry:
        raise ConfigError(f"{where}: missing 'name': every slot needs its canonical subject")
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"{where}: 'name' must be a non-empty string, e.g. \"allergy\"")

    raw_aliases = entry.get("aliases")
    if raw_aliases is None:
        aliases: tuple[str, ...] = ()
    elif isinstance(raw_aliases, list | tuple) and all(isinstance(a, str) for a in raw_aliases):
        # An alias repeated within its own slot is redundant, not ambiguous: keep the first.
        aliases = tuple(dict.fromkeys(raw_aliases))
    else:
        raise ConfigError(
            f'{where}: \'aliases\' must be a list of strings, e.g. ["allergies", "drug_allergy"]'
        )

    description = entry.get("description")
    if description is None:
        description = ""
    elif not isinstance(description, str):
        raise ConfigError(
            f"{where}: 'description' must be a string (one sentence for the extractor)"
        )

    category = entry.get("category")
    if category is not None and not isinstance(category, str):
        raise ConfigError(f"{where}: 'category' must be a string such as \"critical\", or null")

    flags: dict[str, bool] = {}
    for flag in ("multi", "confirm", "verbatim"):
        value = entry.get(flag)
        if value is None:
            value = False
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: {flag!r} must be true or false, got {value!r}")
        flags[flag] = value

    spec = SlotSpec(
        name=name,
        aliases=aliases,
        description=description,
        category=category.lower() if category is not None else None,
        multi=flags["multi"],
        confirm=flags["confirm"],
        verbatim=flags["verbatim"],
    )
    return _check_spec(spec, where)


def _parse(data: Any, origin: str) -> SlotSchema:
    """Validate a decoded schema document; `origin` names where it came from in messages."""
    if not isinstance(data, Mapping):
        raise ConfigError(
            f'{origin}: the top level must be an object like {{"slots": [...]}}, '
            f"got {type(data).__name__}"
        )
    for key in data:
        if not isinstance(key, str) or key not in _TOP_FIELDS:
            raise ConfigError(f"{origin}: {_unknown_field(str(key), _TOP_FIELDS)}")
    if "slots" not in data:
        raise ConfigError(f"{origin}: missing 'slots': write {{\"slots\": [...]}}")
    entries = data["slots"]
    if not isinstance(entries, list | tuple):
        raise ConfigError(f"{origin}: 'slots' must be a list of slot objects")
    slots = tuple(_parse_slot(e, f"{origin}: slots[{i}]") for i, e in enumerate(entries))
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
