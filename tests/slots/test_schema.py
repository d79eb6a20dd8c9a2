"""Declared slots: name folding, strict schema validation and the packaged presets."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.errors import ConfigError, GraphMemError
from graphmem.model import SlotSpec
from graphmem.slots import (
    PRESETS,
    SlotSchema,
    fold_key,
    load_slot_schema,
    normalise_subject,
)

# Seed 000's example, verbatim up to line breaks (kept under the line-length limit).
SEED_EXAMPLE = """{"slots": [
  {"name": "allergy", "category": "critical", "multi": true,
   "aliases": ["allergies", "drug_allergy"]},
  {"name": "active_medication", "category": "critical", "multi": true,
   "confirm": true, "verbatim": true}
]}"""

PRESET_DIR = Path(__file__).resolve().parents[2] / "graphmem" / "slots" / "presets"


def seed_schema() -> SlotSchema:
    return load_slot_schema(json.loads(SEED_EXAMPLE))


# ------------------------------------------------------------------------------------------
# normalise_subject
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("state", "state"),
        ("active_medication", "active_medication"),
        ("Active Medication", "active_medication"),
        ("active-medication", "active_medication"),
        ("activeMedication", "active_medication"),
        ("ActiveMedication", "active_medication"),
        ("  primary   database  ", "primary_database"),
        ("primary.database", "primary_database"),
        ("ci/cd", "ci_cd"),
        ("__state__", "state"),
        ("a--b__c..d", "a_b_c_d"),
        ("HTTPServer", "http_server"),
        ("APIs", "apis"),
        ("userAPIsConfig", "user_apis_config"),
        ("ec2Instance", "ec2_instance"),
        ("PRIMARY_DATABASE", "primary_database"),
        ("Python 3.11", "python_3_11"),
        ("state\tmanagement\n", "state_management"),
    ],
)
def test_normalise_subject_examples(raw: str, expected: str) -> None:
    assert normalise_subject(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("x}) DETACH DELETE n //", "x_detach_delete_n"),
        ("plan' OR 1=1 --", "plan_or_1_1"),
        ('state"; DROP TABLE facts; --', "state_drop_table_facts"),
        ("back\\slash\\\\path", "back_slash_path"),
        ("`db` MATCH (n) RETURN n", "db_match_n_return_n"),
        ("{$param}", "param"),
        ("zero\u200bwidth", "zero_width"),
        ("nul\x00byte", "nul_byte"),
        ("emoji 🔥 slot", "emoji_slot"),
    ],
)
def test_normalise_subject_neutralises_hostile_strings(raw: str, expected: str) -> None:
    result = normalise_subject(raw)
    assert result == expected
    assert all(ch.isalnum() or ch == "_" for ch in result)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Blutgruppe", "blutgruppe"),
        ("Größe", "grösse"),  # casefold: ß -> ss
        ("café au lait", "café_au_lait"),
        ("cafe\u0301", "café"),  # NFD input composes to the same subject as NFC
        ("Ｆｕｌｌ Ｗｉｄｔｈ", "full_width"),  # NFKC folds full-width letters
        ("Аллергия", "аллергия"),
        ("血液型", "血液型"),
        ("ΔΙΑΓΝΩΣΗ", "διαγνωση"),
        ("ÉcoleNormale", "école_normale"),
    ],
)
def test_normalise_subject_keeps_unicode_letters(raw: str, expected: str) -> None:
    assert normalise_subject(raw) == expected


@pytest.mark.parametrize(
    "raw",
    ["", "   ", "---", "___", "!!!", "''", "\\\\", "🔥🔥", "\u200b", "/* */"],
)
def test_normalise_subject_rejects_empty_result(raw: str) -> None:
    with pytest.raises(ValueError, match="no letters or digits"):
        normalise_subject(raw)


def test_normalise_subject_rejects_long_subjects() -> None:
    assert len(normalise_subject("a" * 200)) == 200
    with pytest.raises(ValueError, match="at most 200"):
        normalise_subject("a" * 201)
    with pytest.raises(ValueError, match="at most 200"):
        normalise_subject("ab " * 100)  # 299 chars raw, 299 normalised


def test_normalise_subject_rejects_100kb_string_quickly_and_briefly() -> None:
    huge = "x}) DETACH DELETE n // " * 5000
    assert len(huge) > 100_000
    with pytest.raises(ValueError) as info:
        normalise_subject(huge)
    assert len(str(info.value)) < 300  # the message never echoes the whole input


@pytest.mark.parametrize("bad", [None, 42, b"bytes", ["state"]])
def test_normalise_subject_rejects_non_strings(bad: Any) -> None:
    with pytest.raises(ValueError, match="must be a string"):
        normalise_subject(bad)


@given(st.text(max_size=80))
def test_normalise_subject_is_idempotent_and_agrees_with_fold_key(text: str) -> None:
    try:
        once = normalise_subject(text)
    except ValueError:
        return
    assert normalise_subject(once) == once
    assert fold_key(once) == fold_key(text)
    assert all(ch == "_" or unicodedata.category(ch)[0] in "LNM" for ch in once)
    assert not once.startswith("_") and not once.endswith("_") and "__" not in once


# ------------------------------------------------------------------------------------------
# fold_key and resolve
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spelling",
    [
        "drug_allergy",
        "Drug-Allergy",
        "drug allergy",
        "DRUG_ALLERGY",
        "drugAllergy",
        " drug--allergy ",
    ],
)
def test_fold_key_is_spelling_tolerant(spelling: str) -> None:
    assert fold_key(spelling) == "drugallergy"


@pytest.mark.parametrize(
    "spelling",
    [
        "allergy",
        "Allergy",
        "ALLERGIES",
        "allergies",
        "Drug-Allergy",
        "drug allergy",
        "DRUG_ALLERGY",
    ],
)
def test_resolve_folds_aliases_onto_the_declared_slot(spelling: str) -> None:
    schema = seed_schema()
    spec = schema.resolve(spelling)
    assert spec is not None and spec.name == "allergy"
    assert schema.canonical(spelling) == "allergy"
    assert spelling in schema


def test_resolve_is_not_semantic() -> None:
    schema = seed_schema()
    assert schema.resolve("food_allergy") is None  # spelling only, never meaning
    assert schema.resolve("medication") is None
    assert schema.resolve("") is None
    assert schema.resolve("---") is None
    assert schema.resolve("x" * 100_000) is None


def test_canonical_normalises_undeclared_subjects() -> None:
    schema = seed_schema()
    assert schema.canonical("Primary Database") == "primary_database"
    assert schema.canonical("Active-Medication") == "active_medication"
    with pytest.raises(ValueError):
        schema.canonical("!!!")


def test_empty_schema() -> None:
    for spec in (None, "", "   "):
        schema = load_slot_schema(spec)
        assert len(schema) == 0
        assert schema.resolve("allergy") is None
        assert schema.canonical("Drug Allergy") == "drug_allergy"
        assert schema.to_dict() == {"slots": []}


# ------------------------------------------------------------------------------------------
# Loading
# ------------------------------------------------------------------------------------------


def test_seed_example_loads_as_written() -> None:
    schema = seed_schema()
    assert len(schema) == 2
    allergy, medication = schema.slots
    assert allergy == SlotSpec(
        name="allergy",
        aliases=("allergies", "drug_allergy"),
        category="critical",
        multi=True,
    )
    assert medication == SlotSpec(
        name="active_medication",
        category="critical",
        multi=True,
        confirm=True,
        verbatim=True,
    )


def test_load_from_file_path(tmp_path: Path) -> None:
    path = tmp_path / "slots.json"
    path.write_text(SEED_EXAMPLE, encoding="utf-8")
    from_str = load_slot_schema(str(path))
    from_path = load_slot_schema(path)
    assert from_str == from_path == seed_schema()


def test_load_from_file_with_bom(tmp_path: Path) -> None:
    path = tmp_path / "slots.json"
    path.write_bytes(b"\xef\xbb\xbf" + SEED_EXAMPLE.encode())
    assert load_slot_schema(path) == seed_schema()


def test_load_passes_a_schema_through() -> None:
    schema = seed_schema()
    assert load_slot_schema(schema) is schema


def test_to_dict_round_trips() -> None:
    schema = load_slot_schema("preset:clinical")
    again = load_slot_schema(json.loads(json.dumps(schema.to_dict())))
    assert again == schema


def test_schema_is_hashable_and_immutable() -> None:
    schema = seed_schema()
    assert hash(schema) == hash(seed_schema())
    with pytest.raises(AttributeError):
        schema.slots = ()  # type: ignore[misc]


def test_direct_construction_validates() -> None:
    with pytest.raises(ConfigError, match="collides"):
        SlotSchema((SlotSpec("cache"), SlotSpec("caching", aliases=("Cache",))))
    with pytest.raises(ConfigError, match="snake_case"):
        SlotSchema((SlotSpec("Blood Type"),))
    assert len(SlotSchema([SlotSpec("cache")])) == 1  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------
# Presets
# ------------------------------------------------------------------------------------------


def test_preset_files_match_the_declared_list() -> None:
    assert sorted(p.stem for p in PRESET_DIR.glob("*.json")) == sorted(PRESETS)


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_loads_and_validates(name: str) -> None:
    schema = load_slot_schema(f"preset:{name}")
    assert 6 <= len(schema) <= 12
    for spec in schema:
        assert spec.description.strip(), f"{name}.{spec.name} needs a description"
        assert spec.description.rstrip().endswith((".", ")")), spec.description
        assert spec.category
        assert normalise_subject(spec.name) == spec.name
        assert schema.resolve(spec.name) is spec
        for alias in spec.aliases:
            assert schema.resolve(alias) is spec
    # the raw file passes the same strict loader when read by path
    assert load_slot_schema(PRESET_DIR / f"{name}.json") == schema


def test_preset_name_is_case_insensitive() -> None:
    assert load_slot_schema("preset:Coding") == load_slot_schema("preset:coding")
    assert load_slot_schema(" PRESET: coding ") == load_slot_schema("preset:coding")


def test_clinical_preset_marks_safety_critical_slots() -> None:
    schema = load_slot_schema("preset:clinical")
    allergy = schema.get("Drug-Allergy")
    assert allergy.name == "allergy" and allergy.multi and allergy.category == "critical"
    meds = schema.get("active_medication")
    assert meds.multi and meds.confirm and meds.verbatim and meds.category == "critical"
    assert schema.get("blood_type").category == "critical"
    code = schema.get("code status")
    assert code.category == "critical" and code.confirm
    assert schema.canonical("Conditions") == "diagnosis"


def test_coding_preset_aliases() -> None:
    schema = load_slot_schema("preset:coding")
    assert schema.canonical("state") == "state_management"
    assert schema.canonical("State Library") == "state_management"
    assert schema.canonical("DB") == "primary_database"
    assert schema.canonical("database") == "primary_database"
    for name in ("cache", "monitoring", "language", "framework", "ci", "hosting"):
        assert name in schema
    assert schema.canonical("package-manager") == "package_manager"
    assert schema.canonical("testFramework") == "test_framework"


def test_other_presets_cover_their_domain() -> None:
    finance = load_slot_schema("preset:finance")
    assert finance.get("payment method").confirm
    credit = finance.get("credit_limit")
    assert credit.confirm and credit.verbatim
    assert finance.canonical("billing") == "billing_cycle"
    sales = load_slot_schema("preset:sales")
    assert sales.get("competitors").multi
    assert {"deal_stage", "budget", "decision_maker", "next_step", "close_date"} <= set(sales.names)
    support = load_slot_schema("preset:support")
    assert support.canonical("tier") == "plan"
    assert support.get("open tickets").multi
    assistant = load_slot_schema("preset:assistant")
    assert assistant.get("dietary restrictions").multi
    assert assistant.get("time zone").name == "timezone"


# ------------------------------------------------------------------------------------------
# Validation errors
# ------------------------------------------------------------------------------------------


def slot(**fields: Any) -> dict[str, Any]:
    return {"slots": [{"name": "allergy", **fields}]}


@pytest.mark.parametrize(
    ("spec", "match"),
    [
        ({}, "missing 'slots'"),
        ({"slots": {}}, "'slots' must be a list"),
        ({"slots": "allergy"}, "'slots' must be a list"),
        ({"slots": [], "version": 2}, "unknown field 'version'"),
        ({"Slots": []}, "did you mean 'slots'"),
        ({"slots": ["allergy"]}, "each slot must be an object"),
        ({"slots": [{}]}, "missing 'name'"),
        ({"slots": [{"aliases": ["x"]}]}, "missing 'name'"),
        ({"slots": [{"name": ""}]}, "'name' must be a non-empty string"),
        ({"slots": [{"name": 7}]}, "'name' must be a non-empty string"),
        ({"slots": [{"name": "Blood Type"}]}, "write it as 'blood_type'"),
        ({"slots": [{"name": "!!!"}]}, "'name' is invalid"),
        ({"slots": [{"name": "a" * 201}]}, "'name' is invalid"),
        (slot(mutli=True), "unknown field 'mutli': did you mean 'multi'"),
        (slot(aliases="allergies"), "'aliases' must be a list of strings"),
        (slot(aliases=["allergies", 3]), "'aliases' must be a list of strings"),
        (slot(aliases=["---"]), "alias '---' must contain letters or digits"),
        (slot(aliases=["a" * 201]), "at most 200"),
        (slot(description=5), "'description' must be a string"),
        (slot(description="x" * 1001), "one sentence"),
        (slot(category=1), "'category' must be a string"),
        (slot(category=""), "'category' must be 1-64"),
        (slot(category="safety critical!"), "'category' must be 1-64"),
        (slot(multi="yes"), "'multi' must be true or false"),
        (slot(confirm=1), "'confirm' must be true or false"),
        (slot(verbatim=0), "'verbatim' must be true or false"),
        (
            {"slots": [{"name": "allergy"}, {"name": "allergy"}]},
            "name 'allergy' collides with 'allergy' of slot 'allergy'",
        ),
        (
            {"slots": [{"name": "allergy"}, {"name": "reaction", "aliases": ["Allergy"]}]},
            "alias 'Allergy' collides",
        ),
        (
            {
                "slots": [
                    {"name": "allergy", "aliases": ["drug_allergy"]},
                    {"name": "intolerance", "aliases": ["Drug-Allergy"]},
                ]
            },
            "both fold to 'drugallergy'",
        ),
        (
            {"slots": [{"name": "primary_database"}, {"name": "primary_data_base"}]},
            "collides",
        ),
    ],
)
def test_validation_errors(spec: dict[str, Any], match: str) -> None:
    with pytest.raises(ConfigError, match=match) as info:
        load_slot_schema(spec)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, GraphMemError)


def test_null_optional_fields_mean_default() -> None:
    schema = load_slot_schema(
        slot(aliases=None, description=None, category=None, multi=None, confirm=None)
    )
    assert schema.slots[0] == SlotSpec("allergy")


def test_repeated_alias_within_one_slot_is_harmless() -> None:
    schema = load_slot_schema(slot(aliases=["allergies", "allergies", "ALLERGY"]))
    assert schema.slots[0].aliases == ("allergies", "ALLERGY")


def test_category_is_stored_lowercase() -> None:
    assert load_slot_schema(slot(category="Critical")).slots[0].category == "critical"


def test_unknown_preset_lists_the_valid_ones() -> None:
    with pytest.raises(ConfigError) as info:
        load_slot_schema("preset:legal")
    message = str(info.value)
    assert "'legal'" in message
    for name in PRESETS:
        assert f"preset:{name}" in message


@pytest.mark.parametrize("bad", [42, 1.5, ["slots"], b"preset:coding"])
def test_wrong_spec_type(bad: Any) -> None:
    with pytest.raises(ConfigError, match="must be a dict, a JSON file path or preset:NAME"):
        load_slot_schema(bad)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file") as info:
        load_slot_schema(tmp_path / "nope.json")
    assert "preset:coding" in str(info.value)


def test_bare_preset_name_hints_at_the_prefix() -> None:
    with pytest.raises(ConfigError, match="did you mean preset:coding"):
        load_slot_schema("coding")


def test_directory_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a directory"):
        load_slot_schema(tmp_path)


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "slots.json"
    path.write_text(SEED_EXAMPLE, encoding="utf-8")

    def denied(self: Path, *args: Any, **kwargs: Any) -> str:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_text", denied)
    with pytest.raises(ConfigError, match="permission denied"):
        load_slot_schema(path)


def test_other_os_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "slots.json"
    path.write_text(SEED_EXAMPLE, encoding="utf-8")

    def broken(self: Path, *args: Any, **kwargs: Any) -> str:
        raise OSError(5, "Input/output error", str(self))

    monkeypatch.setattr(Path, "read_text", broken)
    with pytest.raises(ConfigError, match="cannot be read \\(Input/output error\\)"):
        load_slot_schema(path)


def test_oversized_file(tmp_path: Path) -> None:
    path = tmp_path / "slots.json"
    path.write_text(" " * 1_000_001 + SEED_EXAMPLE)
    with pytest.raises(ConfigError, match="too large"):
        load_slot_schema(path)


@pytest.mark.parametrize(
    ("content", "match"),
    [
        (b'{"slots": [', "not valid JSON \\(line 1"),
        (b"", "not valid JSON"),
        (b"{'slots': []}", "not valid JSON"),
        (b'{"slots": [{"name": "a", "name": "b"}]}', "duplicate key 'name'"),
        (b'[{"name": "allergy"}]', "top level must be an object"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b'{"slots": [{"name": "allergy", "multi": "true"}]}', "'multi' must be true or false"),
    ],
)
def test_bad_file_content(tmp_path: Path, content: bytes, match: str) -> None:
    path = tmp_path / "slots.json"
    path.write_bytes(content)
    with pytest.raises(ConfigError, match=match) as info:
        load_slot_schema(path)
    message = str(info.value)
    assert str(path) in message and "\n" not in message


def test_file_errors_name_the_slot(tmp_path: Path) -> None:
    path = tmp_path / "slots.json"
    path.write_text(json.dumps({"slots": [{"name": "allergy"}, {"name": "x", "multi": 2}]}))
    with pytest.raises(ConfigError, match=r"slots\[1\] \('x'\): 'multi'"):
        load_slot_schema(path)


@pytest.mark.parametrize(
    ("spec", "match"),
    [
        (slot(name="Blood Type", multi="yes"), "'multi' must be true or false"),
        (slot(name="Blood Type", aliases=["---"], mutli=True), "unknown field 'mutli'"),
        (slot(category="bad cat", description=5), "'description' must be a string"),
        (slot(aliases=["---"], category="bad cat"), "alias '---'"),
        ({"slots": [{"name": "Blood Type"}, {"name": 7}]}, r"slots\[0\].*write it as"),
        ({"slots": [{"name": "x", "multi": 1}], "version": 2}, "unknown field 'version'"),
    ],
)
def test_the_first_problem_is_the_one_a_person_mends_first(
    spec: dict[str, Any], match: str
) -> None:
    """Unknown fields, then missing ones, then types, then values; slot by slot, in order."""
    with pytest.raises(ConfigError, match=match):
        load_slot_schema(spec)


def test_direct_construction_follows_the_document_rules() -> None:
    with pytest.raises(ConfigError, match=r"slots\[0\] \('x'\): 'multi' must be true or false"):
        SlotSchema((SlotSpec("x", multi=None),))  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="expected a SlotSpec, got str"):
        SlotSchema(("allergy",))  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="'category' must be 1-64"):
        SlotSchema((SlotSpec("x", category="bad cat"),))
    spec = SlotSpec("x", category="Critical")
    assert SlotSchema((spec,)).resolve("x") is spec, "a valid spec is kept as given"
