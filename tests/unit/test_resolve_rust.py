"""Rust call resolution within a file (``index/resolve_rust``): targets are the definitions'
qualified names (the index names Rust definitions without a module, ``points.fq_name``)."""

from __future__ import annotations

from coderecalld import parse
from coderecalld.index import chunk, points, resolve

RUST = b'''pub struct Router;
pub struct Other;

impl Router {
    pub fn new() -> Self {
        Self::with(0)
    }

    fn with(n: usize) -> Self {
        let _ = helper(n);
        Router
    }

    pub fn route(&self) {
        self.check();
        self.inner().check();
        fn local() {}
        local();
        Other::make();
        String::new();
    }
}

impl Check for Router {
    fn check(&self) {}
}

impl Check for Other {
    fn check(&self) {}
}

impl Other {
    fn make() -> Self {
        Router::new();
        Other
    }
}

fn helper(n: usize) -> usize {
    n
}

mod inner {
    fn helper() {}

    fn caller() {
        helper();
        super::helper(1);
    }
}
'''


def _targets() -> dict[str, list[tuple[str, str]]]:
    parsed = parse.symbols(RUST, "rust")
    chunks = resolve.chunks(chunk.chunks("r", "src/lib.rs", RUST, parsed), parsed, "src/lib.rs", "")
    return {c.qualified_name: [(s.name, s.target) for s in c.call_sites] for c in chunks if c.call_sites}


def test_rust_calls_resolve_to_the_files_definitions() -> None:
    got = _targets()
    assert got["Router::new"] == [("Self.with", "Router::with")]
    assert got["Router::with"] == [("helper", "helper")]
    assert dict(got["Router::route"]) == {
        "self.check": "<Router as Check>::check",  # the trait impl of Router, not Other's
        "check": "",  # on what inner() returns: by name only
        "self.inner": "",  # not defined here
        "local": "Router::route::local",
        "Other.make": "Other::make",
        "String.new": ""}
    assert got["Other::make"] == [("Router.new", "Router::new")]
    # a mod's own function before the file's; super:: paths are not followed
    assert dict(got["inner::caller"]) == {"helper": "inner::helper", "super.helper": ""}


def test_a_target_is_the_definitions_fq_name() -> None:
    parsed = parse.symbols(RUST, "rust")
    chunks = resolve.chunks(chunk.chunks("r", "src/lib.rs", RUST, parsed), parsed, "src/lib.rs", "")
    names = {points.fq_name(c) for c in chunks}
    assert {"Router::with", "<Router as Check>::check", "Other::make", "inner::helper",
            "Router::route::local"} <= names


def test_calls_in_a_macros_tokens_keep_their_receiver_and_cfg_twins_are_one_target() -> None:
    """walkdir: ``itry!(self.push(&dent))`` was a bare ``push`` (the grammar keeps a macro's
    arguments as tokens), ``--resolved`` had none of its three callers; a method defined
    twice under ``#[cfg(..)]`` (``metadata_internal``, ``Ancestor::new``) resolved nowhere;
    an attribute's ``not(windows)`` was a call."""
    src = b'''struct Ancestor;
impl Ancestor {
    #[cfg(windows)]
    fn new(d: &str) -> Ancestor { Ancestor }
    #[cfg(not(windows))]
    fn new(d: &str) -> Ancestor { Ancestor }
}
struct IntoIter;
impl IntoIter {
    fn handle_entry(&mut self, dent: &str) -> Option<u8> {
        itry!(self.push(dent));
        itry!(Ancestor::new(dent));
        let _ = vec![dent.len(), helper(1)];
        None
    }
    fn push(&mut self, dent: &str) -> Result<(), ()> { Ok(()) }
}
'''
    parsed = parse.symbols(src, "rust")
    found = resolve.chunks(chunk.chunks("r", "src/lib.rs", src, parsed), parsed, "src/lib.rs", "")
    sites = {c.qualified_name: [(s.name, s.target) for s in c.call_sites] for c in found if c.call_sites}
    assert sites == {"IntoIter::handle_entry": [
        ("itry", ""), ("self.push", "IntoIter::push"), ("itry", ""), ("Ancestor.new", "Ancestor::new"),
        ("vec", ""), ("dent.len", ""), ("helper", "")], "IntoIter::push": [("Ok", "")]}


def test_an_impl_for_a_standard_library_type_is_named_by_its_path() -> None:
    """``impl From<Error> for io::Error`` was ``<Error as From<Error>>::from``, a method of
    walkdir's own ``Error`` in its card; a path into the crate's own modules names its type."""
    src = b'''pub struct Error { depth: usize }
impl Error {
    pub fn depth(&self) -> usize { self.depth }
}
impl From<Error> for io::Error {
    fn from(walk_err: Error) -> io::Error { io::Error::other("x") }
}
impl fmt::Display for crate::error::Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }
}
'''
    assert [(s.qualified_name, s.parent) for s in parse.symbols(src, "rust").symbols] == [
        ("Error", ""), ("Error::depth", "Error"), ("<io::Error as From<Error>>::from", "io::Error"),
        ("<Error as fmt::Display>::fmt", "Error")]


