"""The gRPC transport end to end: a live server on a free loopback port over an in-test
``CodeRecallApi``, exercised through the real ``coderecall.Client`` and CLI."""

from __future__ import annotations

import json
import logging
import socket
from dataclasses import asdict, replace

import grpc
import pytest
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)

import coderecall
from coderecall import cli
from coderecall.v1 import coderecall_pb2 as pb
from coderecalld import errors
from coderecalld.records import CallerHit, Card, RepoState, RepoStatus, SourceText, SymbolHit, SymbolKind
from coderecalld.server import SERVICE_NAME, build_server, stop_server

COMMIT = "3c1d9a0be5f7c2d4e6a8b0c1d2e3f4a5b6c7d8e9"
HITS = [
    SymbolHit(
        repo="acme/payments", path="src/hmac_check.py", language="python",
        kind=SymbolKind.CLASS, name="HMACValidator", qualified_name="HMACValidator",
        parent="", signature="class HMACValidator(Validator):",
        docstring="Checks webhook signatures.", start_line=12, end_line=60,
        start_byte=301, end_byte=2044, commit=COMMIT, score=1.0, match="exact",
    ),
    SymbolHit(
        repo="acme/api", path="web/sign.py", language="python", kind=SymbolKind.FUNCTION,
        name="sign_body", qualified_name="sign_body", parent="",
        signature="def sign_body(\n    body: bytes,\n    key: bytes,\n) -> str:",
        docstring="", start_line=3, end_line=9, start_byte=40, end_byte=260,
        commit=COMMIT, score=0.0163934, match="hybrid",
    ),
]
CALLER = CallerHit(
    repo="acme/api", path="web/hooks.py", line=77, caller="handle_webhook",
    callee="validator.verify", commit=COMMIT, text="if not validator.verify(body, sig):",
    confidence="resolved", target="payments.hmac_check.HMACValidator.verify",
)
CARD = Card(
    repo="acme/payments", path="src/hmac_check.py", kind="class", qualified_name="HMACValidator",
    module="payments.hmac_check", signature="class HMACValidator(Validator)",
    summary="Checks webhook signatures.", start_line=12, end_line=60, commit=COMMIT,
    bases=("Validator",), init_params=("key: bytes", "algo: str = 'sha256'"),
    methods=("def verify(self, body: bytes, sig: str) -> bool",), raises=("SignatureError",),
    callers=(CALLER,), file_purpose="HMAC signature checks.", repo_purpose="Payment webhooks.",
    others=("acme/legacy:old/hmac.py:3 HMACValidator",), definitions_total=2,
)
SOURCE = SourceText(
    repo="acme/payments", path="src/hmac_check.py", commit=COMMIT, start_line=12, end_line=13,
    text="class HMACValidator(Validator):\n    \"\"\"Checks webhook signatures.\"\"\"\n",
)
REPOS = [
    RepoStatus(
        name="acme/payments", url="https://git.example.com/acme/payments.git", branch="main",
        indexed_commit=COMMIT, files=312, symbols=4021, chunks=4107,
        last_sync_unix_s=1_767_225_600.5, state=RepoState.READY, error="",
        purpose="Payment webhooks.", languages=(("python", 300), ("bash", 12)), packages=("payments",),
        pending_vectors=57, lag_s=3.5,
    ),
    RepoStatus(
        name="acme/legacy", url="https://git.example.com/acme/legacy.git", branch="trunk",
        indexed_commit="", files=0, symbols=0, chunks=0, last_sync_unix_s=0.0,
        state=RepoState.ERROR, error="fetch failed: remote hung up",
    ),
]


