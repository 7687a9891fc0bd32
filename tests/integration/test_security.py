"""Issue 7 end to end: a live gRPC server with bearer-token auth over three real repos.

* the authorization matrix: principals x repos x every RPC through the real ``Client``,
  asserting nothing outside a scope leaks (results, counts, errors, call sites);
* canary secrets committed in a fixture repo: after indexing, no store payload, no text
  sent to the embedder, no log line and no RPC answer contains one;
* unauthenticated calls, health without a token, the rate limit, credentialed URLs.
"""

from __future__ import annotations

import json
import logging
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import grpc
import numpy as np
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from coderecall import (
    Client,
    InvalidArgumentError,
    NotFoundError,
    PermissionDeniedError,
    ResourceExhaustedError,
    UnauthenticatedError,
    UnavailableError,
)
from coderecalld import auth
from coderecalld.config import (
    AuthConfig, Config, EmbeddingConfig, IndexConfig, RepoConfig, ServerConfig,
)
from coderecalld.daemon import Daemon
from coderecalld.server.app import build_server
from coderecalld.store import StoreFilter
from gitfixtures import GitRepo

PAY = '''\
def audit_log(event):
    """Write one audit event."""
    return event


def charge(amount):
    """Charge a card."""
    return audit_log(("charge", amount))
'''
WEB = '''\
from pay import charge


def checkout(cart):
    return charge(sum(cart))
'''
# Canaries in the formats of common providers (all fake, built so no scanner of this
# repository's own source flags them as real).
AWS = "AKIA" + "Q3EGRT5YJ2CANARY1"[:16]
GITHUB = "ghp_" + "Zq8Lm2Xv9Rt4Wb7Nc1Kd5Hf3Jg6Ps0Ya8Ue2"
SLACK = "xoxb-" + "102938475610-5647382910564-QzWxEcRvTbYnUmIkOlPaSdFg"
STRIPE = "sk_live_" + "51HcAnArYx9Q2w3E4r5T6y7U"
PEM_BODY = "MIIEpAIBAAKCAQEAz9CaNaRy0x7Qw1Er2Ty3Ui4Op5As6Df7Gh8Jk9Lz0Xc1Vb2Nm"
DOTENV = "CANARY-DOTENV-7Hq2Zp9Xw4"
URL_PASSWORD = "CANARY-URLPASS-4Kd8Ws1"
CANARIES = (AWS, GITHUB, SLACK, STRIPE, PEM_BODY, DOTENV, URL_PASSWORD)
SECRET = f'''\
"""Deploy helpers with credentials committed by mistake."""

AWS_ACCESS_KEY_ID = "{AWS}"
GITHUB_TOKEN = "{GITHUB}"


def notify(text):
    """Post to Slack with token {SLACK}."""
    return charge(len(text)), "{SLACK}"


def charge(amount):
    stripe_key = "{STRIPE}"
    return audit_log(amount), stripe_key


def audit_log(event):
    return event


PRIVATE_KEY = """-----BEGIN RSA PRIVATE KEY-----
{PEM_BODY}
{PEM_BODY[::-1]}
-----END RSA PRIVATE KEY-----
"""
'''

REPOS = ("acme/pay", "acme/web", "other/ops")
TOKENS = {"admin": "tok-admin-1", "acme": "tok-acme-2", "pay": "tok-pay-3", "nobody": "tok-none-4"}
SCOPES = {
    "admin": {*REPOS, "other/gone"},
    "acme": {"acme/pay", "acme/web"},
    "pay": {"acme/pay"},
    "nobody": set(),
}
FILES = {"acme/pay": ("pay.py", PAY), "acme/web": ("web.py", WEB), "other/ops": ("deploy.py", SECRET)}


class CapturingEmbedder:
    """Stands in for the model: records every text it is asked to embed."""

    model_id = "none"
    dim = 384

    def __init__(self) -> None:
        self.texts: list[str] = []

    def cached(self, keys):
        return {}

    def embed(self, texts):
        self.texts += texts
        return [np.full(self.dim, (len(t) % 7 + 1) / 10, dtype=np.float32) for t in texts]

    def embed_query(self, text):  # the caller's own query, not index content
        return np.full(self.dim, 0.3, dtype=np.float32)


