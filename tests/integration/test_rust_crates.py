"""A Rust crate as an axum newcomer met it, end to end on a real git fixture and the real
embedded store (lexical): unit tests live in the source files (``#[cfg(test)] mod tests``)
and are tests, not source (``chunk.test_symbols``); an impl for a tuple or unit type is
named by the type (``<(StatusCode, R) as IntoResponse>::into_response``, it was ``< as
IntoResponse>::...``); a call in a chain wrapped over lines is on its method's line; a
panic's one location in the user's own code does not make the answer "another project's"
(``service.FOREIGN_MIN_FRAMES``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

ROUTER = '''\
pub struct PathRouter {
    routes: Vec<String>,
}

impl PathRouter {
    pub fn route(&mut self, path: &str) -> Result<(), String> {
        validate_path(path)?;
        let merged = self
            .lookup(path)
            .map(|r| merge_for_path(r, path));
        merged.unwrap_or(Ok(()))
    }

    fn lookup(&self, path: &str) -> Option<&String> {
        self.routes.iter().find(|r| r.as_str() == path)
    }
}

impl std::fmt::Display for PathRouter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} routes", self.routes.len())
    }
}

fn validate_path(path: &str) -> Result<(), String> {
    if path.starts_with(':') {
        panic!("Path segments must not start with `:`. For capture groups, use `{{capture}}`.");
    }
    Ok(())
}

fn merge_for_path(existing: &str, path: &str) -> Result<(), String> {
    Err(format!("Overlapping method route. Handler for `{existing}` already exists at {path}"))
}

pub fn strip_prefix(path: &str, prefix: &str) -> Option<String> {
    path.strip_prefix(prefix).map(str::to_owned)
}

fn lookup(path: &str) -> bool {
    !path.is_empty()
}

fn nest(path: &str) -> Option<String> {
    let rest = path
        .strip_prefix('/')?;
    if lookup(rest) {
        return crate::routing::strip_prefix(rest, "v1");
    }
    strip_prefix(rest, "api")
}

pub struct Router {
    inner: PathRouter,
}

impl Router {
    fn lookup(&self, path: &str) -> bool {
        self.inner.lookup(path).is_some()
    }

    pub fn has(&self, path: &str) -> bool {
        self.lookup(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colon_segments_must_not_start_a_path_segment_capture_groups() {
        let mut router = PathRouter { routes: vec![] };
        assert!(router.route("/:id").is_err());
    }

    fn capture_groups_helper() -> PathRouter {
        PathRouter { routes: vec!["/{capture}".into()] }
    }
}
'''

RESPONSE = '''\
pub trait IntoResponse {
    fn into_response(self) -> String;
}

impl IntoResponse for () {
    fn into_response(self) -> String {
        String::new()
    }
}

impl<R> IntoResponse for (StatusCode, R)
where
    R: IntoResponse,
{
    fn into_response(self) -> String {
        self.1.into_response()
    }
}

impl IntoResponse for &'static [u8] {
    fn into_response(self) -> String {
        String::from_utf8_lossy(self).into_owned()
    }
}
'''

FILES = {"Cargo.toml": '[package]\nname = "router"\nversion = "0.1.0"\n',
         "src/routing.rs": ROUTER, "src/response.rs": RESPONSE,
         "tests/integration.rs": "#[test]\nfn routes_a_capture_group() {\n    assert!(true);\n}\n"}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("rust-crate"), FILES) as running:
        yield running


def test_a_source_files_unit_tests_are_tests(daemon: Daemon) -> None:
    found = {h.qualified_name: h.role for name in ("tests", "tests::colon_segments_must_not_start_a_path_segment_capture_groups",
                                                   "tests::capture_groups_helper", "PathRouter::route", "validate_path")
             for h in daemon.service.find_symbols(name, repo="fx") if h.path == "src/routing.rs"}
    assert found == {"tests": "test",
                     "tests::colon_segments_must_not_start_a_path_segment_capture_groups": "test",
                     "tests::capture_groups_helper": "test",
                     "PathRouter::route": "source", "validate_path": "source"}
    module = [(h.kind, h.role) for h in daemon.service.find_symbols("src.routing", repo="fx")]
    assert module == [("module", "source")]  # the file's module chunk stays source


def test_a_question_ranks_the_code_above_its_unit_test(daemon: Daemon) -> None:
    """The test's name spells the question's words; it was first, as source."""
    hits = daemon.service.search("why must path segments not start with a colon capture groups",
                                 limit=10, repo="fx")
    names = [h.qualified_name for h in hits]
    test = "tests::colon_segments_must_not_start_a_path_segment_capture_groups"
    assert names.index("validate_path") < (names.index(test) if test in names else len(names))


def test_the_role_filter_finds_a_source_files_unit_tests(daemon: Daemon) -> None:
    hits = daemon.service.search("colon segments capture groups", limit=10, repo="fx", role="test")
    assert {h.qualified_name for h in hits} >= {
        "tests::colon_segments_must_not_start_a_path_segment_capture_groups", "routes_a_capture_group"}
    assert all(h.role == "test" for h in hits)
    source = daemon.service.search("colon segments capture groups", limit=10, repo="fx", role="source")
    assert not any(h.qualified_name.startswith("tests") for h in source)


def test_an_impl_for_a_tuple_or_unit_type_is_named_by_the_type(daemon: Daemon) -> None:
    names = sorted(h.qualified_name for h in daemon.service.find_symbols("into_response", repo="fx"))
    assert names == ["<&'static[u8] as IntoResponse>::into_response",
                     "<() as IntoResponse>::into_response",
                     "<(StatusCode,R) as IntoResponse>::into_response",
                     "IntoResponse::into_response"]
    # as rustc prints it, spaces and all
    found = daemon.service.find_symbols("<(StatusCode, R) as IntoResponse>::into_response", repo="fx")
    assert [(h.path, h.start_line, h.end_line) for h in found] == [("src/response.rs", 15, 17)]


def test_a_wrapped_chains_call_is_on_its_methods_line(daemon: Daemon) -> None:
    """``self`` starts the chain on line 8; ``.lookup(path)`` is called on line 9."""
    sites = [(s.path, s.line, s.caller) for s in daemon.service.find_callers("PathRouter::lookup", repo="fx")]
    assert sites[0] == ("src/routing.rs", 9, "PathRouter::route")
    sites = [(s.path, s.line, s.caller) for s in daemon.service.find_callers("merge_for_path", repo="fx")]
    assert sites == [("src/routing.rs", 10, "PathRouter::route")]


def test_a_panic_located_in_the_callers_code_is_not_another_projects(daemon: Daemon) -> None:
    """``src/main.rs`` is not indexed: the panic's one location is the user's; the message
    is this crate's."""
    panic = ("thread 'main' panicked at src/main.rs:27:10:\n"
             "Path segments must not start with `:`. For capture groups, use `{capture}`.\n")
    hits = daemon.service.search(panic, limit=3, repo="fx")
    assert hits[0].qualified_name == "validate_path"
    assert not hits.confidence_reason.startswith("none of the trace")


