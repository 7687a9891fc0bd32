"""Rust call resolution within a file (``resolve._rust``): targets are the definitions'
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