@dataclass
class Served:
    daemon: Daemon
    addr: str
    embedder: CapturingEmbedder
    logs: str
    commits: dict[str, str]

    def client(self, who: str | None) -> Client:
        return Client(self.addr, timeout_s=30, token=TOKENS.get(who, who or ""))


def write_tokens(path: Path) -> Path:
    lines = []
    for who, token in TOKENS.items():
        repos = {"admin": ["*"], "acme": ["acme/*"], "pay": ["acme/pay"], "nobody": ["none/*"]}[who]
        role = "admin" if who == "admin" else "reader"
        lines.append(f'[[tokens]]\nprincipal = "{who}"\nsha256 = "{auth.token_sha256(token)}"\n'
                     f'repos = {json.dumps(repos)}\nrole = "{role}"\n')
    path.write_text("\n".join(lines))
    return path


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    tmp = tmp_path_factory.mktemp("security")
    commits, repos = {}, []
    for name in REPOS:
        git = GitRepo(tmp / name.replace("/", "_"))
        path, text = FILES[name]
        files = {path: text, "README.md": f"# {name}\n"}
        if name == "other/ops":
            files[".env"] = f"API_KEY={DOTENV}\n"
        commits[name] = git.commit(files, "initial")
        repos.append(RepoConfig(name, str(git.path), "main"))
    repos.append(RepoConfig("other/gone", f"https://deploy:{URL_PASSWORD}@127.0.0.1:9/gone.git", "main"))
    cfg = Config(data_dir=tmp / "data", repos=tuple(repos), embedding=EmbeddingConfig(enabled=False),
                 index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0),
                 auth=AuthConfig(mode="token", tokens_file=str(write_tokens(tmp / "tokens.toml")),
                                 rate_per_s=1000, burst=1000))
    handler = _LogCapture()
    logging.getLogger("coderecalld").addHandler(handler)
    daemon = Daemon.open(cfg)
    embedder = CapturingEmbedder()
    daemon.pipeline.embedder = daemon.service.embedder = embedder
    for repo in cfg.repos:
        daemon.jobs.run_now(repo.name)
    server, port = build_server(daemon.service, "127.0.0.1:0", authenticator=auth.from_config(cfg))
    server.start()
    try:
        yield Served(daemon, f"127.0.0.1:{port}", embedder, "", commits)
    finally:
        server.stop(0).wait()
        daemon.close()
        logging.getLogger("coderecalld").removeHandler(handler)
        _check_logs(handler)


class _LogCapture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage() + json.dumps(getattr(record, "fields", {}), default=str))


def _check_logs(handler: _LogCapture) -> None:
    text = "\n".join(handler.lines)
    assert "index.repo_failed" in text  # the log was captured at all
    assert not [c for c in CANARIES if c in text]


# --- authorization matrix -------------------------------------------------------------------

WHO = list(TOKENS)
UNKNOWN = "no/such-repo"


def _not_found_details(client: Client, call) -> str:
    with pytest.raises(NotFoundError) as info:
        call(client)
    return info.value.details


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("repo", [*REPOS, "other/gone"])
def test_matrix_every_rpc(served: Served, who: str, repo: str) -> None:
    allowed = repo in SCOPES[who]
    path = FILES.get(repo, ("x.py", ""))[0]
    calls = {
        "search": lambda c, r: c.search("charge amount", repo=r, limit=50),
        "find_symbols": lambda c, r: c.find_symbols("checkout" if r == "acme/web" else "charge",
                                                    repo=r),
        "find_callers": lambda c, r: c.find_callers("charge" if r == "acme/web" else "audit_log",
                                                    repo=r),
        "read_symbol": lambda c, r: c.read_symbol(r, path, 1),
    }
    with served.client(who) as client:
        for name, call in calls.items():
            if allowed:
                if repo == "other/gone":
                    continue  # never indexed: answers depend on nothing secret
                result = call(client, repo)
                rows = [result] if name == "read_symbol" else result
                assert {r.repo for r in rows} <= {repo}, name
                assert rows, (name, who, repo)
            else:
                # Out of scope answers exactly like a repo that does not exist.
                outside = _not_found_details(client, lambda c: call(c, repo))
                unknown = _not_found_details(client, lambda c: call(c, UNKNOWN))
                assert outside == unknown.replace(UNKNOWN, repo), name
        if who == "admin":
            if repo != "other/gone":
                assert client.sync_repo(repo).indexed_commit == served.commits[repo]
        else:
            with pytest.raises(PermissionDeniedError):
                client.sync_repo(repo)


