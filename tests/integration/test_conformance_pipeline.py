"""Single-commit conformance cases through the real index path: the case's own build script,
``Daemon.open``, a sync, then the domain service and the store read directly.

Each test asserts the values of the case's ``expected.json`` that the index path answers for;
expectations that belong to a later feature are named in the test's docstring.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pygit2
import pytest
from conformance_cases import (
    build, commit_all, daemon, expected, indexed_paths, make_repo, points, stored_paths, symbols,
)
from gitfixtures import GitRepo

from coderecalld.config import RepoConfig
from coderecalld.daemon import Daemon
from coderecalld.errors import InvalidArgument, NotFound
from coderecalld.records import FileState, RepoState
from coderecalld.store import StoreFilter


def blob_at(src: Path, commit: str, path: str) -> bytes:
    """Raw bytes of ``path`` at ``commit`` in the source repository."""
    return pygit2.Repository(str(src)).revparse_single(f"{commit}:{path}").data


def blob_id_at(src: Path, commit: str, path: str) -> str:
    return str(pygit2.Repository(str(src)).revparse_single(f"{commit}:{path}").id)


def payload_text(running: Daemon, repo: str) -> str:
    """Every payload of ``repo`` as one string (each field, each chunk's embedded text)."""
    return "\n".join(json.dumps(h.payload, ensure_ascii=False) for h in points(running, repo))


def sync(running: Daemon, repo: str, commit: str) -> None:
    report = running.jobs.run_now(repo)
    assert (report.state, report.commit, report.error) == (RepoState.READY, commit, "")


POINTER = ("version https://git-lfs.github.com/spec/v1\n"
           "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
           "size 14131452\n")


@dataclass
class Cases:
    """One daemon over every repo of this module (opening a store costs ~1 s; a repo ~50 ms).

    ``src`` maps repo name to its source checkout, ``commits`` to its built commit, ``root``
    is the directory the cases were built in.
    """

    daemon: Daemon
    src: dict[str, Path]
    commits: dict[str, str]
    root: Path


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cases]:
    root = tmp_path_factory.mktemp("conformance")
    src = {name: root / name / "repo" for name in ("c02", "c05", "c18", "c23", "c26")}
    commits = {name: make_repo(case, src[name]) for name, case in (
        ("c02", "02-leading-blank-lines-shift"), ("c05", "05-utf16-latin1-decode-crash"),
        ("c26", "26-query-special-chars"))}
    commits["c18"] = build("18-lfs-pointer-as-code", root / "c18")["head"]
    commits["c23"] = build("23-symlink-escape", root / "c23")["head"]
    lfs = GitRepo(root / "lfs")
    commits["lfs"] = lfs.commit({
        ".gitattributes": "generated/*.py filter=lfs diff=lfs merge=lfs -text\n",
        "docs/.gitattributes": "*.md filter=lfs -text\n",
        "generated/pointer.py": POINTER,
        "generated/plain.py": "def committed_without_lfs():\n    return 1\n",
        "docs/big.md": POINTER,
        "notes/pointer.txt": POINTER,
    })
    src["lfs"] = lfs.path
    with daemon(root, *(RepoConfig(name, str(path)) for name, path in src.items())) as running:
        yield Cases(running, src, commits, root)


# --- 02: leading blank lines must not shift line numbers -------------------------------------


