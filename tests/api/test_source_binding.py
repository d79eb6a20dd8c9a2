"""A source is bound to principals: through the real server with real keys, a writer that
claims a source it is not bound to is recorded as claimed, ranks 0, is never trusted and
never overwrites a curated fact; a key created with `--source`, or a tenant's mapping, binds
it; trusted and curated sources are per tenant."""

from __future__ import annotations

from typing import Any

from graphmem.auth.sources import SourceBook

from support.api_support import Api, new_tenant

REMEMBER = ("mutation($s: String!, $f: [FactInput!]!, $src: String!) {"
            " rememberFacts(space: $s, facts: $f, source: $src) { action message } }")
FACTS = ("query($s: String!, $subject: String, $status: Status!) {"
         " facts(space: $s, subject: $subject, status: $status)"
         " { edges { node { value source status } } } }")
POLICY = ("mutation($s: String!, $mode: PolicyMode!, $a: [SourceRankInput!], $c: [String!]) {"
          " setReconcilePolicy(space: $s, mode: $mode, authority: $a, curated: $c)"
          " { message } }")
PENDING = ("query($s: String!) { pendingChanges(space: $s) { edges { node { value source } } }"
           " }")


def key(api: Api, tenant: str, role: str, name: str, source: str | None = None) -> str:
    return api.keys.create(tenant, role, None, name, source).token


def say(api: Api, token: str, space: str, subject: str, value: str, source: str = "",
        **extra: Any) -> dict[str, Any]:
    facts = [{"subject": subject, "value": value, "confidence": 0.9, **extra}]
    found: dict[str, Any] = api.ok(token, REMEMBER, {"s": space, "f": facts,
                                                     "src": source})["rememberFacts"][0]
    return found


def facts(api: Api, token: str, space: str, subject: str, status: str = "ACTIVE"
          ) -> list[tuple[str, str]]:
    edges = api.ok(token, FACTS, {"s": space, "subject": subject,
                                  "status": status})["facts"]["edges"]
    return [(e["node"]["value"], e["node"]["source"]) for e in edges]


def test_a_claimed_source_never_overwrites_a_curated_fact(api: Api) -> None:
    tenant = new_tenant()
    admin = key(api, tenant, "admin", "ops")
    crm = key(api, tenant, "writer", "crm-sync", source="crm")
    mallory = key(api, tenant, "writer", "mallory")
    api.ok(admin, POLICY, {"s": "acct", "mode": "RECENCY", "a": None, "c": ["crm"]})
    assert say(api, crm, "acct", "plan", "Enterprise", "crm")["action"] == "ADD"
    forged = say(api, mallory, "acct", "plan", "Free", "crm")
    assert forged["action"] == "FLAG", "the claim does not make it crm"
    assert facts(api, admin, "acct", "plan") == [("Enterprise", "crm")]
    flagged = facts(api, admin, "acct", "plan", "FLAGGED_CONFLICT")
    assert flagged == [("Free", "claimed:crm")], "recorded as claimed"
    assert say(api, crm, "acct", "plan", "Pro", "crm")["action"] == "SUPERSEDE", (
        "the bound key corrects its own fact")


def test_a_key_created_with_a_source_speaks_as_it_by_default(api: Api) -> None:
    tenant = new_tenant()
    crm = key(api, tenant, "writer", "crm-sync", source="crm")
    say(api, crm, "acct", "owner", "Ann")
    assert facts(api, crm, "acct", "owner") == [("Ann", "crm")]


def test_a_claimed_source_ranks_zero_under_authority(api: Api) -> None:
    tenant = new_tenant()
    admin = key(api, tenant, "admin", "ops")
    bot = key(api, tenant, "writer", "bot-1", source="bot")
    mallory = key(api, tenant, "writer", "mallory")
    api.ok(admin, POLICY, {"s": "acct", "mode": "AUTHORITY", "c": None,
                           "a": [{"source": "crm", "rank": 2}, {"source": "bot", "rank": 1}]})
    say(api, bot, "acct", "plan", "Pro", "bot")
    assert say(api, mallory, "acct", "plan", "Free", "crm")["action"] == "FLAG", (
        "claimed:crm ranks 0, below bot's 1")
    assert facts(api, admin, "acct", "plan") == [("Pro", "bot")]
    refused = api.gql(admin, POLICY, {"s": "acct", "mode": "AUTHORITY", "c": None,
                                      "a": [{"source": "claimed:crm", "rank": 9}]})
    assert "is a claim, not a source" in refused["errors"][0]["message"]