@pytest.mark.parametrize("who", WHO)
def test_matrix_unscoped_queries_stay_in_scope(served: Served, who: str) -> None:
    scope = SCOPES[who]
    with served.client(who) as client:
        repos = client.list_repos()
        assert {r.name for r in repos} == scope
        hits = client.search("charge a card amount", limit=50)
        symbols = client.find_symbols("charge")
        prefixed = client.find_symbols("a", prefix=True, limit=500)
        callers = client.find_callers("charge") + client.find_callers("audit_log")
        for rows in (hits, symbols, prefixed, callers):
            assert {r.repo for r in rows} <= scope
        # Counts tell nothing either: exactly the in-scope definitions and call sites.
        assert len(symbols) == len(scope & {"acme/pay", "other/ops"})
        sites = {"charge": {("acme/web", "web.py", 5), ("other/ops", "deploy.py", 9)},
                 "audit_log": {("acme/pay", "pay.py", 8), ("other/ops", "deploy.py", 14)}}
        for callee, expected in sites.items():
            assert {(s.repo, s.path, s.line) for s in client.find_callers(callee)} == {
                s for s in expected if s[0] in scope}
        if not scope:
            assert (repos, hits, symbols, prefixed, callers) == ([], [], [], [], [])


def test_admin_sees_everything_and_readers_cannot_sync_unknown_repos(served: Served) -> None:
    with served.client("admin") as admin:
        assert {s.repo for s in admin.find_callers("audit_log")} == {"acme/pay", "other/ops"}
        with pytest.raises(NotFoundError, match="is not configured"):
            admin.sync_repo(UNKNOWN)
    with served.client("pay") as reader, pytest.raises(PermissionDeniedError):
        reader.sync_repo(UNKNOWN)  # the same answer for every repo: the role is what is missing


def test_an_unknown_repo_error_names_the_callers_repos_only(served: Served) -> None:
    """``--repo nosuch`` says which repos may be asked (a newcomer got "is not configured"
    alone), and names none outside the caller's scope."""
    with served.client("pay") as reader, pytest.raises(NotFoundError) as raised:
        reader.search("charge", repo="other/ops")
    assert "repos: acme/pay (coderecall repos lists them)" in str(raised.value)
    assert str(raised.value).count("other/ops") == 1  # the name asked, nothing else
    with served.client("admin") as admin, pytest.raises(NotFoundError) as raised:
        admin.search("charge", repo=UNKNOWN)
    assert "repos: acme/pay, acme/web, other/gone, other/ops (coderecall repos lists them)" in str(raised.value)
    with served.client("admin") as admin, pytest.raises(NotFoundError) as raised:
        admin.sync_repo(UNKNOWN)  # sync and status say so too (a review)
    assert "repos: acme/pay, acme/web, other/gone, other/ops (coderecall repos lists them)" in str(raised.value)


# --- authentication ---------------------------------------------------------------------------


@pytest.mark.parametrize("token", [None, "wrong-token", "tok-admin-1x", "Bearer"])
def test_missing_or_bad_token_is_unauthenticated_for_every_rpc(served: Served, token) -> None:
    with Client(served.addr, timeout_s=10, token=token or "") as client:
        for call in (lambda: client.search("charge"), lambda: client.find_symbols("charge"),
                     lambda: client.find_callers("charge"), lambda: client.list_repos(),
                     lambda: client.read_symbol("acme/pay", "pay.py", 1),
                     lambda: client.sync_repo("acme/pay")):
            with pytest.raises(UnauthenticatedError):
                call()


def test_health_and_reflection_need_no_token(served: Served) -> None:
    with grpc.insecure_channel(served.addr) as channel:
        status = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=5)
    assert status.status == health_pb2.HealthCheckResponse.SERVING