def test_02_leading_blank_lines_shift(cases: Cases) -> None:
    """All of ``expect``: symbols, callers, text windows, and both invariants over every chunk.

    Symbol chunks hold ``blob[start_byte:end_byte]``: from the symbol's first token to the end
    of its body. So "text equals lines[start-1:end] joined" holds exactly for text windows and
    module chunks; for a symbol it holds less the first line's indentation (none for the
    top-level functions here) and the last line's newline.
    """
    case = "02-leading-blank-lines-shift"
    expect, bad = expected(case)["expect"], expected(case)["known_bad_behaviour"]
    running, src, commit = cases.daemon, cases.src["c02"], cases.commits["c02"]
    sync(running, "c02", commit)
    for sym in expect["symbols"]:
        name = sym["qualified_name"]
        assert symbols(running, "c02", name) == [
            (sym["path"], name, sym["kind"], sym["start_line"], sym["end_line"])]
        assert sym["start_line"] != bad["start_lines"][name]
    for call in expect["callers"]:
        sites = running.service.find_callers(call["callee"], repo="c02")
        assert [(s.path, s.line, s.caller) for s in sites] == [
            (s["path"], s["line"], s["caller"]) for s in call["sites"]]

    chunks = {(h.payload["path"], h.payload["kind"], h.payload["qualified_name"],
               h.payload["start_line"], h.payload["end_line"]) for h in points(running, "c02")}
    assert chunks == {
        ("notes/helpers.py", "function", "alpha", 7, 8),
        ("notes/helpers.py", "function", "beta", 11, 12),
        ("notes/helpers.py", "module", "notes.helpers", 1, 14),
        # TOML splits at [table] headers; the comment above [server] belongs to it.
        ("config/settings.toml", "section", "config/settings.toml#server", 3, 7),
        ("config/settings.toml", "section", "config/settings.toml#client", 8, 9),
    }
    for want in expect["text_chunks"]:
        line = want["must_cover_line"]
        covering = [h.payload for h in points(running, "c02") if h.payload["path"] == want["path"]
                    and h.payload["start_line"] <= line <= h.payload["end_line"]]
        assert len(covering) == 1
        p = covering[0]
        text = blob_at(src, commit, p["path"])[p["start_byte"]:p["end_byte"]].decode()
        assert text.splitlines()[line - p["start_line"]] == want["line_text"]
        assert p["embed_text"] == f"{p['qualified_name']}\n{text}"  # what search sees is that text

    for hit in points(running, "c02"):
        p = hit.payload
        text = blob_at(src, commit, p["path"])[p["start_byte"]:p["end_byte"]].decode()
        by_lines = running.service.read_symbol("c02", p["path"], p["start_line"], p["end_line"]).text
        if p["kind"] in ("section", "module"):
            assert text == by_lines
        else:
            block = by_lines.removesuffix("\n")
            assert block.endswith(text) and not block[:len(block) - len(text)].strip()
            assert p["embed_text"].endswith(text)
        assert text.splitlines()[0].strip() == by_lines.splitlines()[0].strip()


# --- 05: undecodable files are skipped, never fatal ------------------------------------------


def test_05_utf16_latin1_decode_crash(cases: Cases) -> None:
    """All of ``expect``: the run, the symbols (the optional two via their 'skipped as
    encoding' alternative), the skipped binary, and the four invariants -- the last one by
    re-encoding the Windows-1252 file as UTF-8 in a second commit."""
    case = "05-utf16-latin1-decode-crash"
    expect = expected(case)["expect"]
    running, src, commit = cases.daemon, cases.src["c05"], cases.commits["c05"]
    report = running.jobs.run_now("c05")
    assert (expect["run"]["completes"], expect["run"]["exit_status"]) == (True, "success")
    assert (report.state, report.commit, report.error) == (RepoState.READY, commit, "")
    assert report.files_seen == expect["run"]["files_seen"]
    assert (report.files_indexed, report.files_failed) == (1, 0)
    for sym in expect["symbols"]:
        found = symbols(running, "c05", sym["qualified_name"])
        wanted = (sym["path"], sym["qualified_name"], sym["kind"], sym["start_line"], sym["end_line"])
        row = running.ledger.file("c05", sym["path"])
        if sym["required"] or found:
            assert found == [wanted] and row.state is FileState.INDEXED
        else:  # the alternative: listed as skipped for its encoding, never indexed as garbage
            assert (row.state, row.reason) == (FileState.SKIPPED, "encoding")
            assert running.store.count(StoreFilter(repo="c05", path=sym["path"])) == 0
    assert running.ledger.file("c05", "legacy/utf16_module.py").detail == "utf-16 byte order mark"
    assert running.ledger.file("c05", "legacy/latin1_module.py").detail == "not UTF-8 at byte 5"
    for skipped in expect["skipped"]:
        row = running.ledger.file("c05", skipped["path"])
        assert row.state is FileState.SKIPPED and row.reason in skipped["reason_any_of"]
    assert stored_paths(running, "c05") == indexed_paths(running, "c05") == {"legacy/ok_module.py"}
    stored = payload_text(running, "c05")
    assert "\x00" not in stored and "\ufffd" not in stored
    for row in running.ledger.files("c05"):  # skipped files keep their blob id too
        assert row.blob_id == blob_id_at(src, commit, row.path)

    latin1 = src / "legacy" / "latin1_module.py"
    latin1.write_bytes(latin1.read_bytes().decode("cp1252").encode("utf-8"))
    second = commit_all(src, "re-encode as UTF-8")
    again = running.jobs.run_now("c05")
    assert (again.state, again.commit, again.files_changed) == (RepoState.READY, second, 1)
    assert dict(again.skipped_reasons) == {}  # the unchanged skipped files were not re-read
    assert symbols(running, "c05", "legacy_total") == [
        ("legacy/latin1_module.py", "legacy_total", "function", 2, 3)]
    assert running.ledger.file("c05", "legacy/utf16_module.py").state is FileState.SKIPPED


