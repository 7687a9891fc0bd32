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
    means one per core (document batches). ``query_sessions``: model sessions that embed
    queries side by side, one thread each (0: one per core); a query never waits behind
    another while a session is free (2 sessions of 1 thread: 162 queries/s here, one session
    of 2 threads: ~75). ``batch_size`` is chunks per ONNX run: 8 measured fastest here
    (600 stdlib chunks sorted by length, 2 cores: 14.3 chunks/s at 8, 10.1 at 32, 4.2 at 128).
    ``max_tokens`` is the model's training length (256 for all-MiniLM-L6-v2, per its
    sentence-transformers config). ``dimensions`` > 0 keeps only the first N components of
    each vector, L2-renormalised (Matryoshka-style truncation, as OpenAI's ``dimensions``
    parameter): smaller vectors for large fleets, at some retrieval quality for a model not
    trained for it (all-MiniLM-L6-v2 is not); 0 keeps the model's own size.

    ``query_quantization``: ``"int8"`` embeds queries with an int8 copy of the model made at
    start (``embed.query_model``: 4.4 vs 9.9 ms per query on one core, CoSQA nDCG@10
    unchanged for the default model); ``"none"`` with the model itself; ``""`` (default):
    ``"int8"`` for the default model, ``"none"`` for a ``model_path`` model (measure yours
    with ``tests/bench/eval_retrieval.py`` before turning it on). Stored vectors come from the
    model itself unless ``document_quantization`` is ``"int8"``: then documents (and queries)
    are embedded by that int8 copy, 1.4-1.6x the chunks/s here at CoSQA nDCG@10 58.6 vs 58.8
    dense (docs/performance.md "Query encoder"); it is another vector space (``model_id``
    ends in ``#int8docs``), so switching either way re-embeds every chunk once into a new
    collection (decision 7). Default ``"none"``.

    ``providers``: ONNX Runtime execution providers in order of preference, e.g.
    ``["CUDAExecutionProvider", "CPUExecutionProvider"]`` with the ``fastembed-gpu`` package
    installed in place of ``fastembed`` (empty: the runtime's default, the CPU). A provider
    the installed runtime lacks fails at start with the runtime's list of available ones.
    Vectors from another provider may differ in the last digits, not in meaning: the
    vector space (``model_id``) is unchanged.

    ``endpoint`` (an ``http(s)://`` URL) embeds through a remote service instead of the
    local model (``embed_remote``): ``endpoint_kind`` ``"openai"`` (``/v1/embeddings``) or
    ``"tei"`` (Hugging Face text-embeddings-inference ``/embed``), ``model`` the name sent
    to it, ``api_key`` a bearer token, ``timeout_s`` per request. Empty: the local model.
    ``query_prefix`` / ``document_prefix`` (endpoint only): text put before every query /
    document sent, the instruction a model was trained with (CodeRankEmbed's queries:
    ``"Represent this query for searching relevant code: "``); a ``document_prefix`` is part
    of the vector space's name (``embed.remote.remote_model_id``), a ``query_prefix`` not.
    """

    model: str = DEFAULT_MODEL
    model_path: str = ""
    threads: int = 0
    query_sessions: int = 0
    query_quantization: str = ""
    document_quantization: str = "none"
    providers: tuple[str, ...] = ()
    batch_size: int = 8
    max_tokens: int = 256
    enabled: bool = True
    dimensions: int = 0
    endpoint: str = ""
    endpoint_kind: str = "openai"
    api_key: Secret = Secret("")
    timeout_s: float = 30.0
    query_prefix: str = ""
    document_prefix: str = ""

    @property
    def query_quantization_resolved(self) -> str:
        """``query_quantization`` with ``""`` resolved: ``"int8"`` or ``"none"`` (always
        ``"int8"`` with ``document_quantization = "int8"``: one vector space)."""
        if self.document_quantization == "int8":
            return "int8"
        if self.query_quantization:
            return self.query_quantization
        return "none" if self.model_path else "int8"


@dataclass(frozen=True, slots=True)
class IndexConfig:
    """``[index]``: what gets indexed and how often repos re-sync.

    ``max_file_bytes``: larger blobs are skipped with reason ``too_large``.
    ``exclude``: glob patterns (fnmatch, ``**`` allowed) of repo paths never indexed.
    ``skip_vendored``: also skip vendored and dependency trees (``classify.VENDORED``:
    ``node_modules/``, ``vendor/``, ``third_party/``, virtualenvs, ...) at any depth.
    ``skip_translations``: also skip the translated copies of a tree kept beside an English
    one (``docs/de/``, ``docs/zh/`` beside ``docs/en/``: ``classify.translation_dirs``).
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
    skip_translations: bool = True
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
class ClusterConfig:
    """``[cluster]``: replica sharding (DESIGN.md decision 9, ``coderecalld.ops.cluster``).

    ``replicas``: how many daemons share the repos (a StatefulSet's replica count); each
    indexes the repos whose SHA-256 name hash mod ``replicas`` is its ``ordinal``, and all
    serve queries. ``ordinal``: this replica's index in ``[0, replicas)``; ``-1`` (or an
    empty env value) derives it from the host name's trailing ``-N``, else 0.
    """

    replicas: int = 1
    ordinal: int = -1


@dataclass(frozen=True, slots=True)
class MetricsConfig:
    """``[metrics]``: Prometheus ``/metrics`` on its own HTTP port (``coderecalld serve``).

    ``listen`` is ``HOST:PORT`` (``0.0.0.0:9464`` in a container; 9464 is the port
    OpenTelemetry's Prometheus exporter registered); empty (the default) serves no metrics,
    so a laptop's ``serve`` opens no port it was not asked for.
    """

    listen: str = ""


@dataclass(frozen=True, slots=True)
class WebhookConfig:
    """``[webhook]``: push notifications that sync a repo at once (``coderecalld.ops.webhook``).

    ``listen`` is ``HOST:PORT`` of the HTTP endpoint (``/hooks/github``, ``/hooks/gitlab``);
    empty (the default) disables it. ``secret`` (env ``CODERECALL_WEBHOOK__SECRET``) is the
    shared secret: GitHub signs the body with it, GitLab sends it as ``X-Gitlab-Token``;
    required when ``listen`` is set. ``max_body_bytes``: larger deliveries answer 413.
    """

    listen: str = ""
    secret: Secret = field(default_factory=lambda: Secret(""))
    max_body_bytes: int = 5_000_000


@dataclass(frozen=True, slots=True)
class VerifyConfig:
    """``[verify]``: the ledger-vs-store check (``coderecalld.index.verify``).

    ``cron`` is a five-field crontab expression in UTC for the nightly check in ``serve``
    (default ``"0 3 * * *"``: 03:00 UTC); empty disables it. ``repair``: fix what it
    finds (delete orphan points, re-index files with missing points).
    """

    cron: str = "0 3 * * *"
    repair: bool = True


@dataclass(frozen=True, slots=True)
class LoggingConfig:
    """``[logging]``: ``format`` ``"text"`` (key=value) or ``"json"`` (one object per line);
    ``level`` one of debug, info, warning, error (env ``CODERECALL_LOGGING__LEVEL``)."""

    format: str = "text"
    level: str = "info"


@dataclass(frozen=True, slots=True)
class AskConfig:
    """``[ask]``: the optional chat model behind the ``Ask`` RPC; off while ``endpoint`` is empty.

    ``endpoint``: base URL of an OpenAI-compatible API (``http://127.0.0.1:8080/v1``); Ask
    POSTs to ``<endpoint>/chat/completions``. ``model``: the model name sent (required with
    an endpoint). ``api_key``: bearer token, if the endpoint wants one (a ``Secret``; set it
    with ``CODERECALL_ASK__API_KEY`` rather than in the file). ``timeout_s``: per call.
    ``max_answer_tokens``: the answer's ``max_tokens``. No other RPC ever calls the model.
    """

    endpoint: str = ""
    model: str = ""
    api_key: Secret = Secret("")
    timeout_s: float = 30.0
    max_answer_tokens: int = 800


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
    ``roles``: ``"role:glob"`` entries that set the role of matching paths (a payload field
    and a search filter: ``files.classify.role``), tried in order before the path
    conventions, e.g. ``["source:src/testing_utils/**", "docs:site/**"]``. A change takes
    effect for files re-indexed after it.
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
    roles: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StoreConfig:
    """``[store]``: where the vectors live (DESIGN.md decision 6; ``coderecalld.store``).

    ``backend``: ``"edge"`` (embedded, under ``data_dir/store``) or ``"server"`` (a Qdrant
    server or cluster at ``url``, ``http(s)://host:6333``; ``https`` turns on TLS).
    ``api_key`` is sent to the server (env ``CODERECALL_STORE__API_KEY``; never logged).
    ``ca_file``: PEM CA bundle for a server certificate from a private CA. ``prefer_grpc``:
    gRPC (port 6334) instead of REST. ``alias``: the alias naming the active collection.
    ``quantization``: ``""`` or ``"int8"``; ``on_disk``: original vectors on disk. Both
    apply when a collection is created. ``timeout_s``: per request.

    ``optimize_cron`` (Edge only; a five-field crontab in UTC, default ``"30 3 * * *"``,
    empty disables): when ``serve`` runs the engine's optimizers (``EdgeStore.optimize``:
    HNSW graphs, merged segments, the int8 copies). Until they run, every query scans the
    points written since the last run. The engine holds the process while it optimizes
    (no query is answered: 250 s at 100k points here, docs/performance.md), hence a quiet
    hour; ``coderecalld index`` and ``coderecalld optimize`` run it too. A Qdrant server
    optimizes on its own.
    """

    backend: str = "edge"
    url: str = ""
    api_key: Secret = Secret("")
    ca_file: str = ""
    prefer_grpc: bool = False
    timeout_s: float = 30.0
    alias: str = "coderecall-current"
    quantization: str = ""
    on_disk: bool = False
    optimize_cron: str = "30 3 * * *"


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
    cluster: ClusterConfig = field(default_factory=ClusterConfig)
    metrics: MetricsConfig = field(default_factory=MetricsConfig)
    webhook: WebhookConfig = field(default_factory=WebhookConfig)
    verify: VerifyConfig = field(default_factory=VerifyConfig)
    logging: LoggingConfig = field(default_factory=LoggingConfig)
    store: StoreConfig = field(default_factory=StoreConfig)
    ask: AskConfig = field(default_factory=AskConfig)

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
    known = {"data_dir", "server", "embedding", "index", "repos", "log_format", "auth", "cluster",
             "metrics", "webhook", "verify", "logging", "store", "ask"}
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
        cluster=_section("cluster", ClusterConfig, _cluster_table(raw.get("cluster", {}))),
        **_ops_sections(raw, log_format),
        store=_section("store", StoreConfig, raw.get("store", {})),
        ask=_ask(raw.get("ask", {})),
    )
    _validate(cfg)
    _validate_ops(cfg)
    return cfg


def _ask(table: Any) -> AskConfig:
    """``[ask]``, its key kept a ``Secret``; an endpoint needs http(s) and a model."""
    ask = _section("ask", AskConfig, table)
    ask = replace(ask, api_key=Secret(ask.api_key))
    if ask.endpoint and not re.match(r"^https?://[^/\s]+", ask.endpoint):
        raise ConfigError(f"ask.endpoint: expected an http:// or https:// URL, got {ask.endpoint!r}")
    if ask.endpoint and not ask.model:
        raise ConfigError("ask.model: required when ask.endpoint is set")
    if ask.timeout_s <= 0 or ask.max_answer_tokens <= 0:
        raise ConfigError("ask.timeout_s and ask.max_answer_tokens: must be > 0")
    return ask


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
        if isinstance(default, Secret):
            if not isinstance(value, str):
                raise TypeError(type(value).__name__)
            return Secret(value)
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
        shown = f"a value of type {type(value).__name__}" if isinstance(default, Secret) else repr(value)  # never echo a secret
        raise ConfigError(f"{key}: expected {type(default).__name__}, got {shown}") from exc


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
    _reject_unknown(f"{key}.", table, {"name", "url", "branch", "token", "include", "exclude", "roles",
                                       *extra})
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
                      roles=_roles(f"{key}.roles", _coerce(f"{key}.roles", (), table.get("roles", ()))),
                      **{k: str(table.get(k, "")) for k in extra})


#: File roles a ``roles`` override may name (``files.classify.Role``; config sits below
#: files/ in the layers, so the names are repeated here and a unit test keeps them equal).
ROLE_NAMES = ("source", "test", "docs", "example", "generated", "vendored", "config")


def _roles(key: str, entries: tuple[str, ...]) -> tuple[str, ...]:
    """``roles`` entries, each ``"role:glob"`` with a known role and a non-empty glob."""
    for entry in entries:
        name, sep, glob = entry.partition(":")
        if not sep or not glob or name not in ROLE_NAMES:
            raise ConfigError(f"{key}: expected \"role:glob\" with role one of "
                              f"{', '.join(ROLE_NAMES)}, got {entry!r}")
    return entries


def repo_name_from_url(url: str) -> str:
    """A repo name derived from its URL or path: ``https://h/org/x.git`` -> ``x``,
    ``C:\\Users\\me\\chi`` -> ``chi``."""
    tail = re.split(r"[/\\]", url.rstrip("/\\"))[-1]
    tail = tail[:-4] if tail.endswith(".git") else tail
    return re.sub(r"[^A-Za-z0-9._-]", "-", tail).strip("-.") or "repo"


def valid_repo_name(name: str) -> bool:
    """Whether ``name`` is a repo name the config accepts (``_REPO_NAME``)."""
    return bool(_REPO_NAME.match(name))


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
                       "embedding.query_sessions": cfg.embedding.query_sessions,
                       "embedding.dimensions": cfg.embedding.dimensions,
                       "index.sync_jitter_s": cfg.index.sync_jitter_s,
                       "auth.rate_per_s": cfg.auth.rate_per_s, "auth.burst": cfg.auth.burst}.items():
        if value < 0:
            raise ConfigError(f"{key}: must be >= 0, got {value!r}")
    _validate_cluster(cfg.cluster)
    _validate_store(cfg.store)
    _validate_endpoint(cfg.embedding)


