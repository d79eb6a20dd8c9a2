"""Redaction on write: secrets and (when a space asks) personal data are replaced by typed
placeholders, `[REDACTED:aws_key]`, before a write's text or facts reach the model or any
store. Pure: text in, text and the kinds found out.

The detectors, and why these:

- API keys, tokens, private keys and passwords in connection strings and assignments: the
  regex detectors of Yelp's `detect-secrets` (AWS, Azure, GitHub, GitLab, Slack, Stripe,
  Twilio, OpenAI, PyPI, npm, SendGrid, Mailchimp, Discord, Telegram, JWT, private key
  headers, basic-auth URLs, `password=`/`api_key:` assignments, ...), a maintained list of
  the formats vendors document, rather than one of our own;
- any other long token: a high-entropy rule (Shannon entropy over the token's characters,
  computed by detect-secrets' own entropy function), which detect-secrets applies only to
  quoted strings in code;
- payment card numbers: 13-19 digits with a card network's leading digit, checked with the
  Luhn algorithm (`python-stdnum`);
- IBANs: checked with their ISO 7064 check digits and country lengths (`python-stdnum`);
- e-mail addresses (a pattern) and phone numbers (`phonenumbers`, Google's libphonenumber),
  only in the `personal` mode;
- an organisation's own patterns (GRAPHMEM_REDACTION_PATTERNS: kind -> regular expression).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache
from typing import Any

import phonenumbers
from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
from detect_secrets.plugins.base import RegexBasedDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString
from detect_secrets.plugins.keyword import CONFIG_DENYLIST_REGEX_TO_GROUP
from detect_secrets.plugins.private_key import PrivateKeyDetector
from stdnum import iban, luhn

from graphmem.model.requests import Write

PLACEHOLDER = "[REDACTED:{}]"


class RedactionMode(StrEnum):
    OFF = "off"
    SECRETS = "secrets"  # keys, tokens, private keys, passwords, card numbers, IBANs
    PERSONAL = "personal"  # the secrets, and e-mail addresses and phone numbers


# detect-secrets' secret types, as the kinds a placeholder names
KINDS = {
    "AWS Access Key": "aws_key", "Azure Storage Account access key": "azure_key",
    "Basic Auth Credentials": "password", "Artifactory Credentials": "api_key",
    "Cloudant Credentials": "password", "Discord Bot Token": "discord_token",
    "GitHub Token": "github_token", "GitLab Token": "gitlab_token",
    "IBM Cloud IAM Key": "api_key", "IBM COS HMAC Credentials": "api_key",
    "JSON Web Token": "jwt", "Mailchimp Access Key": "mailchimp_key",
    "NPM tokens": "npm_token", "OpenAI Token": "openai_key", "Private Key": "private_key",
    "PyPI Token": "pypi_token", "SendGrid API Key": "sendgrid_key",
    "Slack Token": "slack_token", "SoftLayer Credentials": "api_key",
    "Square OAuth Secret": "square_secret", "Stripe Access Key": "stripe_key",
    "Telegram Bot Token": "telegram_token", "Twilio API Key": "twilio_key",
}
_TOKEN_CHARS = r"A-Za-z0-9_\-+/="
_TOKEN_TAIL = re.compile(rf"[{_TOKEN_CHARS}]*")
_LONG_TOKEN = re.compile(rf"(?<![{_TOKEN_CHARS}])[{_TOKEN_CHARS}]{{24,}}(?![{_TOKEN_CHARS}])")
_HEX_TOKEN = re.compile(r"(?<![0-9A-Za-z])[0-9a-fA-F]{32,}(?![0-9A-Za-z])")
_PEM = re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----.*?"
                  r"(?:-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----|\Z)", re.S)
_PUTTY = re.compile(r"PuTTY-User-Key-File-\d:.*?(?:Private-MAC:\s*\S+|\Z)", re.S)
_CARD = re.compile(r"(?<![\d-])(?:\d[ -]?){12,18}\d(?![\d-])")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b")
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
_PLACED = re.compile(r"\[REDACTED:[a-z0-9_]+\]")
ENTROPY = 4.3  # bits per character: random base64 is near 6, prose and paths stay under 4
HEX_ENTROPY = 3.0

Span = tuple[int, int, str]


@cache
def _secret_detectors() -> tuple[tuple[Any, str], ...]:
    """Every regex detector detect-secrets ships, with the kind it finds (the keyword and
    basic-auth detectors are applied to the secret's own group, below)."""
    found: list[tuple[Any, str]] = []
    plugins: dict[str, Any] = get_mapping_from_secret_type_to_class()
    for secret_type, plugin in plugins.items():
        kind = KINDS.get(secret_type)
        if kind is None or plugin in (BasicAuthDetector, PrivateKeyDetector):
            continue
        if issubclass(plugin, RegexBasedDetector):
            found.append((plugin(), kind))
    return tuple(found)


@cache
def _entropy() -> Base64HighEntropyString:
    return Base64HighEntropyString()


@dataclass(frozen=True)
class Redactor:
    """Redacts what `mode` covers, and an organisation's own `patterns` (kind -> regex)."""

    mode: RedactionMode = RedactionMode.SECRETS
    patterns: tuple[tuple[str, re.Pattern[str]], ...] = ()
    phone_region: str = "US"

    @classmethod
    def of(cls, mode: str, patterns: Mapping[str, str] | None = None,
           phone_region: str = "US") -> Redactor:
        compiled = tuple((kind, re.compile(rx)) for kind, rx in (patterns or {}).items())
        return cls(RedactionMode(mode), compiled, phone_region)

    def text(self, text: str) -> tuple[str, Counter[str]]:
        """The text with every finding replaced by its placeholder, and the kinds found."""
        if self.mode == RedactionMode.OFF or not text:
            return text, Counter()
        spans = list(self._spans(text))
        if self.mode == RedactionMode.PERSONAL:
            spans += list(self._personal(text, spans))
        spans = _merged(spans)
        kinds: Counter[str] = Counter()
        out = []
        at = 0
        for start, end, kind in spans:
            out.append(text[at:start])
            out.append(PLACEHOLDER.format(kind))
            kinds[kind] += 1
            at = end
        out.append(text[at:])
        return "".join(out), kinds

    def _spans(self, text: str) -> Iterator[Span]:
        placed = [m.span() for m in _PLACED.finditer(text)]

        def fresh(start: int, end: int) -> bool:
            return not any(s < end and start < e for s, e in placed)

        for kind, pattern in self.patterns:
            yield from ((m.start(), m.end(), kind) for m in pattern.finditer(text)
                        if m.end() > m.start())
        yield from _private_keys(text)
        for plugin, kind in _secret_detectors():
            for regex in plugin.denylist:
                for m in regex.finditer(text):
                    tail = _TOKEN_TAIL.match(text, m.end())
                    end = tail.end() if tail else m.end()  # a token the pattern cut short
                    if fresh(m.start(), end):
                        yield m.start(), end, kind
        for regex in BasicAuthDetector.denylist:
            yield from ((m.start(1), m.end(1), "password") for m in regex.finditer(text))
        for regex, group in CONFIG_DENYLIST_REGEX_TO_GROUP.items():
            for m in regex.finditer(text):
                start, end = m.span(group)
                if end > start and fresh(start, end):
                    yield start, end, "secret"
        yield from (s for s in _high_entropy(text) if fresh(s[0], s[1]))
        yield from _cards(text)
        yield from _ibans(text)

    def _personal(self, text: str, taken: list[Span]) -> Iterator[Span]:
        """E-mail addresses and phone numbers outside what a secret already covers (a
        connection string's `password@host` is not an address)."""
        found = [*((m.start(), m.end(), "email") for m in _EMAIL.finditer(text)),
                 *_phones(text, self.phone_region)]
        yield from (s for s in found
                    if not any(t[0] < s[1] and s[0] < t[1] for t in taken))

    def write(self, write: Write) -> tuple[Write, Counter[str]]:
        """A write with its text, where it came from, and every fact's text fields redacted."""
        if self.mode == RedactionMode.OFF:
            return write, Counter()
        kinds: Counter[str] = Counter()

        def clean(value: Any) -> Any:
            if isinstance(value, str):
                redacted, found = self.text(value)
                kinds.update(found)
                return redacted
            if isinstance(value, Mapping):
                return {k: clean(v) for k, v in value.items()}
            if isinstance(value, list | tuple):
                return type(value)(clean(v) for v in value)
            return value

        facts = None if write.facts is None else tuple(
            {k: clean(v) if k in _FACT_TEXT else v for k, v in f.items()}
            if isinstance(f, Mapping) else f for f in write.facts)
        redacted = replace(write, facts=facts, text=clean(write.text),
                           source_ref=clean(write.source_ref),
                           metadata=None if write.metadata is None else clean(write.metadata))
        return redacted, kinds

    def fact(self, fact: Mapping[str, Any]) -> tuple[dict[str, Any], Counter[str]]:
        """One fact as a mapping (an imported record), its text fields redacted."""
        clean, kinds = self.write(Write(facts=(fact,)))
        assert clean.facts is not None
        return dict(clean.facts[0]), kinds


# the fields of a fact that carry free text (its subject and ids are names, kept as given)
_FACT_TEXT = frozenset({"value", "raw", "head", "tail", "source_ref", "sourceRef",
                        "metadata", "reason"})


def _merged(spans: Iterable[Span]) -> list[Span]:
    """Overlapping findings become one, named by the earliest (then the longest)."""
    ordered = sorted(spans, key=lambda s: (s[0], -(s[1] - s[0])))
    out: list[Span] = []
    for start, end, kind in ordered:
        if out and start < out[-1][1]:
            last = out[-1]
            out[-1] = (last[0], max(last[1], end), last[2])
        else:
            out.append((start, end, kind))
    return out


def _private_keys(text: str) -> Iterator[Span]:
    for regex in (_PEM, _PUTTY):
        yield from ((m.start(), m.end(), "private_key") for m in regex.finditer(text))


def _high_entropy(text: str) -> Iterator[Span]:
    entropy = _entropy().calculate_shannon_entropy
    for m in _LONG_TOKEN.finditer(text):
        token = m.group(0)
        if (any(c.isdigit() for c in token) and any(c.isalpha() for c in token)
                and entropy(token) > ENTROPY):
            yield m.start(), m.end(), "token"
    for m in _HEX_TOKEN.finditer(text):
        if entropy(m.group(0).lower()) > HEX_ENTROPY:
            yield m.start(), m.end(), "token"


def _cards(text: str) -> Iterator[Span]:
    for m in _CARD.finditer(text):
        digits = re.sub(r"\D", "", m.group(0))
        if 13 <= len(digits) <= 19 and digits[0] in "23456" and luhn.is_valid(digits):
            yield m.start(), m.end(), "card_number"


def _ibans(text: str) -> Iterator[Span]:
    for m in _IBAN.finditer(text):
        candidate = m.group(0)
        while len(candidate.replace(" ", "")) >= 15:  # a trailing word may have joined it
            if iban.is_valid(candidate):
                yield m.start(), m.start() + len(candidate), "iban"
                break
            candidate = candidate[:-1].rstrip()


def _phones(text: str, region: str) -> Iterator[Span]:
    matcher = phonenumbers.PhoneNumberMatcher(text, region, phonenumbers.Leniency.VALID)
    for match in matcher:
        yield match.start, match.end, "phone"


@dataclass(frozen=True)
class Policy:
    """Which mode applies where: the default, then per tenant, then per space (a space key
    or a tenant name as the key of `overrides`; the most specific wins)."""

    default: RedactionMode = RedactionMode.SECRETS
    overrides: Mapping[str, str] = field(default_factory=dict)

    def mode_for(self, space_key: str) -> RedactionMode:
        tenant = space_key.split("/", 1)[0]
        chosen = self.overrides.get(space_key) or self.overrides.get(tenant)
        return RedactionMode(chosen) if chosen else self.default
