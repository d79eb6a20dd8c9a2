"""A slot schema document (docs/concepts/slots.md), validated by pydantic models.

`SlotDocument` and `SlotDeclaration` declare the shape (strict JSON types, no unknown field,
null meaning the default) and the rules on values (a snake_case name, aliases that fold to
something, a one-sentence description, a short ASCII category). pydantic reports every
problem at once; the first of them, in the order a person mends a file (the document, then
slot by slot its field names, their types, their values), becomes one line that says what
is wrong and how to fix it.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_core import ErrorDetails, PydanticCustomError

from graphmem.errors import ConfigError
from graphmem.model import SlotSpec
from graphmem.slots.names import MAX_SUBJECT_LENGTH, fold_key, normalise_subject, short

__all__ = ["SlotDeclaration", "SlotDocument", "check_spec", "parse_document"]

SLOT_FIELDS: tuple[str, ...] = (
    "name", "aliases", "description", "category", "multi", "confirm", "verbatim",
)
TOP_FIELDS: tuple[str, ...] = ("slots",)
MAX_DESCRIPTION_LENGTH = 1000
MAX_CATEGORY_LENGTH = 64
MAX_ALIASES = 64

_ALIASES_TYPE = '\'aliases\' must be a list of strings, e.g. ["allergies", "drug_allergy"]'
_TYPE_PROBLEMS = {
    "name": "'name' must be a non-empty string, e.g. \"allergy\"",
    "aliases": _ALIASES_TYPE,
    "description": "'description' must be a string (one sentence for the extractor)",
    "category": "'category' must be a string such as \"critical\", or null",
}


class SlotDeclaration(BaseModel):
    """One declared slot as a schema document writes it."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    name: str
    aliases: list[str] = Field(default_factory=list)
    description: str = ""
    category: str | None = None
    multi: bool = False
    confirm: bool = False
    verbatim: bool = False

    @field_validator("aliases", mode="before")
    @classmethod
    def _tuple_is_a_list(cls, aliases: Any) -> Any:
        return list(aliases) if isinstance(aliases, tuple) else aliases

    @field_validator("name")
    @classmethod
    def _snake_case(cls, name: str) -> str:
        if not name.strip():
            raise PydanticCustomError("blank_name", "the name is blank")
        try:
            canonical = normalise_subject(name)
        except ValueError as e:
            raise ValueError(f"'name' is invalid: {e}") from e
        if canonical != name:
            raise ValueError(
                f"'name' {short(name)} is not snake_case: write it as {canonical!r} "
                "(other spellings belong in 'aliases')"
            )
        return name

    @field_validator("aliases")
    @classmethod
    def _usable_aliases(cls, aliases: list[str]) -> list[str]:
        # An alias repeated within its own slot is redundant, not ambiguous: keep the first.
        unique = list(dict.fromkeys(aliases))
        if len(unique) > MAX_ALIASES:
            raise ValueError(f"{len(unique)} aliases is too many: keep at most {MAX_ALIASES}")
        for alias in unique:
            if len(alias) > MAX_SUBJECT_LENGTH or not fold_key(alias):
                raise ValueError(
                    f"alias {short(alias)} must contain letters or digits and be at most "
                    f"{MAX_SUBJECT_LENGTH} characters"
                )
        return unique

    @field_validator("description")
    @classmethod
    def _one_sentence(cls, description: str) -> str:
        if len(description) > MAX_DESCRIPTION_LENGTH:
            raise ValueError(
                f"'description' is {len(description)} characters: keep it to one "
                f"sentence of at most {MAX_DESCRIPTION_LENGTH} characters"
            )
        return description

    @field_validator("category")
    @classmethod
    def _short_ascii(cls, category: str | None) -> str | None:
        if category is None:
            return None
        category = category.lower()
        if (
            not category
            or len(category) > MAX_CATEGORY_LENGTH
            or not all(c.isascii() and (c.isalnum() or c in "_-") for c in category)
        ):
            raise ValueError(
                f"'category' must be 1-{MAX_CATEGORY_LENGTH} ASCII letters, digits, "
                '_ or - (e.g. "critical"), or null'
            )
        return category

    def spec(self) -> SlotSpec:
        return SlotSpec(
            name=self.name, aliases=tuple(self.aliases), description=self.description,
            category=self.category, multi=self.multi, confirm=self.confirm,
            verbatim=self.verbatim,
        )


