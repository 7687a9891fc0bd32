"""Conformance cases of language coverage, odd paths, blank files, deep nesting and stop
words (29, 33, 34, 37, 40) through the real index path: the case's own build script,
``Daemon.open``, a sync, then the domain service and the store read directly.

Each test asserts every value of its case's ``expected.json``; where our vocabulary differs
(a status, a field) the test's docstring says how the value maps. Cases 34 and 37 rank, so
they run with the real model (hybrid, sparse and dense); the others with dense vectors off.
"""

from __future__ import annotations

import json
import os
import subprocess
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from coderecalld.config import Config, EmbeddingConfig, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon
from coderecalld.records import FileState, RepoState
from coderecalld.store import StoreFilter
from conformance_cases import build, daemon, expected, make_repo, point_branch, points, reopen, symbols

CASE29 = "29-python-type-alias-statement"
CASE33 = "33-deep-nesting-sync-abort"
CASE34 = "34-stopword-only-query"
CASE37 = "37-empty-and-blank-files"
CASE40 = "40-special-character-paths"


def sync(running: Daemon, repo: str, commit: str) -> None:
    report = running.jobs.run_now(repo)
    assert (report.state, report.commit, report.error) == (RepoState.READY, commit, "")


def payloads(running: Daemon, repo: str, path: str) -> list[dict]:
    return [h.payload for h in points(running, repo) if h.payload["path"] == path]


@dataclass
class Cases:
    daemon: Daemon
    src: dict[str, Path]
    commits: dict[str, str]
    root: Path


@pytest.fixture(scope="module")
def sparse_cases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cases]:
    """Cases 29 and 40, dense vectors off."""
    root = tmp_path_factory.mktemp("coverage")
    src = {"c29": root / "c29" / "repo", "c40": root / "c40" / "repo"}
    commits = {"c29": make_repo(CASE29, src["c29"]), "c40": build(CASE40, root / "c40")["head"]}
    with daemon(root, *(RepoConfig(name, str(path)) for name, path in src.items())) as running:
        for name, commit in commits.items():
            sync(running, name, commit)
        yield Cases(running, src, commits, root)


@pytest.fixture(scope="module")
def model_cases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cases]:
    """Cases 34 and 37 with the real model, every dense vector embedded before the tests."""
    root = tmp_path_factory.mktemp("coverage-model")
    src = {"c34": root / "c34" / "repo", "c37": root / "c37" / "repo"}
    commits = {"c34": make_repo(CASE34, src["c34"]), "c37": make_repo(CASE37, src["c37"])}
    cfg = Config(data_dir=root / "data", repos=tuple(RepoConfig(n, str(p)) for n, p in src.items()),
                 embedding=EmbeddingConfig(threads=2),
                 index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0))
    with reopen(cfg) as running:
        for name, commit in commits.items():
            sync(running, name, commit)
        running.pipeline.embed_backlog()
        yield Cases(running, src, commits, root)


# --- 29: Python 3.12 `type` statements are symbols ------------------------------------------


def test_29_python_type_alias_statement(sparse_cases: Cases) -> None:
    """All of ``expect``. ``type_parameters`` is part of the alias's signature
    (``type Matrix[T] = ...``), the form every symbol's header takes."""
    case = expected(CASE29)
    expect, bad = case["expect"], case["known_bad_behaviour"]
    running, blob_of = sparse_cases.daemon, _blobs(sparse_cases.src["c29"])
    stored = {(p["path"], p["qualified_name"]): p for p in points_of(running, "c29")}
    for sym in expect["symbols"]:
        name, path = sym["qualified_name"], sym["path"]
        assert symbols(running, "c29", name) == [
            (path, name, sym["kind"], sym["start_line"], sym["end_line"])]
        p = stored[(path, name)]
        text = blob_of(path)[p["start_byte"]:p["end_byte"]].decode()
        for key in ("start_byte", "end_byte", "docstring"):
            assert p[key] == sym.get(key, p[key])
        assert text == sym.get("text", text)
        if "type_parameters" in sym:
            assert p["signature"].startswith(f"type {name}{sym['type_parameters']} = ")
    for absent in expect["symbols_absent"]:
        at_line = [p["qualified_name"] for p in payloads(running, "c29", absent["path"])
                   if p["kind"] != "module" and p["start_line"] <= absent["line"] <= p["end_line"]]
        assert at_line == []
        for name in ("(Sheet).label", "label", "type", "Sheet.label"):
            assert symbols(running, "c29", name) == []
    for lookup in expect["lookups"]:
        found = running.service.find_symbols(lookup["q"], repo="c29")
        assert [{"qualified_name": h.qualified_name, "kind": h.kind, "path": h.path,
                 "start_line": h.start_line} for h in found] == lookup["expect"]
    for search in expect["search"]:
        top = running.service.search(search["query"], repo="c29")[0]
        assert (top.qualified_name, [top.path, top.start_line]) == (
            search["top1_symbol"], search["top1_path_line"])
    for call in expect["callers"]:
        sites = running.service.find_callers(call["callee"], repo="c29")
        assert [{"path": s.path, "line": s.line, "caller": s.caller} for s in sites] == call["sites"]
    for name in bad["missing"]:  # the known bad behaviour, as a negative assertion
        assert symbols(running, "c29", name)


