"""The daemon's one typed configuration object, loaded once at start.

Sources, later wins: built-in defaults < the TOML file < ``CODERECALL_*`` environment
variables. Nested keys use a double underscore: ``CODERECALL_SERVER__LISTEN``,
``CODERECALL_EMBEDDING__MODEL``, ``CODERECALL_DATA_DIR``. Every bad value raises
``ConfigError`` naming the key and the value. Nothing else in the daemon reads
``os.environ`` for configuration.

Example::

    data_dir = "/var/lib/coderecall"
    [server]
    listen = "127.0.0.1:50551"
    [embedding]
    model = "sentence-transformers/all-MiniLM-L6-v2"
    [[repos]]
    name = "stdlib"
    url = "/path/to/repo"
    branch = "main"
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from coderecalld.errors import ConfigError

ENV_PREFIX = "CODERECALL_"
DEFAULT_LISTEN = "127.0.0.1:50551"
DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
#: The client CLI's variables, not daemon configuration.
_CLIENT_ENV = frozenset({"CODERECALL_ADDR", "CODERECALL_TOKEN"})
_REPO_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$")


class Secret(str):
    """A string that never shows itself in ``repr`` (configs and records get logged)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "***" if self else "''"


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """``[server]``: where gRPC listens and how many worker threads serve it.

    ``tls_cert_file``/``tls_key_file`` (PEM) turn on TLS; ``tls_client_ca_file`` also
    requires every client to present a certificate signed by that CA (mTLS).
    """

    listen: str = DEFAULT_LISTEN
    max_workers: int = 8
    tls_cert_file: str = ""
    tls_key_file: str = ""
    tls_client_ca_file: str = ""


@dataclass(frozen=True, slots=True)
class EmbeddingConfig:
    """``[embedding]``: the dense model.

    ``model`` is a fastembed model name; ``model_path`` a directory with its ONNX file and
    tokenizer (empty: assemble the default model from installed packages). ``threads`` 0
    means one per core. ``batch_size`` is chunks per ONNX run: 8 measured fastest here
    (600 stdlib chunks sorted by length, 2 cores: 14.3 chunks/s at 8, 10.1 at 32, 4.2 at 128).
    ``max_tokens`` is the model's training length (256 for all-MiniLM-L6-v2, per its
    sentence-transformers config). ``dimensions`` > 0 keeps only the first N components of
    each vector, L2-renormalised (Matryoshka-style truncation, as OpenAI's ``dimensions``
    parameter): smaller vectors for large fleets, at some retrieval quality for a model not
    trained for it (all-MiniLM-L6-v2 is not); 0 keeps the model's own size.

    ``endpoint`` (an ``http(s)://`` URL) embeds through a remote service instead of the
    local model (``embed_remote``): ``endpoint_kind`` ``"openai"`` (``/v1/embeddings``) or
    ``"tei"`` (Hugging Face text-embeddings-inference ``/embed``), ``model`` the name sent
    to it, ``api_key`` a bearer token, ``timeout_s`` per request. Empty: the local model.
    """

    model: str = DEFAULT_MODEL
    model_path: str = ""
    threads: int = 0
    batch_size: int = 8
    max_tokens: int = 256
    enabled: bool = True
    dimensions: int = 0
    endpoint: str = ""
    endpoint_kind: str = "openai"
    api_key: Secret = Secret("")
    timeout_s: float = 30.0


