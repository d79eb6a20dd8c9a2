"""Every MCP tool fuzzed from its own JSON Schema over a live server's `/mcp`: arguments
drawn by Schemathesis' JSON Schema generator (an engine nobody here wrote), mixed with a fuzz
dictionary of what a fixture wrote (the space's user, its subjects, fact and event ids), so
that every tool also answers with data. No call may end in an internal error (a message with
a reference instead of a reason) or break the session; a refusal that says what was wrong
is a correct answer. GRAPHMEM_MCP_FUZZ_EXAMPLES sets the calls per tool (`make fuzz` raises
it)."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.generation.jsonschema.builder import build

from support.api_support import Api, new_tenant
from support.llm_fixtures import llm_overrides
from support.llm_server import LLMServer
from support.mcp_support import McpSession, http, text_of

pytestmark = [pytest.mark.slow]

EXAMPLES = int(os.environ.get("GRAPHMEM_MCP_FUZZ_EXAMPLES", "110"))
USER = "fuzz"
SUBJECTS = ["state", "plan", "city"]
ENTITY_TYPE = "system"
# tools that erase for good run last, in this order (a fact erased is not found by the tools
# that read it); the one that ends the tenant answers with data once and then finds nothing
# to act on, and its calls are judged for internal errors only
LAST = ("delete", "delete_all", "erase_user", "erase_tenant")
INTERNAL = "couldn't complete"
SETTLED = 8  # conflicts and proposals: each tool that settles them uses some up
SPACE_ARGS = ("user_id", "agent_id", "run_id")
# erasing a user or a tenant erases each of its spaces that holds anything (the fuzzed calls
# make hundreds), a fraction of a second each: these tools get a few calls, and minutes
ERASING, ERASURES, ERASING_SECONDS = ("erase_user", "erase_tenant"), 5, 600.0


SHARDS = 2  # one process fuzzes on one core; the shards run side by side on the workers


@pytest.fixture
def admin(serve_mcp: Callable[..., Api], llm_server: LLMServer) -> Iterator[McpSession]:
    api = serve_mcp(**llm_overrides(llm_server), api_model_calls_per_min=1_000_000,
                    slot_schema="preset:clinical")
    with http(f"{api.base}/mcp", api.key("admin", new_tenant())) as session:
        yield session


def _written(session: McpSession) -> Dictionary:
    """What the fixture writes for the tools to find, as the fuzz dictionary: facts and the
    events that wrote them, ambiguity conflicts (two values for one slot in one call),
    proposed dose changes of a confirm-gated slot, an export, and the receipt of an erased user."""
    ids: list[str] = []
    events: list[str] = []
    for n, subject in enumerate(SUBJECTS * 2):
        done = _structured(session, "remember_facts", {"user_id": USER, "facts": [
            {"subject": subject, "value": f"v{n}", "confidence": 0.95}]})
        ids += [r["fact_id"] for r in done["result"] if r.get("fact_id")]
        events += [r["event_id"] for r in done["result"] if r.get("event_id")]
    since = datetime.now(UTC) - timedelta(hours=1)
    contested: list[str] = []
    for n in range(2 * SETTLED):  # resolved and dismissed ones are gone for the next calls
        ambiguous = _structured(session, "remember_facts", {"user_id": USER, "facts": [
            {"subject": f"db{n}", "value": "MySQL", "confidence": 0.95},
            {"subject": f"db{n}", "value": "Postgres", "confidence": 0.95}]})
        contested += [r["fact_id"] for r in ambiguous["result"] if r.get("fact_id")]
    pending: list[dict[str, str]] = []
    for n in range(2 * SETTLED):  # pending changes of one slot are one conflict: a space each
        for dose in ("5mg", "10mg"):  # the first dose is stored, the change proposed
            proposed = _structured(session, "remember_facts", {
                "user_id": f"{USER}_p{n}", "facts": [{"subject": "active_medication",
                                                      "value": f"Drug{n} {dose} PO daily",
                                                      "confidence": 0.95}]})
        pending += [{"user_id": f"{USER}_p{n}", "fact_id": r["fact_id"]}
                    for r in proposed["result"] if r.get("action") == "FLAG"]
    undoable: list[str] = []
    for n in range(SETTLED):  # slots no other call writes, so no later write builds on them
        done = _structured(session, "remember_facts", {"user_id": USER, "facts": [
            {"subject": f"undo_{n}", "value": "v", "confidence": 0.95}]})
        undoable += [r["event_id"] for r in done["result"] if r.get("event_id")]
    # an entity the entity tools find by type and name (a shard without create_entity too)
    session.text("create_entity", {"user_id": USER, "type": ENTITY_TYPE, "name": SUBJECTS[0]})
    conflicts = _structured(session, "list_conflicts", {"user_id": USER})["items"]
    exported = session.text("export_space", {"user_id": USER})
    session.text("remember_facts", {"user_id": "gone", "facts": [
        {"subject": "city", "value": "Paris"}]})
    erased = json.loads(session.text("erase_user", {"user_id": "gone"}))
    assert ids and events and conflicts and pending, (ids, events, conflicts, pending)
    return Dictionary(
        values={"user_id": [USER], "agent_id": ["default"], "run_id": ["default"],
                "subject": SUBJECTS, "subjects": [SUBJECTS[:2]], "fact_id": ids,
                "event_id": events, "conflict_id": [c["id"] for c in conflicts[::2]],
                "receipt_id": [erased["receipt"]["id"]], "data": [exported],
                "mode": ["replay"], "winner": contested, "from_time": [since.isoformat()],
                "name": SUBJECTS, "type": [ENTITY_TYPE], "text": SUBJECTS,
                "retention_days": [1], "days": [30],
                "question": [f"what is the {s}?" for s in SUBJECTS]},
        # what a settling tool needs right together: a proposal of its own in its own space
        # (confirm and reject each take half), a conflict of its own (dismiss and the readers
        # take half, resolve the other half) with one of its own facts as the winner
        together={"confirm_change": pending[::2], "reject_change": pending[1::2],
                  "dismiss_conflict": [{"conflict_id": c["id"]} for c in conflicts[::2]],
                  "resolve_conflict": [{"conflict_id": c["id"], "winner": c["fact_ids"][0]}
                                       for c in conflicts[1::2]],
                  "undo_event": [{"event_id": e} for e in undoable],
                  # one of the two ways to name what to delete, never both
                  "delete": [{"fact_id": i} for i in ids] + [{"subject": s} for s in SUBJECTS]})


@dataclass(frozen=True)
class Dictionary:
    """Argument values that find something: by argument name, and whole sets by tool."""

    values: dict[str, list[Any]]
    together: dict[str, list[dict[str, Any]]]


def _structured(session: McpSession, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = session.call(tool, args)
    assert not result.is_error and result.structured_content is not None, text_of(result)
    return result.structured_content


def arguments(name: str, schema: dict[str, Any], dictionary: Dictionary
              ) -> st.SearchStrategy[dict[str, Any]]:
    """A tool's arguments: each property from the generator, or (for a name the
    dictionary knows) as often from the dictionary; required ones always, others maybe."""
    defs = schema.get("$defs", {})
    required = set(schema.get("required", []))
    values = dictionary.values

    def one(arg: str, prop: dict[str, Any]) -> st.SearchStrategy[Any]:
        generated = build({**prop, "$defs": defs} if defs else prop, draft=7, formats={})
        known = values.get(arg)
        return st.one_of(st.sampled_from(known), generated) if known else generated

    props = schema.get("properties", {})
    generated = st.fixed_dictionaries(
        {n: one(n, p) for n, p in props.items() if n in required or n in values},
        optional={n: one(n, p) for n, p in props.items()
                  if n not in required and n not in values})
    # half the calls take what the dictionary knows (a call that finds something needs all
    # of it right at once): a tool with sets of its own gets its space and one set alone;
    # any other, every argument the dictionary names over the generated ones
    if name in dictionary.together:
        known = st.tuples(
            st.fixed_dictionaries({n: st.sampled_from(values[n]) for n in SPACE_ARGS
                                   if n in props}),
            st.sampled_from(dictionary.together[name])).map(lambda p: {**p[0], **p[1]})
    else:
        known = st.tuples(generated, st.fixed_dictionaries(
            {n: st.sampled_from(values[n]) for n in props if n in values})).map(
                lambda p: {**p[0], **p[1]})
    return st.one_of(known, generated)


@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_tool_fuzzed_from_its_schema_answers_without_an_internal_error(
        admin: McpSession, shard: int) -> None:
    """Each shard fuzzes every SHARDS-th tool by name, in a tenant of its own (the erasing
    tools last in each)."""
    dictionary = _written(admin)
    listed = sorted(admin.run(lambda c: c.list_tools()).tools, key=lambda t: t.name)
    tools = sorted(listed[shard::SHARDS],
                   key=lambda t: (t.name in LAST, LAST.index(t.name) if t.name in LAST else 0,
                                  t.name))
    answered: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    problems: list[str] = []
    refusals: dict[str, str] = {}  # a refusal of each tool: what a silent tool was told
    for tool in tools:
        judge = judged(admin, tool.name, calls, answered, problems, refusals)
        plain = plainly(tool.name, tool.input_schema, dictionary)
        if plain is not None:
            judge(plain)
        fuzz(tool.name, arguments(tool.name, tool.input_schema, dictionary), judge)()
    assert problems == [], "\n".join(problems[:20])
    assert sum(calls.values()) >= EXAMPLES * len(tools) // 2, calls
    silent = sorted(t.name for t in tools if not answered[t.name] and t.name != "erase_tenant")
    assert silent == [], "never answered with data: " + "; ".join(
        f"{name}: {refusals.get(name)}" for name in silent)


def plainly(name: str, schema: dict[str, Any], dictionary: Dictionary
            ) -> dict[str, Any] | None:
    """The call that finds something for sure, made once before the fuzzed ones (which may
    draw no such call in a short run): the first of what the dictionary knows and nothing
    else, or None when a required argument is not in it."""
    props = schema.get("properties", {})
    known = {n: dictionary.values[n][0] for n in props if n in dictionary.values}
    if name in dictionary.together:
        known = {n: v for n, v in known.items() if n in SPACE_ARGS}
        known.update(dictionary.together[name][-1])
    if not set(schema.get("required", [])) <= set(known):
        return None
    return known


def judged(session: McpSession, name: str, calls: Counter[str], answered: Counter[str],
           problems: list[str], refusals: dict[str, str]) -> Callable[[dict[str, Any]], None]:
    """One call of a tool, judged: an internal error is a problem, a refusal is noted."""

    def call(args: dict[str, Any]) -> None:
        result = session.call(name, args, timeout=ERASING_SECONDS if name in ERASING else 120)
        said = text_of(result)
        calls[name] += 1
        if INTERNAL in said:
            problems.append(f"{name}({json.dumps(args)[:300]}): {said[:300]}")
        elif not result.is_error:
            answered[name] += 1
        else:
            refusals[name] = f"{json.dumps(args)[:200]} → {said[:200]}"

    return call


def fuzz(name: str, strategy: st.SearchStrategy[dict[str, Any]],
         judge: Callable[[dict[str, Any]], None]) -> Callable[[], None]:
    """A Hypothesis test of one tool: EXAMPLES calls, each judged."""

    @settings(max_examples=min(EXAMPLES, ERASURES) if name in ERASING else EXAMPLES,
              deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(args=strategy)
    def call(args: dict[str, Any]) -> None:
        judge(args)

    return call
