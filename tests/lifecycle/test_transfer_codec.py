"""The export file format without a database: the hash chain, the signed manifest, and the
line each kind of damage is reported at."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from graphmem.lifecycle.transfer import codec
from graphmem.lifecycle.transfer.codec import TamperedExport
from graphmem.mirror.keys import Signer

SIGNER = Signer(Ed25519PrivateKey.generate())
TRUSTED = {SIGNER.key_id: SIGNER.public}


def export(records: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = codec.Writer(out)
    writer.write({"type": "header", "format": codec.FORMAT, "version": codec.VERSION,
                  "spaces": ["a"]})
    for record in records:
        writer.write(record)
    writer.finish(SIGNER, {"spaces": ["a"]})
    return out.getvalue()


FACTS = [{"type": "fact", "space": "a", "id": f"f{i}", "value": f"v{i}"} for i in range(5)]


def verify(text: str) -> codec.Verified:
    return codec.verify(io.StringIO(text), TRUSTED)


def test_an_intact_export_verifies_and_reads_back() -> None:
    text = export(FACTS)
    verified = verify(text)
    assert verified.manifest["counts"] == {"fact": 5, "header": 1}
    read = [line.record for line in codec.read(io.StringIO(text), verified)]
    assert read[1:] == FACTS


def test_each_damage_names_its_line() -> None:
    lines = export(FACTS).splitlines(keepends=True)
    changed = lines[:]
    changed[3] = changed[3].replace('"v2"', '"v9"')
    with pytest.raises(TamperedExport, match="^line 4: the record does not match"):
        verify("".join(changed))
    swapped = lines[:]
    swapped[2], swapped[3] = swapped[3], swapped[2]
    with pytest.raises(TamperedExport, match="^line 3: the record does not match"):
        verify("".join(swapped))
    with pytest.raises(TamperedExport, match="^line 7: the file ends without its manifest"):
        verify("".join(lines[:-1]))
    with pytest.raises(TamperedExport, match="^line 7: not a complete JSON record"):
        verify("".join(lines)[:-30])
    with pytest.raises(TamperedExport, match="^line 8: a record after the manifest"):
        verify("".join(lines) + lines[1])


def test_a_manifest_signed_by_an_unknown_key_or_altered_is_refused() -> None:
    text = export(FACTS)
    with pytest.raises(TamperedExport, match="^line 7 \\(manifest\\): signed by key"):
        codec.verify(io.StringIO(text), {})
    lines = text.splitlines(keepends=True)
    manifest = json.loads(lines[-1])
    manifest["records"] = 99
    lines[-1] = json.dumps(manifest) + "\n"
    with pytest.raises(TamperedExport, match="signature does not match"):
        verify("".join(lines))


def test_a_file_changed_between_check_and_read_fails_at_the_changed_line() -> None:
    text = export(FACTS)
    verified = verify(text)
    other = export([*FACTS[:2], {**FACTS[2], "value": "v9"}, *FACTS[3:]])
    with pytest.raises(TamperedExport, match="^line 4: changed since it was checked"):
        list(codec.read(io.StringIO(other), verified))
