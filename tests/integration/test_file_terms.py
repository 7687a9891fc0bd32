"""The file-level index end to end (real git fixture, real embedded store, sparse side):
every indexed file with a searchable chunk gets one point of its whole text's terms
(``Store.upsert_files``), replaced when the file changes and deleted with it; ``locate``
fuses its ranking with the chunks' for a short text (``locate.fused``)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from coderecalld.config import RepoConfig
from coderecalld.embed import sparse
from coderecalld.query import locate, service, shape
from coderecalld.store import StoreFilter, edge
from conformance_cases import daemon as open_daemon
from conformance_cases import indexed
from gitfixtures import GitRepo

# The words "expire", "stale" and "entries" are spread over cache.py's functions: no chunk
# holds two of them, the file holds all three. helpers.py's one function holds two.
FILES = {
    "pkg/__init__.py": "from pkg.cache import Cache\n",  # imports only: nothing to search
    "pkg/cache.py": '''\
class Cache:
    def expire(self, now):
        """Drop what is older than the deadline."""
        self.items = {k: v for k, v in self.items.items() if v.deadline > now}

    def stale(self, key, now):
        return self.items[key].deadline <= now

    def entries(self):
        return list(self.items)
''',
    "pkg/helpers.py": '''\
def expire_stale(store):
    """Expire the stale ones."""
    return store.clear()
''',
    "tests/test_cache.py": '''\
def test_expire_stale_entries():
    assert Cache().entries() == []
''',
}
QUERY = "expire stale entries"


def _paths(hits):
    return [h.payload["path"] for h in hits]


def test_file_points_follow_the_files(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "fixture")
    repo.commit(FILES, "initial")
    with open_daemon(tmp_path, RepoConfig("fx", str(repo.path), "main")) as running:
        running.jobs.run_now("fx")
        store = running.service.store
        # one point per indexed file; the imports-only __init__.py's has no terms
        assert store.count_files("fx") == 4
        everything = StoreFilter(repos=("fx",))
        vector = sparse.query_vector(QUERY)
        found = store.file_search(vector, everything, 10)
        assert set(_paths(found)) == {"pkg/cache.py", "pkg/helpers.py", "tests/test_cache.py"}
        # never the terms-less __init__.py, though its import names Cache
        assert set(_paths(store.file_search(sparse.query_vector("Cache"), everything, 10))) == {
            "pkg/cache.py", "tests/test_cache.py"}
        assert {h.payload["path"]: h.payload["role"] for h in found}["tests/test_cache.py"] == "test"
        sources = store.file_search(vector, StoreFilter(repos=("fx",), roles=("source",)), 10)
        assert set(_paths(sources)) == {"pkg/cache.py", "pkg/helpers.py"}

        # a change replaces the file's terms; a deletion deletes its point
        repo.commit({"pkg/helpers.py": "def flush(store):\n    return store.clear()\n",
                     "tests/test_cache.py": None}, "change")
        running.jobs.run_now("fx")
        assert store.count_files("fx") == 3
        assert _paths(store.file_search(sparse.query_vector("stale"), everything, 10)) == ["pkg/cache.py"]
        assert _paths(store.file_search(sparse.query_vector("flush"), everything, 10)) == ["pkg/helpers.py"]


def _located_twice(tmp_path: Path, files: dict[str, str], monkeypatch: pytest.MonkeyPatch,
                   module: object, name: str, value: object) -> tuple[list, list[str], list[str]]:
    """``files`` indexed (sparse side): ``locate(QUERY, limit=5)``'s files, the file index's
    source paths for ``QUERY``, and locate's paths again with ``module.name`` = ``value``."""
    repo = GitRepo(tmp_path / "fixture")
    repo.commit(files, "initial")
    with open_daemon(tmp_path, RepoConfig("fx", str(repo.path), "main")) as running:
        running.jobs.run_now("fx")
        svc = running.service
        answer = list(svc.locate(QUERY, limit=5, repo="fx").files)
        lexical = _paths(svc.store.file_search(sparse.query_vector(QUERY),
                                               StoreFilter(repos=("fx",), roles=("source",)), 50))
        monkeypatch.setattr(module, name, value)
        again = [f.path for f in svc.locate(QUERY, limit=5, repo="fx").files]
    return answer, lexical, again


