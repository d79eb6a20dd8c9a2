"""Nothing a frontend can do over GraphQL is out of an agent's reach over MCP: every root
field has a tool or a resource, except the few listed here with the reason; the fact an
agent writes has GraphQL's fields and is checked by the same code; and every tool's
description is written for a model: short, with when to use it and an example."""

from __future__ import annotations

import re

import graphql
import pytest

from graphmem.mcp.args import FactIn
from graphmem.mcp.registry import TOOLS
from graphmem.mcp.server import _MODULES  # noqa: F401 - importing registers the tools
from graphmem.model.fact_fields import FACT_FIELDS
from graphmem.schema.export import SDL_PATH

from support.api_support import Api, new_tenant
from support.mcp_support import http, text_of

# GraphQL root fields with no MCP counterpart, and why an agent has no use for them.
NOT_FOR_AGENTS = {
    "node": "Relay's refetch by global id, for a frontend's cache",
    "nodes": "Relay's refetch by global id, for a frontend's cache",
    "viewer": "the key's own identity: tools/list already shows what the key may call",
    "serverInfo": "MCP's initialize result carries the server's name and version",
    "changeCursor": "where a GraphQL subscription resumes; MCP resources notify instead",
}

# GraphQL root field -> the MCP tool (or resource, for subscriptions) that does its job.
COUNTERPARTS = {
    "auditEntries": "audit_log", "auditLog": "audit_log", "checkBeforeAct": "check_before_act",
    "changes": "changes", "undoEvent": "undo_event",
    "conflicts": "list_conflicts", "entities": "search_entities", "entity": "get_entity",
    "entityHistory": "entity_history", "exportMemory": "export_space",
    "exportPublicKey": "export_public_key", "fact": "get_fact", "facts": "list_facts",
    "fsck": "fsck", "history": "history", "neighbourhood": "entity_neighbourhood",
    "pendingChanges": "pending_changes", "recall": "recall", "recallRelated": "recall_related",
    "receipt": "get_receipt", "reconcilePolicy": "get_reconcile_policy",
    "searchEntities": "search_entities", "spaces": "list_spaces", "stats": "space_stats",
    "verifyAudit": "verify_audit", "verifyReceipt": "verify_receipt",
    "vocabulary": "vocabulary", "relations": "relations", "relationSchema": "relations",
    "declareRelations": "declare_relations", "describeRelations": "describe_relations",
    "attest": "attest", "confirmChange": "confirm_change", "createEntity": "create_entity",
    "delete": "delete", "deleteAll": "delete_all", "dismissConflict": "dismiss_conflict",
    "eraseTenant": "erase_tenant", "eraseUser": "erase_user", "forget": "forget",
    "forgetFacts": "forget", "importMemory": "import_space", "purge": "purge_expired",
    "recordDecision": "record_decision", "rejectChange": "reject_change",
    "remember": "remember", "rememberFacts": "remember_facts",
    "resolveConflict": "resolve_conflict", "setReconcilePolicy": "set_reconcile_policy",
    "setRetention": "set_retention",
    "factChanged": "resource:facts", "pendingChanged": "resource:facts",
    "conflictOpened": "resource:conflicts", "conflictClosed": "resource:conflicts",
}

# Words that mean something only inside graphmem's code or its GraphQL schema.
JARGON = re.compile(r"\b(Cypher|Neo4j|Strawberry|resolver|outbox|hot path|keyset|Relay|"
                    r"GraphQL|mutation|SpaceContext|namespace|TODO)\b", re.IGNORECASE)
BUDGET = 600  # characters a tool's description may take
EXAMPLE = re.compile(r"e\.g\. \{", re.IGNORECASE)


def root_fields() -> dict[str, str]:
    schema = graphql.build_schema(SDL_PATH.read_text())
    roots = (schema.query_type, schema.mutation_type, schema.subscription_type)
    return {name: root.name for root in roots if root is not None for name in root.fields}


def test_every_graphql_capability_has_an_mcp_counterpart() -> None:
    fields = root_fields()
    missing = sorted(set(fields) - set(COUNTERPARTS) - set(NOT_FOR_AGENTS))
    assert missing == [], f"GraphQL fields with no MCP tool or resource: {missing}"
    assert len(NOT_FOR_AGENTS) <= 5
    stale = sorted((set(COUNTERPARTS) | set(NOT_FOR_AGENTS)) - set(fields))
    assert stale == [], f"listed but not in the schema: {stale}"
    tools = {t for t in COUNTERPARTS.values() if not t.startswith("resource:")}
    assert tools <= set(TOOLS), sorted(tools - set(TOOLS))


def test_the_fact_an_agent_writes_has_graphql_s_fields() -> None:
    schema = graphql.build_schema(SDL_PATH.read_text())
    fact_input = schema.type_map["FactInput"]
    assert isinstance(fact_input, graphql.GraphQLInputObjectType)
    snake = {re.sub(r"([A-Z])", r"_\1", name).lower() for name in fact_input.fields}
    assert set(FactIn.model_fields) == FACT_FIELDS == snake


@pytest.mark.parametrize(("fact", "wording"), [
    ({"subject": "a", "value": "v" * 200_001}, "fact field 'value' is 200001 characters"),
    ({"subject": "a", "value": "b", "confidence": 7}, "fact field 'confidence' must be between"),
    ({"subject": "a", "value": "b", "scope": "s" * 201}, "fact field 'scope' is 201 characters"),
    ({"subject": "a", "value": "b", "metadata": {"k": "v" * 100_001}}, "metadata"),
    ({"subject": "a", "value": "b", "recorded_at": "2020-01-01T00:00:00+00:00"}, "backfill"),
])
def test_a_bad_fact_is_refused_in_the_same_words_on_both_surfaces(
        api: Api, fact: dict[str, object], wording: str) -> None:
    tenant = new_tenant()
    token = api.key("writer", tenant)
    names = {"recorded_at": "recordedAt"}
    over_graphql = api.gql(token, "mutation($f: [FactInput!]!) { rememberFacts(space: \"u\","
                                  " facts: $f) { message } }",
                           {"f": [{names.get(k, k): v for k, v in fact.items()}]})
    said_graphql = over_graphql["errors"][0]["message"]
    with http(f"{api.base}/mcp", token) as session:
        refused = session.call("remember_facts", {"facts": [fact], "user_id": "u"})
    assert refused.is_error
    assert wording in said_graphql
    assert said_graphql in text_of(refused) or text_of(refused).endswith(said_graphql), (
        said_graphql, text_of(refused))


def test_every_tool_description_is_short_plain_and_has_an_example() -> None:
    problems = []
    for name, rule in TOOLS.items():
        description = " ".join((rule.fn.__doc__ or "").split())
        if not description or len(description) > BUDGET:
            problems.append(f"{name}: {len(description)} characters")
        if JARGON.search(description):
            problems.append(f"{name}: says {JARGON.search(description)[0]!r}")
        code = rule.fn.__code__
        takes = [p for p in code.co_varnames[1:code.co_argcount + code.co_kwonlyargcount]
                 if p not in ("user_id", "agent_id", "run_id")]
        if takes and not EXAMPLE.search(description):
            problems.append(f"{name}: no example of its arguments")
    assert problems == []
