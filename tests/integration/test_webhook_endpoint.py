"""Push webhooks on the live endpoint: a signed GitHub push (and a GitLab one with its
token) makes a new function findable through the gRPC client; a bad signature or token
answers 401 and leaves the index exactly as it was. Real git repo, real embedded Qdrant,
real HTTP on loopback, jobs running (their interval is an hour: only the hook can sync)."""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import time
from collections.abc import Iterator

import livedaemon
import pytest
from gitfixtures import GitRepo

from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig, Secret, WebhookConfig

SECRET = "hook-secret-4f1c"
NAME = "acme/shop"


class Hooked:
    def __init__(self, live: livedaemon.Live, git: GitRepo, calls: list[str]) -> None:
        self.live, self.git, self.calls = live, git, calls

    def post(self, path: str, body: bytes, headers: dict[str, str], method: str = "POST") -> tuple[int, dict]:
        conn = http.client.HTTPConnection("127.0.0.1", self.live.ops.webhook_port, timeout=10)
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            data = response.read()
            return response.status, json.loads(data) if data else {}
        finally:
            conn.close()

    def indexed(self) -> str:
        return self.live.daemon.ledger.repo(NAME).indexed_commit

    def wait_for_symbol(self, name: str, commit: str = "", deadline_s: float = 60.0) -> list:
        """The hits of ``name`` once it is findable and (with ``commit``) the sync that
        indexed it has recorded ``commit``: a new chunk is searchable a moment before the
        ledger's indexed commit, which hits report, moves to it."""
        end = time.monotonic() + deadline_s
        while time.monotonic() < end:
            hits = self.live.client.find_symbols(name)
            if hits and (not commit or self.indexed() == commit):
                return self.live.client.find_symbols(name)
            time.sleep(0.05)
        raise AssertionError(f"{name} not findable at {commit or 'any commit'} within {deadline_s} s")


@pytest.fixture(scope="module")
def hooked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hooked]:
    tmp = tmp_path_factory.mktemp("hooks")
    git = GitRepo(tmp / "shop")
    git.commit({"shop/cart.py": "def add_item(cart, item):\n    cart.append(item)\n"}, "initial")
    cfg = Config(data_dir=tmp / "data", repos=(RepoConfig(NAME, str(git.path), "main"),),
                 embedding=EmbeddingConfig(enabled=False),
                 index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0),
                 webhook=WebhookConfig(listen="127.0.0.1:0", secret=Secret(SECRET), max_body_bytes=20_000))
    calls: list[str] = []

    def spy(daemon):  # records what the endpoint asked for, then queues it for real
        def trigger(name: str) -> bool:
            calls.append(name)
            return daemon.jobs.trigger(name)
        return trigger

    live = livedaemon.start(cfg, trigger=spy, start_jobs=True)
    try:
        yield Hooked(live, git, calls)
    finally:
        live.close()


def github_push(ref: str = "refs/heads/main", full_name: str = "Acme/Shop") -> bytes:
    return json.dumps({"ref": ref, "after": "0" * 40, "repository": {
        "full_name": full_name, "clone_url": f"https://github.com/{full_name}.git",
        "ssh_url": f"git@github.com:{full_name}.git", "default_branch": "main"}}).encode()


def github_headers(body: bytes, secret: str = SECRET, event: str = "push") -> dict[str, str]:
    digest = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return {"X-GitHub-Event": event, "X-Hub-Signature-256": f"sha256={digest}",
            "Content-Type": "application/json"}


def gitlab_push() -> bytes:
    return json.dumps({"object_kind": "push", "ref": "refs/heads/main", "project": {
        "path_with_namespace": "acme/shop", "git_http_url": "https://gitlab.example.com/acme/shop.git",
        "default_branch": "main"}}).encode()


def test_github_bad_signature_is_401_then_a_signed_push_makes_the_new_function_findable(hooked: Hooked):
    before = hooked.indexed()
    new = hooked.git.commit({"shop/tax.py": "def vat_for_cart(cart):\n    return sum(cart) * 0.2\n"})
    body = github_push()
    status, answer = hooked.post("/hooks/github", body, github_headers(body, secret="wrong"))
    assert (status, answer) == (401, {"error": "bad signature or token"})
    unsigned = {k: v for k, v in github_headers(body).items() if k != "X-Hub-Signature-256"}
    assert hooked.post("/hooks/github", body, unsigned)[0] == 401
    tampered = body.replace(b"main", b"mainx")
    assert hooked.post("/hooks/github", tampered, github_headers(body))[0] == 401
    assert hooked.calls == []  # nothing was queued ...
    assert hooked.indexed() == before  # ... nothing changed
    assert hooked.live.client.find_symbols("vat_for_cart") == []

    status, answer = hooked.post("/hooks/github", body, github_headers(body))
    assert (status, answer) == (202, {"matched": [NAME]})
    assert hooked.calls == [NAME]
    (hit,) = hooked.wait_for_symbol("vat_for_cart", new)
    assert (hit.repo, hit.path, hit.start_line, hit.end_line, hit.commit) == (NAME, "shop/tax.py", 1, 2, new)
    assert hooked.indexed() == new


def test_gitlab_token(hooked: Hooked):
    new = hooked.git.commit({"shop/ship.py": "def shipping_cost(weight_kg):\n    return 4 + weight_kg\n"})
    body = gitlab_push()
    bad = {"X-Gitlab-Event": "Push Hook", "X-Gitlab-Token": SECRET + "x"}
    calls = len(hooked.calls)
    assert hooked.post("/hooks/gitlab", body, bad) == (401, {"error": "bad signature or token"})
    assert len(hooked.calls) == calls and hooked.indexed() != new
    assert hooked.live.client.find_symbols("shipping_cost") == []
    good = {**bad, "X-Gitlab-Token": SECRET}
    assert hooked.post("/hooks/gitlab", body, good) == (202, {"matched": [NAME]})
    (hit,) = hooked.wait_for_symbol("shipping_cost", new)
    assert (hit.path, hit.commit) == ("shop/ship.py", new)


def test_other_answers(hooked: Hooked):
    calls = len(hooked.calls)
    other = github_push(full_name="acme/unknown")
    assert hooked.post("/hooks/github", other, github_headers(other)) == (202, {"matched": []})
    branch = github_push(ref="refs/heads/feature")
    assert hooked.post("/hooks/github", branch, github_headers(branch)) == (202, {"matched": []})
    ping = b'{"zen": "Keep it logically awesome.", "hook_id": 1}'
    assert hooked.post("/hooks/github", ping, github_headers(ping, event="ping")) == (200, {"ok": True})
    issue = b'{"action": "opened"}'
    assert hooked.post("/hooks/github", issue, github_headers(issue, event="issues")) == (
        202, {"matched": [], "ignored": "issues"})
    junk = b"not json"
    assert hooked.post("/hooks/github", junk, github_headers(junk)) == (400, {"error": "body is not JSON"})
    big = b"{" + b" " * 20_001 + b"}"
    assert hooked.post("/hooks/github", big, github_headers(big))[0] == 413
    assert hooked.post("/hooks/github", b"", {}, method="GET") == (405, {"error": "use POST"})
    assert hooked.post("/hooks/bitbucket", b"{}", {})[0] == 404
    assert len(hooked.calls) == calls
