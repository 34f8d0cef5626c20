"""Configuration loading: YAML, env overrides, unknown keys."""

from __future__ import annotations

from pathlib import Path

import pytest
from finqa.agents.config import load_settings
from finqa.agents.errors import ConfigError


class TestSettings:
    def test_default_yaml_loads(self) -> None:
        """The shipped default config validates and is offline."""
        s = load_settings(environ={})
        assert s.llm.backend == "offline"
        assert s.retrieval.step(1).k == 10 and s.retrieval.step(3).rse is True

    def test_unknown_key_is_error(self, tmp_path: Path) -> None:
        """A typo in a config file is rejected with the key named."""
        f = tmp_path / "c.yaml"
        f.write_text("index:\n  pathh: x\n")
        with pytest.raises(ConfigError, match="index.pathh"):
            load_settings(f, environ={})

    def test_env_override(self) -> None:
        """FINQA_SECTION__KEY overrides the YAML value with type coercion."""
        s = load_settings(environ={"FINQA_JUDGE__TAU0": "0.6", "FINQA_INDEX__PATH": "/x"})
        assert s.judge.tau0 == 0.6 and s.index.path == "/x"

    def test_threshold_decays(self) -> None:
        """The acceptance threshold decays 0.5 -> 0.4 -> 0.3 and stays at the floor."""
        j = load_settings(environ={}).judge
        assert [round(j.threshold(t), 2) for t in (1, 2, 3, 4)] == [0.5, 0.4, 0.3, 0.3]

    def test_secrets_never_config(self) -> None:
        """FINQA_AUDIT_HMAC_KEY is not a config key and does not break loading."""
        s = load_settings(environ={"FINQA_AUDIT_HMAC_KEY": "s3cr3t-value"})
        assert "s3cr3t-value" not in s.model_dump_json()


class TestAuditPath:
    def test_default_log_lives_with_the_index(self) -> None:
        """Without audit.path the log is `<index.path>/audit.jsonl`, not the working directory's."""
        settings = load_settings(environ={}, overrides={"index.path": "/data/idx"})
        assert settings.audit.path is None
        assert settings.audit_path == str(Path("/data/idx") / "audit.jsonl")

    def test_explicit_audit_path_is_kept(self) -> None:
        """An audit.path set in the config or the environment is used as given."""
        settings = load_settings(
            environ={}, overrides={"index.path": "/data/idx", "audit.path": "/logs/a.jsonl"}
        )
        assert settings.audit_path == "/logs/a.jsonl"
