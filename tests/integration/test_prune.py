"""``coderecalld prune``: old collections go, the current, the configured and any open one
stay (real Edge stores in tmp_path, the CLI's own ``main``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from coderecalld import cli
from coderecalld.daemon import DISABLED_DIM
from coderecalld.embed import sparse
from coderecalld.errors import StoreError, StoreUnavailable
from coderecalld.store import EdgeStore
from coderecalld.store.ondisk import collections, remove
from storepoints import make_point

TV = sparse.TOKENIZER_VERSION


def _store(root: Path, model: str, dim: int, staging: bool) -> EdgeStore:
    store = EdgeStore(root, dim, model, TV, staging=staging)
    store.upsert([make_point(f"f_{model.replace('@', '_').replace('-', '_')}", "some text",
                             dense=tuple([1.0] + [0.0] * (dim - 1)))])
    return store


def _prune(data: Path, *extra: str) -> int:
    # --no-embed: the configured collection is the sparse-only one ("none"), no model loads.
    return cli.main(["prune", "--data-dir", str(data), "--no-embed", "--repo", str(data), *extra])


def test_prune_deletes_only_what_nothing_uses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    root = data / "store"
    _store(root, "old-model@1", 8, staging=False).close()          # current
    _store(root, "none", DISABLED_DIM, staging=True).close()        # configured: a rebuild's target
    _store(root, "older-model@0", 8, staging=True).close()          # abandoned
    busy = _store(root, "busy-model@0", 16, staging=True)            # open in this process
    try:
        by_name = {c.identity: c for c in collections(root)}
        assert sorted(c.current for c in by_name.values()) == [False, False, False, True]
        old = next(c for c in by_name.values() if "older-model@0" in c.identity)
        current = next(c for c in by_name.values() if c.current)
        assert old.bytes > 0 and "old-model@1" in current.identity

        assert _prune(data, "--dry-run") == 0
        out = capsys.readouterr().out
        assert out.count("keep    ") == 2 and out.count("(dry run)") == 2
        assert len(collections(root)) == 4  # nothing deleted

        assert _prune(data) == 1  # the open one could not go
        captured = capsys.readouterr()
        assert f"deleted {old.name}" in captured.out
        assert f"freed {old.bytes / 2**20:,.1f} MiB" in captured.out
        assert "open in another process" in captured.err
        left = {c.name for c in collections(root)}
        assert old.name not in left and len(left) == 3 and not (root / old.name).exists()
        assert busy.count() == 1  # the open collection was not touched
    finally:
        busy.close()
    assert _prune(data) == 0
    kept = collections(root)
    assert len(kept) == 2 and {("old-model@1" in c.identity, c.current) for c in kept} == {
        (True, True), (False, False)}
    # What stays still opens and answers.
    reopened = EdgeStore(root, 8, "old-model@1", TV)
    try:
        assert reopened.count() == 1
    finally:
        reopened.close()


def test_remove_refuses_the_current_a_kept_and_an_unknown_collection(tmp_path: Path) -> None:
    root = tmp_path / "store"
    current = _store(root, "m@1", 8, staging=False)
    name = current.collection
    current.close()
    for bad, keep in ((name, set()), ("chunks-nope", set()), ("..", set())):
        with pytest.raises(StoreError):
            remove(root, bad, keep)
    other = _store(root, "m@2", 8, staging=True)
    other_name = other.collection
    with pytest.raises(StoreUnavailable):
        remove(root, other_name, set())
    other.close()
    with pytest.raises(StoreError, match="in use by the configuration"):
        remove(root, other_name, {other_name})
    assert remove(root, other_name, set()) > 0
    assert [c.name for c in collections(root)] == [name]
    assert collections(tmp_path / "absent") == []
