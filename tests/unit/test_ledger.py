import sqlite3
from pathlib import Path

from coderecalld.records import ChangeStatus, FileChange, FileState, RepoState
from coderecalld.store.ledger import FileRow, Ledger


def test_diff_against_ledger_not_previous_commit(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "ledger.sqlite")
    assert ledger.diff("r", {"a.py": "1", "b.py": "2"}) == [
        FileChange("a.py", ChangeStatus.ADDED, "1"), FileChange("b.py", ChangeStatus.ADDED, "2")]
    ledger.record_file("r", FileRow("a.py", "1", FileState.INDEXED, "", 2, 3, ("p1", "p2", "p3")))
    ledger.record_file("r", FileRow("c.bin", "9", FileState.SKIPPED, "binary", 0, 0, ()))
    # b.py was never recorded (e.g. a crash): it is still changed; c.bin vanished: deleted.
    assert ledger.diff("r", {"a.py": "1", "b.py": "2"}) == [
        FileChange("b.py", ChangeStatus.ADDED, "2"), FileChange("c.bin", ChangeStatus.DELETED, "", "9")]
    assert ledger.diff("r", {"a.py": "5", "c.bin": "9"}) == [
        FileChange("a.py", ChangeStatus.MODIFIED, "5", "1")]
    assert ledger.diff("other", {"a.py": "1"}) == [FileChange("a.py", ChangeStatus.ADDED, "1")]


def test_repo_rows_and_totals_persist(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "ledger.sqlite")
    ledger.set_repo("r", url="/u", branch="main", state=RepoState.INDEXING)
    ledger.record_file("r", FileRow("a.py", "1", FileState.INDEXED, "", 2, 3, ("p1",)))
    ledger.record_file("r", FileRow("b.py", "2", FileState.INDEXED, "", 5, 6, ("p2",)))
    ledger.record_file("r", FileRow("c.png", "3", FileState.SKIPPED, "binary", 0, 0, ()))
    ledger.set_repo("r", indexed_commit="abc", state=RepoState.READY, synced=True)
    ledger.close()
    again = Ledger(tmp_path / "ledger.sqlite")
    row = again.repo("r")
    assert (row.url, row.branch, row.indexed_commit, row.state) == ("/u", "main", "abc", RepoState.READY)
    assert (row.files, row.symbols, row.chunks) == (2, 7, 9)
    assert row.last_sync_unix_s > 1_700_000_000
    assert again.file("r", "c.png").reason == "binary"
    assert again.file("r", "a.py").point_ids == ("p1",)
    assert [f.path for f in again.files("r", FileState.SKIPPED)] == ["c.png"]
    again.forget_file("r", "a.py")
    assert again.file("r", "a.py") is None
    assert again.repo("missing") is None
    assert again.repo_names() == ["r"]


def test_skip_detail_persists_and_old_ledgers_gain_the_column(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite"
    old = sqlite3.connect(str(path))  # the files table as written before skips had a detail
    old.execute("CREATE TABLE files (repo TEXT NOT NULL, path TEXT NOT NULL, blob_id TEXT NOT NULL, "
                "state TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '', symbols INTEGER NOT NULL "
                "DEFAULT 0, chunks INTEGER NOT NULL DEFAULT 0, point_ids TEXT NOT NULL DEFAULT '[]', "
                "PRIMARY KEY (repo, path))")
    old.execute("INSERT INTO files VALUES ('r', 'a.py', '1', 'indexed', '', 1, 2, '[\"p1\"]')")
    old.commit()
    old.close()
    ledger = Ledger(path)
    assert ledger.file("r", "a.py") == FileRow("a.py", "1", FileState.INDEXED, "", 1, 2, ("p1",), "")
    row = FileRow("big.bin", "2", FileState.SKIPPED, "lfs_pointer", 0, 0, (), "oid sha256:ab size 7")
    ledger.record_file("r", row)
    assert ledger.file("r", "big.bin") == row
