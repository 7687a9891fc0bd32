"""Tests of coderecalld.embed.sparse: split rules, stop words, weights and the hash contract."""

from __future__ import annotations

import re

import pytest
from coderecalld.embed import sparse
from coderecalld.embed.sparse import query_vector, term_index, tokens, vector
from hypothesis import given, settings
from hypothesis import strategies as st


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("HTTPServer", ["httpserver", "http", "server"]),
        ("parseJSONResponse", ["parsejsonresponse", "parse", "json", "response"]),
        ("utf8Decode", ["utf8decode", "utf", "8", "decode"]),
        ("myHTTP2Server", ["myhttp2server", "my", "http", "2", "server"]),
        ("parse_json", ["parse_json", "parse", "json"]),
        ("CONSTANT_VALUE", ["constant_value", "constant", "value"]),
        ("__init__", ["init"]),
        ("--dry-run", ["dry-run", "dry", "run"]),
        ("größer_als", ["größer_als", "größer", "als"]),
        ("größerAls", ["größerals", "größer", "als"]),
        ("os.path.join", ["os", "path", "join"]),
        ("HMACValidator.validate", ["hmacvalidator", "hmac", "validator", "validate"]),
        ("日本語テキスト", ["日本語テキスト"]),
        ("getX", ["getx", "get", "x"]),
    ],
)
def test_identifier_splitting(text: str, expected: list[str]) -> None:
    assert tokens(text) == expected


def test_code_line_drops_stop_words_and_punctuation() -> None:
    assert tokens("def get_the_value(self): return self.cache[key] or None") == [
        "get_the_value", "get", "value", "cache", "key", "none",
    ]  # fmt: skip


def test_query_text() -> None:
    assert tokens("Where is the HMAC validator of a request?") == [
        "where", "hmac", "validator", "request",
    ]  # fmt: skip


def test_minus_between_digit_and_name_is_not_kebab() -> None:
    assert tokens("n-1 max-width") == ["n", "1", "max-width", "max", "width"]


@pytest.mark.parametrize("text", ["", "   ", ":::!!(){}[];", "\x00\ud800\uffff", "_", "-_-"])
def test_punctuation_only_gives_no_terms(text: str) -> None:
    assert tokens(text) == []
    assert vector(text).indices == ()
    assert query_vector(text).indices == ()


def test_decomposed_accents_match_composed() -> None:
    assert tokens("e\u0301te\u0301") == tokens("\u00e9t\u00e9") == ["été"]


def test_overlong_terms_dropped() -> None:
    assert tokens("x" * 65 + " ok") == ["ok"]


def test_term_index_is_stable_blake2b() -> None:
    # A stable-hash contract: stored vectors depend on it; changing it needs a new
    # TOKENIZER_VERSION.
    assert term_index("parse") == 2848637638
    assert term_index("json") == 105897250


def test_vector_weights_follow_bm25_tf() -> None:
    vec = vector("parse parse parse json")
    norm = 1.2 * (1 - 0.75 + 0.75 * 4 / 256)
    assert vec.indices == (105897250, 2848637638)  # json, parse: sorted by index
    assert vec.values == pytest.approx((1 * 2.2 / (1 + norm), 3 * 2.2 / (3 + norm)))


def test_whole_identifier_and_parts_counted_separately() -> None:
    v = vector("parse_json parse")
    weights = dict(zip(v.indices, v.values, strict=True))
    assert weights[term_index("parse")] > weights[term_index("json")]
    assert weights[term_index("json")] == weights[term_index("parse_json")]


def test_query_vector_is_binary_and_distinct() -> None:
    v = query_vector("parse JSON, parse json")
    assert v.indices == (105897250, 2848637638)
    assert v.values == (1.0, 1.0)


def test_ascii_fast_path_agrees_with_general_rule() -> None:
    for piece in ["HTTPServer", "aB1c", "ABc", "A", "a1B2C3dd", "XMLHttpRequest2Go"]:
        general = [piece[a:b] for a, b in _cuts(piece)]
        assert sparse._split_case(piece) == general


def _cuts(piece: str) -> list[tuple[int, int]]:
    starts = [0] + [i for i in range(1, len(piece)) if sparse._is_boundary(piece, i)]
    return list(zip(starts, [*starts[1:], len(piece)], strict=True))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_vector_never_raises_and_is_well_formed(text: str) -> None:
    for vec in (vector(text), query_vector(text)):
        assert list(vec.indices) == sorted(set(vec.indices))
        assert all(0 <= i < 2**32 for i in vec.indices)
        assert len(vec.values) == len(vec.indices)
        assert all(v > 0 for v in vec.values)
    assert all(t and t == t.lower() and not re.search(r"[.\s]", t) for t in tokens(text))


@settings(max_examples=200, deadline=None)
@given(st.from_regex(r"[A-Za-z0-9]{1,12}", fullmatch=True))
def test_ascii_fast_path_property(piece: str) -> None:
    assert sparse._split_case(piece) == [piece[a:b] for a, b in _cuts(piece)]


def test_query_drops_question_words_and_language_names_documents_keep_them() -> None:
    assert query_vector("how do I parse json in python") == query_vector("parse json")
    assert term_index("python") in vector("import python_version from python").indices
