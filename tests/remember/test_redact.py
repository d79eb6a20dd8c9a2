"""Redaction without a database: the corpus figures (recall on the secret kinds, false
positives on the project's own text), the modes, typed placeholders, an organisation's own
patterns, and which mode a space gets."""

from __future__ import annotations

from collections import Counter

import pytest

from graphmem.model.requests import Write
from graphmem.remember.redact import Policy, RedactionMode, Redactor

from support.redaction_corpus import PERSONAL, Positive, negatives, positives

POSITIVES = positives()
NEGATIVES = negatives()


def survives(redactor: Redactor, p: Positive) -> bool:
    """Whether any 8 characters of the value (or all of a shorter one) are still there."""
    out = redactor.text(p.text)[0]
    v = p.value
    return v in out or any(v[i:i + 8] in out for i in range(max(1, len(v) - 7)))


def test_the_corpus_is_as_large_as_promised() -> None:
    kinds = Counter(p.kind for p in POSITIVES)
    assert len(POSITIVES) >= 200 and len(NEGATIVES) == 1000
    assert {"aws_key", "github_token", "private_key", "password", "card_number", "iban",
            "jwt", "token", "email", "phone"} <= set(kinds)


@pytest.mark.parametrize("mode", ["secrets", "personal"])
def test_recall_on_the_secret_kinds_and_false_positives(mode: str) -> None:
    redactor = Redactor.of(mode)
    secret = [p for p in POSITIVES if p.kind not in PERSONAL]
    missed = [p for p in secret if survives(redactor, p)]
    recall = 1 - len(missed) / len(secret)
    flagged = [t for t in NEGATIVES if redactor.text(t)[0] != t]
    false_positives = len(flagged) / len(NEGATIVES)
    print(f"\n{mode}: secret recall {recall:.3f} over {len(secret)}, false positives"
          f" {false_positives:.3%} over {len(NEGATIVES)}")
    assert recall >= 0.99, [(p.kind, p.text) for p in missed]
    assert false_positives <= 0.01, flagged
    if mode == "personal":
        personal = [p for p in POSITIVES if p.kind in PERSONAL]
        assert [p for p in personal if survives(redactor, p)] == []


def test_secrets_mode_keeps_personal_data_and_off_keeps_everything() -> None:
    text = "mail ada@example.com, call +1 650 253 0000, key AKIAIOSFODNN7EXAMPLE"
    assert Redactor.of("off").text(text) == (text, Counter())
    out, kinds = Redactor.of("secrets").text(text)
    assert out == "mail ada@example.com, call +1 650 253 0000, key [REDACTED:aws_key]"
    assert kinds == Counter({"aws_key": 1})
    out, kinds = Redactor.of("personal").text(text)
    assert out == "mail [REDACTED:email], call [REDACTED:phone], key [REDACTED:aws_key]"


def test_a_connection_string_loses_only_its_password() -> None:
    out, _ = Redactor.of("personal").text("db at postgres://app:Zq9xLp2vTn@db.example.com/app")
    assert out == "db at postgres://app:[REDACTED:password]@db.example.com/app"


def test_a_card_number_must_pass_luhn() -> None:
    out, kinds = Redactor.of("secrets").text("cards 4111 1111 1111 1111 and 4111 1111 1111 1112")
    assert out == "cards [REDACTED:card_number] and 4111 1111 1111 1112"
    assert kinds == Counter({"card_number": 1})


def test_an_iban_must_pass_its_check_digits() -> None:
    out, _ = Redactor.of("secrets").text("pay GB82 WEST 1234 5698 7654 32, not GB83 WEST 1234"
                                         " 5698 7654 32")
    assert out == "pay [REDACTED:iban], not GB83 WEST 1234 5698 7654 32"


def test_an_organisations_own_patterns_are_redacted_by_kind() -> None:
    redactor = Redactor.of("secrets", {"employee_id": r"\bEMP-\d{6}\b"})
    out, _ = redactor.text("badge EMP-004211 at gate 3")
    assert out == "badge [REDACTED:employee_id] at gate 3"


def test_redacting_twice_changes_nothing_more() -> None:
    once, _ = Redactor.of("personal").text(POSITIVES[0].text + " " + POSITIVES[-1].text)
    assert Redactor.of("personal").text(once) == (once, Counter())


def test_a_write_is_redacted_in_its_text_values_raw_and_metadata_but_not_its_subjects() -> None:
    write = Write(facts=({"subject": "deploy_key", "value": "AKIAIOSFODNN7EXAMPLE",
                          "raw": "key AKIAIOSFODNN7EXAMPLE", "metadata": {"note": "pw=x"},
                          "confidence": 0.9},),
                  text="the key is AKIAIOSFODNN7EXAMPLE", source_ref="ticket AKIAIOSFODNN7EXAMPLE")
    clean, kinds = Redactor.of("secrets").write(write)
    assert clean.facts is not None
    fact = dict(clean.facts[0])
    assert fact["subject"] == "deploy_key" and fact["confidence"] == 0.9
    assert fact["value"] == "[REDACTED:aws_key]" and "AKIA" not in fact["raw"]
    assert "AKIA" not in clean.text and "AKIA" not in clean.source_ref
    assert kinds["aws_key"] == 4


def test_which_mode_a_space_gets() -> None:
    policy = Policy(RedactionMode.SECRETS, {"acme": "personal", "acme/ops/a/r": "off"})
    assert policy.mode_for("other/u/a/r") == RedactionMode.SECRETS
    assert policy.mode_for("acme/u/a/r") == RedactionMode.PERSONAL
    assert policy.mode_for("acme/ops/a/r") == RedactionMode.OFF
