"""Other systems' exports: Vayl's `export_memory` (made by the real vayl-mcp package), Mem0's
`get_all()`, and plain CSV / JSON Lines; each import says what it could not map."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from graphmem import GraphMem
from graphmem.errors import InvalidInput

Make = Callable[..., GraphMem]
FIXTURES = Path(__file__).parent / "fixtures"


def by_origin(mem: GraphMem, key: str) -> dict[object, object]:
    facts = [*mem.active(), *mem.review.flagged(),
             *(e.fact for s in {f.subject for f in mem.records.list_memories().retired}
               for e in mem.history(s))]
    found = {}
    for subject in {f.subject for f in facts}:
        for entry in mem.history(subject):
            found[entry.fact.metadata.get(key)] = entry.fact
    return found


def test_the_real_vayl_export_imports_with_every_fact_accounted_for(make_mem: Make) -> None:
    path = FIXTURES / "vayl_export.json"
    exported = json.loads(path.read_text())
    mem = make_mem()
    report = mem.transfer.import_memory(path)
    assert (report.mode, report.format, report.records) == ("replay", "vayl", exported["count"])
    facts = by_origin(mem, "vayl_id")
    for record in exported["records"]:
        fact = facts.get(record["id"])
        assert fact is not None, record
        assert (fact.subject, fact.scope, fact.value, fact.status.value) == (
            record["subject"], record["scope"], record["value"], record["status"]), record
        assert fact.confidence == record["confidence"]
        assert fact.metadata["imported_from"] == f"vayl: vayl record #{record['id']}"
    assert len({f.id for f in facts.values()}) == exported["count"]
    notes = " | ".join(report.unmapped)
    for said in ("times", "sentences", "1 decision", "10 audit entries"):
        assert said in notes, notes
    assert facts[3].source == "alice" and facts[1].source == ""  # from the decision snapshot
    assert mem.transfer.import_memory(path).already


def test_a_mem0_get_all_imports_each_memory_at_its_time(make_mem: Make) -> None:
    path = FIXTURES / "mem0_get_all.json"
    mem = make_mem()
    report = mem.transfer.import_memory(path)
    assert (report.format, report.records, report.written) == ("mem0", 4, {"facts": 4})
    memories = {f.value: f for f in mem.active()}
    paris = memories["Is travelling to Paris in May"]
    assert paris.subject == "mem0_f38b689d"
    assert paris.recorded_at == datetime(2024, 2, 26, 6, 57, 0, 108367, tzinfo=UTC)
    seats = memories["Prefers window seats"]
    assert seats.valid_from == datetime(2024, 3, 1, 17, 0, tzinfo=UTC)
    assert seats.recorded_at == datetime(2024, 7, 26, 6, 57, 0, 108367, tzinfo=UTC)
    assert seats.metadata["mem0_categories"] == ["travel", "preferences"]
    assert memories["paris"].relation == "travels_to"
    notes = " | ".join(report.unmapped)
    assert "agent_id, hash, user_id" in notes and "1 memory changed" in notes, notes
    assert "1 relation: no time in Mem0" in notes, notes


def test_a_jsonl_of_values_imports_and_reports_other_fields(make_mem: Make,
                                                          tmp_path: Path) -> None:
    path = tmp_path / "values.jsonl"
    rows = [{"subject": "plan", "value": "Free", "time": "2024-01-01", "source": "crm"},
            {"subject": "plan", "value": "Pro", "time": "2024-03-01T12:00:00+01:00",
             "scope": "eu", "tier": 2},
            {"subject": "plan", "value": "Team", "time": "2024-02-01", "source": "crm"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    mem = make_mem()
    report = mem.transfer.import_memory(path)
    assert report.format == "jsonl" and report.unmapped == (
        "column 'tier' not imported (1 row of 3 had it)",)
    assert [e.value for e in mem.history("plan", scope="global")] == ["Free", "Team"]
    assert [f.value for f in mem.active("plan")] == ["Team", "Pro"]


def test_another_systems_export_is_redacted_as_it_is_imported(make_mem: Make,
                                                               tmp_path: Path) -> None:
    key = "AKIAIOSFODNN7EXAMPLE"
    path = tmp_path / "values.jsonl"
    rows = [{"subject": "deploy_key", "value": f"CI uses {key}", "time": "2024-01-01"},
            {"subject": "plan", "value": "Pro", "time": "2024-02-01"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    mem = make_mem()
    mem.transfer.import_memory(path)
    assert [f.value for f in mem.active("deploy_key")] == ["CI uses [REDACTED:aws_key]"]
    assert [f.value for f in mem.active("plan")] == ["Pro"]
    assert key not in mem.transfer.export_inline()[0]


def test_a_bad_row_stops_the_import_before_anything_is_written(make_mem: Make,
                                                              tmp_path: Path) -> None:
    path = tmp_path / "values.csv"
    path.write_text("subject,value,time\nplan,Free,2024-01-01\nplan,Pro,next week\n")
    mem = make_mem()
    with pytest.raises(InvalidInput, match="line 3: time 'next week' is not an ISO 8601"):
        mem.transfer.import_memory(path)
    assert mem.active() == []
    with pytest.raises(InvalidInput, match="restore takes a graphmem export"):
        mem.transfer.import_memory(path, mode="restore")
