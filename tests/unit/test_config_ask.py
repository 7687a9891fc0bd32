"""``[ask]``: off by default, validated at start, its API key never shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from coderecalld import config
from coderecalld.config import AskConfig, Secret
from coderecalld.errors import ConfigError


def test_off_by_default() -> None:
    assert config.load(None, env={}).ask == AskConfig()
    assert config.load(None, env={}).ask.endpoint == ""


def test_file_and_env(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[ask]\nendpoint = "http://127.0.0.1:8080/v1"\nmodel = "qwen2.5-coder"\ntimeout_s = 12\n')
    ask = config.load(path, env={"CODERECALL_ASK__API_KEY": "sk-live-123"}).ask
    assert (ask.endpoint, ask.model, ask.timeout_s, ask.max_answer_tokens) == (
        "http://127.0.0.1:8080/v1", "qwen2.5-coder", 12.0, 800)
    assert isinstance(ask.api_key, Secret) and ask.api_key == "sk-live-123"
    assert "sk-live-123" not in repr(ask) and "api_key=***" in repr(ask)


@pytest.mark.parametrize(("env", "message"), [
    ({"CODERECALL_ASK__ENDPOINT": "ftp://x/v1", "CODERECALL_ASK__MODEL": "m"}, "ask.endpoint"),
    ({"CODERECALL_ASK__ENDPOINT": "http://x/v1"}, "ask.model: required"),
    ({"CODERECALL_ASK__TIMEOUT_S": "0"}, "ask.timeout_s"),
    ({"CODERECALL_ASK__TIMEOUT_S": "soon"}, "ask.timeout_s: expected float"),
    ({"CODERECALL_ASK__TEMPERATURE": "1"}, "ask.temperature: unknown configuration key"),
])
def test_bad_values_name_the_key(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        config.load(None, env=env)
