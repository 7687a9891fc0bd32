"""Pure parts of freshness and failure handling: the retry schedule and the lag clock."""

from __future__ import annotations

from pathlib import Path

import pytest
from coderecalld.ops.jobs import retry_delay
from coderecalld.store.ledger import Ledger


def test_retry_delay_doubles_from_30_s_up_to_the_interval():
    assert [retry_delay(n, 300.0) for n in range(0, 8)] == [300.0, 30.0, 60.0, 120.0, 240.0,
                                                            300.0, 300.0, 300.0]
    assert retry_delay(1000, 300.0) == 300.0  # no overflow after a long outage
    assert retry_delay(1, 10.0) == 10.0  # never later than the normal schedule


def test_retry_delay_jitter_takes_off_at_most_a_fifth():
    assert retry_delay(2, 300.0, rand=0.5) == pytest.approx(54.0)
    assert retry_delay(5, 300.0, rand=0.999) == pytest.approx(300.0 * (1 - 0.2 * 0.999))
    assert retry_delay(3, 300.0, base_s=1.0, jitter=0.0, rand=0.9) == 4.0


def test_lag_clock_runs_from_the_first_unindexed_fetch_until_the_index_catches_up(tmp_path: Path):
    ledger = Ledger(tmp_path / "ledger.sqlite")
    ledger.set_repo("r", indexed_commit="a")
    ledger.note_fetched("r", "a", now=100.0)
    assert ledger.repo("r").lag_s(150.0) == 0.0  # fetched head is indexed
    ledger.note_fetched("r", "b", now=200.0)
    assert ledger.repo("r").lag_s(230.0) == 30.0
    ledger.note_fetched("r", "c", now=220.0)  # a newer head before b was indexed: clock keeps running
    assert ledger.repo("r").lag_s(230.0) == 30.0
    ledger.set_repo("r", indexed_commit="c")
    assert ledger.repo("r").lag_s(400.0) == 0.0
    ledger.note_fetched("r", "c", now=500.0)
    ledger.note_fetched("r", "d", now=600.0)  # caught up before: a new clock
    assert ledger.repo("r").lag_s(601.5) == 1.5
    ledger.note_fetched("r", "", now=700.0)  # branch deleted/unborn, index still at c
    assert ledger.repo("r").lag_s(701.0) == 101.0
    ledger.close()


def test_ledger_without_lag_columns_is_upgraded(tmp_path: Path):
    import sqlite3

    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE repos (name TEXT PRIMARY KEY, url TEXT NOT NULL DEFAULT '', "
               "branch TEXT NOT NULL DEFAULT '', indexed_commit TEXT NOT NULL DEFAULT '', "
               "last_sync REAL NOT NULL DEFAULT 0, state TEXT NOT NULL DEFAULT 'pending', "
               "error TEXT NOT NULL DEFAULT '')")
    db.execute("INSERT INTO repos (name, indexed_commit) VALUES ('r', 'a')")
    db.commit()
    db.close()
    ledger = Ledger(path)
    row = ledger.repo("r")
    assert (row.indexed_commit, row.fetched_commit, row.lag_s(1e9)) == ("a", "", 0.0)
    ledger.close()
