"""One extraction call: a message in, extractor-shaped fact dicts out (docs/concepts/facts.md).

The prompt and the pydantic model the reply is parsed into live together here.
The model only proposes: reconcile decides what becomes current. A reply that is not JSON
is asked for again, up to `GRAPHMEM_EXTRACT_RETRIES` times; an array broken part-way keeps
the facts that were complete; a fact that fails validation is dropped and logged, never
guessed at.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from graphmem.errors import InvalidInput, LLMCallFailed
from graphmem.model import Fact, SlotSpec
from graphmem.remember.proposals import parse_proposal
from graphmem.slots import SlotSchema

if TYPE_CHECKING:  # openai is imported only when a model is used
    from graphmem.llm import LLM

log = logging.getLogger(__name__)

SCHEMA_NAME = "extraction"


class ExtractedFact(BaseModel):
    """One fact as the model reports it; lenient on case, strict on shape."""

    model_config = ConfigDict(extra="ignore")

    subject: str
    value: str = ""
    scope: str = "global"
    kind: Literal["state", "event"] = "state"
    time_ref: Literal["current", "past", "future", "unknown"] = "current"
    action: Literal["ADD", "SUPERSEDE", "RETRACT", "REFINE", "COEXIST", "SKIP"] = "ADD"
    confidence: float | None = None
    target_id: str | None = None
    head: str | None = None
    head_type: str | None = None
    relation: str | None = None
    tail: str | None = None
    tail_type: str | None = None
    cardinality: Literal["one", "many"] | None = None
    reason: str | None = None

    @field_validator("kind", "time_ref", "cardinality", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("action", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("scope", mode="before")
    @classmethod
    def _scope(cls, value: Any) -> Any:
        return "global" if value is None or value == "" else value

    @field_validator("value", mode="before")
    @classmethod
    def _value(cls, value: Any) -> Any:
        """Models often send numbers bare (`"seats": 5`); a value is text here."""
        if value is None:
            return ""
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
        return value

    @field_validator("confidence")
    @classmethod
    def _confidence(cls, value: float | None) -> float | None:
        if value is not None and not 0.0 <= value <= 1.0:
            raise ValueError("confidence must be between 0 and 1")
        return value


class Extraction(BaseModel):
    """The whole reply: `{"facts": [...]}`."""

    facts: list[ExtractedFact]


def _strict(node: Any) -> Any:
    """A pydantic JSON schema made acceptable to strict structured output: every property
    required (optional ones are nullable), no extra properties, no defaults or titles."""
    if isinstance(node, dict):
        out = {k: _strict(v) for k, v in node.items() if k not in ("default", "title")}
        if out.get("type") == "object" and "properties" in out:
            out["required"] = list(out["properties"])
            out["additionalProperties"] = False
        return out
    if isinstance(node, list):
        return [_strict(v) for v in node]
    return node


RESPONSE_SCHEMA: dict[str, Any] = _strict(Extraction.model_json_schema())

SYSTEM = """\
You extract durable facts from one message for a memory store. Reply with JSON only, shaped
{"facts": [ ... ]}: one object per fact, or {"facts": []} when the message holds no durable
fact (greetings, chatter, questions, requests for help).

Fields of each fact:
- subject: what the fact is about, in snake_case (plan, primary_database, active_medication).
  Use a declared slot's name when the fact fits that slot. When the message talks about the
  same thing as a current fact, reuse that fact's subject exactly.
- value: the value itself, short ("Postgres", "Free", "Warfarin 5mg"). For a removal, the
  value being removed.
- scope: "global" unless the message limits the fact to one part (web, mobile, backend, ...).
- kind: "state" (holds until replaced) or "event" (happened once).
- time_ref: "current"; "past" for a former state ("we used to use MySQL"); "future" for a plan
  that is not true yet ("we will move to Postgres"); "unknown".
