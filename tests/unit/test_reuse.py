"""``reuse.Reused``: one request's reads of a store, each answered once."""

from __future__ import annotations

import pytest

from coderecalld.errors import StoreUnavailable
from coderecalld.query.reuse import Reused
from coderecalld.records import Hit, SparseVector
from coderecalld.store import StoreFilter


class CountingStore:
    """A store of three points that counts what it is asked (a fake: unit test only)."""

    def __init__(self) -> None:
        self.points = {i: Hit(i, 1.0, {"path": f"{i}.py", "text": i * 3}) for i in ("a", "b", "c")}
        self.asked: list[tuple] = []
        self.fail = False

    def retrieve(self, ids, fields=None):
        self.asked.append(("retrieve", tuple(ids), fields))
        if self.fail:
            raise StoreUnavailable("down")
        return [self.points[i].keep(fields) for i in ids if i in self.points]

    def sparse_search(self, sparse, flt, limit, fields=None):
        self.asked.append(("sparse_search", sparse, limit))
        return [Hit(i, 1.0 / (n + 1), {}) for n, i in enumerate(sorted(self.points))][:limit]

    def find(self, flt, field, value, prefix=False, limit=100):
        self.asked.append(("find", field, value))
        return [h for h in self.points.values() if h.payload.get(field) == value][:limit]

    def count(self, flt=None):
        self.asked.append(("count",))
        return len(self.points)


def test_a_payload_is_read_once_per_fields_in_the_order_asked() -> None:
    store = CountingStore()
    reading = Reused(store)
    assert [h.id for h in reading.retrieve(["b", "a"], ("path",))] == ["b", "a"]
    # "a" known: only "c" and the missing "z" are read; order of the ids, "z" left out
    got = reading.retrieve(["c", "z", "a"], ("path",))
    assert [(h.id, h.payload) for h in got] == [("c", {"path": "c.py"}), ("a", {"path": "a.py"})]
    assert store.asked == [("retrieve", ("b", "a"), ("path",)), ("retrieve", ("c", "z"), ("path",))]
    # other fields: another read, whole payloads
    assert reading.retrieve(["a"])[0].payload == {"path": "a.py", "text": "aaa"}
    assert store.asked[-1] == ("retrieve", ("a",), None)


def test_searches_and_lookups_are_answered_once_and_copied_out() -> None:
    store = CountingStore()
    reading = Reused(store)
    vector, flt = SparseVector((1, 2), (0.5, 0.5)), StoreFilter(repo="r")
    first = reading.sparse_search(vector, flt, 2, fields=())
    first.clear()  # the caller's own list
    assert [h.id for h in reading.sparse_search(vector, flt, 2, fields=())] == ["a", "b"]
    assert [h.id for h in reading.sparse_search(vector, flt, 3, fields=())] == ["a", "b", "c"]
    assert [h.id for h in reading.find(flt, "path", "b.py")] == ["b"]
    assert [h.id for h in reading.find(flt, "path", "b.py")] == ["b"]
    assert reading.count() == 3 and reading.count() == 3  # not kept: the store's own
    assert [a[0] for a in store.asked] == ["sparse_search", "sparse_search", "find", "count", "count"]


def test_a_failed_read_keeps_nothing() -> None:
    store = CountingStore()
    reading = Reused(store)
    store.fail = True
    with pytest.raises(StoreUnavailable):
        reading.retrieve(["a"])
    store.fail = False
    assert [h.id for h in reading.retrieve(["a"])] == ["a"]
    assert len(store.asked) == 2
