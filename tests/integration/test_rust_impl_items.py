"""bytes (tokio-rs/bytes d5c8ad3), cut down: a Rust impl's item asked by its whole name
(``<&[u8] as Buf>::advance``, ``<BytesMut as From<&'a str>>::from``) is that definition
in ``card``, ``callers`` and ``callees`` (as a trace reads it, ``advance``, it was every
``advance``: the card answered ``<Cursor as Buf>::advance``, and the trait's default
methods' ``self.advance(..)`` were resolved callers of the slice's impl); a function named
as a value is a ``reference`` caller (``drop: shared_drop`` of a vtable: "no call sites");
a module-qualified free function (``bytes::release_shared``) is called by its own file's
calls only, not by another module's same-named function's; ``MaybeUninit::<Shared>::
uninit()`` and ``impl BufMut for Vec<u8>``'s ``self.reserve(..)`` are calls on other types.

Each site is asserted by exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import caller_rows, indexed

BUF = """pub trait Buf {
    fn advance(&mut self, cnt: usize);
    fn get_u8(&mut self) -> u8 {
        self.advance(1);
        0
    }
}

impl Buf for &[u8] {
    fn advance(&mut self, cnt: usize) {}
    fn copy_to_slice(&mut self, dst: &mut [u8]) {
        self.advance(dst.len());
    }
}

impl<T: AsRef<[u8]>> Buf for std::io::Cursor<T> {
    fn advance(&mut self, cnt: usize) {}
    fn copy_to_slice(&mut self, dst: &mut [u8]) {}
}
"""

BYTES = """use crate::BytesMut;

pub struct Vtable { clone: unsafe fn(), drop: unsafe fn() }
pub struct Shared;
pub struct Bytes;

static SHARED_VTABLE: Vtable = Vtable {
    clone: shared_clone,
    drop: shared_drop,
};

unsafe fn shared_clone() {
    release_shared();
}

unsafe fn shared_drop() {
    release_shared();
}

unsafe fn release_shared() {}

impl From<Bytes> for BytesMut {
    fn from(bytes: Bytes) -> BytesMut { BytesMut::new() }
}

fn static_to_mut(slice: &[u8]) -> BytesMut {
    let shared = Box::new(MaybeUninit::<Shared>::uninit());
    BytesMut::from(slice)
}
"""

BYTES_MUT = """pub struct BytesMut;

impl BytesMut {
    pub fn new() -> BytesMut { BytesMut }
    pub fn reserve(&mut self, additional: usize) {
        release_shared();
    }
}

unsafe fn release_shared() {}

impl<'a> From<&'a [u8]> for BytesMut {
    fn from(src: &'a [u8]) -> BytesMut { BytesMut::new() }
}

impl<'a> From<&'a str> for BytesMut {
    fn from(src: &'a str) -> BytesMut {
        BytesMut::from(src.as_bytes())
    }
}
"""

BUF_MUT = """pub trait BufMut {
    fn put_u8(&mut self, n: u8);
}

impl BufMut for Vec<u8> {
    fn put_u8(&mut self, n: u8) {
        self.reserve(1);
    }
}

pub struct UninitSlice;

impl UninitSlice {
    pub fn uninit(n: u8) -> UninitSlice { UninitSlice }
}
"""

FILES = {
    "Cargo.toml": '[package]\nname = "bytes"\nversion = "1.10.0"\n',
    "src/lib.rs": "mod buf;\nmod bytes;\nmod bytes_mut;\npub use bytes_mut::BytesMut;\n",
    "src/buf/buf_impl.rs": BUF,
    "src/buf/buf_mut.rs": BUF_MUT,
    "src/bytes.rs": BYTES,
    "src/bytes_mut.rs": BYTES_MUT,
    # a crate's own type named as the trait impl's: the impl's self.reserve(1) is its method
    "src/vec.rs": "pub struct Vec<T>(T);\n\nimpl<T> Vec<T> {\n    pub fn reserve(&mut self, n: usize) {}\n}\n",
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("rust-impl-items"), FILES) as d:
        yield d


def test_card_and_callees_of_an_impls_item_are_that_definitions(daemon: Daemon) -> None:
    card = daemon.service.get_card("<&[u8] as Buf>::advance", repo="fx")
    assert (card.qualified_name, card.start_line) == ("<&[u8] as Buf>::advance", 10)
    card = daemon.service.get_card("<BytesMut as From<&'a str>>::from", repo="fx")
    assert (card.path, card.start_line) == ("src/bytes_mut.rs", 17)
    callees = daemon.service.find_callees("<&[u8] as Buf>::copy_to_slice", repo="fx")
    assert sorted((c.caller, c.line, c.callee) for c in callees) == [
        ("<&[u8] as Buf>::copy_to_slice", 12, "dst.len"), ("<&[u8] as Buf>::copy_to_slice", 12, "self.advance")]


def test_an_impls_item_is_called_by_its_own_calls_not_the_traits(daemon: Daemon) -> None:
    # the default method's self.advance(1) is Buf::advance's (its implementor is any type)
    assert caller_rows(daemon, "<&[u8] as Buf>::advance") == [
        ("src/buf/buf_impl.rs", 12, "<&[u8] as Buf>::copy_to_slice", "resolved")]
    assert caller_rows(daemon, "Buf::advance") == [("src/buf/buf_impl.rs", 4, "Buf::get_u8", "resolved")]
    # BytesMut::from(slice) may be any From impl of BytesMut: a candidate of each, resolved to none
    assert caller_rows(daemon, "<BytesMut as From<Bytes>>::from") == [
        ("src/bytes.rs", 28, "static_to_mut", "name_only"),
        # (the index writes the impl's name without the type's inner spaces)
        ("src/bytes_mut.rs", 18, "<BytesMut as From<&'astr>>::from", "name_only")]


def test_a_function_named_as_a_value_is_a_reference(daemon: Daemon) -> None:
    assert caller_rows(daemon, "shared_drop") == [("src/bytes.rs", 9, "", "reference")]
    impact = daemon.service.analyze_impact("shared_drop", repo="fx")
    assert [(c.site.path, c.site.line, c.site.confidence) for c in impact.callers] == [
        ("src/bytes.rs", 9, "reference")]


def test_a_module_qualified_function_is_called_from_its_file(daemon: Daemon) -> None:
    assert caller_rows(daemon, "bytes::release_shared") == [
        ("src/bytes.rs", 13, "shared_clone", "resolved"), ("src/bytes.rs", 17, "shared_drop", "resolved")]
    assert caller_rows(daemon, "bytes_mut::release_shared") == [
        ("src/bytes_mut.rs", 6, "BytesMut::reserve", "resolved")]


def test_calls_on_other_types_are_left_out(daemon: Daemon) -> None:
    assert caller_rows(daemon, "BytesMut::reserve") == []  # Vec's self.reserve(1)
    assert caller_rows(daemon, "Vec::reserve") == [("src/buf/buf_mut.rs", 7, "<Vec as BufMut>::put_u8", "resolved")]
    assert caller_rows(daemon, "UninitSlice::uninit") == []  # MaybeUninit::<Shared>::uninit()