- action, your proposal (code makes the final decision):
  ADD a new fact; SUPERSEDE a new value replacing a current one; RETRACT a removal with no
  replacement ("we dropped Sentry"); REFINE the same fact with more detail; COEXIST the same
  subject in a different scope; SKIP hypotheticals, questions and sarcasm ("maybe we should
  try Jotai?").
- confidence: 0.0 to 1.0, how certain the message is about this fact.
- target_id: the id of the current fact this one replaces, refines or removes, else null.
- head, relation, tail, head_type, tail_type: the fact as a relationship between two named
  entities when it is one ("Alice" works_at "Acme"), else null. Types: person, organisation,
  project, location, topic, product, policy, concept, event, agent, service, other. Reuse known
  entity names and relation labels exactly as listed.
- cardinality: "one" when the relation holds one value at a time (employer, CEO), "many" when
  several hold together (calls, knows), else null.
- reason: a few words on why, when the action is not ADD, else null.

One message can hold several facts. "We moved to Postgres and dropped Redis" is a SUPERSEDE
of the database and a RETRACT of Redis.
"""

VERBATIM = ("For a slot marked verbatim, copy the value exactly as the message writes it"
            " (doses, versions, codes): never round, convert, abbreviate or reformat it.")
FORGET = ("The user asks memory to forget what this message names: return each named fact"
          " as a RETRACT of that value, and nothing else.")


@dataclass(frozen=True)
class ExtractionInput:
    """Everything the extractor is shown besides the instructions."""

    text: str
    facts: tuple[Fact, ...] = ()
    slots: tuple[SlotSpec, ...] = ()
    entities: tuple[tuple[str, str], ...] = ()
    relations: tuple[str, ...] = ()
    forget: bool = False


def _slot_line(spec: SlotSpec) -> str:
    marks = [m for m, on in (("list", spec.multi), ("changes need confirmation", spec.confirm),
                             ("verbatim", spec.verbatim)) if on]
    line = f"- {spec.name}"
    if spec.aliases:
        line += f" (also called {', '.join(spec.aliases)})"
    if spec.description:
        line += f": {spec.description}"
    return line + (f" [{'; '.join(marks)}]" if marks else "")


def _fact_line(fact: Fact) -> str:
    scope = "" if fact.scope == "global" else f" [{fact.scope}]"
    return f"#{fact.id} {fact.subject}{scope} = {fact.value}"


def user_prompt(inp: ExtractionInput) -> str:
    """The user message: context blocks, then the message between fences."""
    parts: list[str] = []
    if inp.facts:
        parts.append("Current facts (id, subject [scope] = value):\n"
                     + "\n".join(_fact_line(f) for f in inp.facts))
    if inp.slots:
        block = "Declared slots (use these subject names):\n" + "\n".join(
            _slot_line(s) for s in inp.slots)
        if any(s.verbatim for s in inp.slots):
            block += "\n" + VERBATIM
        parts.append(block)
    if inp.entities:
        parts.append("Known entities (reuse these names exactly): "
                     + ", ".join(f"{name} ({kind})" for name, kind in inp.entities))
    if inp.relations:
        parts.append("Relation labels in use (reuse exactly): " + ", ".join(inp.relations))
    if inp.forget:
        parts.append(FORGET)
    parts.append(f"Message:\n<<<\n{inp.text}\n>>>")
    return "\n\n".join(parts)


# ---- parsing the reply ----------------------------------------------------------------------
_DECODER = json.JSONDecoder()


def _items(obj: Any) -> list[Any] | None:
    if isinstance(obj, dict) and isinstance(obj.get("facts"), list):
        return list(obj["facts"])
    if isinstance(obj, list):
        return obj
    if isinstance(obj, dict) and "subject" in obj:
        return [obj]
    return None


def _salvage(content: str, start: int) -> list[Any] | None:
    """The complete objects at the head of an array that breaks part-way."""
    bracket = content.find("[", start)
    if bracket == -1:
        return None
    pos, items = bracket + 1, []
    while True:
        while pos < len(content) and content[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(content) or content[pos] != "{":
            break
        try:
            obj, pos = _DECODER.raw_decode(content, pos)
        except json.JSONDecodeError:
            break
        items.append(obj)
    return items or None


def _decode(content: str) -> list[Any] | None:
    starts = [i for i in (content.find("{"), content.find("[")) if i != -1]
    if not starts:
        return None
    start = min(starts)
    try:
        obj, _ = _DECODER.raw_decode(content, start)
    except json.JSONDecodeError:
        return _salvage(content, start)
    return _items(obj)


def parse_reply(content: str) -> list[ExtractedFact] | None:
    """The valid facts of a reply; None when nothing usable came back (ask again)."""
    raw = _decode(content)
    if raw is None:
        return None
    facts: list[ExtractedFact] = []
    for item in raw:
        try:
            facts.append(ExtractedFact.model_validate(item))
        except ValidationError as e:
            log.warning("extraction: dropped a malformed fact %.200r: %s", item,
                        e.errors()[0].get("msg", "invalid"))
    if raw and not facts:
        return None
    return facts


def _as_dict(fact: ExtractedFact, forget: bool) -> dict[str, Any]:
    data = fact.model_dump(exclude_none=True)
    if forget:
        data["action"] = "RETRACT"
    return data


def usable(facts: Sequence[Mapping[str, Any]], schema: SlotSchema) -> list[dict[str, Any]]:
    """Facts that pass the same validation pipelines face; the rest are logged and dropped."""
    kept = []
    for fact in facts:
        try:
            parse_proposal(fact, schema)
        except InvalidInput as e:
            log.warning("extraction: dropped fact %.200r: %s", dict(fact), e)
            continue
        kept.append(dict(fact))
    return kept


def extract(llm: LLM, inp: ExtractionInput, retries: int) -> list[dict[str, Any]]:
    """One call (plus up to `retries` more on unparseable output) → fact dicts."""
    user = user_prompt(inp)
    for attempt in range(1, retries + 2):
        content = llm.complete_json(SYSTEM, user, SCHEMA_NAME, RESPONSE_SCHEMA)
        facts = parse_reply(content)
        if facts is not None:
            return [_as_dict(f, inp.forget) for f in facts]
        log.warning("extraction attempt %d of %d: the model's reply held no usable JSON: %.200r",
                    attempt, retries + 1, content)
    raise LLMCallFailed(
        f"the model {llm.model} returned no usable JSON in {retries + 1} attempts; nothing was"
        " stored (use a model with JSON output, or raise GRAPHMEM_EXTRACT_RETRIES)"
    )