def test_locate_fuses_the_file_ranking_for_a_short_text(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(locate, "EVIDENCE_SCORES", False)  # the fused scores, read below
    fused, lexical, chunks = _located_twice(tmp_path, FILES, monkeypatch, service,
                                            "LEXICAL_FILES_DEPTH", 0)
    # the file holding every word leads the file index, the test is no source
    assert lexical == ["pkg/cache.py", "pkg/helpers.py"]
    assert {"pkg/cache.py", "pkg/helpers.py"} <= set(chunks)
    k, w = locate.LEXICAL_FILES_K, locate.LEXICAL_FILES_WEIGHT

    def expected(path: str) -> float:
        own = 1 / (k + chunks.index(path) + 1) if path in chunks else 0.0
        return round(own + (w / (k + lexical.index(path) + 1) if path in lexical else 0.0), 6)

    assert [f.score for f in fused] == sorted((expected(p) for p in chunks), reverse=True)
    assert {f.path: f.score for f in fused} == {p: expected(p) for p in chunks}
    assert fused[0].functions  # a fused file still lists its functions


def test_a_located_file_scores_its_own_evidence_not_its_fused_rank(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    evidence, _, fused = _located_twice(tmp_path, FILES, monkeypatch, locate, "EVIDENCE_SCORES", False)
    # the same files in the same order, scored by their chunks (a search hit's units), never
    # rising: not by the fused ranks (the file index's and the chunks' first file tie there)
    assert [f.path for f in evidence] == fused
    assert [f.score for f in evidence] == sorted((f.score for f in evidence), reverse=True)
    assert evidence[0].score > evidence[1].score > 0
    # a test file's role penalty orders it last and takes nothing off its score
    assert evidence[-1].role == "test" and evidence[-1].score > 0


def test_a_lost_file_index_is_rebuilt_on_the_next_sync(tmp_path: Path) -> None:
    """A store whose file-level shard is gone (deleted, or a copy without it) opens with an
    empty one; the next sync sees fewer files there than the ledger indexed and re-indexes
    every file once."""
    repo = GitRepo(tmp_path / "fixture")
    repo.commit(FILES, "initial")
    cfg = RepoConfig("fx", str(repo.path), "main")
    with open_daemon(tmp_path, cfg) as running:
        running.jobs.run_now("fx")
        assert running.service.store.count_files("fx") == 4
        collection = running.service.store.collection
    shutil.rmtree(tmp_path / "data" / "store" / collection / "files")
    with open_daemon(tmp_path, cfg) as running:
        store = running.service.store
        assert store.count_files("fx") == 0
        assert store.file_search(sparse.query_vector(QUERY), StoreFilter(repos=("fx",)), 5) == []
        repaired = running.jobs.run_now("fx")
        assert repaired is not None and repaired.files_changed == 4  # every file, once
        assert store.count_files("fx") == 4
        assert set(_paths(store.file_search(sparse.query_vector("stale"), StoreFilter(repos=("fx",)), 5))) == {
            "pkg/cache.py", "pkg/helpers.py", "tests/test_cache.py"}
        again = running.jobs.run_now("fx")  # complete again: nothing re-indexed
        assert again is not None and again.files_changed == 0 and store.count_files("fx") == 4


def test_locate_keeps_the_file_index_first_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file the chunks rank below the first page (its words are spread over its functions,
    each of twelve other files has a function named by two of them) but the file index ranks
    first is still in a short text's answer: ``LEXICAL_FILES_KEPT`` of its places."""
    pairs = ("expire_stale", "stale_entries", "expire_entries")
    files = dict(FILES)
    files["pkg/cache.py"] = "".join(  # the only file with all three, each in its own function
        f"def {word}_{i}(items):\n    return [x for x in items if x.{word}]\n\n\n"
        for i in range(3) for word in ("expire", "stale", "entries"))
    for i in range(12):
        files[f"pkg/m{i}.py"] = f"def {pairs[i % 3]}_{i}(store):\n    return store.pop({i})\n"
    kept = int(5 * locate.LEXICAL_FILES_KEPT)
    answer, lexical, fusion_only = _located_twice(tmp_path, files, monkeypatch, locate,
                                                  "LEXICAL_FILES_KEPT", 0.0)
    assert kept == 2 and lexical[0] == "pkg/cache.py"
    assert "pkg/cache.py" not in fusion_only  # the fusion alone leaves it out
    paths = [f.path for f in answer]
    assert set(lexical[:kept]) <= set(paths)
    # spread over the page of ten they are ranked in (``locate._spread``): the first at
    # place 3 (ceil(1 x 10 / 4)), the fusion's own first two above it (the second kept
    # file moves up to place 10 at most: where the fusion ranks it higher, it stays)
    assert paths[2] == "pkg/cache.py"
    assert paths[:2] == fusion_only[:2]
    assert [f.score for f in answer] == sorted((f.score for f in answer), reverse=True)
    assert next(f for f in answer if f.path == "pkg/cache.py").functions  # its own functions


def test_a_kept_files_functions_score_on_the_candidates_scale(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A file the file index keeps while no candidate chunk is its own lists its functions
    scored by the query's words, scaled under the last candidate's score: httpx's ``main``
    was listed at 87.1 (its raw BM25 score) beside functions at 0.3-1.8 (a newcomer)."""
    pairs = ("expire_stale", "stale_entries", "expire_entries")
    files = dict(FILES)
    files["pkg/cache.py"] = "".join(
        f"def {word}_{i}(items):\n    return [x for x in items if x.{word}]\n\n\n"
        for i in range(3) for word in ("expire", "stale", "entries"))
    for i in range(40):
        files[f"pkg/m{i}.py"] = f"def {pairs[i % 3]}_{i}(store):\n    return store.pop({i})\n"
    monkeypatch.setattr(service, "LOCATE_CANDIDATES", 10)
    monkeypatch.setattr(service, "PAGE_FLOOR", 10)
    monkeypatch.setattr(service, "RANKED_FLOOR", 10)
    repo = GitRepo(tmp_path / "fixture")
    repo.commit(files, "initial")
    with open_daemon(tmp_path, RepoConfig("fx", str(repo.path), "main")) as running:
        running.jobs.run_now("fx")
        answer = list(running.service.locate(QUERY, limit=10, repo="fx").files)
    kept = next(f for f in answer if f.path == "pkg/cache.py")
    others = [fn.score for f in answer if f.path != "pkg/cache.py" for fn in f.functions]
    assert kept.functions and others
    assert 0 < max(fn.score for fn in kept.functions) <= min(others)
    # in proportion to their words' scores: each of its functions holds one word of three
    assert len({round(fn.score, 6) for fn in kept.functions}) <= 3


# An issue whose chunks put one lone strong chunk (helpers.py) first, while its words are
# the two methods of cache.py: ``locate`` ranks cache.py first (a file's best chunk plus a
# share of its next, fused with the file-level index); search's page is led by it.
ISSUE_FILES = {
    "pkg/cache.py": '''\
class Cache:
    def expire(self, now):
        """Drop stale entries past their deadline."""
        self.items = {k: v for k, v in self.items.items() if v.deadline > now}

    def sweep(self, now):
        """Sweep stale entries past their deadline."""
        for key in list(self.items):
            self.items.pop(key)
''',
    "pkg/helpers.py": '''\
def stale_entries(store, now):
    """Stale entries past the deadline, for the nightly sweep and expire."""
    return [e for e in store if e.deadline <= now]
''',
    "pkg/report.py": '''\
def report(entries, now):
    """Print the entries."""
    for e in entries:
        print(e, now)
''',
}
ISSUE = """Stale entries stay after the sweep
The stale entries past their deadline stay after a sweep; expire does not drop them either.

Seen on the nightly run, twice.
"""


def test_an_issues_search_page_follows_locates_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with indexed(tmp_path, ISSUE_FILES) as running:
        located = running.service.locate(ISSUE, limit=10, repo="fx")
        assert [f.path for f in located.files] == ["pkg/cache.py", "pkg/helpers.py", "pkg/report.py"]
        hits = running.service.search(ISSUE, limit=10, repo="fx")
        assert hits.features.shape == "issue"
        # the located first file's hits on the page first, then the page in its own order;
        # the title's words weigh as its code words (``shape.UNTRACED_TITLE_WEIGHT``): the
        # title's sweep puts ``Cache.sweep`` first (the body's expire led it before)
        assert [(h.path, h.qualified_name) for h in hits] == [
            ("pkg/cache.py", "Cache.sweep"), ("pkg/cache.py", "Cache.expire"), ("pkg/cache.py", "Cache"),
            ("pkg/helpers.py", "stale_entries"), ("pkg/report.py", "report")]
        assert all(a.score >= b.score for a, b in zip(hits, list(hits)[1:]))
        # by its chunks alone, the page led with the lone strong chunk
        monkeypatch.setattr(service, "LOCATED_ORDER_SHAPES", frozenset())
        by_chunks = running.service.search(ISSUE, limit=10, repo="fx")
        assert [h.path for h in by_chunks][:3] == ["pkg/helpers.py", "pkg/cache.py", "pkg/cache.py"]
        monkeypatch.setattr(service, "LOCATED_ORDER_SHAPES", frozenset({shape.Shape.ISSUE}))
        monkeypatch.setattr(shape, "UNTRACED_TITLE_WEIGHT", 0.0)  # the title's words at 1.5x
        assert [h.qualified_name for h in running.service.search(ISSUE, limit=10, repo="fx")][:2] == [
            "Cache.expire", "Cache.sweep"]


TRACE = '''\
Traceback (most recent call last):
  File "tests/test_cache.py", line 2, in test_expire_stale_entries
    assert Cache().entries() == []
  File "pkg/cache.py", line 10, in entries
    return list(self.items)
AttributeError: 'Cache' object has no attribute 'items'
'''


def test_a_trace_s_located_test_file_scores_its_evidence_not_less_its_penalty(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No file-level fusion runs for a trace: the files are ordered by their chunks less a
    role's penalty (``ROLE_PENALTY_LONG``: 1.0 for a test file), and each reports its own
    evidence, as an issue's do: the test file the trace starts in is listed below the
    source it calls, at a score of 0 or more, never above the source's."""
    repo = GitRepo(tmp_path / "fixture")
    repo.commit(FILES, "initial")
    with open_daemon(tmp_path, RepoConfig("fx", str(repo.path), "main")) as running:
        running.jobs.run_now("fx")
        svc = running.service
        answer = svc.locate(TRACE, limit=5, repo="fx")
        monkeypatch.setattr(locate, "EVIDENCE_SCORES", False)
        ordering = svc.locate(TRACE, limit=5, repo="fx")
    assert answer.shape == "trace"
    paths = [f.path for f in answer.files]
    assert paths == [f.path for f in ordering.files]  # the order is unchanged
    assert paths[0] == "pkg/cache.py" and "tests/test_cache.py" in paths
    scores = {f.path: f.score for f in answer.files}
    penalised = {f.path: f.score for f in ordering.files}
    assert scores["pkg/cache.py"] == penalised["pkg/cache.py"] > 0
    # reported: the test file's own evidence (its frame's chunk, under the source's score);
    # ordered, and once reported, less the penalty of its role
    assert 0 < scores["tests/test_cache.py"] <= scores["pkg/cache.py"]
    assert scores["tests/test_cache.py"] - penalised["tests/test_cache.py"] == pytest.approx(
        service.ROLE_PENALTY_LONG["test"])
    assert [f.score for f in answer.files] == sorted(scores.values(), reverse=True)


def test_an_index_synced_through_deletions_answers_as_one_built_at_its_commit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A repository moved to a commit that deletes most files holding a word: the synced
    index's search and locate scores are those of an index built at that commit alone
    (``Store.settle`` after the sync: the engine counted the deleted chunks and files in
    its IDF statistics until a shard was loaded again; two newcomers' answers changed
    with the commits a repository had been synced through). A shard too large to load
    again while serving (here: every shard, ``SETTLE_NOW_MAX_POINTS`` 0) answers as before
    the deletions until ``Jobs.optimize`` (the quiet hour) settles it."""
    many = {f"pkg/old{i}.py": f"def alpha_{i}(x):\n    return alpha(x, 'alpha beta')\n" for i in range(30)}
    kept = {
        "pkg/core.py": "def alpha(x, words):\n    return gamma(x) + words\n\n\ndef gamma(x):\n    return x\n",
        "pkg/other.py": "def gamma_delta(y):\n    return y * 2  # gamma delta\n",
    }
    query = "alpha gamma"

    def asked(svc: Any) -> tuple[list, list]:
        assert svc.store.count_files("fx") == 2
        return ([(h.path, h.qualified_name, round(h.score, 5)) for h in svc.search(query, limit=10, repo="fx")],
                [(f.path, f.score) for f in svc.locate(query, limit=5, repo="fx").files])

    def answer(path: Path, history: list[dict], deferred: bool = False) -> tuple[list, list]:
        repo = GitRepo(path / "repo")
        with open_daemon(path, RepoConfig("fx", str(repo.path), "main")) as running:
            for files in history:
                repo.commit(files, "next")
                running.jobs.run_now("fx")
            if not deferred:
                return asked(running.service)
            stale = asked(running.service)
            running.jobs.optimize()
            assert asked(running.service) != stale
            return asked(running.service)
    built = answer(tmp_path / "built", [kept])
    assert answer(tmp_path / "synced", [{**many, **kept}, {path: None for path in many}]) == built
    monkeypatch.setattr(edge, "SETTLE_NOW_MAX_POINTS", 0)
    assert answer(tmp_path / "deferred", [{**many, **kept}, {path: None for path in many}], deferred=True) == built
