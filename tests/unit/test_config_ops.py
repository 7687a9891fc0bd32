"""``[metrics]``, ``[webhook]``, ``[verify]``, ``[logging]``: defaults, env overrides, and the
start-time errors that name the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from coderecalld import config
from coderecalld.errors import ConfigError


def load(tmp_path: Path, text: str = "", **env: str) -> config.Config:
    path = tmp_path / "coderecall.toml"
    path.write_text(f'data_dir = "{tmp_path}/data"\n{text}')
    return config.load(path, env=env)


def test_defaults(tmp_path: Path) -> None:
    cfg = load(tmp_path)
    assert (cfg.metrics.listen, cfg.webhook.listen, cfg.webhook.max_body_bytes) == ("", "", 5_000_000)
    assert (cfg.verify.cron, cfg.verify.repair) == ("0 3 * * *", True)
    assert (cfg.logging.format, cfg.logging.level) == ("text", "info")


def test_file_and_env(tmp_path: Path) -> None:
    cfg = load(tmp_path, '[metrics]\nlisten = "0.0.0.0:9464"\n[webhook]\nlisten = "0.0.0.0:8080"\n'
                         '[verify]\ncron = "30 2 * * 1-5"\nrepair = false\n[logging]\nformat = "json"\n',
               CODERECALL_WEBHOOK__SECRET="s3cret-from-env", CODERECALL_LOGGING__LEVEL="warning")
    assert (cfg.metrics.listen, cfg.webhook.listen) == ("0.0.0.0:9464", "0.0.0.0:8080")
    assert cfg.webhook.secret == "s3cret-from-env" and isinstance(cfg.webhook.secret, config.Secret)
    assert "s3cret" not in repr(cfg)
    assert (cfg.verify.cron, cfg.verify.repair, cfg.logging.format, cfg.logging.level) == (
        "30 2 * * 1-5", False, "json", "warning")


def test_top_level_log_format_still_works(tmp_path: Path) -> None:
    assert load(tmp_path, 'log_format = "json"\n').logging.format == "json"
    assert load(tmp_path, 'log_format = "json"\n[logging]\nformat = "text"\n').logging.format == "text"


@pytest.mark.parametrize(("text", "env", "message"), [
    ('[metrics]\nlisten = "9464"\n', {}, "metrics.listen: expected HOST:PORT or empty, got '9464'"),
    ('[webhook]\nlisten = "127.0.0.1:8080"\n', {}, "webhook.secret: required when webhook.listen is set"),
    ('[webhook]\nmax_body_bytes = 0\n', {}, "webhook.max_body_bytes: must be > 0, got 0"),
    ('[verify]\ncron = "every night"\n', {}, "verify.cron: expected a 5-field crontab expression"),
    ('[logging]\nlevel = "loud"\n', {}, "logging.level: expected one of debug, info, warning, error"),
    ('[logging]\nformat = "xml"\n', {}, "logging.format: expected 'text' or 'json', got 'xml'"),
    ('[webhook]\nsecret = 12345\n', {}, "webhook.secret: expected Secret, got a value of type int"),
    ('[metrics]\nport = 1\n', {}, "metrics.port: unknown configuration key"),
])
def test_bad_values_name_the_key(tmp_path: Path, text: str, env: dict, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        load(tmp_path, text, **env)
    assert str(info.value).startswith(message)
