"""Cython sources parsed as Python from a masked copy (``parse.cython``): every function,
method and extension type a ``.pyx`` defines is a symbol at its own lines, with its
Cython signature; the copy is byte for byte as long as the source. Before, a ``.pyx`` was
40-line text windows: scikit-learn's ``Tree._resize_c`` could never be named (a
newcomer's issue, its fix in ``tree/_tree.pyx``)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from coderecalld.index.layout import Layout
from coderecalld.parse import symbols
from coderecalld.parse.cython import masked
from coderecalld.parse.registry import language

TREE_PYX = b'''# cython: language_level=3
import numpy as np
cimport numpy as cnp
from libc.stdlib cimport free, realloc
from ..utils._typedefs cimport float64_t, intp_t

cdef extern from "numpy/arrayobject.h":
    object PyArray_NewFromDescr(PyTypeObject* subtype, cnp.dtype descr,
                                int nd, cnp.npy_intp* dims)
    ctypedef struct omp_lock_t:
        pass
    void omp_init_lock(omp_lock_t*) noexcept nogil

DEF CHUNK = 64
cdef float64_t INFINITY = np.inf

ctypedef fused floating:
    float
    double

cdef struct Node:
    intp_t left_child
    float64_t threshold

cdef inline void _init_record(Node* record) noexcept nogil:
    record.left_child = -1


cdef class Tree:
    """Array-based representation of a binary decision tree."""
    cdef public intp_t n_features
    cdef Node* nodes

    def __cinit__(self, intp_t n_features, cnp.ndarray n_classes not None):
        self.n_features = n_features
        self.nodes = NULL

    cdef int _resize_c(self, intp_t capacity=INTPTR_MAX) except -1 nogil:
        """Guts of _resize."""
        cdef intp_t i, j = 0, k = 1
        cdef void* ptr = realloc(<void*> self.nodes, capacity * sizeof(Node))
        for i from 0 <= i < capacity:
            _init_record(&self.nodes[i])
        return 0

    cpdef cnp.ndarray predict(self, object X):
        cdef:
            intp_t n = X.shape[0]
            const float64_t[:, ::1] buf
        return self._apply(<object> X)

    def __reduce__(self):
        return (Tree, (self.n_features,))


cpdef (double, double) bounds(floating[::1] w, double *out, int n=0):
    return 0.0, 1.0
'''

TREE_PXD = b'''from ..utils._typedefs cimport intp_t

cdef struct Node:
    intp_t left_child

cdef class Tree:
    cdef public intp_t n_features
    cdef int _resize_c(self, intp_t capacity=*) except -1 nogil
    cpdef compute_feature_importances(self, normalize=*)
'''


def _defs(blob: bytes, path: str) -> list[tuple[str, str, int, int]]:
    return [(s.qualified_name, s.kind.value, s.start_line, s.end_line)
            for s in symbols(blob, "python", path).symbols if s.kind.value in ("function", "method", "class")]


def test_a_pyx_file_defines_its_functions_methods_and_types_at_their_lines() -> None:
    parsed = symbols(TREE_PYX, "python", "sklearn/tree/_tree.pyx")
    assert not parsed.has_errors
    assert _defs(TREE_PYX, "sklearn/tree/_tree.pyx") == [
        ("omp_lock_t", "class", 10, 11),
        ("Node", "class", 21, 23),
        ("_init_record", "function", 25, 26),
        ("Tree", "class", 29, 53),
        ("Tree.__cinit__", "method", 34, 36),
        ("Tree._resize_c", "method", 38, 44),
        ("Tree.predict", "method", 46, 50),
        ("Tree.__reduce__", "method", 52, 53),
        ("bounds", "function", 56, 57),
    ]
    by_name = {s.qualified_name: s for s in parsed.symbols}
    # the signature and docstring are the Cython source's own
    assert by_name["Tree._resize_c"].signature == (
        "cdef int _resize_c(self, intp_t capacity=INTPTR_MAX) except -1 nogil")
    assert by_name["Tree._resize_c"].docstring == "Guts of _resize."
    assert by_name["Tree"].docstring == "Array-based representation of a binary decision tree."
    # calls under a cast, an address-of and an old-style loop are call sites
    assert {c.name for c in by_name["Tree._resize_c"].call_sites} >= {"realloc", "sizeof", "_init_record"}
    assert {c.name for c in by_name["Tree.predict"].call_sites} == {"self._apply"}
    # cimports are imports
    assert set(parsed.imports) == {"numpy", "libc.stdlib", "..utils._typedefs"}


def test_the_python_grammar_alone_misses_them() -> None:
    """The fixture is one the masking is needed for: parsed as plain Python, most of its
    definitions are lost."""
    from tree_sitter import Parser
    tree = Parser(language("python")).parse(TREE_PYX)
    assert tree.root_node.has_error
    plain = _defs(TREE_PYX, "sklearn/tree/_tree.py")
    assert ("Tree._resize_c", "method", 38, 44) not in plain
    assert len(plain) < 5


def test_a_pxd_declares_types_and_no_prototypes() -> None:
    assert _defs(TREE_PXD, "sklearn/tree/_tree.pxd") == [("Node", "class", 3, 4), ("Tree", "class", 6, 9)]
    assert not symbols(TREE_PXD, "python", "sklearn/tree/_tree.pxd").has_errors


def test_the_masked_copy_keeps_every_offset() -> None:
    out = masked(TREE_PYX)
    assert len(out) == len(TREE_PYX)
    assert [len(line) for line in out.split(b"\n")] == [len(line) for line in TREE_PYX.split(b"\n")]
    for defined in (rb"_resize_c\(", rb"__cinit__\(", rb"predict\(", rb"class Tree:", rb"struct Node:",
                    rb"bounds\(", rb"INFINITY =", rb"\bn_features\n"):
        m = re.search(defined, TREE_PYX)
        assert out[m.start():m.end()].lstrip(b"clastruc ") == m.group().lstrip(b"clastruc ")
    # what each rule made of its line
    lines = out.decode().split("\n")
    assert lines[37] == "    def      _resize_c(self,        capacity=INTPTR_MAX)                :"
    assert lines[14] == "...;           INFINITY = np.inf"
    assert lines[13] == "...;CHUNK = 64"
    assert lines[2] == "import  numpy as cnp"
    assert lines[41] == "        for i in   0 <= i < capacity:"
    assert lines[42] == "            _init_record( self.nodes[i])"
    assert lines[40] == "        ...;       ptr = realloc(        self.nodes, capacity * sizeof(Node))"


def test_a_pyx_is_a_module_and_a_pxd_a_declaration_file() -> None:
    from coderecalld.files.classify import declaration_file
    layout = Layout(package_dirs=frozenset({"sklearn", "sklearn/tree"}))
    assert layout.module("sklearn/tree/_tree.pyx") == "sklearn.tree._tree"
    assert layout.module("sklearn/tree/_tree.pxd") == ""
    assert declaration_file("sklearn/tree/_tree.pxd") and not declaration_file("sklearn/tree/_tree.pyx")


_PIECES = st.sampled_from([
    "cdef int x = 0\n", "cdef:\n    int a\n    double* b\n", "cdef class A(B):\n    cdef public int n\n",
    "cpdef double f(self, double[:, ::1] x not None, int k=3) except -1 nogil:\n    return <double> k\n",
    "def g(object o, *args, **kw):\n    return &o\n", "ctypedef double D\n", "    \n", "# cdef x\n",
    "'''cdef class in a string\n'''\n", "x = a < b > c\n", "IF UNAME == 'x':\n    pass\n",
    "cdef extern from *:\n    \"\"\"\n    int f(void);\n    \"\"\"\n    int f()\n", "s = 'é' + \"\\\\\"\n",
    "for i from 0 <= i < n:\n    pass\n", "(\n", ")\n", "cdef int (*fp)(int)\n", "\\\n",
    "cdef extern from *:\n    packed\n",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=12), st.sampled_from(["", "    "]))
def test_masking_never_moves_a_byte_and_never_raises(pieces: list[str], indent: str) -> None:
    """Any mix of Cython constructs, unbalanced brackets and strings included: the copy is
    as long, its newlines where they were, and the parse never raises."""
    blob = "".join(indent + p for p in pieces).encode()
    out = masked(blob)
    assert len(out) == len(blob)
    assert [i for i, c in enumerate(out) if c == 10] == [i for i, c in enumerate(blob) if c == 10]
    out.decode("utf-8")
    symbols(blob, "python", "m.pyx")


REVIEWED = b'''cdef class A:
    property x:
        def __get__(self): return 1

ctypedef class numpy.dtype [object PyArray_Descr]:
    cdef int itemsize

cdef extern from "x.h":
    struct sockaddr:
        int sa_family
    ctypedef struct S:
        readonly int a
        """doc
