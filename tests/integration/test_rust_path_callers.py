"""bytes (tokio-rs/bytes d5c8ad3), cut down: a call written on a module's path
(``take::new(self, limit)``, ``crate::writer::new(..)``, ``self::new(..)``) is a module's
function, never a type's associated function: each was a ``name_only`` caller of
``Bytes::new``. Each site is asserted by exact (path, line, caller, confidence)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import caller_rows, indexed

FILES = {
    "Cargo.toml": '[package]\nname = "bytes"\nversion = "0.1.0"\n',
    "src/lib.rs": "mod buf;\nmod bytes;\nmod take;\nmod writer;\nmod prim;\npub use crate::bytes::Bytes;\n",
    # a primitive type's path is a type's, no module's (a review)
    "src/prim.rs": """pub trait FromBytes {
    fn from_bytes(b: &[u8]) -> Self;
}

impl FromBytes for u32 {
    fn from_bytes(b: &[u8]) -> u32 {
        b.len() as u32
    }
}

pub fn read() -> u32 {
    u32::from_bytes(&[1, 2])
}
""",
    "src/bytes.rs": """pub struct Bytes;

impl Bytes {
    pub fn new() -> Bytes {
        Bytes
    }

    pub fn empty() -> Bytes {
        Bytes::new()
    }
}
""",
    "src/take.rs": """pub struct Take<T> { inner: T }

pub fn new<T>(inner: T) -> Take<T> {
    Take { inner }
}
""",
    "src/writer.rs": """pub struct Writer<T> { inner: T }

pub fn new<T>(inner: T) -> Writer<T> {
    Writer { inner }
}
""",
    "src/buf.rs": """use crate::{take, Bytes};

pub trait Buf {
    fn take(self) -> take::Take<Self> where Self: Sized {
        take::new(self)
    }

    fn writer(self) -> crate::writer::Writer<Self> where Self: Sized {
        crate::writer::new(self)
    }

    fn fresh(&self) -> Bytes {
        let b = Bytes::new();
        b
    }
}

fn new() -> u8 {
    0
}

fn own() -> u8 {
    self::new()
}
""",
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("rustpaths"), FILES) as running:
        yield running


def test_a_module_path_calls_no_type_associated_function(daemon: Daemon) -> None:
    assert caller_rows(daemon, "Bytes::new") == [
        ("src/buf.rs", 13, "Buf::fresh", "resolved"),  # `use crate::Bytes`: the crate's type
        ("src/bytes.rs", 9, "Bytes::empty", "resolved"),
    ]


def test_a_primitive_types_path_is_a_types(daemon: Daemon) -> None:
    rows = caller_rows(daemon, "from_bytes")
    assert [(path, line, caller) for path, line, caller, _ in rows] == [("src/prim.rs", 12, "read")]
