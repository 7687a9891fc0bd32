"""Rust test code in source files (``chunk.test_symbols``): an item under a test attribute
and everything inside its lines, by position: a ``#[cfg(not(test))]`` twin of a
``#[cfg(test)]`` item shares its name and is the real code (a review found it marked test,
``--role source`` missing the real ``imp::open_socket``)."""

from __future__ import annotations

from coderecalld import parse
from coderecalld.index import chunk

CLOCK = b'''\
use std::time::Instant;

#[cfg(not(test))]
pub fn now() -> Instant {
    Instant::now()
}

#[cfg(test)]
pub fn now() -> Instant {
    mock_clock::now()
}

#[cfg(not(test))]
mod imp {
    pub fn open_socket(addr: &str) {}
}

#[cfg(all(test, feature = "net"))]
mod imp {
    pub fn open_socket(_addr: &str) {}

    #[tokio::test]
    async fn opens() {}
}

#[test]
fn a_free_test() {}
'''


def test_test_code_by_position_not_name() -> None:
    parsed = parse.symbols(CLOCK, "rust")
    marked = {(c.qualified_name, c.start_line): c.test_code
              for c in chunk.chunks("r", "src/clock.rs", CLOCK, parsed)}
    assert marked == {("now", 3): False, ("now", 8): True,
                      ("imp", 13): False, ("imp::open_socket", 15): False,
                      ("imp", 18): True, ("imp::open_socket", 20): True, ("imp::opens", 22): True,
                      ("a_free_test", 26): True, ("src.clock", 1): False}


def test_other_languages_mark_nothing() -> None:
    parsed = parse.symbols(b"def test_x():\n    pass\n", "python")
    assert chunk.test_symbols(parsed) == frozenset()
