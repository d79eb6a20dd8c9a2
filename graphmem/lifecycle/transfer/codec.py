"""The export file: JSON Lines, each record chained to the one before, a signed manifest last.

Every line is one JSON object with a `type` (header, space, fact, entity, conflict, pending,
decision) and a `chain`: the SHA-256 of the previous line's chain and this record's canonical
JSON (sorted keys, no spaces, the chain left out). The last line is the manifest: counts,
the format version, the final chain (the hash over every record) and an Ed25519 signature
over the manifest by the exporting deployment's key. A changed, removed, added or reordered
record breaks the chain at that line; a file cut short has no manifest; a manifest re-signed
with a key the receiver does not trust is refused. Reading names the line that fails.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import IO, Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from graphmem.errors import InvalidInput
from graphmem.mirror.keys import Signer, key_id, load_public_key, public_bytes, verify_signature

FORMAT = "graphmem-export"
VERSION = 1
GENESIS = hashlib.sha256(f"{FORMAT}/{VERSION}".encode()).hexdigest()
RECORD_TYPES = ("header", "space", "fact", "entity", "conflict", "pending", "decision")


class TamperedExport(InvalidInput):
    """An export that is not whole or not as its deployment wrote it; nothing was written."""


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical(record: Mapping[str, Any]) -> str:
    return _CANONICAL.encode(record)


def link(previous: str, body: str) -> str:
    return hashlib.sha256(f"{previous}\n{body}".encode()).hexdigest()


class Writer:
    """Writes records with their chain, then the signed manifest."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.chain = GENESIS
        self.counts: Counter[str] = Counter()
        self.lines = 0
        self.bytes = 0

    def write(self, record: Mapping[str, Any]) -> None:
        body = canonical(record)
        data = body.encode()
        self.chain = hashlib.sha256(b"%s\n%s" % (self.chain.encode(), data)).hexdigest()
        line = f'{body[:-1]},"chain":"{self.chain}"}}\n'
        self.out.write(line)
        self.counts[str(record["type"])] += 1
        self.lines += 1
        self.bytes += len(data) + len(line) - len(body)  # what is added to the body is ASCII

    def finish(self, signer: Signer, fields: Mapping[str, Any]) -> dict[str, Any]:
        """Write the manifest (its `fields` plus counts, hash, key) and return it."""
        body = {**fields, "type": "manifest", "format": FORMAT, "version": VERSION,
                "records": self.lines, "counts": dict(sorted(self.counts.items())),
                "hash": self.chain, "key_id": signer.key_id,
                "public_key": base64.b64encode(public_bytes(signer.public)).decode()}
        manifest = {**body, "signature": signer.sign(canonical(body).encode())}
        line = canonical(manifest) + "\n"
        self.out.write(line)
        self.bytes += len(line.encode())
        return manifest


@dataclass(frozen=True)
class Line:
    number: int
    record: dict[str, Any]


def _parse(number: int, text: str) -> dict[str, Any]:
    try:
        record = json.loads(text)
    except json.JSONDecodeError as e:
        raise TamperedExport(f"line {number}: not a complete JSON record ({e.msg}); the file"
                             " is damaged or cut short") from None
    if not isinstance(record, dict) or not isinstance(record.get("type"), str):
        raise TamperedExport(f"line {number}: not an export record (no type)")
    return record


def _unchained(number: int, record: dict[str, Any], previous: str) -> tuple[dict[str, Any], str]:
    """The record without its chain, and the chain it must carry after `previous`."""
    body = dict(record)
    carried = body.pop("chain", None)
    expected = link(previous, canonical(body))
    if carried != expected:
        raise TamperedExport(f"line {number}: the record does not match the export's hash"
                             " chain (it was altered, or a line before it was added, removed"
                             " or moved)")
    return body, expected