def _cluster_table(table: Any) -> Any:
    """A Kubernetes ``fieldRef`` to an absent label (``apps.kubernetes.io/pod-index`` before
    1.28) yields ``""``: read an empty ``cluster.ordinal`` as -1, derive from the host name."""
    if isinstance(table, Mapping) and table.get("ordinal") == "":
        return {k: v for k, v in table.items() if k != "ordinal"}
    return table


def _validate_cluster(cluster: ClusterConfig) -> None:
    if cluster.replicas < 1:
        raise ConfigError(f"cluster.replicas: must be >= 1, got {cluster.replicas!r}")
    if cluster.ordinal < -1:
        raise ConfigError(f"cluster.ordinal: must be >= 0, or -1 for the host name's, got {cluster.ordinal!r}")
    if cluster.ordinal >= cluster.replicas:
        raise ConfigError(f"cluster.ordinal: must be < cluster.replicas ({cluster.replicas}), "
                          f"got {cluster.ordinal!r}")


LOG_LEVELS = ("debug", "info", "warning", "error")


def _ops_sections(raw: dict[str, Any], log_format: str) -> dict[str, Any]:
    """``[metrics]``, ``[webhook]``, ``[verify]``, ``[logging]``; the older top-level
    ``log_format`` is the default of ``logging.format``."""
    logging_table = raw.get("logging", {})
    if isinstance(logging_table, Mapping) and "format" not in logging_table:
        logging_table = {**logging_table, "format": log_format}
    return {"metrics": _section("metrics", MetricsConfig, raw.get("metrics", {})),
            "webhook": _section("webhook", WebhookConfig, raw.get("webhook", {})),
            "verify": _section("verify", VerifyConfig, raw.get("verify", {})),
            "logging": _section("logging", LoggingConfig, logging_table)}


