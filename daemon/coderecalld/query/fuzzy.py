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

**Bounded cost.** The engine evaluates "at least ``m`` of ``n``" through the
combinations of conditions it may miss (measured on 20,000 names: about 10 µs per
``C(n, n - m)``; 9 of 17 trigrams took 0.17 s, 11 of 19 0.7 s, and a 28-character name
minutes and gigabytes). So a level never asks for all of a long query's trigrams: it asks
for a *sample* whose bound stays exact. An edit breaks only trigrams that start in one
window of 4 consecutive positions (a transposition at ``p``: those starting at ``p - 2 ..
p + 1``), so if the sampled start positions are at least ``s`` apart, one edit breaks at
most ``ceil(4 / s)`` of them, and a name within ``d`` edits holds at least ``k - d *
ceil(4 / s)`` of ``k`` sampled trigrams. ``plan`` picks the spacing (1..4) and ``k`` that
require the most trigrams while ``C(k, missing) <= MAX_COMBINATIONS`` and ``k <=
MAX_CONDITIONS``; for names up to ~11 characters that is every trigram, as before, and a
1,000-character name costs what a 20-character one does. The substring level needs every
inner trigram, so any ``MAX_CONDITIONS`` of them, spread over the segment, bound it as
exactly. The final check (``distance``) is banded: ``O(len(query) * (2 * edits + 1))``.

A lookup reads at most ``CANDIDATES`` points per level. When the loosest level (``d =
max_edits``) fills that, the next stricter level (``d - 1``, ...) is read too, so in a huge
index a very common short name still gets its closest typos. Scores (0..1): substring
``len(query) / len(name)``, fuzzy ``1 - distance / max(len(query), len(name))``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from coderecalld.embed.trigrams import name_trigrams
from coderecalld.records import Hit
from coderecalld.store import StoreFilter
from coderecalld.store.base import HIT_FIELDS

FIELD = "name_trigrams"
#: Points read per candidate query (one level of the trigram filter).
CANDIDATES = 2000
#: Trigrams one edit can break at most (an adjacent transposition): a window of this many
#: consecutive start positions.
TRIGRAMS_PER_EDIT = 4
#: Most ``C(k, missing)`` one level's filter may cost the engine (about 10 µs each,
#: measured on 20,000 names: 120 took 2 ms, 1,820 15 ms, 75,582 0.7 s).
MAX_COMBINATIONS = 256
#: Most trigram conditions in one filter (a 1,000-character name has 1,000).
MAX_CONDITIONS = 24
#: Payload a candidate is read with: what ``judge`` and a symbol hit need. The whole
#: payload (``embed_text``, ``call_sites``, ...) took 2,000 candidates from ~50 to ~270 ms
#: on 20,000 names here.
PAYLOAD_FIELDS = (*HIT_FIELDS, "name_lc", "qualified_name_lc", "fq_aliases")
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
    must exceed ``limit`` (a row minimum above it). Only the band ``|i - j| <= limit`` is
    computed (a cell outside it is more than ``limit`` edits), so the cost is
    ``O(len(a) * (2 * limit + 1))``, not ``O(len(a) * len(b))``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    over, width = limit + 1, 2 * limit + 1
    # Row i keeps columns j = i - limit .. i + limit at index k = j - i + limit; the same
    # column is at k + 1 in the row above and the column two left at k two rows above.
    before = [over] * (width + 1)
    prev = [k - limit if 0 <= k - limit <= len(b) else over for k in range(width)] + [over]
    for i, ca in enumerate(a, 1):
        cur = [over] * (width + 1)
        for k in range(width):
            j = i + k - limit
            if j < 0 or j > len(b):
                continue
            if j == 0:
                cur[k] = i if i <= limit else over
                continue
            cb = b[j - 1]
            best = min(prev[k + 1] + 1, cur[k - 1] + 1 if k else over, prev[k] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                best = min(best, before[k] + 1)
            cur[k] = min(best, over)
        if min(cur) > limit:
            return over
        before, prev = prev, cur
    return prev[len(b) - len(a) + limit]


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
    through ``find_overlap(flt, FIELD, values, min_count, limit=..., fields=...)`` of a
    store, read with ``PAYLOAD_FIELDS``. At most ``max_edits + 2`` calls, each with at most
    ``MAX_CONDITIONS`` values and ``MAX_COMBINATIONS`` combinations, whatever the length
    of ``query``."""
    segment = query.rsplit(".", 1)[-1]
    found: dict[str, Hit] = {}
    inner = _spread(inner_trigrams(segment), MAX_CONDITIONS)
    if inner:
        _add(found, find_overlap(flt, FIELD, inner, len(inner), limit=CANDIDATES,
                                 fields=PAYLOAD_FIELDS))
    for edits in range(max_edits(len(query)), -1, -1):
        grams, min_count = plan(segment, edits)
        hits = find_overlap(flt, FIELD, grams, min_count, limit=CANDIDATES, fields=PAYLOAD_FIELDS)
        _add(found, hits)
        if len(hits) < CANDIDATES:  # this level is complete; stricter ones are inside it
            break
    return list(found.values())


def plan(segment: str, edits: int) -> tuple[list[str], int]:
    """(trigrams, how many of them a name within ``edits`` edits of ``segment`` holds) for
    one level's filter: the sample that requires the most trigrams within the
    ``MAX_COMBINATIONS`` and ``MAX_CONDITIONS`` budgets (module docstring). When no sample
    guarantees even one (a short name, many edits), every trigram and 1, as a best effort."""
    padded = f"${segment.lower()}$"
    starts = len(padded) - 2
    best: tuple[int, int, list[str]] = (0, 0, [])
    for spacing in range(1, TRIGRAMS_PER_EDIT + 1):
        grams = _sample(padded, spacing)
        per_edit = min(math.ceil(TRIGRAMS_PER_EDIT / spacing), starts)
        missing = edits * per_edit
        for count in range(min(len(grams), MAX_CONDITIONS), missing, -1):
            if math.comb(count, missing) <= MAX_COMBINATIONS:
                required = count - missing
                if required > best[0]:
                    best = (required, count, _spread(grams, count))
                break
    if best[0] == 0:
        grams = name_trigrams(segment)
        return _spread(grams, MAX_CONDITIONS), 1
    return sorted(best[2]), best[0]


def _sample(padded: str, spacing: int) -> list[str]:
    """Distinct trigrams of ``padded`` starting at least ``spacing`` apart, left to right
    (a repeated trigram is skipped, its next position tried)."""
    out: list[str] = []
    seen: set[str] = set()
    last = -spacing
    for start in range(len(padded) - 2):
        gram = padded[start:start + 3]
        if start - last >= spacing and gram not in seen:
            out.append(gram)
            seen.add(gram)
            last = start
    return out


def _spread(items: list[str], count: int) -> list[str]:
    """``count`` of ``items`` evenly spread over it (all of them when there are fewer); a
    subset of positions at least ``s`` apart is still at least ``s`` apart."""
    if len(items) <= count:
        return list(items)
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]


def _add(found: dict[str, Hit], hits: Iterable[Hit]) -> None:
    for hit in hits:
        found.setdefault(hit.id, hit)
