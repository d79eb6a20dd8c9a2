"""A fixed retrieval corpus from a seeded RNG: facts about invented entities, each with two
or three paraphrased questions whose gold fact is known, and knowledge updates.

Entities are invented words (so neither model has seen them), of four kinds with their own
attributes. Questions paraphrase the attribute ("Where does Korvath keep its data?" for
`korvath_primary_database`), so word overlap alone is not enough and meaning alone cannot
tell two entities apart: each ranker has something to contribute.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

FIRST = ["Alice", "Bruno", "Chen", "Dana", "Emeka", "Fatima", "Goran", "Hana", "Ines", "Jonas",
         "Kira", "Luis", "Mei", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tariq",
         "Uma", "Viktor", "Wen", "Yara", "Zoe"]
LAST = ["Moreau", "Okafor", "Silva", "Novak", "Tanaka", "Haddad", "Kowalski", "Lindqvist",
        "Mensah", "Ortega", "Petrov", "Rahman", "Schmidt", "Varga", "Weber", "Yilmaz"]


def _people() -> list[str]:
    return [f"{f} {last}" for f in FIRST for last in LAST]


@dataclass(frozen=True)
class Attribute:
    name: str
    values: tuple[str, ...]
    questions: tuple[str, ...]


def _attr(name: str, values: list[str], *questions: str) -> Attribute:
    return Attribute(name, tuple(values), questions)


PEOPLE = _people()
KINDS: dict[str, tuple[Attribute, ...]] = {
    "service": (
        _attr("owner_team", ["Payments", "Platform", "Search", "Growth", "Identity", "Billing",
                             "Data", "Mobile", "Checkout", "Infra"],
              "Who owns {E}?", "Which team is responsible for {E}?",
              "{E} is maintained by which team?"),
        _attr("primary_database", ["Postgres", "MySQL", "MongoDB", "Cassandra", "DynamoDB",
                                   "CockroachDB", "Oracle", "MariaDB", "SQLite"],
              "Which database does {E} use?", "Where does {E} keep its data?",
              "What datastore sits behind {E}?"),
        _attr("deploy_region", ["eu-west-1", "us-east-1", "us-west-2", "ap-south-1",
                                "eu-central-1", "sa-east-1", "ap-northeast-1"],
              "Which region is {E} deployed in?", "Where is {E} hosted?",
              "In what cloud region does {E} run?"),
        _attr("language", ["Go", "Rust", "Python", "Java", "Kotlin", "TypeScript", "Elixir",
                           "Scala", "C#"],
              "What language is {E} written in?", "Which programming language does {E} use?",
              "{E} is implemented in what language?"),
        _attr("on_call_engineer", PEOPLE,
              "Who is on call for {E}?", "Who should I page when {E} breaks?"),
        _attr("monitoring", ["Datadog", "Prometheus", "Grafana", "New Relic", "Honeycomb",
                             "Dynatrace", "Sentry"],
              "How is {E} monitored?", "Which observability tool watches {E}?",
              "What do we use to monitor {E}?"),
        _attr("ci_provider", ["GitHub Actions", "GitLab CI", "Jenkins", "CircleCI",
                              "Buildkite", "TeamCity"],
              "Which CI builds {E}?", "What runs the build pipeline for {E}?"),
        _attr("message_queue", ["Kafka", "RabbitMQ", "SQS", "NATS", "Pulsar", "Kinesis"],
              "Which message broker does {E} publish to?", "What queue does {E} use for events?"),
    ),
    "customer": (
        _attr("plan", ["Free", "Pro", "Team", "Enterprise", "Starter", "Business"],
              "What plan is {E} on?", "Which subscription tier does {E} have?",
              "What is {E} paying for?"),
        _attr("account_manager", PEOPLE,
              "Who manages the {E} account?", "Who is {E}'s account manager?",
              "Who looks after {E} on our side?"),
        _attr("seats", [str(n) for n in (5, 10, 25, 50, 75, 100, 250, 500, 1000)],
              "How many seats does {E} have?", "How many licenses did {E} buy?",
              "What is the seat count for {E}?"),
        _attr("renewal_month", ["January", "February", "March", "April", "May", "June", "July",
                                "August", "September", "October", "November", "December"],
              "When does {E} renew?", "In which month is {E}'s renewal?",
              "When is {E}'s contract up?"),
        _attr("support_tier", ["Basic", "Standard", "Premium", "Platinum"],
              "What support level does {E} get?", "Which support tier is {E} on?"),
        _attr("industry", ["fintech", "healthcare", "retail", "logistics", "gaming",
                           "education", "insurance", "energy"],
              "What industry is {E} in?", "Which sector does {E} operate in?",
              "What line of business is {E} in?"),
    ),
    "person": (
        _attr("role", ["backend engineer", "designer", "product manager", "SRE",
                       "data scientist", "QA lead", "frontend engineer", "recruiter"],
              "What does {E} do?", "What is {E}'s job?", "What role does {E} have?"),
        _attr("office", ["Berlin", "Lisbon", "Toronto", "Austin", "Singapore", "Nairobi",
                         "Warsaw", "Melbourne"],
              "Where is {E} based?", "Which office does {E} work from?",
              "In which city does {E} work?"),
        _attr("manager", PEOPLE,
              "Who is {E}'s manager?", "Who does {E} report to?"),
        _attr("favourite_food", ["ramen", "tacos", "pho", "falafel", "pierogi", "sushi",
                                 "jollof rice", "paella"],
              "What does {E} like to eat?", "What's {E}'s favourite food?"),
        _attr("timezone", ["CET", "PST", "EST", "IST", "JST", "GMT", "AEST"],
              "What timezone is {E} in?", "Which time zone does {E} keep?"),
    ),
    "project": (
        _attr("lead", PEOPLE,
              "Who leads {E}?", "Who is running the {E} project?", "Who is in charge of {E}?"),
        _attr("deadline", [f"Q{q} {y}" for y in (2026, 2027, 2028) for q in (1, 2, 3, 4)],
              "When is {E} due?", "What is the deadline for {E}?",
              "When does {E} have to ship?"),
        _attr("status", ["on track", "at risk", "blocked", "done", "paused"],
              "How is {E} going?", "What is the status of {E}?", "Is {E} on track?"),
        _attr("tracker", ["Jira", "Linear", "GitHub Issues", "Asana", "Trello"],
              "Where are {E}'s tickets tracked?", "Which issue tracker does {E} use?"),
    ),
}

_ONSETS = ["b", "br", "c", "d", "dr", "f", "g", "gr", "h", "k", "kr", "l", "m", "n", "p", "qu",
           "r", "s", "st", "t", "tr", "v", "z", "zh"]
_VOWELS = ["a", "e", "i", "o", "u", "ai", "ou", "ei"]
_CODAS = ["", "n", "r", "l", "s", "th", "x", "m"]


@dataclass(frozen=True)
class Question:
    text: str
    fact_key: tuple[str, str]  # (subject, scope) of the gold slot


@dataclass
class Corpus:
    facts: list[dict[str, Any]] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    updates: list[dict[str, Any]] = field(default_factory=list)


def _names(rng: random.Random) -> Iterator[str]:
    seen: set[str] = set()
    while True:
        name = "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS)
                       for _ in range(rng.choice((2, 2, 3))))
        if name not in seen and 5 <= len(name) <= 14:
            seen.add(name)
            yield name


def build(size: int, updates: int = 0, seed: int = 7) -> Corpus:
    """`size` facts (whole entities, cut at `size`), their questions, and `updates` changes."""
    rng = random.Random(seed)
    corpus = Corpus()
    names = _names(rng)
    kinds = sorted(KINDS)
    while len(corpus.facts) < size:
        name = next(names)
        kind = rng.choice(kinds)
        display = name.capitalize()
        for attribute in KINDS[kind]:
            if len(corpus.facts) >= size:
                break
            subject = f"{name}_{attribute.name}"
            corpus.facts.append({"subject": subject, "value": rng.choice(attribute.values),
                                 "confidence": 0.95})
            corpus.questions += [Question(q.format(E=display), (subject, "global"))
                                 for q in attribute.questions]
    by_subject = {f["subject"]: f for f in corpus.facts}
    values = {a.name: a.values for attributes in KINDS.values() for a in attributes}
    for fact in rng.sample(corpus.facts, min(updates, len(corpus.facts))):
        attribute = fact["subject"].split("_", 1)[1]  # entity names hold no underscore
        choices = [v for v in values[attribute] if v != fact["value"]]
        new = {**by_subject[fact["subject"]], "value": rng.choice(choices),
               "action": "SUPERSEDE"}
        corpus.updates.append(new)
    return corpus