def _validate_ops(cfg: Config) -> None:
    for key, listen in (("metrics.listen", cfg.metrics.listen), ("webhook.listen", cfg.webhook.listen)):
        host, sep, port = listen.rpartition(":")
        if listen and (not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535):
            raise ConfigError(f"{key}: expected HOST:PORT or empty, got {listen!r}")
    if cfg.webhook.listen and not cfg.webhook.secret:
        raise ConfigError("webhook.secret: required when webhook.listen is set "
                          "(env CODERECALL_WEBHOOK__SECRET)")
    if cfg.webhook.max_body_bytes <= 0:
        raise ConfigError(f"webhook.max_body_bytes: must be > 0, got {cfg.webhook.max_body_bytes!r}")
    for key, cron in (("verify.cron", cfg.verify.cron), ("store.optimize_cron", cfg.store.optimize_cron)):
        if cron:
            from apscheduler.triggers.cron import CronTrigger

            try:
                CronTrigger.from_crontab(cron)
            except ValueError as exc:
                raise ConfigError(f"{key}: expected a 5-field crontab expression, "
                                  f"got {cron!r}: {exc}") from None
    if cfg.logging.format not in ("text", "json"):
        raise ConfigError(f"logging.format: expected 'text' or 'json', got {cfg.logging.format!r}")
    if cfg.logging.level.lower() not in LOG_LEVELS:
        raise ConfigError(f"logging.level: expected one of {', '.join(LOG_LEVELS)}, "
                          f"got {cfg.logging.level!r}")


