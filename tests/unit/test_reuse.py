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


class BatchStore(CountingStore):
    """``CountingStore`` with ``find_any`` (scroll order: by id), as the stores' keyword lookups."""

    def find_any(self, flt, field, values, limit=100, fields=None):
        self.asked.append(("find_any", field, tuple(values), limit))
        held = [h for h in self.points.values() if h.payload.get(field) in values]
        return [h.keep(fields) for h in sorted(held, key=lambda h: h.id)[:limit]]


def test_a_prefetch_reads_a_batch_once_and_answers_each_find_as_it_would() -> None:
    """One ``find_any`` for the names not read yet; each ``find`` of them is then answered
    from it, the same points in the same order, a name no point holds included."""
    store = BatchStore()
    store.points["d"] = Hit("d", 1.0, {"path": "a.py", "text": "d"})  # a second point of a.py
    reading, flt = Reused(store), StoreFilter(repo="r")
    assert [h.id for h in reading.find(flt, "path", "c.py", limit=10)] == ["c"]
    reading.prefetch(flt, "path", ["a.py", "b.py", "c.py", "z.py"], limit=10)
    assert store.asked[-1] == ("find_any", "path", ("a.py", "b.py", "z.py"), 30)  # c.py was read
    before = len(store.asked)
    got = {v: [h.id for h in reading.find(flt, "path", v, limit=10)] for v in ("a.py", "b.py", "z.py")}
    assert got == {"a.py": ["a", "d"], "b.py": ["b"], "z.py": []}
    assert len(store.asked) == before


def test_a_prefetch_leaves_a_name_it_may_not_hold_whole_to_its_own_find(monkeypatch: pytest.MonkeyPatch) -> None:
    """A name with ``limit`` points or more in the batch may have others past them: its own
    ``find`` answers it; so does every name of a batch cut at its own limit."""
    store = BatchStore()
    store.points["d"] = Hit("d", 1.0, {"path": "a.py", "text": "d"})
    reading, flt = Reused(store), StoreFilter(repo="r")
    reading.prefetch(flt, "path", ["a.py", "b.py"], limit=2)
    assert [h.id for h in reading.find(flt, "path", "b.py", limit=2)] == ["b"]
    assert store.asked[-1][0] == "find_any"  # b.py was answered by the batch
    assert [h.id for h in reading.find(flt, "path", "a.py", limit=2)] == ["a", "d"]
    assert store.asked[-1] == ("find", "path", "a.py")
    cut = BatchStore()
    reading = Reused(cut)
    monkeypatch.setattr("coderecalld.query.reuse.PREFETCH_POINTS", 2)
    reading.prefetch(flt, "path", ["a.py", "b.py", "c.py"], limit=5)
    reading.find(flt, "path", "a.py", limit=5)
    assert cut.asked[-1] == ("find", "path", "a.py")


def test_a_value_asked_again_is_read_whole_once_and_answered_as_the_store_would() -> None:
    """``find_any`` with ``by_value``: a value asked for a second time is read whole (with
    its field, to tell the values apart) and kept; the answer is the union in the store's
    order (by id), cut to ``limit``, with the payload ``fields`` asked."""
    store = BatchStore()
    store.points["d"] = Hit("d", 1.0, {"path": "a.py", "text": "d"})
    reading, flt = Reused(store, by_value=True), StoreFilter(repo="r")
    first = reading.find_any(flt, "path", ["a.py", "z.py"], limit=10, fields=("text",))
    assert [h.id for h in first] == ["a", "d"]
    assert store.asked == [("find_any", "path", ("a.py", "z.py"), 10)]  # asked once: as it is
    got = reading.find_any(flt, "path", ["c.py", "a.py"], limit=10, fields=("text",))
    assert [(h.id, h.payload) for h in got] == [("a", {"text": "aaa"}), ("c", {"text": "ccc"}), ("d", {"text": "d"})]
    assert store.asked[1:] == [("find_any", "path", ("a.py",), 10), ("find_any", "path", ("c.py",), 10)]
    assert [h.id for h in reading.find_any(flt, "path", ["a.py", "z.py"], limit=2, fields=("text",))] == ["a", "d"]
    assert store.asked[-1] == ("find_any", "path", ("z.py",), 2)  # z.py read whole (nothing); a.py kept
    assert [h.id for h in reading.find_any(flt, "path", ["z.py", "a.py"], limit=1)] == ["a"]
    assert reading.find_any(flt, "path", [], limit=5) == []


def test_an_answer_that_may_be_cut_is_the_stores_own() -> None:
    """``limit`` points for the values not kept: a kept value's may come before them, so
    the whole question goes to the store; a value whose whole read was cut is never read
    whole again."""
    store = BatchStore()
    store.points["d"] = Hit("d", 1.0, {"path": "a.py", "text": "d"})
    reading, flt = Reused(store, by_value=True), StoreFilter(repo="r")
    for _ in range(2):
        reading.find_any(flt, "path", ["c.py"], limit=5)  # kept the second time
    assert [h.id for h in reading.find_any(flt, "path", ["a.py", "b.py", "c.py"], limit=2)] == ["a", "b"]
    assert store.asked[-2:] == [("find_any", "path", ("a.py", "b.py"), 2), ("find_any", "path", ("a.py", "b.py", "c.py"), 2)]
    before = len(store.asked)
    assert [h.id for h in reading.find_any(flt, "path", ["a.py"], limit=2)] == ["a", "d"]
    assert store.asked[before:] == [("find_any", "path", ("a.py",), 2)] * 2  # read whole: cut, then as asked
    reading.find_any(flt, "path", ["a.py"], limit=2)
    assert store.asked[-1] == ("find_any", "path", ("a.py",), 2) and len(store.asked) == before + 3


def test_without_by_value_find_any_is_the_stores_own() -> None:
    store = BatchStore()
    reading, flt = Reused(store), StoreFilter(repo="r")
    for _ in range(2):
        assert [h.id for h in reading.find_any(flt, "path", ["a.py"], limit=5)] == ["a"]
    assert store.asked == [("find_any", "path", ("a.py",), 5)] * 2
