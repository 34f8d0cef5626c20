"""Canonical JSON, the record hash, value conversion, secret redaction, the golden record schema."""

from __future__ import annotations

import json
import math
import os
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from finqa.agents.clock import FixedClock
from finqa.agents.secrets import SECRET_ENV_NAMES
from finqa.agents.types import Citation
from finqa.audit import (
    RECORD_FIELDS,
    REDACTED,
    AuditLog,
    canonical_bytes,
    record_hash,
    redact,
    to_jsonable,
)
from finqa.audit.redact import is_secret_key
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict

GOLDEN = Path(__file__).parent / "golden" / "audit_record.json"

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@pytest.fixture
def no_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in SECRET_ENV_NAMES:
        monkeypatch.delenv(name, raising=False)


class TestCanonical:
    """Canonical JSON is deterministic and a parsed line serialises back to the same bytes."""

    @given(json_values)
    @settings(max_examples=200, deadline=None)
    def test_round_trip_is_byte_identical(self, value: Any) -> None:
        """Any value, once made JSON-safe, re-serialises to identical bytes after parsing."""
        safe = to_jsonable(value)
        line = canonical_bytes(safe)
        assert canonical_bytes(json.loads(line.decode("utf-8"))) == line

    def test_keys_sorted_compact_utf8(self) -> None:
        """Keys are sorted, separators compact and non-ASCII text is written as UTF-8."""
        assert canonical_bytes({"b": 1, "a": "é"}) == '{"a":"é","b":1}'.encode()

    def test_floats_normalised(self) -> None:
        """-0.0 becomes 0.0, non-finite floats become strings, numpy floats become floats."""
        out = to_jsonable(
            {"z": -0.0, "n": math.nan, "i": -math.inf, "np": np.float32(0.5), "a": np.arange(2)}
        )
        assert out == {"z": 0.0, "n": "NaN", "i": "-Infinity", "np": 0.5, "a": [0, 1]}
        assert canonical_bytes(out) == b'{"a":[0,1],"i":"-Infinity","n":"NaN","np":0.5,"z":0.0}'

    def test_converts_models_tuples_paths(self) -> None:
        """Pydantic models, tuples, sets, paths, datetimes and Decimals become JSON values."""
        cite = Citation(source_id="S1", doc_id="3M_2018_10K", page=47)
        out = to_jsonable(
            {
                "cite": cite,
                "t": (1, 2),
                "s": {"b", "a"},
                "p": Path("/x/y"),
                "d": datetime(2026, 1, 1, tzinfo=UTC),
                "m": Decimal("1.10"),
                7: "int key",
            }
        )
        assert (
            out["cite"]["doc_id"] == "3M_2018_10K" and out["t"] == [1, 2] and out["s"] == ["a", "b"]
        )
        assert (
            out["p"] == "/x/y" and out["d"].startswith("2026-01-01T00:00:00") and out["m"] == "1.10"
        )
        assert out["7"] == "int key"
        assert (
            canonical_bytes(to_jsonable({"\ud800": "a\udfffb"})) == b'{"?":"a?b"}'
        )  # lone surrogates
        json.dumps(out, allow_nan=False)

    def test_hash_excludes_hash_field_and_changes_with_content(self) -> None:
        """The hash covers every field but `hash`, and any change of a value changes it."""
        rec: dict[str, Any] = {k: None for k in RECORD_FIELDS}
        rec["seq"] = 1
        h = record_hash(rec)
        assert record_hash({**rec, "hash": "whatever"}) == h
        assert record_hash({**rec, "seq": 2}) != h