# --- 40: paths git quotes ---------------------------------------------------------------------


def test_40_special_character_paths(sparse_cases: Cases) -> None:
    """All of ``expect``: each path byte for byte through lookup, read and search."""
    expect = expected(CASE40)["expect"]
    running = sparse_cases.daemon
    manifest = json.loads((sparse_cases.root / "c40" / "PATHS.json").read_text("utf-8"))
    assert [(f["path"], f["symbol"]) for f in manifest] == [
        (unicodedata.normalize("NFD", f["path"]) if f.get("note", "").startswith("NFD") else f["path"],
         f["symbol"]) for f in expect["files"]]
    rows = running.ledger.files("c40")
    assert len(rows) == expect["repo_file_count"] == len(manifest)
    assert {r.path for r in rows} == {f["path"] for f in manifest}
    assert {r.state for r in rows} == {FileState.INDEXED}
    first, last = expect["each_file"]["symbol_lines"]
    for f in manifest:
        path, name = f["path"], f["symbol"]
        assert symbols(running, "c40", name) == [(path, name, "function", first, last)]
        text = running.service.read_symbol("c40", path, first, last).text
        assert text.splitlines() == [f"def {name}():", f'    return "{name} body"']
    nfc, nfd = "src/caf\u00e9.py", "src/cafe\u0301.py"
    assert [s[0] for s in symbols(running, "c40", "nfc_probe")] == [nfc]
    assert [s[0] for s in symbols(running, "c40", "nfd_probe")] == [nfd]
    for search in expect["search"]:
        hits = running.service.search(search["query"], repo="c40", limit=50,
                                      path_prefix=search["filter"]["path_prefix"])
        assert sorted({h.path for h in hits}) == search["expect_paths"]
    every = running.service.search("probe body", repo="c40", limit=50)
    assert {h.path for h in every} == {f["path"] for f in manifest}
    for hit in every:  # every path the index returns is one the read API accepts
        assert not hit.path.startswith('"') and not re.search(r"\\[0-7]{3}", hit.path)
        assert running.service.read_symbol("c40", hit.path, hit.start_line, hit.end_line).text


# --- 33: deep nesting never aborts the run ----------------------------------------------------


@pytest.mark.timeout(300)
def test_33_deep_nesting_sync_abort(tmp_path: Path) -> None:
    """All of ``expect``, the ``should`` symbols included: tree walks are iterative, so the
    deep files are indexed whole. A second sync of the same commit changes nothing (a file
    is retried only when its blob changes)."""
    after = expected(CASE33)["expect"]["after"]
    states = build(CASE33, tmp_path / "c33")
    src = tmp_path / "c33" / "repo"
    with daemon(tmp_path, RepoConfig("c33", str(src))) as running:
        for state, want in after.items():
            point_branch(src, states[state])
            report = running.jobs.run_now("c33")
            assert (report.state, report.commit, report.error) == (RepoState.READY, states[state], "")
            for sym in want["symbols_present"] + want.get("symbols_should", []):
                found = symbols(running, "c33", sym["qualified_name"])
                assert [(path, start, end) for path, _, _, start, end in found] == [
                    (sym["path"], sym["start_line"], sym["end_line"])]
                assert found[0][2] == sym.get("kind", found[0][2])
            for call in want.get("callers", []):
                sites = running.service.find_callers(call["callee"], repo="c33")
                assert [{"path": s.path, "line": s.line, "caller": s.caller} for s in sites] == call["sites"]
            for path, spec in want.get("per_file", {}).items():
                row = running.ledger.file("c33", path)
                assert "indexed" in spec["status_any_of"] and row.state is FileState.INDEXED
                blob = (src / path).read_bytes()
                assert blob.count(b"\n") == spec["lines"]
                module = [p for p in payloads(running, "c33", path) if p["kind"] == "module"]
                assert all(p["end_line"] == spec["lines"] for p in module)
        assert want["completes"] is True and running.ledger.repo("c33").state is RepoState.READY
        again = running.jobs.run_now("c33")
        assert (again.state, again.files_changed, again.files_failed) == (RepoState.READY, 0, 0)


# --- 37: empty and blank files have no chunks -------------------------------------------------


