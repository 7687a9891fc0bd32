"""Cython sources are indexed as code (``parse.cython``): an exact lookup names a ``.pyx``
method at its lines, ``callers`` finds a Python module's call of a function a ``.pyx``
defines, and ``locate`` lists the method an issue is about, not a 40-line window (a
newcomer's scikit-learn issue, whose fix was ``Tree._resize_c`` in ``tree/_tree.pyx``).
Real git fixture, real embedded store, sparse side."""

from __future__ import annotations

from pathlib import Path

from conformance_cases import caller_rows, indexed, symbols

PYX = '''from libc.stdlib cimport realloc

cdef class Tree:
    """A binary decision tree's nodes, in one array."""

    def __cinit__(self, int n_features):
        self.n_features = n_features

    cdef int _resize_c(self, intp_t capacity=INTPTR_MAX) except -1 nogil:
        """Grow the node array to capacity; a missing capacity doubles it."""
        if capacity == self.capacity and self.nodes != NULL:
            return 0
        cdef void* ptr = realloc(<void*> self.nodes, capacity * sizeof(Node))
        self.capacity = capacity
        return 0

    cpdef predict(self, object X):
        return self._apply_dense(X)


def build_tree(int n_features):
    return Tree(n_features)
'''
FILES = {
    "pkg/__init__.py": "",
    "pkg/_tree.pyx": PYX,
    "pkg/_tree.pxd": "cdef class Tree:\n    cdef int _resize_c(self, intp_t capacity=*) except -1 nogil\n",
    "pkg/classes.py": ("from pkg._tree import build_tree\n\n\n"
                       "class DecisionTree:\n    def fit(self, X):\n        self.tree_ = build_tree(X.shape[1])\n"
                       "        return self\n"),
}
ISSUE = ("Pickling a fitted tree is not deterministic\n\nTwo pickles of the same fitted "
         "tree differ byte for byte. The node array is grown by realloc past the "
         "nodes in use and the spare capacity holds garbage.\n")


def test_a_pyx_method_is_a_symbol_at_its_lines(tmp_path: Path) -> None:
    with indexed(tmp_path, FILES) as daemon:
        assert symbols(daemon, "fx", "_resize_c") == [("pkg/_tree.pyx", "Tree._resize_c", "method", 9, 15)]
        # the .pxd declares the class (its prototype is no symbol)
        assert sorted(symbols(daemon, "fx", "Tree")) == [("pkg/_tree.pxd", "Tree", "class", 1, 2),
                                                         ("pkg/_tree.pyx", "Tree", "class", 3, 18)]
        assert [r[:3] for r in caller_rows(daemon, "build_tree")] == [("pkg/classes.py", 6, "DecisionTree.fit")]
        located = daemon.service.locate(ISSUE, limit=3, repo="fx")
    first = located.files[0]
    assert first.path == "pkg/_tree.pyx"
    assert [(f.qualified_name, f.start_line, f.end_line) for f in first.functions][:1] == [
        ("Tree._resize_c", 9, 15)]