def test_review_flags_a_claim_on_another_source_s_fact(api: Api) -> None:
    tenant = new_tenant()
    admin = key(api, tenant, "admin", "ops")
    crm = key(api, tenant, "writer", "crm-sync", source="crm")
    mallory = key(api, tenant, "writer", "mallory")
    api.ok(admin, POLICY, {"s": "acct", "mode": "REVIEW", "a": None, "c": None})
    say(api, crm, "acct", "owner", "Ann", "crm")
    assert say(api, mallory, "acct", "owner", "Mallory", "crm")["action"] == "FLAG", (
        "not a self-correction: a cross-source change, which REVIEW flags")
    assert facts(api, admin, "acct", "owner") == [("Ann", "crm")]


def test_a_tenant_mapping_binds_sources_and_lists_trusted_and_curated_ones(api: Api) -> None:
    book = SourceBook.open(api.keys.store, api.settings)
    ours, theirs = new_tenant(), new_tenant()
    ehr = key(api, ours, "writer", "ehr-sync")
    other = key(api, theirs, "writer", "ehr-sync")
    book.set(ours, "fhir", ("ehr-sync",), trusted=True, curated=True)
    schema_space = "pat"
    assert say(api, ehr, schema_space, "allergy", "penicillin", "fhir")["action"] == "ADD"
    assert facts(api, ehr, schema_space, "allergy") == [("penicillin", "fhir")], (
        "bound by the mapping")
    assert say(api, other, schema_space, "allergy", "none", "fhir")["action"] == "ADD"
    assert facts(api, other, schema_space, "allergy") == [("none", "claimed:fhir")], (
        "the same principal name in another tenant is not bound: the mapping is per tenant")
    mallory = key(api, ours, "writer", "mallory")
    assert say(api, mallory, schema_space, "allergy", "none", "fhir")["action"] == "FLAG", (
        "fhir is curated in this tenant")
    book.remove(ours, "fhir")
    assert say(api, ehr, schema_space, "diet", "vegan", "fhir")["action"] == "ADD"
    assert ("vegan", "claimed:fhir") in facts(api, ehr, schema_space, "diet"), (
        "unbound once the mapping is gone (the server saw the change at once)")


def test_a_trusted_source_skips_the_confirm_gate_only_where_trusted_and_bound(
        serve_api: Any) -> None:
    api: Api = serve_api(slot_schema="preset:clinical")
    book = SourceBook.open(api.keys.store, api.settings)
    ours, theirs = new_tenant(), new_tenant()
    book.set(ours, "fhir", ("ehr-sync",), trusted=True)
    book.set(theirs, "fhir", ("ehr-sync",))  # bound there, but not trusted
    for tenant, gated in ((ours, False), (theirs, True)):
        ehr = key(api, tenant, "writer", "ehr-sync")
        say(api, ehr, "pat", "active_medication", "Warfarin 5mg", "fhir")
        out = say(api, ehr, "pat", "active_medication", "Warfarin 7.5mg", "fhir",
                  action="SUPERSEDE")
        assert out["action"] == ("FLAG" if gated else "SUPERSEDE"), tenant
    mallory = key(api, ours, "writer", "mallory")
    out = say(api, mallory, "pat", "active_medication", "Warfarin 10mg", "fhir",
              action="SUPERSEDE")
    assert out["action"] == "FLAG", "a claim of a trusted source is not trusted"
    pending = api.ok(mallory, PENDING, {"s": "pat"})["pendingChanges"]["edges"]
    assert ("Warfarin 10mg", "claimed:fhir") in [(e["node"]["value"], e["node"]["source"])
                                                 for e in pending]
