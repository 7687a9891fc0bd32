"""bytes (tokio-rs/bytes d5c8ad3), cut down: Rust calls the s40 callers trial found
name-only (confident recall 32 %). A test crate's path calls of the crate's types and
traits (``Bytes::copy_from_slice(..)``, ``Buf::chain(a, b)``, ``bytes::Bytes::new()``); a
``let`` of another file's function's declared result, the nearest of two ``let``s of a
name, a bare function's result; a value of a type parameter bounded by a trait, a trait
object, an ``impl Trait``, a cast to one, a field of ``self`` whose type parameter the
impl bounds (calls of the trait's methods: resolved; of an impl's: override); a value of
a type implementing the trait without its own method (inherited); a value of another type
that defines the method itself, or implements the trait of an asked impl, is no caller.
Each site is asserted by exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import caller_rows, indexed

FILES = {
    "Cargo.toml": '[package]\nname = "bytes"\nversion = "0.1.0"\n',
    "src/lib.rs": "mod buf;\nmod bytes;\nmod bytes_mut;\nmod take;\n"
                  "pub use crate::buf::Buf;\npub use crate::bytes::Bytes;\npub use crate::bytes_mut::BytesMut;\n",
    "src/buf.rs": """use crate::Bytes;

pub trait Buf {
    fn remaining(&self) -> usize;

    fn get_u8(&mut self) -> u8 {
        0
    }

    fn copy_to_bytes(&mut self, len: usize) -> Bytes {
        Bytes::new()
    }

    fn chain<U: Buf>(self, next: U) -> U
    where
        Self: Sized,
    {
        next
    }
}

pub fn drain<B: Buf>(buf: &mut B) -> u8 {
    buf.get_u8()
}

pub fn drain_where<B>(mut buf: B) -> u8
where
    B: Buf + Send,
{
    buf.get_u8()
}

pub fn erased(buf: &mut dyn Buf) -> Bytes {
    buf.copy_to_bytes(1)
}

pub fn boxed(mut buf: Box<dyn Buf>) -> u8 {
    buf.get_u8()
}

pub fn opaque(mut buf: impl Buf) -> u8 {
    buf.get_u8()
}
""",
    "src/bytes.rs": """pub struct Bytes;

impl Bytes {
    pub fn new() -> Bytes {
        Bytes
    }

    pub fn copy_from_slice(data: &[u8]) -> Self {
        Bytes
    }

    pub fn split_to(&mut self, at: usize) -> Bytes {
        Bytes
    }
}

impl crate::Buf for Bytes {
    fn remaining(&self) -> usize {
        0
    }

    fn copy_to_bytes(&mut self, len: usize) -> Bytes {
        Bytes
    }
}
""",
    "src/bytes_mut.rs": """use crate::Buf;

pub struct BytesMut;

impl BytesMut {
    pub fn with_capacity(capacity: usize) -> BytesMut {
        BytesMut
    }

    pub fn split_to(&mut self, at: usize) -> BytesMut {
        BytesMut
    }
}

impl Buf for BytesMut {
    fn remaining(&self) -> usize {
        0
    }
}
""",
    "src/take.rs": """use crate::{Buf, Bytes};

pub struct Take<T> {
    inner: T,
    limit: usize,
}

impl<T> Buf for Take<T>
where
    T: Buf,
{
    fn remaining(&self) -> usize {
        self.inner.remaining()
    }

    fn copy_to_bytes(&mut self, len: usize) -> Bytes {
        self.inner.copy_to_bytes(len)
    }
}
""",
    "tests/test_buf.rs": """use bytes::{Buf, Bytes, BytesMut};

#[test]
fn paths() {
    let a = Bytes::copy_from_slice(b"a");
    let b = bytes::Bytes::new();
    let c = Buf::chain(a, b);
}

#[test]
fn receivers() {
    let mut m = BytesMut::with_capacity(8);
    m.get_u8();
    m.copy_to_bytes(1);
    (&mut m as &mut dyn Buf).get_u8();
    let mut b = Bytes::copy_from_slice(b"ab");
    b.copy_to_bytes(1);
    b.split_to(1);
    Bytes::new().split_to(1);
}

