"""The redaction corpus: positives (secrets in the formats their vendors document, generated
card numbers and IBANs, connection strings, e-mail addresses and phone numbers), each inside
a sentence someone might tell an agent; and negatives, the project's own fixture text (the
retrieval benchmark's generated facts, the embedding fixtures' sentences, the Mem0 and Vayl
export fixtures). Deterministic: one seed."""

from __future__ import annotations

import base64
import importlib.util
import json
import random
import string
import sys
from dataclasses import dataclass
from pathlib import Path

from stdnum import iban, luhn

ROOT = Path(__file__).resolve().parents[2]
SEED = 20261206
ALNUM = string.ascii_letters + string.digits
PERSONAL = frozenset({"email", "phone"})


@dataclass(frozen=True)
class Positive:
    kind: str
    value: str  # what must not survive
    text: str  # the sentence it sits in
    shown: str  # how it is written there (a password inside its connection string)


def _rand(rng: random.Random, chars: str, n: int) -> str:
    return "".join(rng.choice(chars) for _ in range(n))


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _card(rng: random.Random, prefix: str, length: int) -> str:
    body = prefix + _rand(rng, string.digits, length - len(prefix) - 1)
    return body + luhn.calc_check_digit(body)


def _iban(rng: random.Random, country: str, bban: str) -> str:
    check = iban.calc_check_digits(f"{country}00{bban}")
    return f"{country}{check}{bban}"


def _grouped(number: str, size: int = 4) -> str:
    return " ".join(number[i:i + size] for i in range(0, len(number), size))


SENTENCES = (
    "Use {} for the staging deploy.",
    "The key for the billing job is {}",
    "Ops says the credential is {} until Friday.",
    "Remember {} for the nightly export",
    "{} is what the CI pipeline reads.",
)


