"""Tokens -> principals, repo scopes, auth mode defaults, the rate limiter, config keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coderecalld import auth, config
from coderecalld.auth import AuthMode, Authenticator, Principal, RateLimiter, Role
from coderecalld.errors import ConfigError, ResourceExhausted, Unauthenticated

TOKEN = "s3cr3t-token-value"


def tokens_file(tmp_path: Path, entries: list[dict], suffix: str = ".json") -> Path:
    path = tmp_path / f"tokens{suffix}"
    if suffix == ".json":
        path.write_text(json.dumps({"tokens": entries}))
    else:
        path.write_text("\n".join(
            f'[[tokens]]\nprincipal = "{e["principal"]}"\nsha256 = "{e["sha256"]}"\n'
            f'repos = {json.dumps(e["repos"])}\nrole = "{e.get("role", "reader")}"\n' for e in entries))
    return path


def cfg(tmp_path: Path, listen: str = "127.0.0.1:50551", **auth_keys: str) -> config.Config:
    env = {"CODERECALL_SERVER__LISTEN": listen, "CODERECALL_DATA_DIR": str(tmp_path)}
    env.update({f"CODERECALL_AUTH__{k.upper()}": v for k, v in auth_keys.items()})
    return config.load(None, env=env)


@pytest.mark.parametrize("suffix", [".json", ".toml"])
def test_tokens_file_maps_a_bearer_token_to_its_principal(tmp_path: Path, suffix: str) -> None:
    path = tokens_file(tmp_path, [
        {"principal": "bot", "sha256": auth.token_sha256(TOKEN), "repos": ["acme/*"]},
        {"principal": "ops", "sha256": auth.token_sha256("other"), "repos": ["*"], "role": "admin"},
    ], suffix)
    authn = auth.from_config(cfg(tmp_path, mode="token", tokens_file=str(path)))
    assert authn.authenticate(f"Bearer {TOKEN}") == Principal("bot", ("acme/*",), Role.READER)
    assert authn.authenticate("bearer other").is_admin
    for bad in (None, "", TOKEN, f"Basic {TOKEN}", "Bearer ", f"Bearer {TOKEN}x",
                f"Bearer {auth.token_sha256(TOKEN)}"):  # the digest itself is no token
        with pytest.raises(Unauthenticated):
            authn.authenticate(bad)


def test_plaintext_or_malformed_entries_are_refused(tmp_path: Path) -> None:
    for entry, message in (
        ({"principal": "bot", "sha256": TOKEN, "repos": []}, "64 hex digits"),
        ({"principal": "", "sha256": "a" * 64, "repos": []}, "principal: required"),
        ({"principal": "bot", "sha256": "a" * 64, "repos": [""]}, "repo globs"),
        ({"principal": "bot", "sha256": "a" * 64, "repos": [], "role": "root"}, "role"),
        ({"principal": "bot", "sha256": "a" * 64, "token": TOKEN}, "unknown key"),
    ):
        path = tokens_file(tmp_path, [entry])
        with pytest.raises(ConfigError, match=message) as info:
            auth.load_tokens(path)
        assert TOKEN not in str(info.value)
    broken = tmp_path / "broken.toml"
    broken.write_text(f'[[tokens]]\nsha256 = "{TOKEN}\n')
    with pytest.raises(ConfigError, match="not valid TOML/JSON") as info:
        auth.load_tokens(broken)
    assert TOKEN not in str(info.value)  # the parser's message would quote the line


def test_auth_defaults_off_on_loopback_only(tmp_path: Path) -> None:
    assert auth.from_config(cfg(tmp_path)).mode is AuthMode.OFF
    assert auth.from_config(cfg(tmp_path, "[::1]:1")).authenticate(None) == auth.LOCAL
    assert auth.from_config(cfg(tmp_path, "localhost:1")).mode is AuthMode.OFF
    for listen in ("0.0.0.0:50551", "10.1.2.3:1", "[::]:1", "example.com:1"):
        with pytest.raises(ConfigError, match="not a loopback address"):
            auth.from_config(cfg(tmp_path, listen))
    explicit = auth.from_config(cfg(tmp_path, "0.0.0.0:1", mode="off"))
    assert explicit.mode is AuthMode.OFF
    with pytest.raises(ConfigError, match="tokens_file: required"):
        auth.from_config(cfg(tmp_path, mode="token"))
    with pytest.raises(ConfigError, match="auth.mode: expected"):
        cfg(tmp_path, mode="on")


def test_scope_is_the_matching_subset() -> None:
    p = Principal("x", ("acme/*", "tools"), Role.READER)
    assert p.scope(["acme/a", "acme/b/c", "tools", "toolsx", "other/acme"]) == (
        "acme/a", "acme/b/c", "tools")
    assert Principal("none", (), Role.READER).scope(["a"]) == ()
    # Memoized per (patterns, repos): another repo list, or a generator of it, is its own question.
    assert p.scope(iter(["tools", "acme/z"])) == ("tools", "acme/z")
    assert p.scope(["toolsx"]) == ()
    assert Principal("y", ("toolsx",), Role.READER).scope(["toolsx"]) == ("toolsx",)


def test_rate_limiter_is_a_token_bucket_per_name() -> None:
    now = [0.0]
    limiter = RateLimiter(rate_per_s=2.0, burst=3, clock=lambda: now[0])
    for _ in range(3):
        limiter.admit("a")
    with pytest.raises(ResourceExhausted):
        limiter.admit("a")
    limiter.admit("b")  # another principal has its own bucket
    now[0] = 0.5  # one token refilled
    limiter.admit("a")
    with pytest.raises(ResourceExhausted):
        limiter.admit("a")
    RateLimiter(0, 1).admit("a")  # 0 = unlimited


def test_token_mode_needs_entries() -> None:
    with pytest.raises(ConfigError):
        Authenticator(AuthMode.TOKEN, ())


def test_repo_credentials_config_never_shows_the_token(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[[repos]]\nname = "p"\nurl = "https://git.example/p.git"\ntoken = "tok-123"\n'
                    'username = "bot"\n[auth]\nmode = "off"\n')
    loaded = config.load(path, env={})
    assert loaded.repos[0].token == "tok-123" and "tok-123" not in repr(loaded)
    assert loaded.auth.mode == "off"