#[test]
fn rebound() {
    let mut a = BytesMut::with_capacity(1);
    a.split_to(1);
    let mut a = Bytes::copy_from_slice(b"b");
    a.split_to(1);
    {
        let mut a = BytesMut::with_capacity(2);
    }
    a.split_to(2);
}

#[test]
fn made() {
    fn make() -> Bytes {
        Bytes::new()
    }
    make().split_to(1);
}
""",
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("rusttraits"), FILES) as running:
        yield running


def test_a_test_crates_path_calls_of_the_crates_types_are_resolved(daemon: Daemon) -> None:
    assert caller_rows(daemon, "Bytes::copy_from_slice") == [
        ("tests/test_buf.rs", 5, "paths", "resolved"),
        ("tests/test_buf.rs", 16, "receivers", "resolved"),
        ("tests/test_buf.rs", 26, "rebound", "resolved"),
    ]
    assert caller_rows(daemon, "Bytes::new") == [
        ("src/buf.rs", 11, "Buf::copy_to_bytes", "resolved"),
        ("tests/test_buf.rs", 6, "paths", "resolved"),
        ("tests/test_buf.rs", 19, "receivers", "resolved"),
        ("tests/test_buf.rs", 37, "made::make", "resolved"),
    ]
    assert caller_rows(daemon, "Buf::chain") == [("tests/test_buf.rs", 7, "paths", "resolved")]


def test_a_bounded_or_erased_value_calls_the_traits_method(daemon: Daemon) -> None:
    # BytesMut implements Buf without its own get_u8: Buf's runs
    assert caller_rows(daemon, "Buf::get_u8") == [
        ("src/buf.rs", 23, "drain", "resolved"),
        ("src/buf.rs", 30, "drain_where", "resolved"),
        ("src/buf.rs", 38, "boxed", "resolved"),
        ("src/buf.rs", 42, "opaque", "resolved"),
        ("tests/test_buf.rs", 13, "receivers", "inherited"),
        ("tests/test_buf.rs", 15, "receivers", "resolved"),
    ]


def test_a_field_of_a_bounded_type_parameter_calls_the_traits_method(daemon: Daemon) -> None:
    # `self.inner` of `struct Take<T> { inner: T }` in `impl<T> Buf for Take<T> where T: Buf`
    assert caller_rows(daemon, "Buf::remaining") == [
        ("src/take.rs", 13, "<Take as Buf>::remaining", "resolved"),
    ]


def test_a_trait_object_may_run_an_impl_a_types_own_impl_is_its_own(daemon: Daemon) -> None:
    # a `dyn Buf` may run Bytes' copy_to_bytes; b: Bytes runs Bytes' own, not Buf's; m:
    # BytesMut runs Buf's, never Bytes'
    assert caller_rows(daemon, "Buf::copy_to_bytes") == [
        ("src/buf.rs", 34, "erased", "resolved"),
        ("src/take.rs", 17, "<Take as Buf>::copy_to_bytes", "resolved"),  # inner: T, T: Buf
        ("tests/test_buf.rs", 14, "receivers", "inherited"),
    ]
    assert caller_rows(daemon, "<Bytes as Buf>::copy_to_bytes") == [
        ("src/buf.rs", 34, "erased", "override"),
        ("src/take.rs", 17, "<Take as Buf>::copy_to_bytes", "override"),
        ("tests/test_buf.rs", 17, "receivers", "resolved"),
    ]


def test_a_value_of_a_declared_result_or_a_rebound_name_is_typed(daemon: Daemon) -> None:
    # `Bytes::new().split_to(..)`, `make().split_to(..)`, a `let` of another file's
    # `copy_from_slice` (its declared `Self`); of two `let a`, the nearest one still in
    # scope types the name (the inner block's is closed): Bytes' own split_to, no caller
    # of BytesMut's
    assert caller_rows(daemon, "BytesMut::split_to") == [
        ("tests/test_buf.rs", 25, "rebound", "resolved"),
    ]
    assert caller_rows(daemon, "Bytes::split_to") == [
        ("tests/test_buf.rs", 18, "receivers", "resolved"),
        ("tests/test_buf.rs", 19, "receivers", "resolved"),
        ("tests/test_buf.rs", 27, "rebound", "resolved"),
        ("tests/test_buf.rs", 31, "rebound", "resolved"),
        ("tests/test_buf.rs", 39, "made", "resolved"),
    ]
