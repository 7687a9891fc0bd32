"""Fuzzy symbol lookup: substrings and small typos of a name, through a trigram index.

Every point's payload holds ``name_trigrams`` (``name_trigrams()``): the distinct
trigrams of its lowercased bare name padded with ``$`` at both ends (``parse`` ->
``$pa par ars rse se$``), a keyword array with a payload index. A query finds its
candidates with one indexed filter, "holds at least ``m`` of these trigrams" (Qdrant's
``min_should``), never a scan of all points, then checks each candidate exactly:

* **substring**: the lowercased query occurs in the name (in the qualified name when the
  query has a dot). Candidates hold every unpadded trigram of the query's last segment, so
  a last segment under 3 characters finds no substrings.
* **fuzzy**: the optimal-string-alignment distance (Damerau-Levenshtein with adjacent
  transpositions, no substring edited twice) between query and name is at most
  ``max_edits(len(query))``: 0 edits under 3 characters, 1 for 3-5, 2 from 6 on
  (Elasticsearch's ``fuzziness: AUTO``; 2 is also Lucene's ``FuzzyQuery`` maximum). One
  edit breaks at most 4 of the padded trigrams (a transposition; a substitution or a
  deletion 3, an insertion 2), so a name within ``d`` edits holds at least ``n - 4d`` of
  the query's ``n`` trigrams: that is ``m`` (at least 1).

A lookup reads at most ``CANDIDATES`` points per level. When the loosest level (``d =
max_edits``) fills that, the next stricter level (``d - 1``, ...) is read too, so in a huge
index a very common short name still gets its closest typos. Scores (0..1): substring
``len(query) / len(name)``, fuzzy ``1 - distance / max(len(query), len(name))``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from coderecalld.embed.trigrams import name_trigrams
from coderecalld.records import Hit
from coderecalld.store import StoreFilter

FIELD = "name_trigrams"
#: Points read per candidate query (one level of the trigram filter).
CANDIDATES = 2000
#: Trigrams one edit can break at most (an adjacent transposition).
TRIGRAMS_PER_EDIT = 4
SUBSTRING = "substring"
FUZZY = "fuzzy"


def inner_trigrams(text: str) -> list[str]:
    """Distinct trigrams of ``text`` lowercased, without padding (what a substring keeps)."""
    lowered = text.lower()
    return sorted({lowered[i:i + 3] for i in range(len(lowered) - 2)})


def max_edits(length: int) -> int:
    """Edits a fuzzy match of a ``length``-character query may need (Elasticsearch AUTO)."""
    return 0 if length < 3 else 1 if length < 6 else 2


def distance(a: str, b: str, limit: int) -> int:
    """Optimal-string-alignment distance of ``a`` and ``b``, or ``limit + 1`` as soon as it
    must exceed ``limit`` (a row minimum above it)."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = ca != cb
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], before[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        before, prev = prev, cur
    return prev[-1]


def judge(query: str, payload: dict[str, Any]) -> tuple[str, float] | None:
    """(``substring`` | ``fuzzy``, score) of one candidate against ``query``, or ``None``
    when it is neither. A dotted query is compared with the qualified name."""
    lowered = query.lower()
    target = payload["qualified_name_lc" if "." in query else "name_lc"]
    if lowered in target:
        return SUBSTRING, len(lowered) / max(len(target), 1)
    edits = max_edits(len(lowered))
    found = distance(lowered, target, edits)
    if found <= edits:
        return FUZZY, 1.0 - found / max(len(lowered), len(target))
    return None


def candidates(find_overlap: Callable[..., list[Hit]], flt: StoreFilter, query: str) -> list[Hit]:
    """Points that may be a substring or fuzzy match of ``query`` (deduplicated by id),
    through ``find_overlap(flt, FIELD, values, min_count, limit=...)`` of a store."""
    segment = query.rsplit(".", 1)[-1]
    found: dict[str, Hit] = {}
    inner = inner_trigrams(segment)
    if inner:
        _add(found, find_overlap(flt, FIELD, inner, len(inner), limit=CANDIDATES))
    grams = name_trigrams(segment)
    for edits in range(max_edits(len(query)), -1, -1):
        hits = find_overlap(flt, FIELD, grams, max(1, len(grams) - TRIGRAMS_PER_EDIT * edits),
                            limit=CANDIDATES)
        _add(found, hits)
        if len(hits) < CANDIDATES:  # this level is complete; stricter ones are inside it
            break
    return list(found.values())


def _add(found: dict[str, Hit], hits: Iterable[Hit]) -> None:
    for hit in hits:
        found.setdefault(hit.id, hit)
