"""The one module that talks to a chat model: any OpenAI-compatible endpoint via `openai`.

Transport failures (429, 5xx) are retried with backoff by the openai client itself
(`GRAPHMEM_LLM_MAX_RETRIES`); what is left is turned into one `LLMCallFailed` line that
names the endpoint and what to check (the API keeps that line in its log). Structured
output is asked for where the endpoint supports it: `auto` tries a JSON schema, then JSON
mode, then plain text, and remembers what worked, so only the first call against a limited
endpoint pays for the probe.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

import openai

from graphmem import admission
from graphmem.errors import ConfigError, LLMCallFailed
from graphmem.settings import Settings
from graphmem.tls import model_http_client

log = logging.getLogger(__name__)

FORMATS = ("json_schema", "json_object", "none")
NOT_CONFIGURED = ("no LLM configured: set GRAPHMEM_LLM_BASE_URL and GRAPHMEM_LLM_MODEL"
                  " (any OpenAI-compatible endpoint)")


def _first_line(error: Exception) -> str:
    text = getattr(error, "message", None) or str(error) or type(error).__name__
    return str(text).strip().splitlines()[0][:300]


def unavailable(settings: Settings, error: Exception) -> LLMCallFailed:
    """One line: which endpoint failed, how, and what to check."""
    where = f"LLM endpoint {settings.llm_base_url} (model {settings.llm_model})"
    if isinstance(error, openai.APITimeoutError):
        return LLMCallFailed(f"{where} timed out after {settings.llm_timeout:g}s:"
                              " raise GRAPHMEM_LLM_TIMEOUT or check the server")
    if isinstance(error, openai.APIConnectionError):
        return LLMCallFailed(f"{where} is unreachable: check GRAPHMEM_LLM_BASE_URL and that"
                              " the server is up")
    if isinstance(error, openai.AuthenticationError | openai.PermissionDeniedError):
        return LLMCallFailed(f"{where} refused the credentials: check GRAPHMEM_LLM_API_KEY")
    if isinstance(error, openai.NotFoundError):
        return LLMCallFailed(f"{where} answered 404 ({_first_line(error)}): check"
                              " GRAPHMEM_LLM_MODEL and GRAPHMEM_LLM_BASE_URL (usually ends in /v1)")
    if isinstance(error, openai.APIStatusError):
        return LLMCallFailed(f"{where} answered {error.status_code} after"
                              f" {settings.llm_max_retries} retries: {_first_line(error)}")
    return LLMCallFailed(f"{where} failed: {_first_line(error)}")


def _about_response_format(error: openai.APIStatusError) -> bool:
    text = _first_line(error).lower()
    return error.status_code in (400, 422) and any(
        word in text for word in ("response_format", "json_schema", "json_object", "json mode")
    )


class LLM:
    """A chat model behind an OpenAI-compatible endpoint; built once per Runtime."""

    def __init__(self, settings: Settings) -> None:
        if not settings.llm_configured:
            raise ConfigError(NOT_CONFIGURED)
        self.settings = settings
        self.model = str(settings.llm_model)
        key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else "unused"
        try:
            self._client = openai.OpenAI(base_url=settings.llm_base_url, api_key=key,
                                         timeout=settings.llm_timeout,
                                         max_retries=settings.llm_max_retries,
                                         http_client=model_http_client())
        except (openai.OpenAIError, ValueError) as e:
            raise ConfigError(f"GRAPHMEM_LLM_BASE_URL {settings.llm_base_url!r} is unusable:"
                              f" {_first_line(e)}") from e
        wanted = settings.llm_response_format
        self._formats = list(FORMATS) if wanted == "auto" else [wanted]
        self._lock = threading.Lock()
        self.calls = 0  # completions asked for (transport retries inside one count once)

    @property
    def response_format(self) -> str:
        """The structured-output mode in use (after any downgrade)."""
        return self._formats[0]

    def close(self) -> None:
        self._client.close()

    def complete_json(self, system: str, user: str, name: str, schema: dict[str, Any]) -> str:
        """One completion asking for JSON matching `schema`; returns the raw text."""
        while True:
            mode = self._formats[0]
            try:
                return self._complete(system, user, self._response_format(mode, name, schema))
            except openai.APIStatusError as e:
                if len(self._formats) > 1 and _about_response_format(e):
                    self._downgrade(mode, e)
                    continue
                raise unavailable(self.settings, e) from e
            except openai.OpenAIError as e:
                raise unavailable(self.settings, e) from e

    def complete_text(self, system: str, user: str) -> str:
        """One plain completion (the recall answer)."""
        try:
            return self._complete(system, user, None)
        except openai.OpenAIError as e:
            raise unavailable(self.settings, e) from e

    def _downgrade(self, mode: str, error: openai.APIStatusError) -> None:
        with self._lock:
            if self._formats and self._formats[0] == mode and len(self._formats) > 1:
                self._formats.pop(0)
                log.warning("LLM endpoint %s rejected response_format %s (%s); using %s from"
                            " now on", self.settings.llm_base_url, mode, _first_line(error),
                            self._formats[0])

    @staticmethod
    def _response_format(mode: str, name: str, schema: dict[str, Any]
                         ) -> dict[str, Any] | None:
        if mode == "json_schema":
            return {"type": "json_schema",
                    "json_schema": {"name": name, "schema": schema, "strict": True}}
        if mode == "json_object":
            return {"type": "json_object"}
        return None

    def _complete(self, system: str, user: str, response_format: dict[str, Any] | None) -> str:
        messages: list[Any] = [{"role": "system", "content": system},
                               {"role": "user", "content": user}]
        with self._lock:
            self.calls += 1
        extra: dict[str, Any] = {}
        if response_format is not None:
            extra["response_format"] = response_format
        with admission.waiting():
            reply = self._client.chat.completions.create(model=self.model, messages=messages,
                                                         temperature=0, **extra)
        if not reply.choices:
            return ""
        return reply.choices[0].message.content or ""