@dataclass(frozen=True, slots=True)
class IndexConfig:
    """``[index]``: what gets indexed and how often repos re-sync.

    ``max_file_bytes``: larger blobs are skipped with reason ``too_large``.
    ``exclude``: glob patterns (fnmatch, ``**`` allowed) of repo paths never indexed.
    ``skip_vendored``: also skip vendored and dependency trees (``classify.VENDORED``:
    ``node_modules/``, ``vendor/``, ``third_party/``, virtualenvs, ...) at any depth.
    ``sync_interval_s``: seconds between re-syncs in ``serve``; ``sync_jitter_s`` random
    extra delay so many repos don't fetch at once.
    ``max_chunk_lines``/``max_chunk_chars``: a text section, or a symbol's own code (less
    nested symbols, blank and comment lines), larger than either is oversized: the symbol
    also gets parts cut between statements, the section becomes line windows. At 150 lines
    and 8,000 bytes, 42 of the Python 3.11 stdlib's 71,931 symbols are split (82 parts).
    """

    max_file_bytes: int = 1_000_000
    exclude: tuple[str, ...] = ()
    skip_vendored: bool = True
    sync_interval_s: float = 300.0
    sync_jitter_s: float = 30.0
    max_chunk_lines: int = 150
    max_chunk_chars: int = 8000


@dataclass(frozen=True, slots=True)
class AuthConfig:
    """``[auth]``: who may query (see ``coderecalld.auth``).

    ``mode``: ``"token"`` (bearer tokens from ``tokens_file``) or ``"off"``; empty means
    ``off`` when ``server.listen`` is loopback and is refused on any other address.
    ``tokens_file``: TOML/JSON file of principals and token SHA-256 digests (a mounted
    Secret; env ``CODERECALL_AUTH__TOKENS_FILE``). ``rate_per_s``/``burst``: per-principal
    token bucket in token mode (0 = unlimited).
    """

    mode: str = ""
    tokens_file: str = ""
    rate_per_s: float = 50.0
    burst: float = 100.0


@dataclass(frozen=True, slots=True)
class RepoConfig:
    """``[[repos]]``: one repository to mirror: a local path, ``file://`` or ``https://`` URL.

    Credentials for private remotes never go in ``url`` (see ``coderecalld.credentials``):
    HTTPS uses ``username`` (default ``x-access-token``, GitHub's convention for app and
    personal tokens) with ``token`` or the contents of ``token_file``; SSH uses
    ``ssh_key_file`` (and ``ssh_public_key_file``, default ``<key>.pub``).

    ``include``: globs (as ``index.exclude``); when set, only matching paths are indexed.
    ``exclude``: globs never indexed in this repo, on top of ``index.exclude`` and the
    vendored-tree defaults (``index.skip_vendored``).
    """

    name: str
    url: str
    branch: str = ""
    username: str = ""
    token: Secret = Secret("")
    token_file: str = ""
    ssh_key_file: str = ""
    ssh_public_key_file: str = ""
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Config:
    """The whole configuration. ``data_dir`` holds mirrors, the ledger and the store."""

    data_dir: Path
    server: ServerConfig = field(default_factory=ServerConfig)
    embedding: EmbeddingConfig = field(default_factory=EmbeddingConfig)
    index: IndexConfig = field(default_factory=IndexConfig)
    repos: tuple[RepoConfig, ...] = ()
    auth: AuthConfig = field(default_factory=AuthConfig)
    log_format: str = "text"

    def repo(self, name: str) -> RepoConfig | None:
        """The configured repo called ``name``, or ``None``."""
        return next((r for r in self.repos if r.name == name), None)