def test_rate_limit_is_per_principal(served: Served, tmp_path: Path) -> None:
    cfg = replace(served.daemon.cfg, auth=replace(served.daemon.cfg.auth, rate_per_s=0.001, burst=2))
    server, port = build_server(served.daemon.service, "127.0.0.1:0", authenticator=auth.from_config(cfg))
    server.start()
    try:
        with Client(f"127.0.0.1:{port}", token=TOKENS["pay"]) as pay, \
                Client(f"127.0.0.1:{port}", token=TOKENS["acme"]) as acme:
            pay.list_repos()
            pay.list_repos()
            with pytest.raises(ResourceExhaustedError, match="rate limit"):
                pay.list_repos()
            assert [r.name for r in acme.list_repos()] == ["acme/pay", "acme/web"]  # own bucket
    finally:
        server.stop(0).wait()


# --- canaries ---------------------------------------------------------------------------------


def test_no_canary_in_payloads_or_embedded_texts(served: Served) -> None:
    points = served.daemon.store.find(StoreFilter(), "kind", "function", limit=10_000)
    points += served.daemon.store.find(StoreFilter(), "kind", "module", limit=10_000)
    points += served.daemon.store.find(StoreFilter(), "kind", "section", limit=10_000)
    # constants hold their values in their signatures (``AWS_KEY = "..."``): redacted too
    constants = served.daemon.store.find(StoreFilter(), "kind", "constant", limit=10_000)
    assert constants
    points += constants + served.daemon.store.find(StoreFilter(), "kind", "variable", limit=10_000)
    assert {h.payload["repo"] for h in points} == set(REPOS)
    assert served.daemon.store.count(StoreFilter()) == len({h.id for h in points})
    dumped = json.dumps([h.payload for h in points])
    assert not [c for c in CANARIES if c in dumped]
    assert "[REDACTED:AWS Access Key]" in dumped and "[REDACTED:Private Key]" in dumped
    sent = "\n".join(served.embedder.texts)
    assert served.embedder.texts and not [c for c in CANARIES if c in sent]
    assert served.daemon.ledger.file("other/ops", ".env").reason == "sensitive"


def test_no_canary_in_any_rpc_answer(served: Served) -> None:
    answers = []
    with served.client("admin") as client:
        answers.append(client.list_repos())
        for query in (*CANARIES, "AWS access key", "private key", "slack token notify"):
            answers += [client.search(query, limit=50), client.find_symbols(query),
                        client.find_callers(query)]
        answers.append(client.find_symbols("notify"))
        whole = client.read_symbol("other/ops", "deploy.py", 1)
        answers.append(whole)
        assert whole.text.count("\n") == SECRET.count("\n")  # redaction keeps every line
        assert "-----BEGIN RSA PRIVATE KEY-----" not in whole.text
        with pytest.raises(NotFoundError) as info:
            client.read_symbol("other/ops", ".env", 1)
        answers.append(info.value.details)
    text = json.dumps([[asdict(x) for x in a] if isinstance(a, list) else
                       (asdict(a) if not isinstance(a, str) else a) for a in answers])
    assert not [c for c in CANARIES if c in text]
    gone = next(r for r in answers[0] if r.name == "other/gone")
    assert gone.url == "https://127.0.0.1:9/gone.git" and gone.state == "error"
    assert "deploy" not in gone.error and URL_PASSWORD not in gone.error


# --- hostile input ------------------------------------------------------------------------------


@pytest.mark.parametrize("path, error", [
    ("../../../../etc/passwd", InvalidArgumentError), ("/etc/passwd", InvalidArgumentError),
    ("pay.py\0.txt", InvalidArgumentError), ("./pay.py", InvalidArgumentError),
    ("x/../pay.py", InvalidArgumentError), ("..\\..\\etc\\passwd", NotFoundError),
    ("%2e%2e/%2e%2e/etc/passwd", NotFoundError), ("%2e%2e%2fetc%2fpasswd", NotFoundError),
    ("pay.py/", InvalidArgumentError), ("p" * 5000, InvalidArgumentError),
])
def test_read_symbol_resolves_only_inside_git(served: Served, path: str, error: type) -> None:
    with served.client("admin") as client, pytest.raises(error):
        client.read_symbol("acme/pay", path, 1)


