"""Conformance cases with a git history, indexed state by state, incrementally, through the
real index path: each state is made the source branch's head, then synced.

Every ``after[STATE]`` block of the case's ``expected.json`` is checked after its state,
against the service and against the store and ledger directly.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from coderecalld.config import RepoConfig
from coderecalld.daemon import Daemon
from coderecalld.errors import StoreError
from coderecalld.index.pipeline import IndexReport
from coderecalld.records import RepoState
from coderecalld.store import StoreFilter
from conformance_cases import (
    build,
    config,
    daemon,
    expected,
    indexed_paths,
    point_branch,
    points,
    reopen,
    stored_paths,
    symbols,
)

CASE12 = "12-deleted-file-stale-vectors"
CASE13 = "13-deep-path-delete-filter"
CASE14 = "14-move-into-excluded-dir"
CASE16 = "16-empty-repo-unborn-head"
#: Case 14's indexer configuration; harmless to the others (none has an archive/ directory).
EXCLUDE = ("archive/**",)


@dataclass
class History:
    """One daemon over every repo of this module. ``src`` maps repo name to its source
    checkout, ``states`` to the case's ``STATES`` (name -> commit, in order)."""

    daemon: Daemon
    src: dict[str, Path]
    states: dict[str, dict[str, str]]
    root: Path


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Iterator[History]:
    root = tmp_path_factory.mktemp("history")
    states = {name: build(case, root / name) for name, case in
              (("c12", CASE12), ("c13", CASE13), ("c14", CASE14))}
    src = {name: root / name / "repo" for name in states}
    build(CASE16, root / "c16", "phase1")
    repos = [RepoConfig(name, str(path)) for name, path in src.items()] + [
        RepoConfig("c16-empty", str(root / "c16" / "empty")),
        RepoConfig("c16-unborn", str(root / "c16" / "unborn-with-branch")),
        RepoConfig("c16-dev", str(root / "c16" / "unborn-with-branch"), branch="dev"),
    ]
    with daemon(root, *repos, exclude=EXCLUDE) as running:
        yield History(running, src, states, root)


def index_state(running: Daemon, repo: str, src: Path, commit: str) -> IndexReport:
    """Make ``commit`` the head of the source's main branch and sync; it must succeed."""
    point_branch(src, commit)
    report = running.jobs.run_now(repo)
    assert (report.state, report.commit, report.error) == (RepoState.READY, commit, "")
    return report


def assert_files(running: Daemon, repo: str, files: list[str]) -> None:
    """The ledger, the store and the repo status agree on exactly ``files``."""
    assert indexed_paths(running, repo) == stored_paths(running, repo) == set(files)
    assert running.ledger.repo(repo).files == len(files)


def names(running: Daemon, repo: str, name: str) -> list[str]:
    """Qualified names of the symbols (not modules, see ``symbols``) called ``name``."""
    return [qualified for _, qualified, *_ in symbols(running, repo, name)]


# --- 12: deleted files and directories leave nothing behind ----------------------------------


def test_12_deleted_file_stale_vectors(history: History) -> None:
    """Every ``after`` block and the three invariants. Dense vectors are off here; the store
    count covers every point whatever vectors it has."""
    after = expected(CASE12)["expect"]["after"]
    running, src, states = history.daemon, history.src["c12"], history.states["c12"]
    assert list(states) == list(after)
    # (changed, deleted) files per incremental run: s3 drops the whole directory in one run.
    counts = {"s1_all_present": (4, 0), "s2_file_deleted": (0, 1), "s3_dir_deleted": (0, 2)}
    for state, commit in states.items():
        report = index_state(running, "c12", src, commit)
        want = after[state]
        assert (report.files_changed, report.files_deleted) == counts[state]
        assert_files(running, "c12", want["files"])
        for name in want.get("symbols_present", []):
            assert names(running, "c12", name) == [name]
        for name in want.get("symbols_absent", []):
            assert names(running, "c12", name) == []
        for search in want.get("search_absent", []):
            hits = running.service.search(search["query"], repo="c12", limit=50)
            assert search["path"] not in {h.path for h in hits}
            assert running.store.count(StoreFilter(repo="c12", path=search["path"])) == 0
        for call in want.get("callers_absent", []):
            sites = running.service.find_callers(call["callee"], repo="c12")
            assert call["caller"] not in {s.caller for s in sites}
            assert sites == []
        if state == "s1_all_present":  # what the later absences are measured against
            top = running.service.search("zebrafish quantum marmalade", repo="c12", limit=1)
            assert [h.path for h in top] == ["src/doomed.py"]
            sites = running.service.find_callers("old_a", repo="c12")
            assert [(s.path, s.line, s.caller) for s in sites] == [("legacy/old_b.py", 2, "old_b")]
    assert running.store.count(StoreFilter(repo="c12", path_prefix="legacy/")) == 0


