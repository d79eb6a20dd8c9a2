"""Keys and field encryption, without a database: files, derivation, seals, the blind index."""

from __future__ import annotations

import base64
import multiprocessing
import stat
from pathlib import Path

import pytest
from cryptography.fernet import Fernet

from graphmem.errors import ConfigError
from graphmem.mirror import keys
from graphmem.mirror.crypto import DecryptionFailed, FieldCipher, Misbound, binding
from graphmem.settings import load_settings

pytestmark = pytest.mark.races


def test_generated_key_files_are_private_and_stable(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path / "home")
    first = keys.signer(settings)
    data = keys.data_keys(settings)
    for name in (keys.SIGN_FILE, keys.ENCRYPT_FILE):
        path = tmp_path / "home" / "keys" / name
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "home" / "keys").stat().st_mode) == 0o700
    assert keys.signer(settings).key_id == first.key_id
    assert keys.data_keys(settings) == data
    assert data.fernet != base64.urlsafe_b64encode(keys.signing_seed(settings)), (
        "encryption uses a key of its own")


def _load(home: str) -> str:
    return keys.signer(load_settings(home=home)).key_id


def test_processes_racing_to_create_the_key_agree(tmp_path: Path) -> None:
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        ids = pool.map(_load, [str(tmp_path / "home")] * 8)
    assert len(set(ids)) == 1


def test_graphmem_key_derives_the_seed_with_the_deployments_salt(tmp_path: Path) -> None:
    salt = "5a" * 16
    a = load_settings(home=tmp_path / "a", key="correct horse battery staple", key_salt=salt)
    b = load_settings(home=tmp_path / "b", key="correct horse battery staple", key_salt=salt)
    c = load_settings(home=tmp_path / "c", key="another passphrase entirely", key_salt=salt)
    assert keys.signer(a).key_id == keys.signer(b).key_id != keys.signer(c).key_id
    assert not (tmp_path / "a" / "keys" / keys.SIGN_FILE).exists()
    # without GRAPHMEM_KEY_SALT each home keeps a salt of its own, created once
    own = load_settings(home=tmp_path / "d", key="correct horse battery staple")
    assert keys.signer(own).key_id == keys.signer(own).key_id != keys.signer(a).key_id
    assert stat.S_IMODE((tmp_path / "d" / "keys" / keys.SALT_FILE).stat().st_mode) == 0o600
    with pytest.raises(ConfigError, match="GRAPHMEM_KEY is too short"):
        keys.signer(load_settings(home=tmp_path, key="short"))
    for bad, message in (("zz" * 16, "not hex"), ("ab" * 8 + "a", "not hex"),
                         ("ab" * 15, "too short")):
        with pytest.raises(ConfigError, match=f"GRAPHMEM_KEY_SALT is {message}"):
            keys.signer(load_settings(home=tmp_path, key="correct horse battery staple",
                                      key_salt=bad))


def test_encryption_key_setting_is_checked(tmp_path: Path) -> None:
    key = Fernet.generate_key().decode()
    settings = load_settings(home=tmp_path, encryption_key=key)
    assert keys.data_keys(settings).fernet == key.encode()
    with pytest.raises(ConfigError, match="not a Fernet key"):
        keys.data_keys(load_settings(home=tmp_path, encryption_key="c2hvcnQ="))


def test_a_damaged_key_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "keys" / keys.SIGN_FILE
    path.parent.mkdir()
    path.write_text("not hex\n")
    with pytest.raises(ConfigError, match="cannot read the key file"):
        keys.signer(load_settings(home=tmp_path))


def test_public_keys_load_from_pem_base64_and_hex(tmp_path: Path) -> None:
    signer = keys.signer(load_settings(home=tmp_path))
    raw = keys.public_bytes(signer.public)
    for text in (keys.public_pem(signer.public), base64.b64encode(raw).decode(), raw.hex()):
        assert keys.key_id(keys.load_public_key(text)) == signer.key_id


@pytest.fixture
def cipher(tmp_path: Path) -> FieldCipher:
    return FieldCipher(keys.data_keys(load_settings(home=tmp_path)), True, cache_size=2)


HERE = binding("fact", "f1", "t/u/a/r", "value")


def test_fields_are_sealed_and_open_again(cipher: FieldCipher) -> None:
    sealed = cipher.seal("Zustand", HERE)
    assert sealed is not None and sealed.startswith("f2:") and "Zustand" not in sealed
    assert cipher.seal("Zustand", HERE) != sealed, "each seal is fresh (Fernet IV)"
    assert cipher.open(sealed, HERE) == "Zustand"
    assert cipher.seal(None, HERE) is None and cipher.open(None, HERE) is None


def test_a_value_opens_only_in_the_row_it_was_sealed_for(cipher: FieldCipher) -> None:
    sealed = cipher.seal("Zustand", HERE)
    for elsewhere in (binding("fact", "f2", "t/u/a/r", "value"),
                      binding("fact", "f1", "other/u/a/r", "value"),
                      binding("fact", "f1", "t/u/a/r", "raw")):
        with pytest.raises(Misbound, match="copied there"):
            cipher.open(sealed, elsewhere)
    assert cipher.open(sealed, HERE) == "Zustand", "a cached value is checked the same way"


def test_values_sealed_before_bindings_still_open(cipher: FieldCipher, tmp_path: Path) -> None:
    fernet = Fernet(keys.data_keys(load_settings(home=tmp_path)).fernet)
    old = "f1:" + fernet.encrypt(b"Redux").decode()
    assert cipher.open(old, HERE) == "Redux"


def test_plain_mode_is_readable_under_either_setting(tmp_path: Path) -> None:
    data = keys.data_keys(load_settings(home=tmp_path))
    plain, sealed = FieldCipher(data, encrypt=False), FieldCipher(data, encrypt=True)
    text = plain.seal("value", HERE)
    assert text == "p1:value"
    assert sealed.open(text, HERE) == "value"
    assert plain.open(sealed.seal("value", HERE), HERE) == "value"


def test_another_key_cannot_open_a_seal(cipher: FieldCipher, tmp_path: Path) -> None:
    other = FieldCipher(keys.data_keys(load_settings(home=tmp_path / "other")))
    with pytest.raises(DecryptionFailed, match="encryption key"):
        other.open(cipher.seal("secret", HERE), HERE)


def test_blind_index_is_equal_for_equal_subjects_only(cipher: FieldCipher) -> None:
    assert cipher.index("t/u/a/r", "state") == cipher.index("t/u/a/r", "state")
    assert cipher.index("t/u/a/r", "state") != cipher.index("t/u/a/r", "stat")
    assert cipher.index("t/u/a/r", "state") != cipher.index("t/u/a/x", "state")
    assert "state" not in cipher.index("t/u/a/r", "state")


def test_the_decrypt_cache_is_bounded_and_clears(cipher: FieldCipher) -> None:
    for value in ("a", "b", "c"):
        cipher.open(cipher.seal(value, HERE), HERE)
    assert cipher.cached == 2
    cipher.clear_cache()
    assert cipher.cached == 0