def default_data_dir() -> Path:
    """Per-user data dir: ``$XDG_DATA_HOME/coderecall`` or ``~/.local/share/coderecall``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "coderecall"


def load(path: str | Path | None = None, env: Mapping[str, str] | None = None,
         extra_repos: tuple[RepoConfig, ...] = (),
         overrides: Mapping[str, Any] | None = None) -> Config:
    """Load and validate the configuration.

    Args:
        path: TOML file, or ``None`` for defaults only.
        env: environment to read ``CODERECALL_*`` overrides from (default ``os.environ``).
        extra_repos: repos given on the command line, appended to the file's.
        overrides: command-line values, nested like the file (``{"server": {"listen": ..}}``);
            they win over the environment and are validated the same way.

    Raises:
        ConfigError: unreadable file, unknown key, or a bad value (the message names it).
    """
    raw: dict[str, Any] = _read_toml(Path(path)) if path else {}
    _apply_env(raw, os.environ if env is None else env)
    for key, value in (overrides or {}).items():
        if isinstance(value, Mapping) and isinstance(raw.get(key), dict):
            raw[key].update(value)
        else:
            raw[key] = value
    return _build(raw, extra_repos)


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"config file not found: {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {exc}") from exc


def _apply_env(raw: dict[str, Any], env: Mapping[str, str]) -> None:
    for key, value in env.items():
        if not key.startswith(ENV_PREFIX) or key in _CLIENT_ENV:
            continue
        parts = key[len(ENV_PREFIX):].lower().split("__")
        target = raw
        for part in parts[:-1]:
            target = target.setdefault(part, {})
            if not isinstance(target, dict):
                raise ConfigError(f"{key}: {'.'.join(parts)} is not a table")
        target[parts[-1]] = value


def _build(raw: dict[str, Any], extra_repos: tuple[RepoConfig, ...]) -> Config:
    known = {"data_dir", "server", "embedding", "index", "repos", "log_format", "auth"}
    _reject_unknown("", raw, known)
    data_dir = raw.get("data_dir") or default_data_dir()
    if not isinstance(data_dir, (str, Path)):
        raise ConfigError(f"data_dir: expected a path string, got {data_dir!r}")
    repos = tuple(_repo(i, r) for i, r in enumerate(_as_list("repos", raw.get("repos", []))))
    repos += extra_repos
    _check_unique(repos)
    log_format = str(raw.get("log_format", "text"))
    if log_format not in ("text", "json"):
        raise ConfigError(f"log_format: expected 'text' or 'json', got {log_format!r}")
    cfg = Config(
        data_dir=Path(str(data_dir)).expanduser(),
        server=_section("server", ServerConfig, raw.get("server", {})),
        embedding=_section("embedding", EmbeddingConfig, raw.get("embedding", {})),
        index=_section("index", IndexConfig, raw.get("index", {})),
        repos=repos,
        log_format=log_format,
        auth=_section("auth", AuthConfig, raw.get("auth", {})),
    )
    _validate(cfg)
    return cfg


def _reject_unknown(prefix: str, table: Mapping[str, Any], known: set[str]) -> None:
    for key in table:
        if key not in known:
            raise ConfigError(f"{prefix}{key}: unknown configuration key")


def _as_list(key: str, value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise ConfigError(f"{key}: expected an array of tables, got {value!r}")
    return value


def _section(name: str, cls: type, table: Any) -> Any:
    if not isinstance(table, Mapping):
        raise ConfigError(f"{name}: expected a table, got {table!r}")
    _reject_unknown(f"{name}.", table, {f.name for f in fields(cls)})
    defaults = cls()
    values = {k: _coerce(f"{name}.{k}", getattr(defaults, k), v) for k, v in table.items()}
    return replace(defaults, **values)


def _coerce(key: str, default: Any, value: Any) -> Any:
    """Convert ``value`` (from TOML or an env string) to the type of ``default``."""
    try:
        if isinstance(default, bool):
            return _to_bool(value)
        if isinstance(default, int):
            if isinstance(value, (bool, float)):  # TOML 2.7 or true is a mistake, not an int
                raise TypeError(value)
            return int(value)
        if isinstance(default, float):
            if isinstance(value, bool) or not math.isfinite(number := float(value)):
                raise ValueError(value)  # nan/inf would crash the scheduler later
            return number
        if isinstance(default, tuple):
            items = value.split(",") if isinstance(value, str) else list(value)
            if not all(isinstance(i, str) for i in items):
                raise TypeError(value)
            return tuple(i.strip() for i in items if i.strip())
        if not isinstance(value, str):
            raise TypeError(value)
        return Secret(value) if isinstance(default, Secret) else value
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{key}: expected {type(default).__name__}, got {value!r}") from exc


def _to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError(value)


def _repo(index: int, table: Any) -> RepoConfig:
    key = f"repos[{index}]"
    if not isinstance(table, Mapping):
        raise ConfigError(f"{key}: expected a table, got {table!r}")
    extra = ("username", "token_file", "ssh_key_file", "ssh_public_key_file")
    _reject_unknown(f"{key}.", table, {"name", "url", "branch", "token", "include", "exclude", *extra})
    for field_name in ("name", "url", "branch"):
        if not isinstance(table.get(field_name, ""), str):
            raise ConfigError(f"{key}.{field_name}: expected a string, got {table[field_name]!r}")
    url = str(table.get("url", "")).strip()
    if not url:
        raise ConfigError(f"{key}.url: required")
    name = str(table.get("name") or repo_name_from_url(url))
    return RepoConfig(name=name, url=url, branch=str(table.get("branch", "")),
                      token=Secret(table.get("token", "")),
                      include=_coerce(f"{key}.include", (), table.get("include", ())),
                      exclude=_coerce(f"{key}.exclude", (), table.get("exclude", ())),
                      **{k: str(table.get(k, "")) for k in extra})


def repo_name_from_url(url: str) -> str:
    """A repo name derived from its URL or path: ``https://h/org/x.git`` -> ``x``."""
    tail = url.rstrip("/").rsplit("/", 1)[-1]
    tail = tail[:-4] if tail.endswith(".git") else tail
    return re.sub(r"[^A-Za-z0-9._-]", "-", tail).strip("-.") or "repo"


