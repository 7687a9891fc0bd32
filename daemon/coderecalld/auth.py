"""Who is asking, and what they may see: bearer tokens -> principals -> repo scopes.

Tokens are configured only as SHA-256 hex digests, in a tokens file (TOML or JSON, e.g. a
mounted Kubernetes Secret)::

    [[tokens]]
    principal = "ci-bot"
    sha256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
    repos = ["acme/*", "tools"]      # fnmatch globs over repo names ("*" also spans "/")
    role = "reader"                  # reader | admin (admin may also SyncRepo)

A request's ``authorization: Bearer <token>`` is hashed and compared with every entry in
constant time (``hmac.compare_digest``); the plaintext is never stored or logged.

No grpc here: the transport hands ``authenticate`` the metadata value and passes the
resulting ``Principal`` to the domain.
"""

from __future__ import annotations

import fnmatch
import functools
import hashlib
import hmac
import ipaddress
import json
import threading
import time
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from coderecalld.config import Config
from coderecalld.errors import ConfigError, ResourceExhausted, Unauthenticated

_HEX64 = frozenset("0123456789abcdef")


class Role(StrEnum):
    """What a principal may do: ``reader`` queries; ``admin`` also triggers syncs."""

    READER = "reader"
    ADMIN = "admin"


class AuthMode(StrEnum):
    """``off``: every caller is the local principal; ``token``: bearer tokens required."""

    OFF = "off"
    TOKEN = "token"


@dataclass(frozen=True, slots=True)
class Principal:
    """An authenticated caller: a name (for logs and rate limits), repo globs and a role."""

    name: str
    repo_patterns: tuple[str, ...]
    role: Role = Role.READER

    @property
    def is_admin(self) -> bool:
        """True when the role allows writes (SyncRepo)."""
        return self.role is Role.ADMIN

    def allows(self, repo: str) -> bool:
        """True if ``repo`` matches one of the principal's patterns."""
        return any(fnmatch.fnmatchcase(repo, p) for p in self.repo_patterns)

    def scope(self, repos: Iterable[str]) -> tuple[str, ...]:
        """The subset of ``repos`` this principal may read, in order (memoized per pattern
        set and repo list: every query asks it, and 115 repos cost ~0.6 ms of fnmatch)."""
        return _scope(self.repo_patterns, tuple(repos))