class SlotDocument(BaseModel):
    """A whole schema document: `{"slots": [...]}`."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    slots: list[SlotDeclaration]

    @field_validator("slots", mode="before")
    @classmethod
    def _objects(cls, slots: Any) -> Any:
        """Any mapping is a JSON object; null in an optional field means its default."""
        if not isinstance(slots, list | tuple):
            return slots
        return [_without_nulls(e) if isinstance(e, Mapping) else e for e in slots]


def _without_nulls(entry: Mapping[Any, Any]) -> dict[Any, Any]:
    return {k: v for k, v in entry.items() if v is not None or k not in SLOT_FIELDS[1:]}


# ---------------------------------------------------------------------------------------------
# From pydantic's errors to one line


def _unknown_field(key: str, allowed: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(key, allowed, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return f"unknown field {key!r}: {hint}allowed fields are {', '.join(allowed)}"


def _position(container: Any, key: Any) -> int:
    """Where `key` stands in the input, so unknown fields are reported in the order written."""
    keys = list(container) if isinstance(container, Mapping) else []
    return keys.index(key) if key in keys else len(keys)


def _slot_problem(err: ErrorDetails, loc: Sequence[Any], entry: Any) -> tuple[tuple[int, ...], str]:
    """Rank and message of a problem `loc` deep inside one slot."""
    if not loc:
        got = type(err["input"]).__name__
        return (0,), f'each slot must be an object like {{"name": "allergy"}}, got {got}'
    field = loc[0]
    if err["type"] in ("extra_forbidden", "invalid_key"):
        return (1, _position(entry, field)), _unknown_field(str(field), SLOT_FIELDS)
    if err["type"] == "missing":
        return (2,), "missing 'name': every slot needs its canonical subject"
    order = SLOT_FIELDS.index(field)
    if err["type"] == "value_error":
        return (4, order), str(err.get("ctx", {}).get("error", err["msg"]))
    if field in _TYPE_PROBLEMS:
        return (3, order), _TYPE_PROBLEMS[field]
    return (3, order), f"{field!r} must be true or false, got {err['input']!r}"


def _where(origin: str, index: int, entry: Any) -> str:
    name = entry.get("name") if isinstance(entry, Mapping) else None
    suffix = f" ({name!r})" if isinstance(name, str) and name else ""
    return f"{origin}: slots[{index}]{suffix}"


def _problem(err: ErrorDetails, data: Any, origin: str) -> tuple[tuple[int, ...], str]:
    """Rank and message of one problem of a whole document."""
    loc = err["loc"]
    if not loc:
        got = type(err["input"]).__name__
        return (0,), f'{origin}: the top level must be an object like {{"slots": [...]}}, got {got}'
    if loc[0] != "slots":  # the only other keys are unknown ones
        return (1, _position(data, loc[0])), f"{origin}: {_unknown_field(str(loc[0]), TOP_FIELDS)}"
    if len(loc) == 1:
        if err["type"] == "missing":
            return (2,), f"{origin}: missing 'slots': write {{\"slots\": [...]}}"
        return (2,), f"{origin}: 'slots' must be a list of slot objects"
    index = int(loc[1])
    entry = data["slots"][index]
    rank, message = _slot_problem(err, loc[2:], entry)
    return (3, index, *rank), f"{_where(origin, index, entry)}: {message}"


def parse_document(data: Any, origin: str) -> tuple[SlotSpec, ...]:
    """The slots a decoded document declares; ConfigError with the first problem otherwise.
    `origin` says where the document came from."""
    data = dict(data) if isinstance(data, Mapping) else data
    try:
        document = SlotDocument.model_validate(data)
    except ValidationError as e:
        problems = [_problem(err, data, origin) for err in e.errors(include_url=False)]
        raise ConfigError(min(problems)[1]) from e
    return tuple(slot.spec() for slot in document.slots)


def check_spec(spec: SlotSpec, where: str) -> None:
    """Hold a SlotSpec built in code to the rules a document's slot follows."""
    fields = {name: getattr(spec, name) for name in SLOT_FIELDS}
    try:
        SlotDeclaration.model_validate(fields)
    except ValidationError as e:
        problems = [_slot_problem(err, err["loc"], fields) for err in e.errors(include_url=False)]
        raise ConfigError(f"{where}: {min(problems)[1]}") from e