class FakeApi:
    """Fixed answers; raises domain errors for the inputs the tests name."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict]] = []

    def search(self, query, limit=10, repo="", language="", path_prefix="", *, path_glob="",
               kind="", mode="", principal):
        self.calls.append(("search", dict(query=query, limit=limit, repo=repo, language=language,
                                          path_prefix=path_prefix, path_glob=path_glob, kind=kind,
                                          mode=mode)))
        failures = {
            "": errors.InvalidArgument("query must not be empty"),
            "store-down": errors.StoreUnavailable("vector store at qdrant:6334 unreachable"),
            "misconfigured": errors.ConfigError("store.path: '/nope' is not writable"),
            "mirror": errors.MirrorError("fetch https://user:hunter2@git.example.com failed"),
            "crash": RuntimeError("secret-internal-detail"),
        }
        if query in failures:
            raise failures[query]
        return HITS[:limit]

    def find_symbols(self, name, repo="", prefix=False, limit=50, *, principal):
        self.calls.append(("find_symbols", dict(name=name, repo=repo, prefix=prefix, limit=limit)))
        if name == "Missing":
            raise errors.NotFound("no symbol named 'Missing'")
        return HITS[:1]

    def find_callers(self, name, repo="", limit=100, *, principal, omitted=None):
        self.calls.append(("find_callers", dict(name=name, repo=repo, limit=limit)))
        if omitted is not None:
            omitted["other_type"] = 3
        return [CALLER]

    def find_callees(self, name, repo="", limit=100, *, principal):
        self.calls.append(("find_callees", dict(name=name, repo=repo, limit=limit)))
        return [CALLER]

    def get_card(self, name, repo="", budget_tokens=800, *, principal):
        self.calls.append(("get_card", dict(name=name, repo=repo, budget_tokens=budget_tokens)))
        if name == "Missing":
            raise errors.NotFound("symbol 'Missing' not found")
        return CARD

    def read_symbol(self, repo, path, start_line, end_line, *, principal):
        self.calls.append(("read_symbol", dict(repo=repo, path=path, start_line=start_line,
                                               end_line=end_line)))
        if repo != "acme/payments":
            raise errors.NotFound(f"unknown repository {repo!r}")
        return SOURCE

    def list_repos(self, *, principal):
        self.calls.append(("list_repos", {}))
        return REPOS

    def sync_repo(self, name, *, principal):
        self.calls.append(("sync_repo", dict(name=name)))
        if name not in {r.name for r in REPOS}:
            raise errors.NotFound(f"unknown repository {name!r}")
        return next(r for r in REPOS if r.name == name)


@pytest.fixture(scope="module")
def served():
    api = FakeApi()
    health_servicer = health.HealthServicer()
    server, port = build_server(api, "127.0.0.1:0", max_workers=4, health_servicer=health_servicer)
    server.start()
    yield api, f"127.0.0.1:{port}", health_servicer
    stop_server(server, health_servicer, grace_s=0)


@pytest.fixture
def api(served):
    served[0].calls.clear()
    return served[0]


@pytest.fixture
def addr(served):
    return served[1]


@pytest.fixture
def client(addr):
    with coderecall.Client(addr, timeout_s=5.0) as c:
        yield c


@pytest.fixture(autouse=True)
def _no_addr_env(monkeypatch):
    monkeypatch.delenv(cli.ENV_ADDR, raising=False)


def client_hit(hit: SymbolHit) -> coderecall.SymbolHit:
    return coderecall.SymbolHit(**asdict(hit))


# --- values over the wire -------------------------------------------------------------------


def test_search_returns_exact_hits_and_passes_filters(client, api):
    hits = client.search("hmac validator", limit=2, repo="acme/payments", language="python",
                         path_prefix="src/", path_glob="src/*_check.py", kind="method", mode="dense")
    assert hits == [client_hit(h) for h in HITS]
    assert hits[1].signature == "def sign_body(\n    body: bytes,\n    key: bytes,\n) -> str:"
    assert hits[1].score == 0.0163934
    assert api.calls == [("search", dict(query="hmac validator", limit=2, repo="acme/payments",
                                         language="python", path_prefix="src/",
                                         path_glob="src/*_check.py", kind="method", mode="dense"))]


def test_zero_limit_means_the_domain_default(client, api):
    client.search("hmac", limit=0)
    client.find_symbols("X", limit=0)
    client.find_callers("f", limit=0)
    assert [call[1]["limit"] for call in api.calls] == [10, 50, 100]


def test_find_symbols(client, api):
    assert client.find_symbols("hmacv", repo="acme/payments", prefix=True, limit=7) == [
        client_hit(HITS[0])
    ]
    assert api.calls == [("find_symbols", dict(name="hmacv", repo="acme/payments", prefix=True,
                                               limit=7))]


def test_find_callers(client):
    assert client.find_callers("verify") == [
        coderecall.CallSite(repo="acme/api", path="web/hooks.py", line=77, caller="handle_webhook",
                            callee="validator.verify", commit=COMMIT, text="if not validator.verify(body, sig):",
                            confidence="resolved", target="payments.hmac_check.HMACValidator.verify")
    ]
    # The count of calls left out as calls on another type travels in the response.
    response = client._stub.FindCallers(pb.FindCallersRequest(name="verify"))
    assert response.omitted_other_type == 3
    assert client.find_callers("verify").omitted_other_type == 3  # the client's Page carries it


def test_find_callees_and_get_card(client, api):
    assert client.find_callees("handle_webhook", repo="acme/api", limit=3)[0].target == CALLER.target
    card = client.get_card("HMACValidator", budget_tokens=300)
    assert asdict(card) == asdict(CARD)
    assert api.calls == [("find_callees", dict(name="handle_webhook", repo="acme/api", limit=3)),
                         ("get_card", dict(name="HMACValidator", repo="", budget_tokens=300))]
    client.get_card("HMACValidator", budget_tokens=0)  # 0: the domain's default budget
    assert api.calls[-1][1]["budget_tokens"] == 800
    with pytest.raises(coderecall.NotFoundError):
        client.get_card("Missing")


def test_read_symbol(client, api):
    assert client.read_symbol("acme/payments", "src/hmac_check.py", 12) == coderecall.SourceText(
        repo="acme/payments", path="src/hmac_check.py", commit=COMMIT, start_line=12, end_line=13,
        text=SOURCE.text,
    )
    assert api.calls[0][1]["end_line"] == 0


def test_list_and_sync_repos(client):
    repos = client.list_repos()
    assert [asdict(r) for r in repos] == [asdict(r) for r in REPOS]
    assert repos[0].last_sync_unix_s == 1_767_225_600.5
    assert repos[1].state == "error"
    assert client.sync_repo("acme/payments") == coderecall.RepoInfo(**asdict(REPOS[0]))


# --- status codes -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, details",
    [
        (lambda c: c.find_symbols("Missing"), coderecall.NotFoundError, "no symbol named 'Missing'"),
        (lambda c: c.read_symbol("nope", "a.py", 1), coderecall.NotFoundError,
         "unknown repository 'nope'"),
        (lambda c: c.sync_repo("nope"), coderecall.NotFoundError, "unknown repository 'nope'"),
        (lambda c: c.search(""), coderecall.InvalidArgumentError, "query must not be empty"),
        (lambda c: c.search("store-down"), coderecall.UnavailableError,
         "vector store at qdrant:6334 unreachable"),
        (lambda c: c.search("misconfigured"), coderecall.FailedPreconditionError,
         "store.path: '/nope' is not writable"),
        (lambda c: c.search("mirror"), coderecall.InternalError,
         "internal error (MirrorError); see the daemon log"),
    ],
)
def test_domain_errors_map_to_status_codes(client, call, error, details):
    with pytest.raises(error) as info:
        call(client)
    assert type(info.value) is error
    assert info.value.details == details


def test_negative_limit_is_rejected_before_the_domain(client, api):
    with pytest.raises(coderecall.InvalidArgumentError, match="limit must be >= 0") as info:
        client.search("hmac", limit=-1)
    assert info.value.code == "INVALID_ARGUMENT"
    with pytest.raises(coderecall.InvalidArgumentError):
        client.find_callers("f", limit=-3)
    assert api.calls == []


def test_unexpected_exception_is_internal_logged_and_not_leaked(client, caplog):
    with caplog.at_level(logging.ERROR, logger="coderecalld.server"):
        with pytest.raises(coderecall.InternalError) as info:
            client.search("crash")
    assert info.value.code == "INTERNAL"
    assert "secret-internal-detail" not in info.value.details
    assert info.value.details == "internal error (RuntimeError); see the daemon log"
    [record] = [r for r in caplog.records if r.getMessage() == "rpc.failed"]
    assert record.fields["method"] == "/coderecall.v1.CodeRecall/Search"
    assert record.exc_info[0] is RuntimeError
    assert client.find_callers("verify")[0].line == 77  # the server is still up


def test_unreachable_daemon_names_the_address():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # free now, nothing listens after close
    addr = f"127.0.0.1:{port}"
    with coderecall.Client(addr, timeout_s=5.0) as c, pytest.raises(coderecall.UnavailableError) as info:
        c.list_repos()
    assert info.value.addr == addr
    assert str(info.value).startswith(f"coderecalld at {addr} is unavailable: ")


def test_port_in_use_is_a_config_error(addr):
    with pytest.raises(errors.ConfigError, match="server.listen: cannot bind"):
        build_server(FakeApi(), addr)


# --- health and reflection ----------------------------------------------------------------


def _health_status(addr: str, service: str) -> int:
    with grpc.insecure_channel(addr) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        return stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=5).status


def test_health_is_serving(addr):
    assert _health_status(addr, "") == health_pb2.HealthCheckResponse.SERVING
    assert _health_status(addr, "coderecall.v1.CodeRecall") == health_pb2.HealthCheckResponse.SERVING


def test_health_goes_not_serving_on_shutdown():
    health_servicer = health.HealthServicer()
    server, port = build_server(FakeApi(), "127.0.0.1:0", health_servicer=health_servicer)
    server.start()
    try:
        health_servicer.enter_graceful_shutdown()  # the first step of stop_server
        for service in ("", SERVICE_NAME):
            assert _health_status(f"127.0.0.1:{port}", service) == (
                health_pb2.HealthCheckResponse.NOT_SERVING
            )
    finally:
        stop_server(server, health_servicer, grace_s=0)


def test_reflection_lists_the_service(addr):
    with grpc.insecure_channel(addr) as channel:
        database = ProtoReflectionDescriptorDatabase(channel)
        services = database.get_services()
        assert "coderecall.v1.CodeRecall" in services
        assert "grpc.health.v1.Health" in services
        described = database.FindFileContainingSymbol("coderecall.v1.SymbolHit")
    assert described.name == "coderecall/v1/coderecall.proto"


# --- CLI ----------------------------------------------------------------------------------


#: What ``coderecall callers verify`` says on stderr: the fake API leaves out 3 calls on
#: another type (stdout keeps only the results).
OTHER_TYPE_NOTE = ("coderecall: 3 calls of the same name on another type, passing an argument count it does not "
                   "take, or in repos that call nothing of its package, left out\n")


def run_json(capsys, argv, err_expected=""):
    assert cli.main(argv) == 0
    out, err = capsys.readouterr()
    assert err == err_expected
    return json.loads(out)


def test_cli_search_json(capsys, addr, api):
    rows = run_json(capsys, ["--addr", addr, "search", "hmac", "--limit", "2", "--repo", "acme/api",
                             "--language", "python", "--path-prefix", "web/", "--json"])
    assert [{k: row[k] for k in ("repo", "path", "qualified_name", "name", "kind", "start_line",
                                 "end_line", "signature", "score")} for row in rows] == [
        {"repo": "acme/payments", "path": "src/hmac_check.py", "qualified_name": "HMACValidator",
         "name": "HMACValidator", "kind": "class", "start_line": 12, "end_line": 60,
         "signature": "class HMACValidator(Validator):", "score": 1.0},
        {"repo": "acme/api", "path": "web/sign.py", "qualified_name": "sign_body",
         "name": "sign_body", "kind": "function", "start_line": 3, "end_line": 9,
         "signature": "def sign_body(\n    body: bytes,\n    key: bytes,\n) -> str:",
         "score": 0.0163934},
    ]
    assert api.calls[0][1] == dict(query="hmac", limit=2, repo="acme/api", language="python",
                                   path_prefix="web/", path_glob="", kind="", mode="hybrid")


def test_cli_symbols_json(capsys, addr, api):
    rows = run_json(capsys, ["--addr", addr, "symbols", "HMAC", "--prefix", "--repo", "acme/payments",
                             "--json"])
    assert [row["qualified_name"] for row in rows] == ["HMACValidator"]
    assert api.calls == [("find_symbols", dict(name="HMAC", repo="acme/payments", prefix=True,
                                               limit=50))]


def test_cli_callers_json(capsys, addr):
    rows = run_json(capsys, ["--addr", addr, "callers", "verify", "--json"], OTHER_TYPE_NOTE)
    assert rows == [{"repo": "acme/api", "path": "web/hooks.py", "line": 77,
                     "caller": "handle_webhook", "callee": "validator.verify", "commit": COMMIT,
                     "text": "if not validator.verify(body, sig):", "confidence": "resolved",
                     "target": "payments.hmac_check.HMACValidator.verify", "role": ""}]


def test_cli_card_text_and_json(capsys, addr):
    assert cli.main(["--addr", addr, "card", "HMACValidator"]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[:4] == [
        "class HMACValidator   (acme/payments: src/hmac_check.py:12-60)",
        "  import: payments.hmac_check",
        "  class HMACValidator(Validator)",
        "  Checks webhook signatures.",
    ]
    assert "  init:     key: bytes\n            algo: str = 'sha256'\n" in text
    assert "    acme/api  web/hooks.py:77  handle_webhook  [resolved]\n        if not validator.verify" in text
    # a card of one of several definitions says so, and names the others
    assert ("  also named so (1 other definition; `coderecall symbols HMACValidator` lists them):\n"
            "    acme/legacy:old/hmac.py:3 HMACValidator") in text
    card = json.loads((cli.main(["--addr", addr, "card", "HMACValidator", "--json"]), capsys.readouterr().out)[1])
    assert card["init_params"] == ["key: bytes", "algo: str = 'sha256'"] and card["callers"][0]["line"] == 77


def test_cli_repos_and_sync_json(capsys, addr):
    rows = run_json(capsys, ["--addr", addr, "repos", "--json"])
    assert rows[1] == {
        "name": "acme/legacy", "url": "https://git.example.com/acme/legacy.git", "branch": "trunk",
        "indexed_commit": "", "files": 0, "symbols": 0, "chunks": 0, "last_sync_unix_s": 0.0,
        "state": "error", "error": "fetch failed: remote hung up",
        "purpose": "", "languages": [], "packages": [], "pending_vectors": 0, "lag_s": 0.0, "files_failed": 0,
    }
    assert (rows[0]["pending_vectors"], rows[0]["lag_s"]) == (57, 3.5)
    assert rows[0]["languages"] == [["python", 300], ["bash", 12]] and rows[0]["packages"] == ["payments"]
    assert rows[0]["last_sync_unix_s"] == 1_767_225_600.5
    synced = run_json(capsys, ["--addr", addr, "sync", "acme/payments", "--json"])
    assert synced == [rows[0]]
    assert cli.main(["--addr", addr, "repos"]) == 0
    assert "4107 chunks  57 pending vectors  lag 4s  2026-01-01T00:00:00Z" in capsys.readouterr().out


def test_cli_sync_that_did_not_end_exits_1(capsys, addr, api, monkeypatch):
    # the daemon stopped during the sync: `sync && ..` went on as if it had ended (a newcomer)
    interrupted = replace(REPOS[0], state=RepoState.PENDING, error="interrupted by shutdown")
    monkeypatch.setattr(api, "sync_repo", lambda name, *, principal: interrupted)
    assert cli.main(["--addr", addr, "sync", "acme/payments"]) == 1
    assert "interrupted by shutdown" in capsys.readouterr().out
    monkeypatch.setattr(api, "sync_repo", lambda name, *, principal: replace(interrupted, error=""))
    assert cli.main(["--addr", addr, "sync", "acme/payments"]) == 0  # queued, not failed


def test_cli_search_table(capsys, addr):
    assert cli.main(["--addr", addr, "search", "hmac"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "src/hmac_check.py:12-60  HMACValidator  (class)     class HMACValidator(Validator):",
        "web/sign.py:3-9          sign_body      (function)  def sign_body( body: bytes, key: bytes, ) -> str:",
    ]


def test_cli_read_prints_text(capsys, addr, api):
    assert cli.main(["--addr", addr, "read", "acme/payments", "src/hmac_check.py", "--lines", "12-13"]) == 0
    assert capsys.readouterr().out == SOURCE.text
    assert api.calls[0][1] == dict(repo="acme/payments", path="src/hmac_check.py", start_line=12,
                                   end_line=13)


def test_cli_sync_exit_status_follows_the_repo_state(capsys, addr):
    assert cli.main(["--addr", addr, "sync", "acme/payments"]) == 0
    assert cli.main(["--addr", addr, "sync", "acme/legacy"]) == 1  # error state: scripts can tell
    assert "fetch failed: remote hung up" in capsys.readouterr().out


def test_cli_callers_resolved_only(capsys, addr):
    assert cli.main(["--addr", addr, "callers", "verify", "--resolved", "--json"]) == 0
    assert [s["confidence"] for s in json.loads(capsys.readouterr().out)] == ["resolved"]


def test_cli_not_found_is_exit_1(capsys, addr):
    assert cli.main(["--addr", addr, "symbols", "Missing"]) == 1
    out, err = capsys.readouterr()
    assert (out, err) == ("", "coderecall: error: no symbol named 'Missing'\n")


def test_cli_connection_refused_names_address(capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert cli.main(["--addr", f"127.0.0.1:{port}", "repos"]) == cli.RETRY_STATUS  # not "nothing found"
    err = capsys.readouterr().err
    assert err.startswith(f"coderecall: error: coderecalld at 127.0.0.1:{port} is unavailable: ")


def test_cli_usage_error_is_exit_2(capsys):
    assert cli.main(["read", "acme/payments", "a.py", "--lines", "twelve"]) == 2
    assert "expected START-END" in capsys.readouterr().err


def test_a_query_that_begins_with_a_dash_gets_a_hint(capsys, addr):
    """jq's newcomer searched ``--slurpfile``: argparse read it as an option."""
    assert cli.main(["--addr", addr, "locate", "--slurpfile"]) == 2
    assert capsys.readouterr().err.endswith(
        "coderecall: '--slurpfile' is no option; to look it up, put '--' before it, after the "
        "options (coderecall locate [options] -- --slurpfile) or pass it on stdin ('-')\n")
    assert cli.main(["--addr", addr, "search", "--limit", "3"]) == 2  # a real option: no hint
    assert "is no option" not in capsys.readouterr().err