def test_a_prefix_lookup_lists_a_types_trait_impl_members(daemon: Daemon) -> None:
    """``PathRouter::`` lists its own methods and its trait impls' (``impl Display for
    PathRouter``'s ``fmt`` was missing)."""
    found = sorted(h.qualified_name for h in daemon.service.find_symbols("PathRouter::", repo="fx", prefix=True))
    assert found == ["<PathRouter as std::fmt::Display>::fmt", "PathRouter::lookup", "PathRouter::route"]
    found = [h.qualified_name for h in daemon.service.find_symbols("PathRouter::f", repo="fx", prefix=True)]
    assert found == ["<PathRouter as std::fmt::Display>::fmt"]
    assert daemon.service.find_symbols("PathRouter::x", repo="fx", prefix=True) == []


def test_locate_lists_a_source_files_code_before_its_unit_tests(daemon: Daemon) -> None:
    """axum's ``json.rs`` was listed with eight of its tests and not ``json_content_type``."""
    (first, *_) = daemon.service.locate("why must path segments not start with a colon capture groups",
                                        limit=3, repo="fx").files
    names = [f.qualified_name for f in first.functions]
    assert first.path == "src/routing.rs"
    assert names[0] == "validate_path"
    assert not any(n.startswith("tests::") for n in names[:2]), names


def test_rust_call_syntax_tells_a_free_function_from_a_method(daemon: Daemon) -> None:
    """``path.strip_prefix(..)`` is ``str``'s method, never the free function (an axum
    newcomer's ``callers strip_prefix`` listed such calls); a bare ``lookup(..)`` is the
    free function's, never ``PathRouter::lookup``'s."""
    omitted: dict[str, int] = {}
    sites = [(s.line, s.caller, s.confidence) for s in daemon.service.find_callers(
        "strip_prefix", repo="fx", omitted=omitted)]
    # the bare call is the file's function (resolved); crate::routing::strip_prefix by name
    assert sites == [(50, "nest", "resolved"), (48, "nest", "name_only")]
    assert omitted["other_type"] == 2


def test_rust_calls_resolve_within_their_file(daemon: Daemon) -> None:
    """``self.lookup(..)`` in ``impl PathRouter`` is ``PathRouter::lookup``'s, in ``impl
    Router`` ``Router::lookup``'s (left out of ``PathRouter::lookup``'s callers); a call on
    a field (``self.inner.lookup``) is of the field's declared type (``inner: PathRouter``);
    a bare ``lookup(..)`` is the free function."""
    omitted: dict[str, int] = {}
    sites = [(s.line, s.caller, s.confidence) for s in daemon.service.find_callers(
        "PathRouter::lookup", repo="fx", omitted=omitted)]
    assert sites == [(9, "PathRouter::route", "resolved"), (59, "Router::lookup", "resolved")]
    assert omitted["other_type"] == 2  # Router::has's self.lookup, nest's bare lookup
    sites = [(s.line, s.caller, s.confidence) for s in daemon.service.find_callers("Router::lookup", repo="fx")]
    assert sites == [(63, "Router::has", "resolved")]
    sites = [(s.line, s.caller, s.confidence) for s in daemon.service.find_callers("validate_path", repo="fx")]
    assert sites == [(7, "PathRouter::route", "resolved")]
