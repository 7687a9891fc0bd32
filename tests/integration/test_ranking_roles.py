"""Ranking goldens for roles and query shapes on real code: the stdlib's own sources with
their own tests beside them (the layout of a project: ``json/decoder.py`` and
``tests/test_json/test_decode.py``) and a docs page made of the package's docstring. Indexed
with the real model, asked through the client.

"How/where is X implemented" must answer the source symbol above tests and docs; a query
asking for tests gets tests; the role filter keeps one role; an error message alone finds
the chunk that raises it; every hit and every located file carries its role."""

from __future__ import annotations

import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest

from coderecall import Client
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon
from coderecalld.server.app import build_server
from gitfixtures import GitRepo

STDLIB = Path(sysconfig.get_paths()["stdlib"])
SOURCES = {
    "json/decoder.py": "json/decoder.py",
    "json/encoder.py": "json/encoder.py",
    "json/scanner.py": "json/scanner.py",
    "urllib/parse.py": "urllib/parse.py",
    "http/cookies.py": "http/cookies.py",
    "tests/test_json/test_decode.py": "test/test_json/test_decode.py",
    "tests/test_json/test_fail.py": "test/test_json/test_fail.py",
    "tests/test_urlparse.py": "test/test_urlparse.py",
    "tests/test_http_cookies.py": "test/test_http_cookies.py",
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Client, Daemon]]:
    tmp_path = tmp_path_factory.mktemp("roles")
    files = {dst: (STDLIB / src).read_text(encoding="utf-8") for dst, src in SOURCES.items()}
    json_doc = (STDLIB / "json/__init__.py").read_text(encoding="utf-8").split('"""')[1]
    files["docs/json.rst"] = "JSON encoding and decoding\n==========================\n\n" + json_doc
    repo = GitRepo(tmp_path / "fixture")
    repo.commit(files, "initial")
    cfg = Config(data_dir=tmp_path / "data", repos=(RepoConfig("std", str(repo.path), "main"),),
                 embedding=EmbeddingConfig(threads=2),
                 index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0))
    daemon = Daemon.open(cfg)
    daemon.jobs.run_now("std")
    server, port = build_server(daemon.service, "127.0.0.1:0")
    server.start()
    c = Client(f"127.0.0.1:{port}", timeout_s=60)
    try:
        yield c, daemon
    finally:
        c.close()
        server.stop(0).wait()
        daemon.close()


@pytest.fixture(scope="module")
def client(served: tuple[Client, Daemon]) -> Client:
    return served[0]


@pytest.mark.parametrize(("query", "path"), [
    ("where is JSON decoding implemented", "json/decoder.py"),
    ("how is a URL query string parsed into pairs", "urllib/parse.py"),
    ("implementation of cookie header parsing", "http/cookies.py"),
])
def test_how_is_x_implemented_answers_source_above_tests_and_docs(client: Client, query: str,
                                                                   path: str) -> None:
    hits = client.search(query, limit=10)
    assert hits[0].role == "source"
    assert hits[0].path == path
    roles = [h.role for h in hits]
    first_other = next((i for i, r in enumerate(roles) if r != "source"), len(roles))
    assert roles.index("source") < first_other


def test_a_query_asking_for_tests_gets_tests(client: Client) -> None:
    hits = client.search("tests for decoding invalid JSON", limit=5)
    assert hits[0].role == "test"
    assert hits[0].path.startswith("tests/test_json/")



def test_role_filter_keeps_one_role(client: Client) -> None:
    hits = client.search("parse a query string", limit=10, role="test")
    assert hits and {h.role for h in hits} == {"test"}
    docs = client.search("JSON", limit=10, role=["docs"])
    assert docs and {h.path for h in docs} == {"docs/json.rst"}


def test_an_error_message_alone_finds_the_code_that_raises_it(client: Client) -> None:
    hits = client.search('"Expecting property name enclosed in double quotes"', limit=5)
    assert any(h.path == "json/decoder.py" for h in hits[:3])


