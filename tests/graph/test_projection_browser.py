"""What Neo4j Browser shows: status labels on facts, the style file, the ready-to-paste queries."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.graph.statements import parameters, query

BROWSER = Path(__file__).resolve().parents[2] / "cypher" / "browser"
LABELS = {"ACTIVE": "Active", "FLAGGED_CONFLICT": "Flagged", "SUPERSEDED": "Superseded",
          "HISTORICAL": "Historical"}


def rel(head: str, relation: str, tail: str, **kw: Any) -> dict[str, Any]:
    return {"head": head, "relation": relation, "tail": tail, "confidence": 0.9, **kw}


@pytest.fixture
def shown(mem: GraphMem) -> GraphMem:
    mem.remember_facts([rel("Alice", "role", "COO", head_type="person", tail_type="role"),
                        rel("Billing", "calls", "Auth", head_type="service",
                            cardinality="many"),
                        rel("Auth", "owned by", "Alice", tail_type="person")])
    mem.remember_facts([rel("Alice", "role", "CEO", head_type="person", tail_type="role")])
    mem.remember_facts([rel("Alice", "role", "CTO", head_type="person", tail_type="role",
                            confidence=0.5)], source="rumour")
    mem.forget(facts=[rel("Billing", "calls", "Auth")])
    return mem


def browse(mem: GraphMem, statement: str, **params: Any) -> list[dict[str, Any]]:
    assert parameters(statement) == {"space", *params}
    return mem.runtime.graph.read(statement, space=mem.space.key, **params)


def test_every_fact_carries_the_label_of_its_status(shown: GraphMem) -> None:
    with shown.runtime.graph.session() as session:
        rows = session.run("MATCH (f:Fact {space: $space}) RETURN f.status AS status,"
                           " labels(f) AS labels", {"space": shown.space.key}).data()
    assert len(rows) == 6
    for row in rows:
        assert sorted(row["labels"]) == sorted(["Fact", LABELS[row["status"]]])
    assert {r["status"] for r in rows} == set(LABELS)


def test_a_fact_retired_by_the_write_that_created_it_carries_its_final_label(
        mem: GraphMem) -> None:
    """A new fact is labelled as it is created; a later decision of the same write that
    supersedes it relabels it."""
    mem.remember_facts([{"subject": "primary database", "value": "Postgres 14",
                         "confidence": 0.9},
                        {"subject": "primary database", "value": "Postgres 16",
                         "action": "SUPERSEDE", "confidence": 0.9}])
    with mem.runtime.graph.session() as session:
        rows = session.run("MATCH (f:Fact {space: $space}) RETURN f.value AS value,"
                           " f.status AS status, labels(f) AS labels",
                           {"space": mem.space.key}).data()
    found = {r["value"]: (r["status"], sorted(r["labels"])) for r in rows}
    assert found == {"Postgres 14": ("SUPERSEDED", ["Fact", "Superseded"]),
                     "Postgres 16": ("ACTIVE", ["Active", "Fact"])}


def test_style_file_colours_each_status_and_kind() -> None:
    style = (BROWSER / "style.grass").read_text(encoding="utf-8")
    for label in (*LABELS.values(), "Fact", "Entity", "Conflict"):
        block = re.search(rf"node\.{label} \{{([^}}]*)\}}", style)
        assert block and "color:" in block.group(1), label
    colours = {re.search(rf"node\.{label} \{{\s*color: (#[0-9A-F]{{6}})", style).group(1)
               for label in LABELS.values()}  # type: ignore[union-attr]
    assert len(colours) == len(LABELS), "each status has its own colour"
    assert style.index("node.Fact") < min(style.index(f"node.{s}") for s in LABELS.values())


def test_current_graph_shows_only_active_facts(shown: GraphMem) -> None:
    rows = browse(shown, "browser/current_graph")
    assert {r["f"]["status"] for r in rows} == {"ACTIVE"}
    assert {r["f"]["value"] for r in rows} == {"CEO", "Alice"}
    assert {r["e"]["name"] for r in rows} == {"Alice", "CEO", "Auth"}


def test_subject_timeline_shows_every_version_and_its_chain(shown: GraphMem) -> None:
    rows = browse(shown, "browser/subject_timeline", subject="alice_role")
    assert [r["f"]["value"] for r in rows] == ["COO", "CEO", "CTO"]
    assert [r["older"]["value"] if r["older"] else None for r in rows] == [None, "COO", None]


def test_open_conflicts_show_their_facts(shown: GraphMem) -> None:
    rows = browse(shown, "browser/open_conflicts")
    assert {r["f"]["value"] for r in rows} == {"CEO", "CTO"}
    assert {r["c"]["status"] for r in rows} == {"open"}


def test_neighbourhood_walks_three_live_hops(shown: GraphMem) -> None:
    rows = browse(shown, "browser/neighbourhood", name="  billing ")
    assert rows == [], "Billing's only edge was retracted"
    rows = browse(shown, "browser/neighbourhood", name="Auth")
    ends = sorted(r["path"][-1]["name"] for r in rows)
    assert ends == ["Alice", "CEO"]


def test_browser_queries_are_the_files_a_person_pastes() -> None:
    for path in BROWSER.glob("*.cypher"):
        text = path.read_text(encoding="utf-8")
        assert query(f"browser/{path.stem}") == text
        assert ":param space =>" in text, f"{path.name} says how to set its parameters"
