"""EdgeStore's quantization / on-disk options, ``dense_params`` and ``optimize`` on the real engine."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import qdrant_edge as qe
from test_store_edge import make_point, open_store

from coderecalld.errors import ConfigError
from coderecalld.store import StoreFilter
from coderecalld.store.edge import SHARD_DIR, edge_options


def _dense_config(store) -> dict:
    path = store.root / store.collection / SHARD_DIR / "edge_config.json"
    return json.loads(path.read_text())["vectors"]["dense"]


def test_edge_options_map_to_engine_parameters() -> None:
    assert edge_options() == {}
    int8 = edge_options("int8")["quantization_config"]
    assert (int8.type, int8.memory) == (qe.ScalarType.Int8, qe.Memory.Pinned)
    assert int8.quantile == pytest.approx(0.99, abs=1e-6)  # stored as float32
    assert edge_options(on_disk=True) == {"memory": qe.Memory.Cold}
    with pytest.raises(ConfigError, match="store.quantization: expected '' or 'int8', got 'fp16'"):
        edge_options("fp16")


def test_options_are_written_at_create_and_at_every_open(tmp_path: Path) -> None:
    with open_store(tmp_path, quantization="int8", on_disk=True) as store:
        dense = _dense_config(store)
    assert dense["memory"] == "cold"
    assert dense["quantization_config"] == {"scalar": {"type": "int8", "quantile": 0.99, "memory": "pinned"}}
    with open_store(tmp_path) as store:  # defaults again: the options are taken back
        dense = _dense_config(store)
    assert "quantization_config" not in dense and dense.get("memory") != "cold"


def test_exact_dense_params_and_optimize_keep_brute_force_order(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    vecs = rng.normal(size=(300, 4))
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    pts = [make_point(f"f{i}", dense=tuple(v.tolist())) for i, v in enumerate(vecs)]
    query = np.array([0.3, -0.2, 0.9, 0.1])
    expected = [f"f{i}" for i in np.argsort(-(vecs @ query / np.linalg.norm(query)))[:10]]
    with open_store(tmp_path, quantization="int8") as store:
        store.upsert(pts)
        store.dense_params = qe.SearchParams(exact=True, quantization=qe.QuantizationSearchParams(ignore=True))
        assert [h.payload["name"] for h in store.dense_search(query.tolist(), StoreFilter(), 10)] == expected
        store.optimize()
        assert store.count() == 300
        assert [h.payload["name"] for h in store.dense_search(query.tolist(), StoreFilter(), 10)] == expected