# --- 18: LFS pointers are not code -----------------------------------------------------------


def test_18_lfs_pointer_as_code(cases: Cases) -> None:
    """All of ``expect``. The case's status ``lfs-pointer`` is our ledger reason ``lfs_pointer``;
    oid and size are reported in the ledger row's detail."""
    case = "18-lfs-pointer-as-code"
    expect = expected(case)["expect"]
    running = cases.daemon
    report = running.jobs.run_now("c18")
    assert (report.state, report.commit) == (RepoState.READY, cases.commits["c18"])
    assert report.files_failed == 0
    assert dict(report.skipped_reasons) == {"lfs_pointer": 2, "unsupported": 1}  # .gitattributes
    for sym in expect["symbols_present"]:
        assert symbols(running, "c18", sym["qualified_name"]) == [
            (sym["path"], sym["qualified_name"], "function", sym["start_line"], sym["end_line"])]
    for item in expect["not_indexed_as_code"]:
        row = running.ledger.file("c18", item["path"])
        assert (item["status"], row.state, row.reason) == ("lfs-pointer", FileState.SKIPPED, "lfs_pointer")
        word_oid, oid, word_size, size = row.detail.split()
        assert (word_oid, word_size, int(size)) == ("oid", "size", item["lfs_size"])
        assert oid == item.get("lfs_oid", oid) and oid.startswith("sha256:")
        assert running.store.count(StoreFilter(repo="c18", path=item["path"])) == 0
    for search in expect["search"]:
        paths = {h.path for h in running.service.search(search["query"], repo="c18", limit=50)}
        assert set(search["must_include_paths"]) <= paths
        assert not paths & set(search["must_exclude_paths"])


def test_18_lfs_pointer_needs_filter_attribute_and_pointer_format(cases: Cases) -> None:
    """Case 18's first invariant, both ways round, with attributes from nested
    ``.gitattributes`` files of the indexed commit."""
    running = cases.daemon
    sync(running, "lfs", cases.commits["lfs"])
    reasons = {row.path: (row.state, row.reason) for row in running.ledger.files("lfs")}
    assert reasons == {
        ".gitattributes": (FileState.SKIPPED, "unsupported"),
        "docs/.gitattributes": (FileState.SKIPPED, "unsupported"),
        "generated/pointer.py": (FileState.SKIPPED, "lfs_pointer"),
        "docs/big.md": (FileState.SKIPPED, "lfs_pointer"),
        "generated/plain.py": (FileState.INDEXED, ""),  # tracked, but not a pointer
        "notes/pointer.txt": (FileState.INDEXED, ""),  # a pointer, but not tracked
    }
    assert symbols(running, "lfs", "committed_without_lfs") == [
        ("generated/plain.py", "committed_without_lfs", "function", 1, 2)]