#: bytes (tokio-rs/bytes d5c8ad3), cut down: a vtable of functions, a trait with a default
#: method, a generic trait implemented for the crate's type, a trait impl for `Vec<u8>`.
VTABLES = b'''pub struct Vtable { clone: unsafe fn(), drop: unsafe fn() }
pub struct BytesMut;
pub struct Bytes;

static SHARED_VTABLE: Vtable = Vtable {
    clone: shared_clone,
    drop: shared_drop,
};

const fn owned_vtable<T>() -> Vtable {
    Vtable { clone: owned_clone::<T>, drop: owned_drop }
}

unsafe fn shared_clone() {}
unsafe fn shared_drop() {}
unsafe fn owned_clone<T>() {}
unsafe fn owned_drop() {}

fn register(f: unsafe fn(), shared_drop: u8) {
    run(f);
    run(shared_drop);
    run(Bytes::leak);
    let g = owned_clone::<u8>;
    for shared_clone in 0..1 { run(shared_clone); }
    let (a, owned_drop) = (1, 2);
    run(owned_drop);
    run(shared_drop);
}

impl Bytes {
    fn leak() {}
}

pub trait BufMut {
    fn advance_mut(&mut self, cnt: usize);
    fn put_u8(&mut self, n: u8) {
        self.advance_mut(1);
    }
}

impl From<Bytes> for BytesMut {
    fn from(bytes: Bytes) -> BytesMut { BytesMut }
}

fn static_to_mut(slice: &[u8]) -> BytesMut {
    BytesMut::from(slice)
}

impl AsRef<[u8]> for BytesMut {
    fn as_ref(&self) -> &[u8] { &[] }
}

impl BytesMut {
    fn hash(&self) { self.as_ref(); }
}

impl BufMut for Vec<u8> {
    fn advance_mut(&mut self, cnt: usize) {
        self.reserve(cnt);
        self.put_u8(0);
    }
}
'''


def _resolved(src: bytes) -> dict[str, tuple[list[tuple[str, str]], list[tuple[str, int, str]]]]:
    parsed = parse.symbols(src, "rust")
    found = resolve.chunks(chunk.chunks("r", "src/bytes.rs", src, parsed), parsed, "src/bytes.rs", "")
    return {("<module>" if c.kind.value == "module" else c.qualified_name):
            ([(s.name, s.target) for s in c.call_sites], [(s.name, s.line, s.target) for s in c.references])
            for c in found}


def test_a_function_named_as_a_value_is_a_reference_of_the_files_function() -> None:
    """bytes' ``SHARED_VTABLE`` holds ``drop: shared_drop``, its only use: ``callers
    shared_drop`` said "no call sites". A struct literal's field, an argument, a turbofish
    path not called; not a parameter of the same name, nor a value no function is."""
    got = _resolved(VTABLES)
    assert got["<module>"][1] == [("shared_clone", 6, "shared_clone"), ("shared_drop", 7, "shared_drop")]
    assert got["owned_vtable"][1] == [("owned_clone", 11, "owned_clone"), ("owned_drop", 11, "owned_drop")]
    # `f`, the parameter `shared_drop` and the locals `shared_clone`, `owned_drop` (bytes'
    # tests' `for len in ..`, `let slice = ..`) are no functions of the file
    assert got["register"][1] == [("Bytes.leak", 22, "Bytes::leak"), ("owned_clone", 23, "owned_clone")]


def test_self_in_a_traits_default_method_is_the_traits_and_a_generic_traits_path_call_is_by_name() -> None:
    """A trait's default method's ``self.advance_mut(1)`` is the trait's (never one impl's);
    ``BytesMut::from(slice)`` may be any ``From<T>`` impl of ``BytesMut`` (bytes.rs's one
    ``From<Bytes>`` was its target, the slice's ``From<&[u8]>`` is in bytes_mut.rs), while
    ``self.as_ref()`` of the file's one ``AsRef`` impl keeps it."""
    got = _resolved(VTABLES)
    assert got["BufMut::put_u8"][0] == [("self.advance_mut", "BufMut::advance_mut")]
    assert got["static_to_mut"][0] == [("BytesMut.from", "")]
    assert got["BytesMut::hash"][0] == [("self.as_ref", "<BytesMut as AsRef<[u8]>>::as_ref")]


def test_self_in_a_trait_impl_for_another_type_is_that_types_method() -> None:
    """``impl BufMut for Vec<u8>``: ``self.reserve(..)`` is ``Vec::reserve`` (a name-only
    caller of bytes' ``BytesMut::reserve`` before), ``self.put_u8`` the trait's own."""
    got = _resolved(VTABLES)
    assert got["<Vec as BufMut>::advance_mut"][0] == [("self.reserve", "Vec::reserve"),
                                                      ("self.put_u8", "")]
