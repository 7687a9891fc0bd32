"""A package's ``test/`` directory holding its test suite: the suite's helpers (files named
as no test beside its ``*_test.py``) are role test when indexed, in every chunk and in the
file-level index; a testing library's ``test/`` directory (no test files in it) stays
source. End to end on a real git fixture and the real embedded store (sparse side)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "netlib/__init__.py": "",
    "netlib/connector.py": '''\
def connect_dual_stack(addresses):
    """Try ipv6 and ipv4 addresses of a host in turn, the first to answer wins."""
    return addresses[0]
''',
    "netlib/test/__init__.py": "",
    "netlib/test/util.py": '''\
def skip_if_no_ipv6(test):
    """Skip a test when the host has no ipv6 addresses."""
    return test
''',
    "netlib/test/connector_test.py": '''\
from netlib.connector import connect_dual_stack


def test_connect_dual_stack():
    assert connect_dual_stack(["::1"]) == "::1"
''',
    "netlib/test/resolver_test.py": "def test_resolve():\n    assert True\n",
    "netlib/test/stream_test.py": "def test_stream():\n    assert True\n",
    "weblib/__init__.py": "",
    "weblib/test/__init__.py": "",
    "weblib/test/client.py": '''\
class TestClient:
    """A client for a test of your ipv6 app: requests without a server."""

    def get(self, path):
        return path
''',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("suites"), FILES) as running:
        yield running


def test_a_test_suites_helper_is_a_test_and_a_testing_library_is_source(daemon: Daemon) -> None:
    hits = daemon.service.search("ipv6 addresses", limit=20, repo="fx", mode="sparse")
    roles = {h.path: h.role for h in hits}
    assert roles == {"netlib/connector.py": "source", "netlib/test/util.py": "test",
                     "weblib/test/client.py": "source"}
    files = {f.path: f.role for f in daemon.service.locate("ipv6 addresses", limit=10, repo="fx").files}
    assert files["netlib/test/util.py"] == "test"
    assert files["weblib/test/client.py"] == "source"
    # the source answers first: the helper no longer outranks it as a second source
    assert hits[0].path == "netlib/connector.py"


def test_a_directory_that_becomes_a_suite_re_roles_its_unchanged_files(tmp_path) -> None:
    """A sync that makes a directory a test suite (its third test file) re-indexes its other
    files with their new role, and one that unmakes it re-roles them back: a file's role
    does not depend on the history the index was built through (a review)."""
    from conformance_cases import daemon as make_daemon
    from coderecalld.config import RepoConfig
    from gitfixtures import GitRepo
    helpers = "def wait_for_ipv6(host):\n    return host\n"
    base = {"lib/__init__.py": "", "lib/test/__init__.py": "", "lib/test/util.py": helpers,
            "lib/test/a_test.py": "def test_a():\n    assert True\n",
            "lib/test/b_test.py": "def test_b():\n    assert True\n"}
    repo = GitRepo(tmp_path / "fixture")
    repo.commit(base, "two tests")

    def role() -> str:
        (hit,) = [h for h in d.service.search("wait_for_ipv6", limit=5, repo="fx", mode="sparse")
                  if h.path == "lib/test/util.py"]
        return hit.role

    with make_daemon(tmp_path, RepoConfig("fx", str(repo.path), "main")) as d:
        d.jobs.run_now("fx")
        assert role() == "source"
        repo.commit({**base, "lib/test/c_test.py": "def test_c():\n    assert True\n"}, "a third")
        d.jobs.run_now("fx")
        assert role() == "test"
        repo.commit({"lib/test/c_test.py": None}, "the third removed")
        d.jobs.run_now("fx")
        assert role() == "source"


def test_a_docs_trees_translations_are_not_indexed(tmp_path) -> None:
    """FastAPI keeps each page in a dozen languages beside ``docs/en/``: the copies are left
    out (``index.skip_translations``), so the English page answers; with the option off,
    they are indexed."""
    from conformance_cases import config, reopen
    from coderecalld.config import RepoConfig
    from dataclasses import replace
    from gitfixtures import GitRepo
    page = "# CORS\n\nEnable CORS with the CORSMiddleware: allow origins, methods and headers.\n"
    files = {f"docs/{lang}/docs/tutorial/cors.md": page for lang in ("en", "de", "zh", "ja", "pt-BR")}
    files["app/cors.py"] = "def add_cors(app, origins):\n    return app\n"
    repo = GitRepo(tmp_path / "fixture")
    repo.commit(files, "pages")
    cfg = config(tmp_path, RepoConfig("fx", str(repo.path), "main"))
    with reopen(cfg) as d:
        d.jobs.run_now("fx")
        paths = {h.path for h in d.service.search("enable CORS origins", limit=10, repo="fx", mode="sparse")}
    assert paths == {"docs/en/docs/tutorial/cors.md", "app/cors.py"}
    every = replace(cfg, data_dir=tmp_path / "every", index=replace(cfg.index, skip_translations=False))
    with reopen(every) as d:
        d.jobs.run_now("fx")
        paths = {h.path for h in d.service.search("enable CORS origins", limit=10, repo="fx", mode="sparse")}
    assert paths == set(files)


def test_the_pending_bound_counts_the_never_embedded_too(tmp_path) -> None:
    """``count_missing_dense(upper=True)`` counts every point without a dense vector; the
    exact count leaves out those never embedded (a blank text: an import-only module)."""
    from conformance_cases import indexed
    files = {"pkg/__init__.py": "", "pkg/imports.py": "import os\nimport sys\n",
             "pkg/work.py": "def run(x):\n    return x + 1\n"}
    with indexed(tmp_path, files) as d:
        exact = d.store.count_missing_dense("fx")
        bound = d.store.count_missing_dense("fx", upper=True)
        from coderecalld.store.base import StoreFilter
        total = d.store.count(StoreFilter(repos=("fx",)))
    assert exact >= 1 and bound > exact and bound == total  # no model: nothing embedded


BUNDLING = {
    "reqlib/__init__.py": "__version__ = '2.7.0'\n",
    "reqlib/adapters.py": '''\
def send_through_proxies(request, proxies):
    """Send the request through the configured proxies of its connection pool."""
    return request, proxies
''',
    "reqlib/packages/__init__.py": "",
    "reqlib/packages/pool3/__init__.py": "__version__ = '1.10.4'\n",
    "reqlib/packages/pool3/poolmanager.py": '''\
def proxy_pool(url, proxies):
    """A connection pool that sends each request through proxies, and proxies of proxies."""
    return url, proxies
''',
}


def test_a_bundled_copy_of_another_distribution_is_vendored_and_re_roled(tmp_path) -> None:
    """requests 2.0-2.15 bundled urllib3 under ``requests/packages/``: those files are
    role vendored (in every chunk, the file-level index and ``locate``), and the package's
    own file answers first though the copy holds the query's words more often. A sync that
    makes a subpackage a bundled copy (its ``__version__`` added) re-roles its unchanged
    files, and one that unmakes it re-roles them back, as does a file of it that imports
    the host package (a project's own versioned subpackage, no copy)."""
    from conformance_cases import daemon as make_daemon
    from coderecalld.config import RepoConfig
    from gitfixtures import GitRepo
    repo = GitRepo(tmp_path / "fixture")
    repo.commit(BUNDLING, "bundled")
    query = "send request through proxies of proxies pool"

    def roles(d) -> dict[str, str]:
        return {h.path: h.role for h in d.service.search(query, limit=10, repo="fx", mode="sparse")
                if not h.path.endswith("__init__.py")}

    with make_daemon(tmp_path, RepoConfig("fx", str(repo.path), "main")) as d:
        d.jobs.run_now("fx")
        assert roles(d) == {"reqlib/adapters.py": "source", "reqlib/packages/pool3/poolmanager.py": "vendored"}
        files = d.service.locate(query, limit=10, repo="fx").files
        assert [(f.path, f.role) for f in files][0] == ("reqlib/adapters.py", "source")
        assert {f.path: f.role for f in files}.get("reqlib/packages/pool3/poolmanager.py", "vendored") == "vendored"
        repo.commit({"reqlib/packages/pool3/__init__.py": ""}, "no version")
        d.jobs.run_now("fx")
        assert roles(d)["reqlib/packages/pool3/poolmanager.py"] == "source"
        repo.commit({"reqlib/packages/pool3/__init__.py": "__version__ = '1.11'\n"}, "versioned again")
        d.jobs.run_now("fx")
        assert roles(d)["reqlib/packages/pool3/poolmanager.py"] == "vendored"
        # the re-roled file counts in the run's total: 2 of 2, never "2/1 changed files"
        done = d.progress.get("fx")
        assert (done.files_done, done.files_total) == (2, 2)
        # a subpackage importing its host package is the project's own, versioned or not
        repo.commit({"reqlib/packages/pool3/util.py": "from reqlib.adapters import send_through_proxies\n"},
                    "imports its host")
        d.jobs.run_now("fx")
        assert roles(d)["reqlib/packages/pool3/poolmanager.py"] == "source"
