"""A rename, a move or a revert costs zero embeddings (DESIGN.md decision 3; issue 4 item 1):
the dense text of a symbol holds no path, so the vector cache answers for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitfixtures import GitRepo

from coderecalld.config import Config, IndexConfig, RepoConfig
from coderecalld.daemon import Daemon

pytestmark = pytest.mark.slow

MONEY = ('def cents(amount):\n    """Amount in cents."""\n    return round(amount * 100)\n\n\n'
         'def euros(cents):\n    """Cents back to euros."""\n    return cents / 100\n')


def test_renamed_file_reuses_every_symbol_vector(tmp_path: Path) -> None:
    src = GitRepo(tmp_path / "src")
    src.commit({"app/money.py": MONEY, "app/other.py": "def other():\n    return 0\n"})
    cfg = Config(data_dir=tmp_path / "data", repos=(RepoConfig("r", str(src.path)),),
                 index=IndexConfig(sync_interval_s=3600, sync_jitter_s=0))
    running = Daemon.open(cfg)
    try:
        first = running.jobs.run_now("r")
        # cents, euros, other; no module chunks: both files are definitions only
        assert (first.chunks, first.embedded) == (3, 3)
        before = {p.payload["qualified_name"]: p.dense for p in running.store.all_points("r")}

        src.commit({"app/money.py": None, "billing/currency.py": MONEY})  # git mv + new dir
        moved = running.jobs.run_now("r")
        # Nothing is embedded again: no embedded text names its path.
        assert (moved.files_deleted, moved.files_indexed, moved.chunks, moved.embedded) == (1, 1, 2, 0)
        after = {(p.payload["path"], p.payload["qualified_name"]): p.dense
                 for p in running.store.all_points("r")}
        assert after[("billing/currency.py", "cents")] == before["cents"]
        assert after[("billing/currency.py", "euros")] == before["euros"]
        assert running.service.find_symbols("cents")[0].path == "billing/currency.py"

        src.commit({"billing/currency.py": None, "app/money.py": MONEY})  # revert
        reverted = running.jobs.run_now("r")
        assert (reverted.chunks, reverted.embedded) == (2, 0)
    finally:
        running.close()
