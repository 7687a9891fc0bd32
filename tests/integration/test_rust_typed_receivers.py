"""bytes (tokio-rs/bytes d5c8ad3), cut down: a Rust method call on a value whose type
its file states is that type's method, ``resolved``: a parameter's declared type (``fn
from(src: BytesMut) { src.freeze() }``), one step's declared result
(``self.split_to(len).freeze()``), a ``let`` of an associated function's result
(``crate::BytesMut::with_capacity(..)``, ``BytesMut::new()``), ``self`` in an impl of
another file's trait for the type (``impl Extend<u8> for BytesMut``). Each was a
``name_only`` caller. Each site is asserted by exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import caller_rows, indexed

FILES = {
    "Cargo.toml": '[package]\nname = "bytes"\nversion = "0.1.0"\n',
    "src/lib.rs": "mod buf;\nmod bytes;\nmod bytes_mut;\nmod extend;\npub use crate::bytes::Bytes;\n"
                  "pub use crate::bytes_mut::BytesMut;\n",
    "src/bytes.rs": """pub struct Bytes;

impl Bytes {
    pub fn split_to(&mut self, at: usize) -> Bytes {
        Bytes
    }
}
""",
    "src/bytes_mut.rs": """use crate::Bytes;

pub struct BytesMut;

impl BytesMut {
    pub fn with_capacity(capacity: usize) -> BytesMut {
        BytesMut
    }

    pub fn reserve(&mut self, additional: usize) {}

    pub fn freeze(self) -> Bytes {
        Bytes
    }

    pub fn split_to(&mut self, at: usize) -> BytesMut {
        BytesMut
    }

    pub fn copy_to_bytes(&mut self, len: usize) -> Bytes {
        self.split_to(len).freeze()
    }
}

impl From<BytesMut> for Bytes {
    fn from(src: BytesMut) -> Bytes {
        src.freeze()
    }
}
""",
    "src/buf.rs": """use crate::{Bytes, BytesMut};

pub trait Buf {
    fn copy_to_bytes(&mut self, len: usize) -> Bytes {
        let mut ret = crate::BytesMut::with_capacity(len);
        ret.freeze()
    }

    fn split_both(&mut self, a: Bytes, mut b: BytesMut) {
        let _ = a.split_to(1);
        let _ = b.split_to(1);
    }
}

pub fn fresh() -> Bytes {
    let m = BytesMut::new();
    m.freeze()
}

pub fn shadowed(x: u8) -> Bytes {
    let m = BytesMut::new();
    let m = other(m);
    m.freeze()
}
""",
    "src/extend.rs": """use crate::BytesMut;

impl Extend<u8> for BytesMut {
    fn extend<T: IntoIterator<Item = u8>>(&mut self, iter: T) {
        self.reserve(1);
    }
}
""",
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("rusttyped"), FILES) as running:
        yield running


def test_a_parameter_a_result_and_a_let_type_the_receiver(daemon: Daemon) -> None:
    # the second `let m` (a function's unknown result) leaves `m` untyped
    assert caller_rows(daemon, "BytesMut::freeze") == [
        ("src/buf.rs", 6, "Buf::copy_to_bytes", "resolved"),
        ("src/buf.rs", 17, "fresh", "resolved"),
        ("src/buf.rs", 23, "shadowed", "name_only"),
        ("src/bytes_mut.rs", 21, "BytesMut::copy_to_bytes", "resolved"),
        ("src/bytes_mut.rs", 27, "<Bytes as From<BytesMut>>::from", "resolved"),
    ]


def test_self_in_an_impl_of_another_files_trait_is_the_type(daemon: Daemon) -> None:
    assert caller_rows(daemon, "BytesMut::reserve") == [
        ("src/extend.rs", 5, "<BytesMut as Extend<u8>>::extend", "resolved"),
    ]


def test_a_value_of_another_type_is_no_resolved_caller(daemon: Daemon) -> None:
    assert caller_rows(daemon, "BytesMut::split_to") == [
        ("src/buf.rs", 10, "Buf::split_both", "name_only"),
        ("src/buf.rs", 11, "Buf::split_both", "resolved"),
        ("src/bytes_mut.rs", 21, "BytesMut::copy_to_bytes", "resolved"),
    ]
