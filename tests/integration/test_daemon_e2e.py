"""The whole daemon, for real: a pygit2-built repo, the bare mirror, the ledger, the embedded
Qdrant engine, the real embedding model, a live gRPC server on loopback, the client library."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from coderecall import Client, InvalidArgumentError, NotFoundError
from coderecalld.errors import InvalidArgument
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon
from coderecalld.records import RepoState
from coderecalld.server.app import build_server
from coderecalld.store import StoreFilter
from gitfixtures import GitRepo

MONEY = '''\
"""Money helpers."""


def round_money(amount: float) -> float:
    """Round an amount to whole cents."""
    return round(amount, 2)
'''

BILLING = '''\
from app.money import round_money


class Invoice:
    """A customer invoice."""

    def __init__(self, lines):
        self.lines = lines

    @property
    def total(self) -> float:
        """Sum of all invoice lines."""
        return round_money(sum(self.lines))


def compute_refund(invoice: Invoice, percent: float) -> float:
    """Refund a percentage of an invoice's total to the customer."""
    return round_money(invoice.total * percent / 100)
'''

CLI = '''\
from app.billing import Invoice, compute_refund


def main():
    invoice = Invoice([10.0, 5.5])
    print(compute_refund(invoice, 50))
'''

FILES = {
    "app/__init__.py": "",
    "app/money.py": MONEY,
    "app/billing.py": BILLING,
    "app/cli.py": CLI,
    "README.md": "# Shop\n\nBilling and refunds.\n",
    "assets/logo.png": b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
    "legacy/latin1.py": "def caf\xe9():\n    return '\xe9'\n".encode("latin-1"),
    "broken.py": "def ok():\n    return 1\n\ndef broken(:\n",
}


@dataclass
class Running:
    daemon: Daemon
    client: Client
    repo: GitRepo
    commit: str


def make_config(tmp_path: Path, repos: tuple[RepoConfig, ...]) -> Config:
    return Config(data_dir=tmp_path / "data", repos=repos,
                  embedding=EmbeddingConfig(threads=2),
                  index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0))


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    tmp_path = tmp_path_factory.mktemp("e2e")
    repo = GitRepo(tmp_path / "shop")
    commit = repo.commit(FILES, "initial")
    cfg = make_config(tmp_path, (
        RepoConfig("shop", str(repo.path), "main"),
        RepoConfig("gone", str(tmp_path / "does-not-exist"), "main"),
    ))
    daemon = Daemon.open(cfg)
    for repo_cfg in cfg.repos:
        daemon.jobs.run_now(repo_cfg.name)
    server, port = build_server(daemon.service, "127.0.0.1:0")
    server.start()
    client = Client(f"127.0.0.1:{port}", timeout_s=30)
    try:
        yield Running(daemon, client, repo, commit)
    finally:
        client.close()
        server.stop(0).wait()
        daemon.close()


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_find_symbols_exact_ranges(running: Running) -> None:
    hits = running.client.find_symbols("compute_refund")
    assert [(h.repo, h.path, h.qualified_name, h.kind, h.start_line, h.end_line) for h in hits] == [
        ("shop", "app/billing.py", "compute_refund", "function", 16, 18)]
    hit = hits[0]
    assert hit.signature == "def compute_refund(invoice: Invoice, percent: float) -> float"
    assert hit.docstring == "Refund a percentage of an invoice's total to the customer."
    assert hit.commit == running.commit
    assert hit.match == "exact"
    blob = BILLING.encode()
    assert blob[hit.start_byte:hit.end_byte].decode().startswith("def compute_refund(")


def test_find_symbols_case_insensitive_qualified_and_prefix(running: Running) -> None:
    total = running.client.find_symbols("invoice.TOTAL")
    assert [(h.qualified_name, h.kind, h.start_line, h.end_line, h.match) for h in total] == [
        ("Invoice.total", "method", 10, 13, "case_insensitive")]  # range starts at @property
    prefixed = running.client.find_symbols("Invoice", prefix=True)
    assert [h.qualified_name for h in prefixed] == ["Invoice", "Invoice.__init__", "Invoice.total"]
    assert running.client.find_symbols("no_such_symbol") == []


def test_find_callers_with_caller_and_line(running: Running) -> None:
    sites = running.client.find_callers("round_money")
    assert [(s.path, s.line, s.caller, s.callee) for s in sites] == [
        ("app/billing.py", 13, "Invoice.total", "round_money"),
        ("app/billing.py", 18, "compute_refund", "round_money"),
    ]
    cli_sites = running.client.find_callers("compute_refund")
    assert [(s.path, s.line, s.caller) for s in cli_sites] == [
        ("app/cli.py", line_of(CLI, "print(compute_refund"), "main")]
    assert all(s.commit == running.commit for s in sites + cli_sites)


def test_read_symbol_from_git_objects(running: Running) -> None:
    text = running.client.read_symbol("shop", "app/billing.py", 16, 18)
    assert text.text == "".join(BILLING.splitlines(keepends=True)[15:18])
    assert text.text.startswith("def compute_refund(")
    assert (text.commit, text.start_line, text.end_line) == (running.commit, 16, 18)
    whole = running.client.read_symbol("shop", "app/money.py", 1)
    assert whole.text == MONEY and whole.end_line == 6
    with pytest.raises(NotFoundError):
        running.client.read_symbol("shop", "app/nope.py", 1, 2)
    with pytest.raises(NotFoundError):
        running.client.read_symbol("elsewhere", "app/money.py", 1, 2)
    with pytest.raises(InvalidArgumentError):
        running.client.read_symbol("shop", "app/money.py", 5, 2)
    with pytest.raises(InvalidArgumentError):
        running.client.read_symbol("shop", "app/money.py", 99, 100)


def test_search_semantic_and_pinned_identifier(running: Running) -> None:
    hits = running.client.search("give money back to a customer for part of a bill", limit=5)
    assert hits[0].qualified_name == "compute_refund"
    assert hits[0].score > 0
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    pinned = running.client.search("round_money", limit=3)
    assert (pinned[0].qualified_name, pinned[0].path, pinned[0].match) == (
        "round_money", "app/money.py", "exact")
    scoped = running.client.search("refund", repo="shop", path_prefix="app/cli", limit=10)
    assert scoped and {h.path for h in scoped} == {"app/cli.py"}
    with pytest.raises(NotFoundError):
        running.client.search("refund", repo="elsewhere")
    with pytest.raises(InvalidArgumentError):
        running.client.search("   ")


def test_list_repos_states_and_bad_inputs_recorded(running: Running) -> None:
    repos = {r.name: r for r in running.client.list_repos()}
    shop = repos["shop"]
    assert (shop.state, shop.indexed_commit, shop.branch) == ("ready", running.commit, "main")
    # 6 files indexed (4 .py with one broken-but-recovered, README); png + latin-1 skipped.
    assert shop.files == 6
    # round_money, Invoice, Invoice.__init__, Invoice.total, compute_refund, main, ok, broken
    assert shop.symbols == 8
    gone = repos["gone"]
    assert gone.state == "error" and "does-not-exist" in gone.error and gone.indexed_commit == ""
    ledger = running.daemon.ledger
    assert ledger.file("shop", "assets/logo.png").reason == "binary"
    assert ledger.file("shop", "legacy/latin1.py").reason == "encoding"


def test_every_point_has_a_dense_vector(running: Running) -> None:
    store = running.daemon.store
    assert store.count(StoreFilter(repo="shop")) == running.daemon.ledger.repo("shop").chunks
    assert store.missing_dense(limit=10) == []


def test_incremental_sync_touches_only_changes(running: Running) -> None:
    client, daemon = running.client, running.daemon
    again = daemon.jobs.run_now("shop")
    assert (again.files_changed, again.files_deleted, again.embedded) == (0, 0, 0)
    new_money = MONEY + '\n\ndef to_cents(amount: float) -> int:\n    return int(round_money(amount) * 100)\n'
    commit = running.repo.commit({"app/money.py": new_money, "app/cli.py": None}, "second")
    report = daemon.jobs.run_now("shop")
    assert (report.files_changed, report.files_deleted, report.commit) == (1, 1, commit)
    assert report.embedded == 2  # to_cents and the changed module chunk; round_money is cached
    assert daemon.store.count(StoreFilter(repo="shop", path="app/cli.py")) == 0
    assert client.find_symbols("main") == []
    assert client.find_callers("compute_refund") == []
    assert [(h.start_line, h.end_line) for h in client.find_symbols("to_cents")] == [(9, 10)]
    status = client.sync_repo("shop")
    assert (status.state, status.indexed_commit) == ("ready", commit)
    with pytest.raises(NotFoundError):
        client.sync_repo("elsewhere")
    assert daemon.ledger.repo("shop").state is RepoState.READY


def test_read_of_a_binary_file_is_a_clear_error(tmp_path: Path) -> None:
    # a PNG was served as a megabyte of U+FFFD and NUL characters, exit 0 (a newcomer)
    repo = GitRepo(tmp_path / "bin")
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4
    repo.commit({"logo.png": png, "m.py": "def f():\n    return 1\n"})
    cfg = make_config(tmp_path, (RepoConfig("bin", str(repo.path), "main"),))
    daemon = Daemon.open(replace(cfg, embedding=EmbeddingConfig(enabled=False)))
    try:
        daemon.jobs.run_now("bin")
        with pytest.raises(InvalidArgument, match=rf"logo.png: a binary file \({len(png)} bytes, not indexed\)"):
            daemon.service.read_symbol("bin", "logo.png", 1, 0)
        assert daemon.service.read_symbol("bin", "m.py", 1, 0).text == "def f():\n    return 1\n"
    finally:
        daemon.close()


def test_read_symbol_counts_lines_at_newline_only(tmp_path: Path) -> None:
    # A form feed or a lone CR inside a line must not shift the lines after it: the index
    # counts lines at "\n" only, and ReadSymbol must agree with the symbol ranges it cites.
    repo = GitRepo(tmp_path / "ff")
    repo.commit({"m.py": "# section\x0c one\nx = 'a\rb'\n\ndef after():\n    return 1\n"})
    cfg = make_config(tmp_path, (RepoConfig("ff", str(repo.path), "main"),))
    daemon = Daemon.open(replace(cfg, embedding=EmbeddingConfig(enabled=False)))
    try:
        daemon.jobs.run_now("ff")
        (hit,) = daemon.service.find_symbols("after")
        assert (hit.start_line, hit.end_line) == (4, 5)
        text = daemon.service.read_symbol("ff", "m.py", hit.start_line, hit.end_line).text
        assert text == "def after():\n    return 1\n"
    finally:
        daemon.close()
