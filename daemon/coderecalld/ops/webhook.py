"""Push webhooks: GitHub and GitLab tell the daemon a branch moved; the matching configured
repo is synced at once (polling stays as the safety net for lost deliveries).

``POST /hooks/github``: ``X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body
keyed by webhook.secret>``, ``X-GitHub-Event: push`` (``ping`` answers 200).
``POST /hooks/gitlab``: ``X-Gitlab-Token: <webhook.secret>``, ``X-Gitlab-Event: Push Hook``.
Both are compared in constant time (``hmac.compare_digest``).

Answers (JSON bodies): 202 ``{"matched": [names]}`` for a push (``[]`` when no configured
repo matches: an org-wide hook covers repos this daemon does not index, and a 4xx there
would mark every such delivery failed in GitHub's UI), 202 ``{"matched": [], "ignored":
event}`` for other events, 401 bad or missing signature/token (nothing is triggered),
400 body not JSON, 404 other paths, 405 a method other than POST, 411 no Content-Length,
413 a body over ``webhook.max_body_bytes``.

Matching (``matches``): a push names its repository by URLs (GitHub ``clone_url``,
``ssh_url``, ``html_url``, ``git_url``; GitLab ``git_http_url``, ``git_ssh_url``,
``web_url``) and a path (GitHub ``full_name``, GitLab ``path_with_namespace``). A
configured repo matches when its ``url`` and one of the URLs are the same after
``normalize`` (scheme, credentials, port, a ``.git`` suffix and trailing slashes dropped;
case ignored: GitHub and GitLab paths are case-insensitive), or when the path equals the
repo's ``name`` or its URL's path (case ignored). The ``ref`` must be
``refs/heads/<branch>`` for the repo's configured branch, or, when none is configured,
for the payload's default branch (any branch if the payload does not name one).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Callable, Iterable, Mapping
from http.server import BaseHTTPRequestHandler
from typing import Any

from coderecalld import logs, metrics
from coderecalld.config import Config, RepoConfig

PATHS = {"/hooks/github": "github", "/hooks/gitlab": "gitlab"}
#: Seconds a client may take to send its request; a stalled one is dropped.
REQUEST_TIMEOUT_S = 10.0

_URL_KEYS = {"github": ("repository", ("clone_url", "ssh_url", "html_url", "git_url", "url")),
             "gitlab": ("project", ("git_http_url", "git_ssh_url", "web_url", "http_url", "ssh_url"))}
_PATH_KEYS = {"github": "full_name", "gitlab": "path_with_namespace"}
_PUSH_EVENTS = {"github": "push", "gitlab": "Push Hook"}
_SCP_LIKE = re.compile(r"^(?:[^@/]+@)?([^:/]+):(?!//)(.*)$")  # git@host:org/repo.git


def github_signature_ok(secret: str, body: bytes, header: str | None) -> bool:
    """True when ``header`` is ``sha256=`` + the hex HMAC-SHA256 of ``body`` keyed by ``secret``."""
    if not secret or not header or not header.startswith("sha256="):
        return False
    want = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(want.encode(), header[len("sha256="):].strip().encode())


def gitlab_token_ok(secret: str, header: str | None) -> bool:
    """True when ``header`` equals ``secret`` (constant time)."""
    return bool(secret) and header is not None and hmac.compare_digest(secret.encode(), header.encode())


def normalize(url: str) -> str:
    """A clone URL's identity: ``host/path`` lowercased, without scheme, credentials, port,
    ``.git`` suffix or trailing slashes. ``https://User@GitHub.com:443/Acme/Shop.git/``,
    ``git@github.com:acme/shop.git`` and ``ssh://git@github.com/acme/shop`` all give
    ``github.com/acme/shop``; a local path gives itself, normalised the same way."""
    text = url.strip()
    if "://" in text:
        rest = text.split("://", 1)[1]
        authority, _, path = rest.partition("/")
        host = authority.rsplit("@", 1)[-1].split(":", 1)[0] if not authority.startswith("[") \
            else authority.rsplit("@", 1)[-1].split("]", 1)[0] + "]"
        text = f"{host}/{path}" if host else path
    elif (scp := _SCP_LIKE.match(text)) and not text.startswith("/"):
        text = f"{scp.group(1)}/{scp.group(2)}"
    text = text.rstrip("/")
    text = text[:-4] if text.endswith(".git") else text
    return text.rstrip("/").lower()


def url_path(url: str) -> str:
    """The repository path of a URL (``org/repo``: ``normalize`` less its host), ``""``
    for a local path."""
    norm = normalize(url)
    if url.strip().startswith(("/", "file:")) or "/" not in norm:
        return ""
    return norm.split("/", 1)[1]


def matches(repos: Iterable[RepoConfig], provider: str, payload: Mapping[str, Any]) -> list[str]:
    """Names of the configured ``repos`` a push ``payload`` from ``provider`` names (see
    the module docstring for the rules), in config order."""
    section, url_keys = _URL_KEYS[provider]
    info = payload.get(section) or {}
    if not isinstance(info, Mapping):
        return []
    urls = {normalize(str(info[k])) for k in url_keys if isinstance(info.get(k), str) and info[k]}
    path = str(info.get(_PATH_KEYS[provider]) or "").strip("/").lower()
    ref = str(payload.get("ref") or "")
    default = str(info.get("default_branch") or "")
    if not ref.startswith("refs/heads/"):
        return []
    branch = ref[len("refs/heads/"):]
    found = []
    for repo in repos:
        named = normalize(repo.url) in urls or (path and path in (repo.name.lower(), url_path(repo.url)))
        wanted = repo.branch or default
        if named and (not wanted or wanted == branch):
            found.append(repo.name)
    return found


def handler_class(cfg: Config, trigger: Callable[[str], bool]) -> type[BaseHTTPRequestHandler]:
    """The request handler for ``cfg.webhook`` that calls ``trigger(name)`` for each match."""

    class Handler(_Handler):
        config = cfg
        sync = staticmethod(trigger)

    return Handler


class _Handler(BaseHTTPRequestHandler):
    config: Config
    sync: Callable[[str], bool]
    timeout = REQUEST_TIMEOUT_S
    server_version = "coderecalld"
    sys_version = ""

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        provider = PATHS.get(self.path.split("?", 1)[0])
        if provider is None:
            return self._answer(404, {"error": "not found"})
        length = self.headers.get("Content-Length")
        if length is None or not length.isdigit():
            return self._answer(411, {"error": "Content-Length required"}, provider, "bad_request")
        if int(length) > self.config.webhook.max_body_bytes:
            self.close_connection = True  # the unread body is not drained
            return self._answer(413, {"error": f"body over {self.config.webhook.max_body_bytes} bytes"},
                                provider, "too_large")
        body = self.rfile.read(int(length))
        secret = str(self.config.webhook.secret)
        if not (github_signature_ok(secret, body, self.headers.get("X-Hub-Signature-256"))
                if provider == "github" else gitlab_token_ok(secret, self.headers.get("X-Gitlab-Token"))):
            logs.warn("webhook.unauthorized", provider=provider, client=self.client_address[0])
            return self._answer(401, {"error": "bad signature or token"}, provider, "unauthorized")
        event = self.headers.get("X-GitHub-Event" if provider == "github" else "X-Gitlab-Event", "")
        if provider == "github" and event == "ping":
            return self._answer(200, {"ok": True}, provider, "ping")
        if event != _PUSH_EVENTS[provider]:
            return self._answer(202, {"matched": [], "ignored": event}, provider, "ignored")
        try:
            payload = json.loads(body)
        except ValueError:
            return self._answer(400, {"error": "body is not JSON"}, provider, "bad_request")
        if not isinstance(payload, dict):
            return self._answer(400, {"error": "body is not a JSON object"}, provider, "bad_request")
        names = matches(self.config.repos, provider, payload)
        for name in names:
            self.sync(name)
        logs.event("webhook.push", provider=provider, ref=str(payload.get("ref", ""))[:200],
                   matched=names)
        return self._answer(202, {"matched": names}, provider, "synced" if names else "unmatched")

    def do_GET(self) -> None:  # noqa: N802
        self._not_allowed()

    do_PUT = do_DELETE = do_PATCH = do_HEAD = do_GET  # noqa: N815

    def _not_allowed(self) -> None:
        if self.path.split("?", 1)[0] not in PATHS:
            return self._answer(404, {"error": "not found"})
        self._answer(405, {"error": "use POST"}, extra={"Allow": "POST"})

    def _answer(self, status: int, body: dict[str, Any], provider: str = "", outcome: str = "",
                extra: Mapping[str, str] | None = None) -> None:
        if provider and outcome:
            metrics.WEBHOOK_DELIVERIES.labels(provider=provider, outcome=outcome).inc()
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's signature
        pass  # every answer that matters is a structured event or a metric
