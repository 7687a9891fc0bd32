"""One request's view of a store that answers a repeated read from what it already read.

A search page the model is unsure of is ranked twice (``service.rank_fused``): by the hybrid
retrievers, then by the query's words alone. The second ranking asks the store again for
what the first had read: the sparse retriever's own top (``fusion.hybrid`` step 3 runs it
whenever the dense candidates do not settle the page, as they rarely do when the model is
unsure), the same exact-name lookups, and payloads of the chunks both rankings hold.
``Reused`` wraps the store for the length of one request and keeps those answers, so each
is read once. Nothing is kept between requests, so what a sync writes meanwhile is seen by
the next request as before.

An impact request (``service.analyze_impact``) asks the same definitions and re-export
modules of every caller at each level: ``Reused`` keeps them for the whole tree, and
``prefetch`` reads the ``find``s of a batch of names with one call (``impact __init__`` on
drf + pydantic made 4,086 one-name scrolls, 3 s of its 3.1 s).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from coderecalld.records import Hit, SparseVector
from coderecalld.store import StoreFilter

#: Points one ``prefetch`` reads at most: past it, its values are left to their own ``find``.
PREFETCH_POINTS = 10_000


class Reused:
    """``store`` with ``sparse_search``, ``find`` and ``retrieve`` answered once per distinct
    call; every other method is the store's own. ``retrieve`` reads only the ids it has not
    returned before with the same ``fields`` (the order of ``ids`` kept, missing points
    left out, as the store's). Lists are copied out, so a caller may change its own.
    Raises what the store raises; a failed call keeps nothing.

    With ``by_value``, ``find_any`` reads the points of a value asked for again once
    (``find_any``'s docstring): an impact asks for the calls of ``Model`` with each of
    pydantic's hundreds of test classes named so (``{"Model", "tests.test_x.f.Model"}``),
    648 points each time.
    Without it, ``find_any`` is the store's own (a search asks few, each with its own limit)."""

    def __init__(self, store: Any, by_value: bool = False) -> None:
        self._store = store
        self._by_value = by_value
        self._searched: dict[tuple[Any, ...], list[Hit]] = {}
        self._found: dict[tuple[Any, ...], list[Hit]] = {}
        self._points: dict[tuple[str, ...] | None, dict[str, Hit]] = {}
        self._held: dict[tuple[Any, ...], list[Hit]] = {}  # (flt, field, value, fields) -> all its points
        self._asked: dict[tuple[Any, ...], int] = {}  # the same keys: times asked for, not kept

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def sparse_search(self, sparse: SparseVector, flt: StoreFilter, limit: int,
                      fields: Sequence[str] | None = None) -> list[Hit]:
        key = (sparse, flt, limit, _fields(fields))
        if key not in self._searched:
            self._searched[key] = self._store.sparse_search(sparse, flt, limit, fields=fields)
        return list(self._searched[key])

    def find(self, flt: StoreFilter, field: str, value: str, prefix: bool = False,
             limit: int = 100) -> list[Hit]:
        key = (flt, field, value, prefix, limit)
        if key not in self._found:
            self._found[key] = self._store.find(flt, field, value, prefix=prefix, limit=limit)
        return list(self._found[key])

    def find_any(self, flt: StoreFilter, field: str, values: Sequence[str], limit: int = 100,
                 fields: Sequence[str] | None = None) -> list[Hit]:
        """The store's ``find_any``. With ``by_value``, a value asked for again is read whole
        once (``_whole``) and kept; the answer is then the kept values' points and the
        store's answer for the others, in the store's order (by point id: Qdrant scrolls
        so), its first ``limit``. Where that answer may be cut (``limit`` points), the store
        is asked the whole question. A value asked once costs nothing more: reading which
        value each point holds decodes its ``field`` (``call_targets``: ~30 ms more per
        shallow impact of ``get`` or ``Field`` on drf + pydantic, ~40 % of one)."""
        if not self._by_value:
            return self._store.find_any(flt, field, values, limit=limit, fields=fields)
        keys = {v: (flt, field, v, _fields(fields)) for v in dict.fromkeys(values)}
        again = [v for v, key in keys.items() if key not in self._held and self._asked.get(key) == 1]
        if again:
            self._whole(flt, field, again, limit, fields)
        rest = [v for v, key in keys.items() if key not in self._held]
        for v in rest:
            self._asked[keys[v]] = self._asked.get(keys[v], 0) + 1
        hits = self._store.find_any(flt, field, rest, limit=limit, fields=fields) if rest else []
        if len(rest) == len(keys):
            return hits
        if len(hits) >= limit:  # maybe cut: a kept value's points may come before its last
            return self._store.find_any(flt, field, list(keys), limit=limit, fields=fields)
        union = {h.id: h for h in hits}
        union.update((h.id, h) for v, key in keys.items() if key in self._held for h in self._held[key])
        return [union[i] for i in sorted(union)][:limit]

    def _whole(self, flt: StoreFilter, field: str, values: list[str], limit: int,
               fields: Sequence[str] | None) -> None:
        """Read the points of ``values`` (with ``field``, to tell which holds which) in one
        call of ``limit``, and keep each value's when that answer is whole."""
        asked = None if fields is None else (*fields, field)
        hits = self._store.find_any(flt, field, values, limit=limit, fields=asked)
        if len(hits) >= limit:
            return  # maybe cut: asked as they come from now on (asked twice: never read whole again)
        read: dict[str, list[Hit]] = {v: [] for v in values}
        for hit in hits:
            held = hit.payload.get(field)
            for value in dict.fromkeys(held if isinstance(held, list) else [held]):
                if value in read:
                    read[value].append(hit.keep(fields))
        self._held.update(((flt, field, v, _fields(fields)), found) for v, found in read.items())

    def prefetch(self, flt: StoreFilter, field: str, values: Sequence[str], limit: int = 100) -> None:
        """Read ``find(flt, field, value, limit=limit)`` of each of ``values`` not read yet with
        one ``find_any`` (``field``: a keyword field), so that those finds are answered from it.
        Only a value whose points are all in that answer is kept (fewer than ``limit`` of them,
        and the answer not cut at ``PREFETCH_POINTS``): the others are left to their own
        ``find``, whose answer this one may not match (which ``limit`` points it returns)."""
        missing = [v for v in dict.fromkeys(values) if v and (flt, field, v, False, limit) not in self._found]
        if len(missing) < 2:
            return  # its own find is one call too
        cap = min(limit * len(missing), PREFETCH_POINTS)
        hits = self._store.find_any(flt, field, missing, limit=cap)
        if len(hits) >= cap:
            return
        groups: dict[str, list[Hit]] = {v: [] for v in missing}
        for hit in hits:
            held = hit.payload.get(field)
            for value in dict.fromkeys(held if isinstance(held, list) else [held]):
                if value in groups:
                    groups[value].append(hit)
        for value, found in groups.items():
            if len(found) < limit:
                self._found[(flt, field, value, False, limit)] = found

    def retrieve(self, ids: Sequence[str], fields: Sequence[str] | None = None) -> list[Hit]:
        known = self._points.setdefault(_fields(fields), {})
        missing = [i for i in dict.fromkeys(ids) if i not in known]
        if missing:
            for hit in self._store.retrieve(missing, fields):
                known[hit.id] = hit
        return [known[i] for i in ids if i in known]


def _fields(fields: Sequence[str] | None) -> tuple[str, ...] | None:
    return None if fields is None else tuple(fields)