# --- 13: replace and delete by path at any depth, with spaces and non-ASCII -----------------


DEEP = "webview-ui/src/i18n/locales/hi/nested/welcome.py"
ODD = "docs/Guía de uso/ejemplo con espacios.py"


def test_13_deep_path_delete_filter(history: History, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``after`` block and the three invariants; the failed-delete one by injecting a
    store error into the delete of the deep path during s3, then re-running."""
    after = expected(CASE13)["expect"]["after"]
    running, src, states = history.daemon, history.src["c13"], history.states["c13"]
    assert list(states) == list(after)
    s1, s2, s3 = states.values()

    index_state(running, "c13", src, s1)
    present = after["s1_added"]["symbols_present"]
    for sym in present:
        assert symbols(running, "c13", sym["qualified_name"]) == [
            (sym["path"], sym["qualified_name"], "function", sym["start_line"], sym["end_line"])]
    assert stored_paths(running, "c13") == {sym["path"] for sym in present} == {"top.py", DEEP, ODD}
    assert unicodedata.is_normalized("NFC", ODD) and len(DEEP.split("/")) == 7

    index_state(running, "c13", src, s2)
    want = after["s2_deep_modified"]
    for sym in want["symbols_present"]:
        assert symbols(running, "c13", sym["qualified_name"]) == [
            (sym["path"], sym["qualified_name"], "function", sym["start_line"], sym["end_line"])]
    for name in want["symbols_absent"]:
        assert names(running, "c13", name) == []
    assert list(want["points_for_path"]) == [DEEP]  # "only chunks of the s2 blob"
    row = running.ledger.file("c13", DEEP)
    deep_points = [h for h in points(running, "c13") if h.payload["path"] == DEEP]
    assert sorted(h.id for h in deep_points) == sorted(row.point_ids)
    assert {(h.payload["blob_id"], h.payload["commit"]) for h in deep_points} == {(row.blob_id, s2)}
    # the function alone: a file with nothing outside it has no module chunk (case 37)
    assert running.store.count(StoreFilter(repo="c13", path=DEEP)) == row.chunks == 1

    point_branch(src, s3)
    real_delete = running.store.delete_file_except

    def failing_delete(repo: str, path: str, keep_ids: object) -> int:
        if path == DEEP:
            raise StoreError(f"injected: delete {repo}:{path} rejected")
        return real_delete(repo, path, keep_ids)

    with monkeypatch.context() as patched:
        patched.setattr(running.store, "delete_file_except", failing_delete)
        failed = running.jobs.run_now("c13")
    assert (failed.state, failed.error) == (RepoState.ERROR, f"injected: delete c13:{DEEP} rejected")
    status = running.ledger.repo("c13")
    assert (status.state, status.indexed_commit) == (RepoState.ERROR, s2)
    assert running.ledger.file("c13", DEEP) == row  # not advanced: the next run retries it
    assert indexed_paths(running, "c13") == stored_paths(running, "c13") == {"top.py", DEEP}

    index_state(running, "c13", src, s3)
    want = after["s3_deleted"]
    assert_files(running, "c13", want["files"])
    for name in want["symbols_absent"]:
        assert names(running, "c13", name) == []
    for path in (DEEP, ODD):
        assert running.store.count(StoreFilter(repo="c13", path=path)) == 0


# --- 14: a move into an excluded directory is a delete ---------------------------------------


PLAN_ALPHA, ARCHIVED = "src/active/plan_alpha.py", "archive/plan_alpha.py"


def assert_case14_s2(running: Daemon, repo: str) -> None:
    want = expected(CASE14)["expect"]["after"]["s2_moved_to_archive"]
    for name in want["symbols_absent"]:
        assert names(running, repo, name) == []
    assert want["files_absent"] == [PLAN_ALPHA, ARCHIVED]
    for path in want["files_absent"]:
        assert running.store.count(StoreFilter(repo=repo, path=path)) == 0
        assert running.ledger.file(repo, path) is None
    for sym in want["symbols_present"]:
        found = symbols(running, repo, sym["qualified_name"])
        assert [(qualified, path) for path, qualified, *_ in found] == [(sym["qualified_name"], sym["path"])]
        source = running.service.read_symbol(repo, sym["path"], found[0][3], found[0][4])
        assert sym["content_contains"] in source.text
    stored = [h.payload["embed_text"] for h in points(running, repo)]
    assert any("beta v2" in text for text in stored) and not any("beta v1" in t for t in stored)
    assert_files(running, repo, ["src/active/plan_beta.py"])


def test_14_move_into_excluded_dir(history: History) -> None:
    """Both ``after`` blocks and the invariants (the fault injection is the next test)."""
    after = expected(CASE14)["expect"]["after"]
    running, src, states = history.daemon, history.src["c14"], history.states["c14"]
    assert list(states) == list(after)
    s1, s2 = states.values()
    index_state(running, "c14", src, s1)
    for name in after["s1_active"]["symbols_present"]:
        assert names(running, "c14", name) == [name]
    report = index_state(running, "c14", src, s2)
    assert (report.files_seen, report.files_changed, report.files_deleted) == (1, 1, 1)
    assert_case14_s2(running, "c14")


def test_14_fault_injection_deletes_fail_then_restart(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """``fault_injection``: every delete of the s2 run fails (the process dies there), the
    daemon restarts on the same data dir, and the s2 diff is applied again. In path order
    the old path's delete comes before beta's upsert, so the run stops with nothing done."""
    states = build(CASE14, tmp_path / "c14")
    s1, s2 = states.values()
    src = tmp_path / "c14" / "repo"
    cfg = config(tmp_path, RepoConfig("c14", str(src)), exclude=EXCLUDE)
    with reopen(cfg) as running:
        index_state(running, "c14", src, s1)
        point_branch(src, s2)

        def dying_delete(repo: str, path: str, keep_ids: object) -> int:
            raise StoreError(f"injected: killed before deleting {path}")

        monkeypatch.setattr(running.store, "delete_file_except", dying_delete)
        failed = running.jobs.run_now("c14")
        assert (failed.state, failed.error) == (
            RepoState.ERROR, f"injected: killed before deleting {PLAN_ALPHA}")
        assert running.ledger.repo("c14").indexed_commit == s1
        assert running.ledger.file("c14", PLAN_ALPHA) is not None
        monkeypatch.undo()
    with reopen(cfg) as restarted:
        report = restarted.jobs.run_now("c14")
        assert (report.state, report.commit, report.files_deleted) == (RepoState.READY, s2, 1)
        assert restarted.ledger.repo("c14").indexed_commit == s2
        assert_case14_s2(restarted, "c14")


# --- 16: empty repositories and unborn HEADs are normal states -------------------------------


def test_16_empty_repo_unborn_head(history: History) -> None:
    """All three blocks and both invariants. ``OUT/unborn-with-branch`` is configured twice:
    with no branch (the default branch is HEAD's, which is unborn) and with ``branch=dev``."""
    expect = expected(CASE16)["expect"]
    running, service = history.daemon, history.daemon.service

    empty = expect["OUT/empty (phase1)"]
    report = running.jobs.run_now("c16-empty")
    assert (report.state, report.commit, report.error) == (RepoState.EMPTY, "", "")
    status = {s.name: s for s in service.list_repos()}["c16-empty"]
    assert status.state in empty["status_any_of"] and (status.files, status.indexed_commit) == (0, "")
    assert running.ledger.files("c16-empty") == empty["files"] == []
    assert len(service.search("first_ever", repo="c16-empty")) == empty["search_results"] == 0

    unborn = expect["OUT/unborn-with-branch"]
    report = running.jobs.run_now("c16-unborn")
    assert (report.state, report.commit, report.error) == (RepoState.EMPTY, "", "")
    assert running.ledger.files("c16-unborn") == unborn["default_branch_files"] == []
    assert running.store.count(StoreFilter(repo="c16-unborn")) == 0
    report = running.jobs.run_now("c16-dev")  # the loop goes on to the next repo
    assert (report.state, report.error) == (RepoState.READY, "")
    for sym in unborn["if_branch_dev_configured"]["symbols_present"]:
        assert symbols(running, "c16-dev", sym["qualified_name"]) == [
            (sym["path"], sym["qualified_name"], "function", sym["start_line"], sym["end_line"])]

    phase2 = expect["OUT/empty (phase2)"]
    states = build(CASE16, history.root / "c16", "phase2")
    assert phase2["head"] == "STATES:empty_first_commit"
    report = running.jobs.run_now("c16-empty")
    assert (report.state, report.commit) == (RepoState.READY, states["empty_first_commit"])
    assert (report.files_changed, report.files_deleted) == (1, 0)  # a diff against the empty tree
    for sym in phase2["symbols_present"]:
        assert symbols(running, "c16-empty", sym["qualified_name"]) == [
            (sym["path"], sym["qualified_name"], "function", sym["start_line"], sym["end_line"])]
    assert running.ledger.repo("c16-empty").indexed_commit == states["empty_first_commit"]