col0
"""
        int b

cdef class B: pass
cdef inline int one(int x) nogil: return x

cdef void f(void* p, char* fmt, ...) noexcept nogil:
    cdef char c = c'a'
    if p is &c:
        pass

async def g(self, object host, int port):
    return self.values.sizeof(deep=port)

def sizeof(self, deep: bool = False):
    return 0
'''


def test_constructs_a_review_found_in_real_cython() -> None:
    """What a review found on lxml, uvloop, cytoolz, pandas, msgpack, PyYAML and numpy's
    declarations: ``property x:`` blocks (``A.x.__get__``, was ``A.__get__``), a dotted
    ``ctypedef class numpy.dtype`` (was named ``numpy``), a struct without ``cdef`` in an
    extern block (missed), one-line definitions (dropped as prototypes), ``async def``'s and
    C varargs' parameters, a method named ``sizeof``, ``c'a'`` and ``is &x``."""
    parsed = symbols(REVIEWED, "python", "m.pyx")
    assert not parsed.has_errors
    assert _defs(REVIEWED, "m.pyx") == [
        ("A", "class", 1, 3), ("A.x", "class", 2, 3), ("A.x.__get__", "method", 3, 3),
        ("dtype", "class", 5, 6), ("sockaddr", "class", 9, 10), ("S", "class", 11, 16),
        ("B", "class", 18, 18), ("one", "function", 19, 19), ("f", "function", 21, 24),
        ("g", "function", 26, 27), ("sizeof", "function", 29, 30),
    ]
    by_name = {s.qualified_name: s for s in parsed.symbols}
    assert by_name["g"].signature == "async def g(self, object host, int port)"
    assert by_name["sizeof"].signature == "def sizeof(self, deep: bool = False)"
    assert {c.name for c in by_name["g"].call_sites} == {"self.values.sizeof"}
    lines = masked(REVIEWED).decode().split("\n")
    assert lines[28] == "def sizeof(self, deep: bool = False):"  # a method's name, no C type
    assert lines[26] == "    return self.values.sizeof(deep=port)"