def test_locate_answers_files_with_roles_and_functions(client: Client) -> None:
    files = client.locate("where is JSON decoding implemented", limit=5)
    assert files[0].path == "json/decoder.py" and files[0].role == "source"
    assert files[0].functions and all(f.start_line <= f.end_line for f in files[0].functions)
    assert [f.score for f in files] == sorted((f.score for f in files), reverse=True) or \
        files[0].role == "source"
    tests_only = client.locate("decoding", limit=5, role="test")
    assert tests_only and {f.role for f in tests_only} == {"test"}


def test_a_sentence_that_mentions_tests_still_answers_source(client: Client) -> None:
    # A changelog-style sentence says "test" of the fault it describes, not of what to read:
    # it asks for no role, so tests keep their penalty and the decoder comes first.
    sentence = ("Fixed a crash where decoding invalid JSON with a trailing comma in the test "
                "suites of projects raised the wrong error")
    hits = client.search(sentence, limit=5)
    assert hits[0].role == "source"
    files = client.locate(sentence, limit=3)
    assert files[0].path == "json/decoder.py"


def test_a_query_asking_for_tests_puts_them_before_the_source_it_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Sparse-only fixture: the source class matches the question's words best (and its
    # whole name, "cache provider"); the one test matches fewer. Asking for tests must
    # order the test first: other roles, source included, cost ASKED_OTHER_PENALTY.
    from conformance_cases import indexed
    from coderecalld.query import service

    files = {
        "pkg/cache.py": (
            "class CacheProvider:\n"
            '    """The cache provider: reads and writes cache entries of the cache directory."""\n\n'
            "    def get(self, key):\n"
            '        """A cache entry of the cache provider."""\n'
            "        return self.entries.get(key)\n"),
        "tests/test_cache.py": (
            "def test_get_returns_entry(provider):\n"
            '    assert provider.get("a") == 1\n'),
    }
    with indexed(tmp_path, files) as d:
        with monkeypatch.context() as m:
            m.setattr(service, "ASKED_OTHER_PENALTY", 0.0)
            m.setattr(service, "TYPE_PENALTY_TEXT", 0.0)  # the class is the source's best chunk
            plain = d.service.search("tests for the cache provider", limit=3, repo="fx")
        assert plain[0].path == "pkg/cache.py"
        hits = d.service.search("tests for the cache provider", limit=3, repo="fx")
        assert [(h.path, h.role) for h in hits] == [
            ("tests/test_cache.py", "test"), ("pkg/cache.py", "source"), ("pkg/cache.py", "source")]
        # a question that does not ask for tests keeps source first
        assert d.service.search("the cache provider", limit=1, repo="fx")[0].path == "pkg/cache.py"