class TestRedaction:
    """Secrets never reach the audit log."""

    def test_secret_keys_redacted_counters_kept(self) -> None:
        """Values of api_key/authorization/password/hmac keys go; prompt_tokens stays."""
        out = redact(
            {
                "api_key": "abc",
                "headers": {"Authorization": "Bearer x"},
                "password": 1,
                "hmac": "h",
                "prompt_tokens": 12,
            },
            secrets=(),
        )
        assert out == {
            "api_key": REDACTED,
            "headers": {"Authorization": REDACTED},
            "password": REDACTED,
            "hmac": REDACTED,
            "prompt_tokens": 12,
        }
        kept = ("max_tokens", "prompt_tokens", "prompt_token", "template_hash", "key", "chunk_ids")
        assert not any(is_secret_key(k) for k in kept)
        gone = ("OPENAI_API_KEY", "x-api-key", "client_secret", "access_token", "token", "Cookie")
        assert all(is_secret_key(k) for k in gone)

    def test_env_secret_values_never_written(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The current values of OPENAI_API_KEY/FINQA_API_KEY/FINQA_AUDIT_HMAC_KEY are scrubbed everywhere."""
        secrets = {
            "OPENAI_API_KEY": "sk-open-123456",
            "FINQA_API_KEY": "fq-key-abcdef",
            "FINQA_AUDIT_HMAC_KEY": "hmac-zzz-999",
        }
        for name, value in secrets.items():
            monkeypatch.setenv(name, value)
        log = AuditLog(tmp_path / "a.jsonl", run_id="r", clock=FixedClock(), fsync=False)
        rec = log.append(
            event="error",
            agent="reasoning",
            question_id="q1",
            reason="401 for key sk-open-123456",
            params={
                "base_url": "http://x",
                "nested": [{"auth": "fq-key-abcdef"}],
                "fq-key-abcdef": 1,
            },
            data={"raw": "signed with hmac-zzz-999!", "client": {"api_key": "anything"}},
        )
        text = (tmp_path / "a.jsonl").read_text(encoding="utf-8")
        for value in secrets.values():
            assert value not in text
        assert (
            rec["reason"] == f"401 for key {REDACTED}"
            and rec["data"]["raw"] == f"signed with {REDACTED}!"
        )
        assert rec["data"]["client"]["api_key"] == REDACTED


class _Cite(BaseModel):
    """A stand-in seam model (the real ones may grow fields; the golden must not move with them)."""

    model_config = ConfigDict(frozen=True)
    doc_id: str
    page: int
    quote: str


def _golden_record(path: Path) -> dict[str, Any]:
    log = AuditLog(path, run_id="run-golden", clock=FixedClock(), fsync=False)
    log.append(event="run_start", agent="orchestrator", reason="run started")
    return log.append(
        event="judge",
        agent="judge",
        question_id="q-golden",
        attempt=2,
        params={"weights": (0.3, 0.2, 0.5), "index": Path("/var/idx"), "api_key": "never"},
        scores={
            "grounding": 0.75,
            "numeric": np.float64(1.0),
            "utility": 0.8250000000000001,
            "zero": -0.0,
        },
        decision="accept",
        reason="U ≥ τ₂",
        data={"cite": _Cite(doc_id="3M_2018_10K", page=47, quote="Capex $1,577M")},
    )


class TestGoldenSchema:
    """The record schema and its bytes are pinned by tests/golden/audit_record.json."""

    def test_record_matches_golden(self, tmp_path: Path, no_secrets: None) -> None:
        """Field names, conversion, redaction, timestamp format and hash are exactly as recorded."""
        record = _golden_record(tmp_path / "g.jsonl")
        line = (tmp_path / "g.jsonl").read_text(encoding="utf-8").splitlines()[-1]
        current = {"fields": list(RECORD_FIELDS), "record": record, "line": line}
        if os.environ.get("FINQA_UPDATE_GOLDEN"):
            GOLDEN.write_text(
                json.dumps(current, indent=2, ensure_ascii=False, sort_keys=True) + "\n",
                encoding="utf-8",
            )
        golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
        assert sorted(record) == sorted(golden["fields"]) == sorted(RECORD_FIELDS)
        assert record == golden["record"]
        assert line == golden["line"]
        assert record["ts"] == "2026-01-01T00:00:01.000000Z" and record["hash"] == record_hash(
            record
        )