# --- 23: symlinks never lead outside the repository ------------------------------------------


def test_23_symlink_escape(cases: Cases) -> None:
    """All of ``expect`` for object-database mode (the only mode: the daemon reads git
    objects, never a checkout). ``read_file`` is ``service.read_symbol``."""
    case = "23-symlink-escape"
    expect = expected(case)["expect"]
    running, canary = cases.daemon, expect["canary"]
    assert canary in (cases.root / "c23" / "outside" / "host_secret.txt").read_text()
    report = running.jobs.run_now("c23")
    assert (report.state, report.commit, report.files_seen) == (RepoState.READY, cases.commits["c23"], 2)
    for sym in expect["symbols_present"]:
        assert symbols(running, "c23", sym["qualified_name"]) == [
            (sym["path"], sym["qualified_name"], "function", sym["start_line"], sym["end_line"])]
    # Symlinks are neither followed nor indexed as their link text, nor listed as files.
    assert stored_paths(running, "c23") == {"src/app.py", "README.md"}
    assert {row.path for row in running.ledger.files("c23")} == {"src/app.py", "README.md"}
    stored = payload_text(running, "c23")
    assert canary not in stored and "host_secret" not in stored
    for query in ("HOST-ONLY-CANARY", canary):
        hits = running.service.search(query, repo="c23", limit=50)
        assert all(canary not in repr(h) and h.path in ("src/app.py", "README.md") for h in hits)
    for link in [*expect["read_file"], *expect["symlinks"]]:
        with pytest.raises(NotFound, match="not a regular file"):
            running.service.read_symbol("c23", link, 1, 0)


# --- 26: query strings full of syntax ---------------------------------------------------------


def test_26_query_special_chars(cases: Cases) -> None:
    """Every query string of the case through search, symbol lookup and callers: an answer or
    ``InvalidArgument``, nothing else. The literal (grep) mode the case's line hits describe
    does not exist yet; search must still land on the chunk holding those lines. ``ops.cpp``
    is C++, so ``Scale::operator()`` must be found (the case allows empty only without C++)."""
    case = "26-query-special-chars"
    expect = expected(case)["expect"]
    running = cases.daemon
    sync(running, "c26", cases.commits["c26"])
    assert "src/ops.cpp" in indexed_paths(running, "c26")
    service = running.service
    queries = [q["q"] for q in expect["literal_queries"]] + [q["q"] for q in expect["symbol_lookups"]]
    for query in queries:  # any other exception fails the test
        for call, kwargs in ((service.search, {}), (service.find_symbols, {}),
                             (service.find_symbols, {"prefix": True}), (service.find_callers, {})):
            try:
                call(query, repo="c26", **kwargs)
            except InvalidArgument as exc:
                assert str(exc)  # a 4xx-style error with a message
    for query in expect["validation_errors_not_crashes"]:
        for call in (service.search, service.find_symbols, service.find_callers):
            with pytest.raises(InvalidArgument, match="must not be empty"):
                call(query)

    for literal in expect["literal_queries"]:
        hits = service.search(literal["q"], repo="c26", limit=50)
        if literal.get("hits") == []:
            assert hits == []
        # Hybrid search may add other chunks of this tiny repo; the expected lines must be hit.
        # A query without a word ("*") has no token to search by: only literal mode finds it.
        for want in literal.get("hits", []) if any(c.isalnum() for c in literal["q"]) else []:
            for line in want["lines"]:
                assert any(h.path == want["path"] and h.start_line <= line <= h.end_line
                           and h.kind != "module" for h in hits), (literal["q"], want["path"], line)

    lookup = {q["q"]: q for q in expect["symbol_lookups"]}
    want = lookup["test"]["expect"][0]
    assert symbols(running, "c26", "test") == [
        (want["path"], want["qualified_name"], "function", want["start_line"], want["end_line"])]
    (want,) = lookup["Scale.operator()"]["expect_any_of"][0]
    assert symbols(running, "c26", want["qualified_name"]) == [
        (want["path"], want["qualified_name"], "method", want["start_line"], want["end_line"])]