@pytest.mark.parametrize(("note", "path", "function", "dense_led"), [
    # CPython's own kind of release notes; the function each fix edits. Embedded, the
    # dense side drew a neighbour of the same file first.
    ("Fix urlsplit to strip leading C0 control and space characters from the URL.",
     "urllib/parse.py", "urlsplit", "_to_bytes"),
    ("Fix a crash in the JSON decoder when an object key is not followed by a colon.",
     "json/decoder.py", "JSONObject", "JSONDecoder.decode"),
    ("Improve the error message of the JSON decoder for an unterminated string.",
     "json/decoder.py", "py_scanstring", "_decode_uXXXX"),
])
def test_a_release_note_is_ranked_by_its_words(served: tuple[Client, Daemon], note: str, path: str,
                                               function: str, dense_led: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # A text describing a change (shape.describes) is not embedded: ranked by its words,
    # the function the note is about leads its file; ranked dense-led it did not.
    from coderecalld.query import service

    c, daemon = served
    with monkeypatch.context() as m:
        m.setattr(service, "EMBED_DESCRIPTIONS", True)
        embedded = daemon.service.locate(note, limit=3, repo="std")
    assert embedded.files[0].path == path
    led = [f.qualified_name for f in embedded.files[0].functions]
    # the neighbour seen leading is within 0.001 of the next (json: `_decode_uXXXX` 0.4907,
    # `JSONDecoder.decode` 0.4904 on a fresh install of December 5): near, not first
    assert led[0] != function and dense_led in led[:2]
    files = c.locate(note, limit=3)
    assert files[0].path == path and files[0].role == "source"
    assert files[0].functions[0].qualified_name == function


def test_a_query_asking_for_docs_still_locates_the_definition_it_names(tmp_path: Path) -> None:
    # Sparse-only fixture: eight docs pages repeat the words ("typo", "docs", "widget");
    # the source defines make_widget among other functions. A request for its docs gets
    # docs first, the definition it names still in the answer though the asked-other
    # penalty put every source file last. A description of the change ("fix a minor typo in
    # `make_widget` docs") asks for no docs role (shape.DESCRIPTION_ROLES): the docstring
    # it may mean is in the source, first, the docs pages after it.
    from conformance_cases import indexed

    files = {f"docs/page{i}.md": (f"# Widget guide {i}\n\nFix the docs of widget {i}: a typo in "
                                  f"the widget docs, widget options and widget docs typo list.\n")
             for i in range(8)}
    files["pkg/widgets.py"] = "".join(
        f"def helper_{i}(value):\n    return value + {i}\n\n\n" for i in range(6)) + (
        "def make_widget(name):\n"
        '    """Build a widget named ``name``."""\n'
        "    return {'name': name}\n")
    with indexed(tmp_path, files) as d:
        asked = d.service.locate("where are the docs of `make_widget`", limit=5, repo="fx")
        described = d.service.locate("fix a minor typo in `make_widget` docs", limit=5, repo="fx")
    paths = [f.path for f in asked.files]
    assert all(p.startswith("docs/") for p in paths[:4]) and len(paths) == 5
    source = next(f for f in asked.files if f.path == "pkg/widgets.py")
    assert source.role == "source" and source.functions[0].qualified_name == "make_widget"
    assert [f.path.startswith("docs/") for f in described.files] == [False, True, True, True, True]
    assert described.files[0].functions[0].qualified_name == "make_widget"
    for located in (asked, described):
        assert [f.score for f in located.files] == sorted((f.score for f in located.files), reverse=True)


def test_an_unsure_hybrid_page_is_fused_with_the_words_ranking(served: tuple[Client, Daemon],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A question whose first hybrid score is under ``RANK_FUSION_BELOW`` is answered by the
    reciprocal-rank fusion (``rank_fused``) of the hybrid ranking and the words-alone one
    (as while vectors fill), scores never rising; one the model is sure of is not fused."""
    from coderecalld.query import service as service_mod
    daemon = served[1]
    query = "which function splits the netloc into user name, password, host and port"

    def page(fused: bool, words: bool = False) -> list[tuple[str, float]]:
        with monkeypatch.context() as m:
            m.setattr(service_mod, "RANKINGS_FUSED", fused)
            if words:
                m.setattr(daemon.service, "_filling", lambda flt: (1, 1))
            return [(h.id, h.score) for h in daemon.service.search(query, limit=10, repo="std")]

    hybrid, words = page(False), page(False, words=True)
    assert hybrid[0][1] < service_mod.RANK_FUSION_BELOW
    assert [i for i, _ in hybrid[:5]] != [i for i, _ in words[:5]]  # two rankings to fuse
    calls = []
    real = service_mod.rank_fused

    def spy(first, second, *args, **kwargs):
        out = real(first, second, *args, **kwargs)
        calls.append(([e[0].id for e in first], [e[0].id for e in second], [e[0].id for e in out]))
        return out

    monkeypatch.setattr(service_mod, "rank_fused", spy)
    fused = page(True)
    (first, second, out), = calls
    # the two rankings before a page's last steps (parts collapsed, evidence placed)
    assert first[:2] == [i for i, _ in hybrid[:2]] and second[:2] == [i for i, _ in words[:2]]
    assert [i for i, _ in fused[:2]] == out[:2] and out[:5] != first[:5]
    assert all(a[1] >= b[1] for a, b in zip(fused, fused[1:]))
    monkeypatch.setattr(service_mod, "RANK_FUSION_BELOW", 0.0)  # the model always sure
    assert page(True) == hybrid and len(calls) == 1


def test_a_search_of_an_embedded_index_reads_no_exact_pending_count(served: tuple[Client, Daemon],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hybrid search asks whether its scope is still filling (``_filling``); with
    every vector in, the cheap bound answers it (the exact count reads every payload's
    text: 1.6 s at 100k points, a stall each ``PENDING_NOTE_TTL_S``)."""
    daemon = served[1]
    service = daemon.service
    asked: list[bool] = []
    real = service.store.count_missing_dense

    def spy(*args, **kwargs):
        asked.append(bool(kwargs.get("upper")))
        return real(*args, **kwargs)

    monkeypatch.setattr(service.store, "count_missing_dense", spy)
    service._pending_bounds.clear()
    service._blank_counts.clear()
    service._scope_counts.clear()
    hits = service.search("how is a URL query string parsed into pairs", limit=5, repo="std")
    assert hits and asked == [True]
    exact, bound = real(flt=None), real(flt=None, upper=True)
    assert exact == 0 and bound > exact  # import-only modules and constants: never embedded


def test_a_fused_pages_second_ranking_reads_nothing_twice(served: tuple[Client, Daemon],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The words-alone ranking of a fused page (``rank_fused``) is answered from what the
    hybrid one read in the same request (``reuse.Reused``): the sparse retriever's own top is
    searched once, a payload is read once, and the page is what it was with every read
    repeated."""
    from coderecalld.query import reuse
    from coderecalld.query import service as service_mod
    daemon = served[1]
    store = daemon.service.store
    query = "which function splits the netloc into user name, password, host and port"
    searched: list[tuple] = []
    retrieved: list[str] = []
    real_search, real_retrieve = store.sparse_search, store.retrieve

    def search_spy(sparse, flt, limit, fields=None):
        searched.append((sparse, flt, limit, fields))
        return real_search(sparse, flt, limit, fields=fields)

    def retrieve_spy(ids, fields=None):
        retrieved.extend(ids)
        return real_retrieve(ids, fields)

    monkeypatch.setattr(store, "sparse_search", search_spy)
    monkeypatch.setattr(store, "retrieve", retrieve_spy)
    monkeypatch.setattr(service_mod, "RANKINGS_FUSED", True)
    fused = [(h.id, h.score) for h in daemon.service.search(query, limit=10, repo="std")]
    assert fused[0][1] < service_mod.RANK_FUSION_BELOW  # a fused page
    once_searched, once_retrieved = list(searched), list(retrieved)
    assert len(once_searched) == len(set(once_searched))
    searched.clear()
    retrieved.clear()
    with monkeypatch.context() as m:
        m.setattr(reuse, "Reused", lambda s: s)  # every read asked of the store again
        again = [(h.id, h.score) for h in daemon.service.search(query, limit=10, repo="std")]
    assert again == fused
    # the words' ranking repeated the hybrid one's own sparse top and re-read payloads
    assert len(searched) > len(once_searched) and len(retrieved) > len(once_retrieved)


def test_a_filter_of_several_roles_ranks_them_alike(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    # `--role test,docs` answered tests only, docs ranked below them by their role's
    # penalty (click's "Exit Codes" docs sections; a newcomer): each asked role is asked for
    from coderecalld.query import service
    query = "decode a JSON document with object hooks"
    both = client.search(query, limit=5, role="test,docs")
    assert {h.role for h in both} == {"test", "docs"}
    assert both[0].path == "docs/json.rst", [(h.path, h.score) for h in both]
    monkeypatch.setattr(service, "ROLES_FILTERED_ALIKE", False)  # the docs' penalty put it 4th
    assert client.search(query, limit=5, role="test,docs")[0].path != "docs/json.rst"