def test_oversized_fields_and_messages_are_refused(served: Served) -> None:
    with served.client("admin") as client:
        with pytest.raises(InvalidArgumentError, match="longer than 500000"):
            client.search("q" * 500_001)
        with pytest.raises(InvalidArgumentError):
            client.find_symbols("charge", limit=501)
        with pytest.raises(InvalidArgumentError):
            client.read_symbol("acme/pay", "pay.py", 1, 2**31 - 1)
        # 500,000 characters of 3-byte UTF-8 (1.5 MB) are a query, not a transport error ...
        client.search("会话" * 250_000)
        with pytest.raises(InvalidArgumentError, match="longer than 500000"):
            client.search("会" * 500_001)
        # ... past the request bound (2,065,536 bytes): refused unread, an invalid argument
        # naming the bound (no retry passes it; it was RESOURCE_EXHAUSTED, "worth retrying")
        with pytest.raises(InvalidArgumentError, match="over the 2,065,536 a coderecalld message may hold"):
            client.search("q" * (2 << 20))
        assert client.find_symbols("charge", repo="acme/pay")  # still serving


# --- mutual TLS -----------------------------------------------------------------------------------


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def _pki(root: Path) -> Path:
    """A throwaway CA and, signed by it, a server cert for 127.0.0.1 and a client cert."""
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
             "-days", "2", "-subj", "/CN=test-ca", cwd=root)
    (root / "san.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    for name in ("server", "client"):
        _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key", "-out",
                 f"{name}.csr", "-subj", f"/CN={name}", cwd=root)
        _openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                 "-CAcreateserial", "-out", f"{name}.pem", "-days", "2", "-extfile", "san.ext", cwd=root)
    return root


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")
def test_mutual_tls_requires_a_client_certificate(served: Served, tmp_path: Path) -> None:
    pki = _pki(tmp_path)
    tls = ServerConfig(tls_cert_file=str(pki / "server.pem"), tls_key_file=str(pki / "server.key"),
                       tls_client_ca_file=str(pki / "ca.pem"))
    server, port = build_server(served.daemon.service, "127.0.0.1:0", tls=tls,
                                authenticator=auth.from_config(served.daemon.cfg))
    server.start()
    addr = f"127.0.0.1:{port}"
    try:
        with Client(addr, token=TOKENS["pay"], tls_ca_file=str(pki / "ca.pem"),
                    tls_cert_file=str(pki / "client.pem"), tls_key_file=str(pki / "client.key")) as ok:
            assert [r.name for r in ok.list_repos()] == ["acme/pay"]
        with Client(addr, timeout_s=5, token=TOKENS["pay"], tls_ca_file=str(pki / "ca.pem")) as no_cert, \
                pytest.raises(UnavailableError):
            no_cert.list_repos()
        with Client(addr, timeout_s=5, token=TOKENS["pay"]) as plaintext, pytest.raises(UnavailableError):
            plaintext.list_repos()
    finally:
        server.stop(0).wait()


# --- command lines ------------------------------------------------------------------------------


def test_cli_sends_the_token_from_flag_or_environment(served: Served, capsys, monkeypatch) -> None:
    from coderecall import cli

    assert cli.main(["--addr", served.addr, "--token", TOKENS["pay"], "repos", "--json"]) == 0
    assert [r["name"] for r in json.loads(capsys.readouterr().out)] == ["acme/pay"]
    monkeypatch.setenv(cli.ENV_TOKEN, TOKENS["acme"])
    assert cli.main(["--addr", served.addr, "repos", "--json"]) == 0
    assert [r["name"] for r in json.loads(capsys.readouterr().out)] == ["acme/pay", "acme/web"]
    monkeypatch.delenv(cli.ENV_TOKEN)
    assert cli.main(["--addr", served.addr, "repos"]) == 1
    assert "missing bearer token" in capsys.readouterr().err


def test_serve_refuses_auth_off_on_a_network_address(tmp_path: Path, capsys) -> None:
    from coderecalld import cli as daemon_cli
    from coderecalld.errors import ConfigError

    argv = ["serve", "--repo", str(tmp_path), "--data-dir", str(tmp_path / "d"), "--listen", "0.0.0.0:0"]
    assert daemon_cli.main(argv) == 2
    assert "auth.mode: server.listen '0.0.0.0:0' is not a loopback address" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()  # refused before anything was opened or indexed
    with pytest.raises(ConfigError, match="not loopback"):
        build_server(object(), "0.0.0.0:0")
