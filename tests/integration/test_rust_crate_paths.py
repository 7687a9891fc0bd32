"""A Rust item named from its crate, as a backtrace prints a free function
(``walkdir::util::device_num``) or a user writes a type (``walkdir::WalkDir``,
``walkdir::Error`` re-exported at the root): found by ``symbols`` (walkdir: "no symbol
named"), the file's modules matched, never a same-named item of another module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "Cargo.toml": '[package]\nname = "walkdir"\nversion = "2.5.0"\n',
    "src/lib.rs": "pub use crate::error::Error;\n\nmod error;\nmod util;\n\npub struct WalkDir {\n    root: u8,\n}\n",
    "src/error.rs": "pub struct Error {\n    depth: usize,\n}\n",
    "src/util.rs": "pub fn device_num(path: &str) -> u64 {\n    path.len() as u64\n}\n",
    "src/dent.rs": "pub fn device_num(x: u8) -> u64 {\n    x as u64\n}\n",
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("crate-paths"), FILES) as d:
        yield d


def _found(d: Daemon, name: str) -> list[tuple[str, str]]:
    return [(h.path, h.qualified_name) for h in d.service.find_symbols(name, repo="fx")]


def test_crate_qualified_items_are_found_in_their_modules_file(daemon: Daemon) -> None:
    assert _found(daemon, "walkdir::util::device_num") == [("src/util.rs", "device_num")]
    assert _found(daemon, "walkdir::dent::device_num") == [("src/dent.rs", "device_num")]
    assert _found(daemon, "walkdir::WalkDir") == [("src/lib.rs", "WalkDir")]
    assert _found(daemon, "walkdir::Error") == [("src/error.rs", "Error")]  # the root's re-export
    assert _found(daemon, "walkdir::device_num") == []  # two modules define it: neither is the root's
    assert _found(daemon, "walkdir::other::device_num") == []