@functools.lru_cache(maxsize=1024)
def _scope(patterns: tuple[str, ...], repos: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(r for r in repos if any(fnmatch.fnmatchcase(r, p) for p in patterns))


#: The caller when auth is off, and for in-process callers of the domain (tests, tools):
#: they already hold the data dir, so a scope would protect nothing.
LOCAL = Principal("local", ("*",), Role.ADMIN)


@dataclass(frozen=True, slots=True)
class TokenEntry:
    """One configured token: its SHA-256 hex digest and the principal it stands for."""

    sha256: str
    principal: Principal

    def __repr__(self) -> str:  # the digest is not the token, but keep it out of logs anyway
        return f"TokenEntry(principal={self.principal.name!r}, sha256=***)"


class RateLimiter:
    """Token bucket per principal name: ``rate_per_s`` refill, ``burst`` capacity.

    ``rate_per_s`` 0 disables limiting. Thread-safe.
    """

    def __init__(self, rate_per_s: float, burst: float, clock: Any = time.monotonic) -> None:
        self.rate_per_s, self.burst, self._clock = rate_per_s, max(burst, 1.0), clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def admit(self, name: str) -> None:
        """Take one request from ``name``'s bucket. Raises ``ResourceExhausted`` when empty."""
        if self.rate_per_s <= 0:
            return
        with self._lock:
            now = self._clock()
            tokens, last = self._buckets.get(name, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate_per_s)
            if tokens < 1.0:
                self._buckets[name] = (tokens, now)
                raise ResourceExhausted(
                    f"rate limit: {self.rate_per_s:g} requests/s (burst {self.burst:g}) exceeded")
            self._buckets[name] = (tokens - 1.0, now)


class Authenticator:
    """Maps an ``authorization`` metadata value to a ``Principal`` and rate-limits it."""

    def __init__(self, mode: AuthMode, entries: tuple[TokenEntry, ...] = (),
                 limiter: RateLimiter | None = None) -> None:
        if mode is AuthMode.TOKEN and not entries:
            raise ConfigError("auth.tokens_file: mode 'token' needs at least one token entry")
        self.mode = mode
        self._entries = entries
        self._limiter = limiter or RateLimiter(0, 1)

    def authenticate(self, authorization: str | None) -> Principal:
        """The principal for an ``authorization`` header value (``"Bearer <token>"``).

        Raises:
            Unauthenticated: auth is on and the header is missing, malformed or unknown.
        """
        if self.mode is AuthMode.OFF:
            return LOCAL
        scheme, _, token = (authorization or "").strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthenticated("missing bearer token (metadata 'authorization: Bearer <token>')")
        digest = hashlib.sha256(token.strip().encode("utf-8", "surrogateescape")).hexdigest()
        found = None
        for entry in self._entries:  # no early exit: time does not depend on which entry matched
            if hmac.compare_digest(digest, entry.sha256):
                found = entry.principal
        if found is None:
            raise Unauthenticated("invalid bearer token")
        return found

    def admit(self, principal: Principal) -> None:
        """Charge one request to ``principal``. Raises ``ResourceExhausted`` over the limit."""
        self._limiter.admit(principal.name)


def token_sha256(token: str) -> str:
    """The hex digest to put in a tokens file for ``token``."""
    return hashlib.sha256(token.encode()).hexdigest()


def is_loopback(listen: str) -> bool:
    """True if ``host:port`` binds only a loopback address (``localhost``, 127/8, ``::1``)."""
    host = listen.rpartition(":")[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def from_config(cfg: Config) -> Authenticator:
    """The authenticator ``cfg`` asks for.

    ``auth.mode`` empty (the default) means ``off`` on a loopback listen address and is
    refused anywhere else: serving every repo to the network without auth must be a
    written choice (``mode = "off"``).

    Raises:
        ConfigError: bad mode, unreadable or invalid tokens file, or implicit auth-off on a
            non-loopback address.
    """
    mode = cfg.auth.mode or ("off" if is_loopback(cfg.server.listen) else "")
    if not mode:
        raise ConfigError(
            f"auth.mode: server.listen {cfg.server.listen!r} is not a loopback address; set "
            "auth.mode = 'token' (with auth.tokens_file) or explicitly auth.mode = 'off'")
    if mode == AuthMode.OFF:
        # One local principal: a rate limit would only throttle its own benchmark or agent.
        return Authenticator(AuthMode.OFF)
    limiter = RateLimiter(cfg.auth.rate_per_s, cfg.auth.burst)
    if not cfg.auth.tokens_file:
        raise ConfigError("auth.tokens_file: required when auth.mode = 'token'")
    return Authenticator(AuthMode.TOKEN, load_tokens(Path(cfg.auth.tokens_file)), limiter)


def load_tokens(path: Path) -> tuple[TokenEntry, ...]:
    """Token entries from a TOML or JSON file (``{"tokens": [...]}`` or a bare JSON list).

    Raises:
        ConfigError: unreadable file or an invalid entry (the message names the entry).
    """
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"auth.tokens_file: cannot read {path}: {exc.strerror}") from None
    data = _decode(path, raw)
    items = data.get("tokens", []) if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise ConfigError(f"auth.tokens_file: {path}: 'tokens' must be an array of tables")
    entries = tuple(_entry(path, i, item) for i, item in enumerate(items))
    names = [e.principal.name for e in entries]
    if len(set(names)) != len(names):
        raise ConfigError(f"auth.tokens_file: {path}: a principal name appears twice")
    return entries


def _decode(path: Path, raw: bytes) -> Any:
    text = raw.decode("utf-8", errors="replace")
    as_json = path.suffix.lower() == ".json" or (
        path.suffix.lower() != ".toml" and text.lstrip().startswith(("{", "[{", "[\n")))
    try:
        return json.loads(text) if as_json else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        # The parser's message may quote a line of the file: say where, not what.
        raise ConfigError(f"auth.tokens_file: {path} is not valid TOML/JSON "
                          f"({type(exc).__name__})") from None


def _entry(path: Path, index: int, item: Any) -> TokenEntry:
    where = f"auth.tokens_file: {path}: tokens[{index}]"
    if not isinstance(item, dict):
        raise ConfigError(f"{where}: expected a table")
    unknown = set(item) - {"principal", "sha256", "repos", "role"}
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {sorted(unknown)}")
    name = str(item.get("principal", "")).strip()
    digest = str(item.get("sha256", "")).strip().lower()
    repos = item.get("repos", [])
    role = str(item.get("role", "reader"))
    if not name:
        raise ConfigError(f"{where}.principal: required")
    if len(digest) != 64 or not set(digest) <= _HEX64:
        raise ConfigError(f"{where}.sha256: expected 64 hex digits (the SHA-256 of the token, "
                          "never the token itself)")
    if not isinstance(repos, list) or not all(isinstance(r, str) and r for r in repos):
        raise ConfigError(f"{where}.repos: expected a list of repo globs")
    if role not in tuple(Role):
        raise ConfigError(f"{where}.role: expected 'reader' or 'admin', got {role!r}")
    return TokenEntry(digest, Principal(name, tuple(repos), Role(role)))
