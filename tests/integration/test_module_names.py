"""Module chunks are named by the import path the repo layout gives (``requests.adapters``
for ``src/requests/adapters.py``), the name a card's ``module`` and call targets print; files
with nothing to search have no searchable chunk, and lookups still find what they hold."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from coderecalld.config import RepoConfig
from coderecalld.daemon import Daemon
from coderecalld.records import FileState, RepoState
from coderecalld.store import StoreFilter
from conformance_cases import daemon, points
from gitfixtures import GitRepo

FILES = {
    "src/requests/__init__.py": "from .adapters import HTTPAdapter\nfrom . import hooks\n",
    "src/requests/adapters.py": '''"""Transport adapters: how requests reach the network."""
import socket

DEFAULT_RETRIES = 0


class HTTPAdapter:
    """The built-in adapter for HTTP and HTTPS."""

    def send(self, request):
        return socket.create_connection(request)
''',
    "src/requests/hooks.py": "def dispatch_hook(key, hooks):\n    return hooks\n",
    "src/requests/compat/__init__.py": "",
    "tools/release.py": "import os\n\nVERSION = os.environ.get('V', '0')\n",
    "app/main.py": "from requests import HTTPAdapter\n\n\ndef run():\n    return HTTPAdapter().send(1)\n",
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    tmp: Path = tmp_path_factory.mktemp("modnames")
    repo = GitRepo(tmp / "src")
    commit = repo.commit(FILES, "layout")
    with daemon(tmp, RepoConfig("req", str(repo.path))) as d:
        report = d.jobs.run_now("req")
        assert (report.state, report.commit) == (RepoState.READY, commit)
        yield d


def modules(running: Daemon) -> dict[str, tuple[str, str, str]]:
    """path -> (qualified_name, fq_name, embed_text) of each stored module chunk."""
    return {h.payload["path"]: (h.payload["qualified_name"], h.payload["fq_name"], h.payload["embed_text"])
            for h in points(running, "req") if h.payload["kind"] == "module"}


def test_module_chunks_are_named_by_import_path(running: Daemon) -> None:
    found = modules(running)
    assert {path: names[:2] for path, names in found.items()} == {
        "src/requests/__init__.py": ("requests", "requests"),  # imports only: kept, see below
        "src/requests/adapters.py": ("requests.adapters", "requests.adapters"),
        "tools/release.py": ("tools.release", "tools.release"),  # outside any package: by path
        "app/main.py": ("app.main", "app.main"),
        # hooks.py and compat/__init__.py say nothing outside their symbols: no module chunk
    }


def test_lookup_by_import_path_finds_the_module(running: Daemon) -> None:
    hits = running.service.find_symbols("requests.adapters", repo="req")
    assert [(h.path, h.kind, h.qualified_name, h.start_line, h.end_line) for h in hits] == [
        ("src/requests/adapters.py", "module", "requests.adapters", 1, 11)]
    # the path is no name of it; as an import from the repo root writes it, it answers with
    # its own name and says how it matched (match "scoped": the scope "src." dropped)
    assert [(h.qualified_name, h.match) for h in running.service.find_symbols("src.requests.adapters", repo="req")] == [
        ("requests.adapters", "scoped")]
    package = running.service.find_symbols("requests", repo="req")
    assert [(h.path, h.kind) for h in package] == [("src/requests/__init__.py", "module")]


def test_card_and_callers_print_the_same_module_name(running: Daemon) -> None:
    card = running.service.get_card("requests.adapters.HTTPAdapter", repo="req")
    assert (card.path, card.module, card.qualified_name) == (
        "src/requests/adapters.py", "requests.adapters", "HTTPAdapter")
    # The package re-exports it: `from requests import HTTPAdapter` in app/main.py resolves.
    sites = running.service.find_callers("requests.adapters.HTTPAdapter", repo="req")
    assert [(s.path, s.line, s.caller, s.confidence) for s in sites] == [
        ("app/main.py", 5, "run", "resolved")]


def test_files_with_nothing_to_search_have_no_searchable_chunk(running: Daemon) -> None:
    for path in ("src/requests/compat/__init__.py", "src/requests/hooks.py"):
        assert running.ledger.file("req", path).state is FileState.INDEXED
    assert running.store.count(StoreFilter(repo="req", path="src/requests/compat/__init__.py")) == 0
    assert modules(running)["src/requests/__init__.py"][2] == ""  # nothing to embed
    # The imports-only package module never answers a search, not even for its own words.
    for query in ("requests", "adapters HTTPAdapter", "hooks", "from import"):
        hits = running.service.search(query, repo="req", limit=50, mode="sparse")
        assert "src/requests/__init__.py" not in {h.path for h in hits}, query
    assert running.store.missing_dense(limit=50, repos=("req",)) != []  # dense off: all pending
    assert "src/requests/__init__.py" not in {
        h.payload["path"] for h in running.store.missing_dense(limit=50, repos=("req",))}
