"""Fuzzy symbol lookup: trigrams, the edit distance, the judge and the indexed candidate
search against the real embedded Qdrant engine (``EdgeStore.find_overlap``)."""

from __future__ import annotations

import math
import random
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from coderecalld.embed import sparse
from coderecalld.errors import InvalidArgument
from coderecalld.query import fuzzy
from coderecalld.records import PointRecord
from coderecalld.store import EdgeStore, StoreFilter


def test_trigrams_are_padded_lowercased_and_distinct() -> None:
    assert fuzzy.name_trigrams("Parse") == ["$pa", "ars", "par", "rse", "se$"]
    assert fuzzy.name_trigrams("aaaa") == ["$aa", "aa$", "aaa"]
    assert fuzzy.name_trigrams("f") == ["$f$"]
    assert fuzzy.inner_trigrams("Refund") == ["efu", "fun", "ref", "und"]
    assert fuzzy.inner_trigrams("ab") == []


def test_max_edits_follows_elasticsearch_auto() -> None:
    assert [fuzzy.max_edits(n) for n in range(9)] == [0, 0, 0, 1, 1, 1, 2, 2, 2]


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("iseligableforrefund", "iseligibleforrefund", 1),  # substitution
    ("refnud", "refund", 1),  # adjacent transposition counts one edit (OSA)
    ("refund", "refunds", 1),  # insertion
    ("ca", "abc", 3),  # OSA, not full Damerau (which says 2): no substring edited twice
    ("kitten", "sitting", 3),
])
def test_distance(a: str, b: str, expected: int) -> None:
    assert fuzzy.distance(a, b, 5) == expected
    assert fuzzy.distance(a, b, expected - 1) == expected  # cut off: limit + 1


def test_distance_cuts_off_early_on_length() -> None:
    assert fuzzy.distance("a", "abcdefgh", 2) == 3


def _payload(name: str, qualified_name: str = "") -> dict:
    qualified_name = qualified_name or name
    return {"name_lc": name.lower(), "qualified_name_lc": qualified_name.lower()}


def test_judge_kinds_and_scores() -> None:
    assert fuzzy.judge("Refund", _payload("isEligibleForRefund")) == ("substring", 6 / 19)
    assert fuzzy.judge("isEligableForRefund", _payload("isEligibleForRefund")) == ("fuzzy", 1 - 1 / 19)
    assert fuzzy.judge("Invoice.totl", _payload("total", "Invoice.total")) == ("fuzzy", 1 - 1 / 13)
    assert fuzzy.judge("voice.tot", _payload("total", "Invoice.total")) == ("substring", 9 / 13)
    assert fuzzy.judge("xyz", _payload("total")) is None
    assert fuzzy.judge("ab", _payload("ac")) is None  # 2 characters: no edit allowed


# --- candidates through the store's trigram index -------------------------------------------


def _point(name: str, repo: str = "r") -> PointRecord:
    payload = {"repo": repo, "path": "m.py", "name": name, "qualified_name": name,
               "name_lc": name.lower(), "qualified_name_lc": name.lower(),
               "name_trigrams": fuzzy.name_trigrams(name), "kind": "function"}
    pid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{repo}/{name}"))
    return PointRecord(pid, payload, sparse.vector(name))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EdgeStore]:
    with EdgeStore(tmp_path / "s", 4, "m", sparse.TOKENIZER_VERSION) as st:
        st.upsert([_point(n) for n in ("isEligibleForRefund", "refund", "fullRefund", "refnud",
                                       "render", "unrelated")] + [_point("refund", repo="other")])
        yield st


def names(hits: list) -> list[str]:
    return sorted(h.payload["name"] for h in hits)


def test_find_overlap_counts_distinct_values(store: EdgeStore) -> None:
    everywhere = StoreFilter(repos=("r",))
    grams = fuzzy.name_trigrams("refund")  # $re ref efu fun und nd$
    assert names(store.find_overlap(everywhere, "name_trigrams", grams, 6)) == ["refund"]
    assert names(store.find_overlap(everywhere, "name_trigrams", grams, 5)) == [
        "fullRefund", "isEligibleForRefund", "refund"]  # ref efu fun und nd$
    assert names(store.find_overlap(everywhere, "name_trigrams", grams + grams, 2)) == [
        "fullRefund", "isEligibleForRefund", "refnud", "refund"]
    assert store.find_overlap(everywhere, "name_trigrams", [], 1) == []
    with pytest.raises(InvalidArgument):
        store.find_overlap(everywhere, "name_trigrams", grams, 7)
    with pytest.raises(InvalidArgument):
        store.find_overlap(everywhere, "embed_text", grams, 1)


def test_candidates_hold_substrings_and_typos_in_scope(store: EdgeStore) -> None:
    found = fuzzy.candidates(store.find_overlap, StoreFilter(repos=("r",)), "refund")
    judged = {h.payload["name"]: fuzzy.judge("refund", h.payload) for h in found}
    # "render" shares only "$re" and is a candidate of the loosest level, but no match.
    assert judged == {"refund": ("substring", 1.0), "fullRefund": ("substring", 0.6),
                      "isEligibleForRefund": ("substring", 6 / 19), "refnud": ("fuzzy", 1 - 1 / 6),
                      "render": None}
    assert {h.payload["repo"] for h in found} == {"r"}