def test_cli_address_from_env_then_config(capsys, addr, monkeypatch, tmp_path):
    port = addr.rsplit(":", 1)[1]
    config = tmp_path / "coderecalld.toml"
    config.write_text(f'[server]\nlisten = "0.0.0.0:{port}"\n')
    # The config's wildcard address is reached through loopback.
    assert run_json(capsys, ["--config", str(config), "callers", "verify", "--json"],
                    OTHER_TYPE_NOTE)[0]["line"] == 77
    monkeypatch.setenv(cli.ENV_ADDR, addr)
    bad = tmp_path / "bad.toml"
    bad.write_text('[server]\nlisten = "127.0.0.1:1"\n')
    # The environment beats the config file.
    assert run_json(capsys, ["--config", str(bad), "callers", "verify", "--json"],
                    OTHER_TYPE_NOTE)[0]["line"] == 77


def test_cli_address_precedence(tmp_path):
    config = tmp_path / "c.toml"
    config.write_text('[server]\nlisten = "[::]:7000"\n')
    env = {cli.ENV_ADDR: "env:1"}
    assert cli.resolve_addr("flag:1", str(config), env) == "flag:1"
    assert cli.resolve_addr(None, str(config), env) == "env:1"
    assert cli.resolve_addr(None, str(config), {}) == "[::1]:7000"
    assert cli.resolve_addr(None, None, {}) == "127.0.0.1:50551"


def test_cli_unreadable_config_is_exit_2(capsys, tmp_path):
    assert cli.main(["--config", str(tmp_path / "missing.toml"), "repos"]) == 2
    assert capsys.readouterr().err.startswith(f"coderecall: error: cannot read config {tmp_path}")