def _check_unique(repos: tuple[RepoConfig, ...]) -> None:
    seen: set[str] = set()
    for repo in repos:
        if not _REPO_NAME.match(repo.name):
            raise ConfigError(f"repos.name: {repo.name!r} must match {_REPO_NAME.pattern}")
        if repo.name in seen:
            raise ConfigError(f"repos.name: {repo.name!r} is configured twice")
        seen.add(repo.name)


def _validate(cfg: Config) -> None:
    host, sep, port = cfg.server.listen.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ConfigError(f"server.listen: expected HOST:PORT, got {cfg.server.listen!r}")
    positive = {
        "server.max_workers": cfg.server.max_workers,
        "embedding.batch_size": cfg.embedding.batch_size,
        "embedding.max_tokens": cfg.embedding.max_tokens,
        "index.max_file_bytes": cfg.index.max_file_bytes,
        "index.sync_interval_s": cfg.index.sync_interval_s,
        "index.max_chunk_lines": cfg.index.max_chunk_lines,
        "index.max_chunk_chars": cfg.index.max_chunk_chars,
        "embedding.timeout_s": cfg.embedding.timeout_s,
    }
    for key, value in positive.items():
        if value <= 0:
            raise ConfigError(f"{key}: must be > 0, got {value!r}")
    if cfg.auth.mode not in ("", "off", "token"):
        raise ConfigError(f"auth.mode: expected 'off' or 'token', got {cfg.auth.mode!r}")
    if bool(cfg.server.tls_cert_file) != bool(cfg.server.tls_key_file):
        raise ConfigError("server.tls_cert_file/tls_key_file: set both or neither")
    if cfg.server.tls_client_ca_file and not cfg.server.tls_cert_file:
        raise ConfigError("server.tls_client_ca_file: needs server.tls_cert_file and tls_key_file")
    for key, value in {"embedding.threads": cfg.embedding.threads,
                       "embedding.dimensions": cfg.embedding.dimensions,
                       "index.sync_jitter_s": cfg.index.sync_jitter_s,
                       "auth.rate_per_s": cfg.auth.rate_per_s, "auth.burst": cfg.auth.burst}.items():
        if value < 0:
            raise ConfigError(f"{key}: must be >= 0, got {value!r}")
    _validate_endpoint(cfg.embedding)


def _validate_endpoint(emb: EmbeddingConfig) -> None:
    if emb.endpoint_kind not in ("openai", "tei"):
        raise ConfigError(f"embedding.endpoint_kind: expected 'openai' or 'tei', got {emb.endpoint_kind!r}")
    if emb.endpoint and not re.match(r"^https?://[^/?#]+", emb.endpoint):
        raise ConfigError(f"embedding.endpoint: expected an http:// or https:// URL, got {emb.endpoint!r}")
