"""Conformance case 21 (giant single-line files) through the real index path."""

from __future__ import annotations

from pathlib import Path

import pytest
from coderecalld.config import RepoConfig
from coderecalld.index import chunk
from coderecalld.records import FileState, RepoState
from conformance_cases import build, daemon, expected, points, symbols
from prometheus_client import REGISTRY


def skipped_total(reason: str) -> float:
    return REGISTRY.get_sample_value("coderecall_files_skipped_total", {"reason": reason}) or 0.0


@pytest.mark.timeout(60)  # the known bad behaviour is an unbounded run; this bounds it
def test_21_long_line_oom(tmp_path: Path) -> None:
    """All of ``expect``. Our statuses: ``app.min.js`` and the one-line ``table.json`` are
    ``minified`` (a 400 KB / 200 KB line), ``level.tscn`` ``unsupported``; each ledger row says
    its size. Nothing of them reaches the parser, the chunker or the embedder, so the run's
    cost is one read and one scan per file: bounded by construction, not by a timer."""
    case = "21-long-line-oom"
    expect = expected(case)["expect"]
    head = build(case, tmp_path / "c21")["head"]
    before = {r: skipped_total(r) for r in ("minified", "unsupported")}
    with daemon(tmp_path, RepoConfig("c21", str(tmp_path / "c21" / "repo"))) as running:
        report = running.jobs.run_now("c21")
        assert expect["completes"] is True
        assert (report.state, report.commit, report.error) == (RepoState.READY, head, "")
        assert (report.files_seen, report.files_indexed, report.files_failed) == (4, 1, 0)
        assert dict(report.skipped_reasons) == {"minified": 2, "unsupported": 1}
        assert {r: skipped_total(r) - before[r] for r in before} == {"minified": 2.0, "unsupported": 1.0}
        for sym in expect["symbols_present"]:
            assert symbols(running, "c21", sym["qualified_name"]) == [
                (sym["path"], sym["qualified_name"], "function", sym["start_line"], sym["end_line"])]
        assert report.symbols == 1  # f0..f11999 were never parsed

        statuses = {"minified": "skipped: minified/generated", "unsupported": "skipped: unsupported"}
        repo = tmp_path / "c21" / "repo"
        size = {path: (repo / path).stat().st_size for path in expect["per_file"]}
        details = {"static/app.min.js": "file name", "scenes/level.tscn": f"{size['scenes/level.tscn']} bytes",
                   # one line: its length in characters is the file's size in bytes (ASCII)
                   "data/table.json": f"longest line {size['data/table.json']} chars, {size['data/table.json']} bytes"}
        for path, want in expect["per_file"].items():
            row = running.ledger.file("c21", path)
            assert (row.state, row.detail) == (FileState.SKIPPED, details[path])
            if path == "data/table.json":  # "skipped: data file"; ours says why it is skipped
                assert row.reason == "minified"
            else:
                assert statuses[row.reason] in want["status_any_of"]
            assert not [h for h in points(running, "c21") if h.payload["path"] == path]

        stored = points(running, "c21")
        # no module chunk: src/normal.py has nothing outside its function (case 37)
        assert {(h.payload["path"], h.payload["kind"]) for h in stored} == {("src/normal.py", "function")}
        for hit in stored:  # no chunk sent to the embedder exceeds the model's input budget
            assert len(hit.payload["embed_text"]) <= chunk.DEFAULT_MAX_CHARS
            assert hit.payload["end_byte"] - hit.payload["start_byte"] <= chunk.DEFAULT_MAX_CHUNK_CHARS