def test_37_empty_and_blank_files(model_cases: Cases) -> None:
    """All of ``expect``. Blank files are indexed with 0 chunks (kept in the ledger with their
    blob id, so they are not read again until they change); every query runs in each mode."""
    expect = expected(CASE37)["expect"]
    running, src = model_cases.daemon, model_cases.src["c37"]
    assert expect["completes"] is True
    for path in expect["files"]:
        assert running.ledger.file("c37", path).state is FileState.INDEXED
    for path in [p for p, what in expect["files"].items() if what == "0 bytes"]:
        assert (src / path).read_bytes() == b""
    for sym in expect["symbols"]:
        name = sym["qualified_name"]
        assert symbols(running, "c37", name) == [
            (sym["path"], name, sym["kind"], sym["start_line"], sym["end_line"])]
        (p,) = [p for p in payloads(running, "c37", sym["path"]) if p["qualified_name"] == name]
        assert p["docstring"] == sym["docstring"]
    for path in expect["no_blank_chunks"]["paths"]:
        row = running.ledger.file("c37", path)
        assert (row.state, row.chunks) == (FileState.INDEXED, 0)
        assert running.store.count(StoreFilter(repo="c37", path=path)) == 0
    blob = _blobs(src)
    for hit in points(running, "c37"):  # no chunk's source or embedded text is blank
        p = hit.payload
        assert blob(p["path"])[p["start_byte"]:p["end_byte"]].strip() and p["embed_text"].strip()
    assert running.store.missing_dense(limit=100, repos=("c37",)) == []  # nothing left unembedded
    blank = set(expect["no_blank_chunks"]["paths"])
    for mode in ("hybrid", "sparse", "dense"):  # a query without a word floats up nothing blank
        assert not blank & {h.path for h in running.service.search("*", repo="c37", limit=20, mode=mode)}
    for search in expect["search"]:
        for mode in ("hybrid", "sparse", "dense"):
            hits = running.service.search(search["query"], repo="c37", limit=20, mode=mode)
            assert hits, (search["query"], mode)
            assert all(h.snippet.strip() for h in hits)  # no_hit_with_blank_text
            if "top1_symbol" in search:
                assert hits[0].qualified_name == search["top1_symbol"], (search["query"], mode)
            if "top1_path" in search:
                assert hits[0].path == search["top1_path"], (search["query"], mode)
            if search.get("settle_invoice_ranks_above_every_blank_chunk"):
                assert "settle_invoice" in [h.qualified_name for h in hits]
            for hit in hits:  # read_round_trip
                assert hit.start_line >= 1
                read = running.service.read_symbol("c37", hit.path, hit.start_line, hit.end_line)
                assert read.text.strip()


# --- 34: stop words --------------------------------------------------------------------------


def test_34_stopword_only_query(model_cases: Cases) -> None:
    """All of ``expect``, the ``should`` (``to`` first in sparse mode) included."""
    expect = expected(CASE34)["expect"]
    running, service = model_cases.daemon, model_cases.daemon.service
    for sym in expect["symbols"]:
        name = sym["qualified_name"]
        assert symbols(running, "c34", name) == [
            (sym["path"], name, sym["kind"], sym["start_line"], sym["end_line"])]
    pinned = {(q["q"], q["mode"]): q for q in expect["identifier_stop_words"]}
    stop = expect["stopword_only_queries"]
    for query in stop["queries"]:
        for mode in stop["modes"]:
            hits = service.search(query, repo="c34", mode=mode)  # never an exception
            if (query, mode) in pinned:
                want = pinned[(query, mode)]
                assert hits[0].qualified_name == want["top1"]
                assert [hits[0].path, hits[0].start_line] == want.get(
                    "top1_path_line", [hits[0].path, hits[0].start_line])
            else:
                assert hits == [] or hits.low_confidence, (query, mode)
    for want in expect["queries_with_stopwords_top1"]:
        for mode in want["modes"]:
            hits = service.search(want["q"], repo="c34", mode=mode)
            assert hits and hits[0].qualified_name == want["top1"], (want["q"], mode)


def points_of(running: Daemon, repo: str) -> list[dict]:
    return [h.payload for h in points(running, repo)]


def _blobs(src: Path):
    """``path -> bytes`` of the committed files of a one-commit repo (the checkout is clean)."""
    return lambda path: (src / path).read_bytes()


def test_40_kind_a_path_that_is_not_utf8_never_fails_the_run(tmp_path: Path) -> None:
    """Case 40's kind past its fixture: git accepts any bytes in a name, and a Latin-1
    ``café.py`` is no UTF-8. The ledger, payloads and API hold text, so that file is left out
    (logged, byte-escaped); the run and every other file are unaffected."""
    src = tmp_path / "latin"
    src.mkdir()
    git = ["git", "-C", str(src), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q", "-b", "main"], check=True)
    (src / "ok.py").write_text("def ok_probe():\n    return 1\n")
    with open(os.fsencode(src) + b"/caf\xe9.py", "w") as latin:
        latin.write("def latin_probe():\n    return 1\n")
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "latin-1 name"], check=True)
    with daemon(tmp_path, RepoConfig("latin", str(src))) as running:
        report = running.jobs.run_now("latin")
        assert (report.state, report.error, report.files_seen) == (RepoState.READY, "", 1)
        assert [row.path for row in running.ledger.files("latin")] == ["ok.py"]
        assert symbols(running, "latin", "ok_probe") == [("ok.py", "ok_probe", "function", 1, 2)]
        assert symbols(running, "latin", "latin_probe") == []
