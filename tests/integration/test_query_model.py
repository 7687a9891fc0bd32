"""The query encoder (``embed.query_model``): an int8 copy of the default model made at
start, with the real model: its query vectors point where the model's own do, it ranks a
small real corpus alike, and it is made once and kept."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from coderecalld.config import EmbeddingConfig
from coderecalld.embed import local as embed
from coderecalld.embed.local import Embedder
from coderecalld.errors import ConfigError

QUERIES = [f"how to {verb} a {noun}" for verb in ("parse", "sort", "merge", "open", "hash", "compress")
           for noun in ("json file", "list of dicts", "url", "tar archive", "config", "date string")]
DOCS = [f"def {verb}_{noun.replace(' ', '_')}(value):\n    \"\"\"{verb.title()} the {noun} given.\"\"\"\n"
        for verb in ("read", "write", "parse", "sort", "merge", "hash", "compress", "split")
        for noun in ("json file", "csv rows", "url", "tar archive", "config", "date string")]


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Embedder, Embedder]:
    int8 = Embedder(EmbeddingConfig(query_sessions=1), tmp_path_factory.mktemp("int8"))
    plain = Embedder(EmbeddingConfig(query_sessions=1, query_quantization="none"), tmp_path_factory.mktemp("plain"))
    return int8, plain


def test_the_default_model_gets_an_int8_query_encoder(pair: tuple[Embedder, Embedder]) -> None:
    int8, plain = pair
    assert int8.query_model_dir.name == "model-query-int8"
    assert plain.query_model_dir.name == "model"
    recipe = json.loads((int8.query_model_dir / "recipe.json").read_text())
    assert recipe["recipe"] == embed.QUERY_RECIPE
    # A different file: int8 weights with their own scales, not a copy of the source.
    assert (int8.query_model_dir / "model.onnx").read_bytes() != (plain.query_model_dir / "model.onnx").read_bytes()
    assert int8.model_id == plain.model_id  # the stored vectors' space is the model's


def test_query_vectors_point_where_the_models_own_do(pair: tuple[Embedder, Embedder]) -> None:
    int8, plain = pair
    a = np.stack([int8.embed_query(q) for q in QUERIES])
    b = np.stack([plain.embed_query(q) for q in QUERIES])
    cos = (a * b).sum(axis=1)
    assert cos.min() >= 0.98, cos.min()
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-4)
    # Not merely close to one another: each is closest to its own query's model vector.
    assert ((a @ b.T).argmax(axis=1) == np.arange(len(QUERIES))).all()


def test_it_ranks_documents_like_the_model(pair: tuple[Embedder, Embedder]) -> None:
    int8, plain = pair
    docs = np.stack(plain.embed(DOCS))  # stored vectors: always the model's own
    top_int8 = [int(np.argmax(docs @ int8.embed_query(q))) for q in QUERIES]
    top_plain = [int(np.argmax(docs @ plain.embed_query(q))) for q in QUERIES]
    same = sum(x == y for x, y in zip(top_int8, top_plain))
    assert same >= len(QUERIES) - 2, (same, len(QUERIES))


def test_made_once_and_remade_when_the_recipe_changes(pair: tuple[Embedder, Embedder], tmp_path: Path) -> None:
    int8, _ = pair
    source = int8.query_model_dir.parent / "model"
    target = tmp_path / "q"
    embed.query_model(source, target)  # made by this process for another dir: copied
    assert (target / "model.onnx").read_bytes() == (int8.query_model_dir / "model.onnx").read_bytes()
    first = (target / "model.onnx").stat().st_mtime_ns
    embed._QUERY_MODELS.clear()  # as a new process would
    embed.query_model(source, target)
    assert (target / "model.onnx").stat().st_mtime_ns == first  # recipe.json matched: kept
    (target / "recipe.json").write_text("{}")
    embed._QUERY_MODELS.clear()
    embed.query_model(source, target)  # a stale recipe: made again, the same bytes
    assert json.loads((target / "recipe.json").read_text())["recipe"] == embed.QUERY_RECIPE
    assert (target / "model.onnx").read_bytes() == (int8.query_model_dir / "model.onnx").read_bytes()


def test_query_quantization_values() -> None:
    from coderecalld import config

    assert EmbeddingConfig().query_quantization_resolved == "int8"
    assert EmbeddingConfig(model_path="/m").query_quantization_resolved == "none"
    assert EmbeddingConfig(model_path="/m", query_quantization="int8").query_quantization_resolved == "int8"
    with pytest.raises(ConfigError, match="embedding.query_quantization"):
        config._validate_endpoint(EmbeddingConfig(query_quantization="fp16"))


def test_int8_documents_are_another_vector_space(pair: tuple[Embedder, Embedder], tmp_path: Path) -> None:
    """``document_quantization = "int8"``: documents and queries by the int8 copy, under a
    model id of their own (a new collection, never mixed with the model's vectors)."""
    int8, plain = pair
    docs8 = Embedder(EmbeddingConfig(query_sessions=1, document_quantization="int8"), tmp_path)
    assert docs8.model_id == plain.model_id + "#int8docs"
    assert docs8.document_model_dir == docs8.query_model_dir
    assert plain.document_model_dir.name == "model"
    one = DOCS[5]
    by_docs8, by_plain = docs8.embed([one])[0], plain.embed([one])[0]
    # One text alone: the document path and the query path run the same int8 graph.
    assert float(np.dot(by_docs8, docs8.embed_query(one))) == pytest.approx(1.0, abs=1e-4)
    assert 0.98 <= float(np.dot(by_docs8, by_plain)) < 0.99999


def test_document_quantization_values() -> None:
    from coderecalld import config

    assert EmbeddingConfig(document_quantization="int8", model_path="/m").query_quantization_resolved == "int8"
    for bad in (EmbeddingConfig(document_quantization="fp16"),
                EmbeddingConfig(document_quantization="int8", query_quantization="none"),
                EmbeddingConfig(document_quantization="int8", endpoint="http://embed.internal:8080")):
        with pytest.raises(ConfigError, match="embedding.(document|query)_quantization"):
            config._validate_endpoint(bad)