def test_a_full_level_reads_the_stricter_one_too(store: EdgeStore,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []

    def counting(flt, field, values, min_count, limit, fields):
        asked.append(min_count)
        return store.find_overlap(flt, field, values, min_count, limit=limit, fields=fields)

    fuzzy.candidates(counting, StoreFilter(repos=("r",)), "refund")
    assert asked == [4, 1]  # every inner trigram (substrings), then 6 - 4 * 2 ... clamped to 1
    monkeypatch.setattr(fuzzy, "CANDIDATES", 2)
    asked.clear()
    found = fuzzy.candidates(counting, StoreFilter(repos=("r",)), "refund")
    # Each level came back full (2 points), so the next stricter one was read: 2 edits
    # (min 1), 1 edit (min 2), exact (all 6).
    assert asked == [4, 1, 2, 6]
    assert "refund" in {h.payload["name"] for h in found}


# --- bounded candidate generation -----------------------------------------------------------


def _edited(rng: random.Random, text: str, edits: int) -> str:
    """``text`` after ``edits`` random edits of the four kinds OSA counts."""
    for _ in range(edits):
        at = rng.randrange(len(text))
        kind = rng.choice(("sub", "del", "ins", "swap"))
        if kind == "sub":
            text = text[:at] + rng.choice("xyz_q") + text[at + 1:]
        elif kind == "del" and len(text) > 1:
            text = text[:at] + text[at + 1:]
        elif kind == "ins":
            text = text[:at] + rng.choice("xyz_q") + text[at:]
        elif at + 1 < len(text):
            text = text[:at] + text[at + 1] + text[at] + text[at + 2:]
    return text


@pytest.mark.parametrize("length", [6, 12, 17, 28, 40, 60, 200, 1000])
def test_plan_is_bounded_and_never_loses_a_match(length: int) -> None:
    rng = random.Random(length)
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
    for _ in range(50):
        query = "".join(rng.choice(alphabet) for _ in range(length))
        for edits in range(fuzzy.max_edits(length) + 1):
            grams, min_count = fuzzy.plan(query, edits)
            missing = len(grams) - min_count
            assert len(grams) <= fuzzy.MAX_CONDITIONS
            assert math.comb(len(grams), missing) <= fuzzy.MAX_COMBINATIONS or min_count == 1
            if length >= 12:  # long enough for an exact bound (not the best-effort "1")
                assert min_count >= 2
            name = _edited(rng, query, edits)
            exact = length >= 12 or edits < 2  # else "1" is a best effort, as it always was
            if exact and fuzzy.distance(query.lower(), name.lower(), edits) <= edits:
                held = set(fuzzy.name_trigrams(name)) & set(grams)
                assert len(held) >= min_count, (query, name, edits, grams, min_count)


def test_plan_of_a_short_name_is_every_trigram_as_before() -> None:
    grams = fuzzy.name_trigrams("isEligible")  # 10 trigrams: C(10, 8) = 45 combinations
    assert fuzzy.plan("isEligible", 2) == (grams, 2)
    assert fuzzy.plan("isEligible", 1) == (grams, 6)
    assert fuzzy.plan("isEligible", 0) == (grams, 10)


def test_distance_of_long_strings_is_banded() -> None:
    long = "ab" * 500
    assert fuzzy.distance(long, long[:499] + "x" + long[500:], 2) == 1
    assert fuzzy.distance(long, long[1:] + "a", 2) == 2  # one deletion, one insertion
    assert fuzzy.distance(long, "b" + long[1:-1] + "a", 2) == 2
    assert fuzzy.distance(long, long[::-1], 2) == 2  # "baba..." : a deletion and an insertion


def test_a_typo_of_a_40_character_name_is_found(tmp_path: Path) -> None:
    target = "createCustomerInvoicePaymentRefundHandler"  # 41 characters
    rng = random.Random(40)
    words = ["create", "customer", "invoice", "payment", "refund", "handler", "order", "cart"]
    others = {"".join(rng.choice(words).capitalize() for _ in range(6)) for _ in range(3000)}
    with EdgeStore(tmp_path / "s", 4, "m", sparse.TOKENIZER_VERSION) as st:
        st.upsert([_point(n) for n in sorted(others - {target}) + [target]])
        for typo in ("createCustomerInvoicePaymnetRefundHandler",  # transposition
                     "createCustomerInvocePaymentRefundHandlr"):  # two deletions
            found = fuzzy.candidates(st.find_overlap, StoreFilter(repos=("r",)), typo)
            judged = {h.payload["name"]: fuzzy.judge(typo, h.payload) for h in found}
            assert judged[target] is not None and judged[target][0] == "fuzzy"
            assert len(found) < 50  # the filter is selective, not a scan
