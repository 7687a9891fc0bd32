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
    "src/lib.rs": "mod buf;\nmod bytes;\nmod bytes_mut;\nmod extend;\nmod rt;\nmod other;\nmod mine;\nmod shadow;\n"
                  "pub use crate::bytes::Bytes;\n"
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
    # a review: a name bound again in the function was typed by the parameter
    "src/shadow.rs": """use crate::BytesMut;

pub fn shadow(buf: BytesMut) {
    let buf = buf.split_to(1);
    buf.freeze();
}

pub fn matched(buf: BytesMut, o: Option<BytesMut>) {
    match o {
        Some(buf) => buf.freeze(),
        None => {}
    };
}

pub fn closure(buf: BytesMut) {
    let f = |buf: &mut BytesMut| buf.freeze();
}

pub fn looped(buf: BytesMut, all: Vec<BytesMut>) {
    for buf in all {
        buf.freeze();
    }
}

pub fn if_let(buf: BytesMut, o: Option<BytesMut>) {
    if let Some(buf) = o {
        buf.freeze();
    }
}
""",
    # a review: another crate's type of the same simple name was the crate's own
    "src/rt.rs": "pub struct Builder;\n\nimpl Builder {\n    pub fn build(self) -> u8 {\n        0\n    }\n}\n",
    "src/other.rs": """use tokio::runtime::Builder;

pub fn start(b: Builder) {
    b.build();
}

pub fn make() {
    let b = Builder::new();
    b.build();
}

pub fn named(b: tokio::runtime::Builder) {
    b.build();
}
""",
    "src/mine.rs": "use crate::rt::{self, Builder};\n\npub fn start(b: Builder, c: rt::Builder) {\n"
                   "    b.build();\n    c.build();\n}\n",
    "tests/own.rs": "use bytes::BytesMut;\n\nfn frozen(b: BytesMut) {\n    b.freeze();\n}\n",  # its own crate
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
        ("src/shadow.rs", 5, "shadow", "name_only"),
        ("src/shadow.rs", 10, "matched", "name_only"),
        ("src/shadow.rs", 16, "closure", "name_only"),
        ("src/shadow.rs", 21, "looped", "name_only"),
        ("src/shadow.rs", 27, "if_let", "name_only"),
        ("tests/own.rs", 4, "frozen", "resolved"),
    ]


def test_self_in_an_impl_of_another_files_trait_is_the_type(daemon: Daemon) -> None:
    assert caller_rows(daemon, "BytesMut::reserve") == [
        ("src/extend.rs", 5, "<BytesMut as Extend<u8>>::extend", "resolved"),
    ]


def test_a_value_of_another_type_is_no_resolved_caller(daemon: Daemon) -> None:
    assert caller_rows(daemon, "BytesMut::split_to") == [
        # buf.rs:10's `a: Bytes` runs Bytes' own split_to: no caller
        ("src/buf.rs", 11, "Buf::split_both", "resolved"),
        ("src/bytes_mut.rs", 21, "BytesMut::copy_to_bytes", "resolved"),
        # `let buf = buf.split_to(1);`: the parameter, the `let` binds after its value
        ("src/shadow.rs", 4, "shadow", "resolved"),
    ]


def test_another_crates_type_of_the_name_is_no_resolved_caller(daemon: Daemon) -> None:
    assert caller_rows(daemon, "Builder::build") == [
        ("src/mine.rs", 4, "start", "resolved"),
        ("src/mine.rs", 5, "start", "resolved"),
        ("src/other.rs", 4, "start", "name_only"),
        ("src/other.rs", 9, "make", "name_only"),
        ("src/other.rs", 13, "named", "name_only"),
    ]