def positives() -> list[Positive]:
    rng = random.Random(SEED)
    found: list[tuple[str, str]] = [("aws_key", "AKIAIOSFODNN7EXAMPLE")]
    found += [("aws_key", "AKIA" + _rand(rng, string.ascii_uppercase + "234567", 16))
              for _ in range(19)]
    found += [("github_token", p + "_" + _rand(rng, ALNUM, 36))
              for p in ("ghp", "gho", "ghu", "ghs", "ghr") * 4]
    found += [("gitlab_token", "glpat-" + _rand(rng, ALNUM + "_-", 20)) for _ in range(10)]
    found += [("slack_token", f"xox{rng.choice('bpa')}-{_rand(rng, string.digits, 12)}-"
                              f"{_rand(rng, string.digits, 13)}-{_rand(rng, ALNUM, 24)}")
              for _ in range(10)]
    found += [("stripe_key", f"{rng.choice(['sk', 'rk'])}_live_{_rand(rng, ALNUM, 24)}")
              for _ in range(10)]
    found += [("openai_key", f"sk-proj-{_rand(rng, ALNUM, 20)}T3BlbkFJ{_rand(rng, ALNUM, 20)}")
              for _ in range(10)]
    found += [("jwt", ".".join([
        _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()),
        _b64url(json.dumps({"sub": _rand(rng, string.digits, 10), "name": "Ada"}).encode()),
        _b64url(rng.randbytes(32))])) for _ in range(10)]
    found += [("sendgrid_key", f"SG.{_rand(rng, ALNUM + '_-', 22)}.{_rand(rng, ALNUM + '_-', 43)}")
              for _ in range(5)]
    found += [("npm_token", "npm_" + _rand(rng, ALNUM, 36)) for _ in range(5)]
    found += [("pypi_token", "pypi-AgEIcHlwaS5vcmc" + _rand(rng, ALNUM + "_-", 60))
              for _ in range(5)]
    found += [("telegram_token", f"{_rand(rng, string.digits, 10)}:AA{_rand(rng, ALNUM, 33)}")
              for _ in range(5)]
    found += [("private_key", "-----BEGIN {0} PRIVATE KEY-----\n{1}\n{2}\n-----END {0} PRIVATE"
                              " KEY-----".format(kind, _rand(rng, ALNUM + "+/", 64),
                                                 _rand(rng, ALNUM + "+/", 40)))
              for kind in ("RSA", "EC", "OPENSSH", "DSA", "ENCRYPTED") * 2]
    shown: dict[int, str] = {}  # a secret shown inside more text (a connection string)
    for scheme in ("postgres", "postgresql", "mysql", "mongodb+srv", "redis", "amqp") * 3:
        password = _rand(rng, ALNUM, rng.randint(10, 20))
        shown[len(found)] = (f"{scheme}://svc_user:{password}@db{rng.randint(1, 9)}"
                             f".internal.example:5432/app")
        found.append(("password", password))
    for _ in range(5):
        password = _rand(rng, ALNUM, 14)
        shown[len(found)] = f"Server=sql01;Database=crm;User Id=sa;Password={password};"
        found.append(("password", password))
    for _ in range(10):
        secret = _rand(rng, ALNUM, 16)
        shown[len(found)] = (f"{rng.choice(['password', 'api_key', 'db_pass', 'secret_key'])}"
                             f"={secret}")
        found.append(("secret", secret))
    found += [("token", _rand(rng, ALNUM, rng.randint(32, 48))) for _ in range(10)]
    found += [("token", _rand(rng, "0123456789abcdef", 40)) for _ in range(10)]
    for prefix, length in (("4", 16), ("4", 13), ("51", 16), ("55", 16), ("2221", 16),
                           ("34", 15), ("37", 15), ("6011", 16), ("65", 16), ("62", 19)) * 3:
        number = _card(rng, prefix, length)
        found.append(("card_number", _grouped(number) if rng.random() < 0.5 else number))
    def french() -> str:
        return (_rand(rng, string.digits, 10) + _rand(rng, string.ascii_uppercase, 11)
                + _rand(rng, string.digits, 2))

    for country, bban in (("DE", lambda: _rand(rng, string.digits, 18)),
                          ("FR", french),
                          ("NL", lambda: "ABNA" + _rand(rng, string.digits, 10)),
                          ("ES", lambda: _rand(rng, string.digits, 20)),
                          ("BE", lambda: _rand(rng, string.digits, 12))) * 6:
        number = _iban(rng, country, bban())
        if iban.is_valid(number):
            found.append(("iban", _grouped(number) if rng.random() < 0.5 else number))
    found.append(("iban", "GB82 WEST 1234 5698 7654 32"))
    domains = ["example.com", "corp.example.org", "mail.example.net"]
    found += [("email", f"{_rand(rng, string.ascii_lowercase, 6)}."
                        f"{_rand(rng, string.ascii_lowercase, 5)}@{rng.choice(domains)}")
              for _ in range(20)]
    found += [("phone", rng.choice(["+1 650 253 0000", "+44 20 7946 0958", "+49 30 901820",
                                    "+33 1 42 68 53 00", "(650) 253-0000", "+1-212-555-0199",
                                    "+61 2 9374 4000", "+81 3-6384-9000"]))
              for _ in range(20)]
    return [Positive(kind, value, rng.choice(SENTENCES).format(shown.get(i, value)),
                     shown.get(i, value)) for i, (kind, value) in enumerate(found)]


def _retrieval_corpus_texts(size: int) -> list[str]:
    """The retrieval benchmark's generated facts (bench/retrieval/corpus.py, stdlib only)."""
    spec = importlib.util.spec_from_file_location(
        "retrieval_corpus", ROOT / "bench" / "retrieval" / "corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    corpus = module.build(size)
    return [f"{f['subject']} = {f['value']}" for f in corpus.facts]


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def negatives(count: int = 1000) -> list[str]:
    """`count` texts from the project's fixtures that hold no secret and no personal data."""
    fixtures = ROOT / "tests"
    texts = [s for s in json.loads((fixtures / "embeddings/fixtures/sentences.json").read_text())
             if s.strip()]
    for name in ("mem0_get_all.json", "vayl_export.json"):
        data = json.loads((fixtures / "lifecycle/fixtures" / name).read_text())
        texts += [s for s in _strings(data) if len(s) > 3 and " " in s]
    texts = list(dict.fromkeys(texts))
    texts += _retrieval_corpus_texts(count)
    return texts[:count]
