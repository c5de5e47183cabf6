"""What an OGXM reader cannot vouch for is a warning, not a note hidden by -q (issue 38): a signature that
does not verify (the signed bytes changed since) and a checksum of an algorithm other than CRC-32 (not
checked).  validate says it as a warning; convert says it, and refuses it with --strict."""

from __future__ import annotations

import base64
import subprocess
from pathlib import Path

import pytest
from conftest import gammon_in_process

from notation.batch import validate_file
from notation.formats.ogxm import read_ogxm, write_ogxm
from notation.matchio import read_match

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def badly_signed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ogxm = pytest.importorskip("ogxm")
    pytest.importorskip("cryptography")
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    data, _ = write_ogxm(read_match(DATA / "sgf_gnubg_analysed.sgf"))
    doc = ogxm.binary_to_json(data)
    key = Ed25519PrivateKey.generate()
    pub = base64.b64encode(key.public_key().public_bytes(serialization.Encoding.Raw,
                                                         serialization.PublicFormat.Raw)).decode()
    wrong = base64.b64encode(key.sign(b"not the match")).decode()  # a signature of other bytes
    doc["match_signatures"] = [{"algorithm": 1, "signature": wrong, "public_key": pub}]
    p = tmp_path_factory.mktemp("doubts") / "signed.ogxm"
    p.write_bytes(ogxm.json_to_binary(doc))
    return p


def test_a_signature_that_does_not_verify_is_a_warning(badly_signed: Path) -> None:
    (m,) = read_ogxm(badly_signed.read_bytes())
    bad = [n for n in m.normalisations if "does NOT verify" in n.message]
    assert len(bad) == 1 and bad[0].severity == "warning"
    res = validate_file(str(badly_signed))
    assert res["warnings"] >= 1
    assert any(f["severity"] == "warning" and "does NOT verify" in f["message"] for f in res["findings"])


def test_convert_says_it_and_strict_refuses(badly_signed: Path, tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return gammon_in_process("convert", *args, text=True, cwd=tmp_path)

    proc = run(str(badly_signed), "out.json")
    assert proc.returncode == 0 and "warning: reading:" in proc.stderr and "does NOT verify" in proc.stderr
    proc = run("--strict", str(badly_signed), "strict.json")
    assert proc.returncode == 1 and "error: reading:" in proc.stderr
    assert not (tmp_path / "strict.json").exists()