_ALIAS = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$")


def _validate_store(store: StoreConfig) -> None:
    if store.backend not in ("edge", "server"):
        raise ConfigError(f"store.backend: expected 'edge' or 'server', got {store.backend!r}")
    if store.quantization not in ("", "int8"):
        raise ConfigError(f"store.quantization: expected '' or 'int8', got {store.quantization!r}")
    if not _ALIAS.match(store.alias):
        raise ConfigError(f"store.alias: {store.alias!r} must match {_ALIAS.pattern}")
    if store.timeout_s <= 0:
        raise ConfigError(f"store.timeout_s: must be > 0, got {store.timeout_s!r}")
    if store.backend != "server":
        return
    scheme, sep, rest = store.url.partition("://")
    shown = re.sub(r"(?<=://)[^/\s@]+@", "", store.url)  # as credentials.redact_url
    if not sep or scheme not in ("http", "https") or not rest.strip("/"):
        raise ConfigError(f"store.url: expected http(s)://HOST[:PORT] for backend 'server', "
                          f"got {shown!r}")
    if store.ca_file and scheme != "https":
        raise ConfigError(f"store.ca_file: needs an https:// store.url, got {shown!r}")


def _validate_endpoint(emb: EmbeddingConfig) -> None:
    if emb.query_quantization not in ("", "int8", "none"):
        raise ConfigError(f"embedding.query_quantization: expected 'int8', 'none' or '' (automatic), "
                          f"got {emb.query_quantization!r}")
    if emb.document_quantization not in ("int8", "none"):
        raise ConfigError(f"embedding.document_quantization: expected 'int8' or 'none', "
                          f"got {emb.document_quantization!r}")
    if emb.document_quantization == "int8" and emb.endpoint:
        raise ConfigError("embedding.document_quantization: 'int8' applies to the local model; "
                          "embedding.endpoint embeds elsewhere")
    if emb.document_quantization == "int8" and emb.query_quantization == "none":
        raise ConfigError("embedding.query_quantization: 'none' would embed queries in another vector "
                          "space than embedding.document_quantization = 'int8' documents; leave it empty")
    if emb.endpoint_kind not in ("openai", "tei"):
        raise ConfigError(f"embedding.endpoint_kind: expected 'openai' or 'tei', got {emb.endpoint_kind!r}")
    for key in ("query_prefix", "document_prefix"):
        if getattr(emb, key) and not emb.endpoint:
            raise ConfigError(f"embedding.{key}: applies to embedding.endpoint (the local model "
                              "takes no instruction)")
    if emb.endpoint and not re.match(r"^https?://[^/?#]+", emb.endpoint):
        raise ConfigError(f"embedding.endpoint: expected an http:// or https:// URL, got {emb.endpoint!r}")