@dataclass(frozen=True)
class Verified:
    """What checking a whole export found: its manifest, the chain after every record (so a
    second read can be held to the same bytes) and the header."""

    manifest: dict[str, Any]
    chains: tuple[str, ...]
    header: dict[str, Any]

    @property
    def digest(self) -> str:
        return str(self.manifest["hash"])


def verify(stream: IO[str], trusted: Mapping[str, Ed25519PublicKey],
           visit: Callable[[dict[str, Any]], None] | None = None) -> Verified:
    """Check a whole export before anything is written; raises TamperedExport naming the line
    that fails. `visit` sees each record (without its chain) as it is checked."""
    chain, chains, counts = GENESIS, [], Counter[str]()
    number, manifest, header = 0, None, None
    for number, text in enumerate(stream, 1):
        if manifest is not None:
            raise TamperedExport(f"line {number}: a record after the manifest (line"
                                 f" {number - 1}); the manifest must be the last line")
        record = _parse(number, text)
        if record["type"] == "manifest":
            manifest = record
            continue
        if record["type"] not in RECORD_TYPES:
            raise TamperedExport(f"line {number}: unknown record type {record['type']!r}")
        body, chain = _unchained(number, record, chain)
        if number == 1:
            header = _header(body)
        chains.append(chain)
        counts[body["type"]] += 1
        if visit is not None:
            visit(body)
    if manifest is None or header is None:
        raise TamperedExport(f"line {number + 1}: the file ends without its manifest (it was"
                             " cut short, or is not a graphmem export)")
    _check_manifest(number, manifest, chain, counts, len(chains), trusted)
    return Verified(manifest, tuple(chains), header)


def _header(body: dict[str, Any]) -> dict[str, Any]:
    if body.get("type") != "header" or body.get("format") != FORMAT:
        raise TamperedExport("line 1: not a graphmem export (no header)")
    if body.get("version") != VERSION:
        raise TamperedExport(f"line 1: export format version {body.get('version')!r}; this"
                             f" graphmem reads version {VERSION}")
    return body


def _check_manifest(number: int, manifest: dict[str, Any], chain: str, counts: Counter[str],
                    records: int, trusted: Mapping[str, Ed25519PublicKey]) -> None:
    where = f"line {number} (manifest)"
    signature = manifest.get("signature")
    body = {k: v for k, v in manifest.items() if k != "signature"}
    kid = manifest.get("key_id")
    key = trusted.get(kid) if isinstance(kid, str) else None
    if key is None:
        raise TamperedExport(f"{where}: signed by key {kid!r}, which is neither this"
                             " deployment's nor one given as trusted (pass the exporter's"
                             " public key)")
    if not isinstance(signature, str) or not verify_signature(
            key, signature, canonical(body).encode()):
        raise TamperedExport(f"{where}: the signature does not match the manifest (altered"
                             " or forged)")
    if manifest.get("records") != records or manifest.get("counts") != dict(sorted(
            counts.items())):
        raise TamperedExport(f"{where}: the manifest counts {manifest.get('records')} records"
                             f" but the file holds {records} (records were added or removed)")
    if manifest.get("hash") != chain:
        raise TamperedExport(f"{where}: the records' hash does not match the signed one (the"
                             " records were altered and re-chained)")


def read(stream: IO[str], verified: Verified) -> Iterator[Line]:
    """The records of a verified export, each held to the chain the check saw (a file
    changed since fails at the changed line, before it is used)."""
    chain = GENESIS
    for number, text in enumerate(stream, 1):
        if number > len(verified.chains):
            return
        record = _parse(number, text)
        body, chain = _unchained(number, record, chain)
        if chain != verified.chains[number - 1]:
            raise TamperedExport(f"line {number}: changed since it was checked")
        yield Line(number, body)


def trusted_keys(own: Mapping[str, Ed25519PublicKey], given: str | bytes | None
                 ) -> dict[str, Ed25519PublicKey]:
    """This deployment's keys, and the exporter's public key when one is given."""
    keys = dict(own)
    if given is not None:
        key = load_public_key(given)
        keys[key_id(key)] = key
    return keys
