"""A repo's one-line purpose: the manifest's own description first, else the README's
describing paragraph (not a badge, table row, release banner or sponsor note); cut at a
word boundary with an ellipsis, never mid-word."""

from __future__ import annotations

import json
import logging

import pytest
from coderecalld.index.purpose import (
    MANIFEST_MAX_BYTES,
    PURPOSE_MAX_CHARS,
    cargo_crate,
    clip,
    manifests,
    purpose,
    readme_purpose,
)

# Shaped like gin's README: title, logo, badges, a news heading with a release banner, a rule,
# then the description, then an emphasis-only teaser.
GIN_LIKE = """# Relay Web Toolkit

<img align="right" width="159px" src="https://example.invalid/logo.png">

[![Build Status](https://ci.example.invalid/badge.svg)](https://ci.example.invalid)
[![Go Reference](https://pkg.example.invalid/badge.svg)](https://pkg.example.invalid/relay)

## 📰 Relay 2.4.0 is now available!

We're excited to announce the release of **[Relay 2.4.0](https://example.invalid/blog)**! It brings faster routing.

---

Relay is a small HTTP toolkit written in [Go](https://go.dev/). It routes requests with no allocations.

**Why choose Relay?**
"""

# Shaped like axios's README: a sponsor table in HTML, the tagline in HTML, badges, a table of
# contents, a browser-support table whose rows are the first text outside HTML.
AXIOS_LIKE = """<h3 align="center"> 🥇 Gold sponsors <br> </h3> <table align="center"><tr><td align="center">
<a href="https://sponsor.example.invalid"><img src="s.png" alt="Sponsor"/></a> <p>We are bound by purpose | Docs</p>
</td></tr></table>

<!--<div>marker</div>-->
<p align="center">Promise based fetcher for browsers and servers</p>

[![npm version](https://img.example.invalid/npm.svg)](https://npm.example.invalid/fetcher)

## Table of Contents

  - [Features](#features)
  - [Browser Support](#browser-support)

## Browser Support

![Chrome](chrome.png) | ![Firefox](firefox.png) | ![Edge](edge.png) |
--- | --- | --- |
Latest ✔ | Latest ✔ | 11 ✔ |

[![Browser Matrix](https://matrix.example.invalid/fetcher.svg)](https://matrix.example.invalid)

## Installing

Using npm:

```bash
$ npm install fetcher
```

Fetcher makes HTTP requests from browsers and Node.js with one promise API.
"""


def test_short_text_is_kept_on_one_line() -> None:
    assert clip("  Payment webhooks\n and   refunds. ") == "Payment webhooks and refunds."


def test_long_text_is_cut_at_the_last_whole_word() -> None:
    text = "Requests is an elegant and simple HTTP library for Python, built for human beings."
    assert clip(text, 40) == "Requests is an elegant and simple HTTP…"
    assert clip(text, 41) == "Requests is an elegant and simple HTTP…"  # "library" would not fit
    assert clip("alpha beta, gamma", 13) == "alpha beta…"  # no dangling comma
    assert clip("x" * 300) == "x" * (PURPOSE_MAX_CHARS - 1) + "…"  # one huge word: cut inside it


def test_readme_purpose_is_clipped() -> None:
    readme = "# flask\n\n" + "Flask is a lightweight WSGI web application framework. " * 6
    purpose = readme_purpose(readme)
    assert len(purpose) <= PURPOSE_MAX_CHARS and purpose.endswith("…")
    assert purpose[:-1] == readme[9:9 + len(purpose) - 1].rstrip()
    assert readme[9 + len(purpose) - 1] == " "  # the cut fell between two words


def test_release_banner_yields_to_the_description_paragraph() -> None:
    assert readme_purpose(GIN_LIKE) == ("Relay is a small HTTP toolkit written in Go. "
                                        "It routes requests with no allocations.")


def test_badges_html_and_table_rows_are_not_prose() -> None:
    # "Using npm:" comes first but only introduces a code block: the plain sentence wins.
    assert readme_purpose(AXIOS_LIKE) == "Fetcher makes HTTP requests from browsers and Node.js with one promise API."
    assert readme_purpose(AXIOS_LIKE.rsplit("Fetcher", 1)[0]) == "Using npm:"  # weak, but all there is


def test_restructuredtext_title_directives_and_substitutions_are_skipped() -> None:
    readme = """`Lintel`_
=========

.. _`Lintel`: https://lintel.example.invalid/

.. image:: https://ci.example.invalid/badge.svg
    :target: https://ci.example.invalid

|pypi| |docs|

What is Lintel?
---------------

Lintel is a `static checker <https://example.invalid/sc>`_ for ``setup.cfg`` files.
"""
    assert readme_purpose(readme) == "Lintel is a static checker for setup.cfg files."


def test_a_blockquote_tagline_serves_when_nothing_plain_is_near_the_top() -> None:
    readme = ("<div align=\"center\">\n\t<sup>Sindre's work is supported by the community.</sup>\n</div>\n\n"
              "> Human-friendly HTTP request library\n\n"
              "> [!NOTE]\n> You probably want Kite instead.\n\n"
              "## Install\n\nWarning: This package is native ESM.\n")
    assert readme_purpose(readme) == "Human-friendly HTTP request library"


def test_snake_case_and_reference_links_keep_their_text() -> None:
    readme = "# tiny_db\n\n**tiny_db** is a [JSON] store with *no* `server`.\n\n[JSON]: https://json.org\n"
    assert readme_purpose(readme) == "tiny_db is a JSON store with no server."


def files_reader(files: dict[str, str | bytes]):
    return lambda path: files[path] if isinstance(files[path], bytes) else files[path].encode()


def test_manifest_description_comes_before_the_readme() -> None:
    files = {"README.md": GIN_LIKE, "package.json": json.dumps({"name": "@acme/relay", "description": "Fast HTTP."})}
    assert purpose(files, files_reader(files)) == "Fast HTTP."


def test_each_manifest_kind_is_read() -> None:
    cases = {
        "pyproject.toml": ('[project]\nname = "a"\ndescription = "From PEP 621."\n', "From PEP 621."),
        "Cargo.toml": (('[package]\nname = "c"\ndescription.workspace = true\n\n'
                        '[workspace.package]\ndescription = "From the workspace."\n'), "From the workspace."),
        "setup.cfg": ("[metadata]\nname = s\ndescription = From\n  setup.cfg.\n", "From setup.cfg."),
    }
    for path, (text, expected) in cases.items():
        assert purpose({path: text}, files_reader({path: text})) == expected, path
    poetry = {"pyproject.toml": '[tool.poetry]\nname = "p"\ndescription = "From Poetry."\n'}
    assert purpose(poetry, files_reader(poetry)) == "From Poetry."


def test_the_repos_main_language_picks_among_manifests() -> None:
    files = {"package.json": '{"description": "Docs site tooling."}',
             "pyproject.toml": '[project]\ndescription = "Parses tides."\n'}
    assert purpose(files, files_reader(files), ["python", "javascript"]) == "Parses tides."
    assert purpose(files, files_reader(files), ["typescript", "python"]) == "Docs site tooling."


def test_placeholder_description_and_manifest_names() -> None:
    files = {"pyproject.toml": '[project]\nname = "tidal"\ndescription = "Add your description here"\n',
             "README.md": "# Tides\n\nSee the docs.\n\ntidal predicts tides from harmonics.\n"}
    assert purpose(files, files_reader(files)) == "tidal predicts tides from harmonics."
    assert [(m.path, m.name, m.description) for m in manifests(files, files_reader(files))] == [
        ("pyproject.toml", "tidal", "")]


@pytest.mark.parametrize("blob", [b'{"description": "x",', b"[" * 100_000 + b"]" * 100_000, b'"a string"',
                                  b"\xff\xfe{}", b"{" + b" " * MANIFEST_MAX_BYTES + b"}"])
def test_an_unreadable_package_json_is_logged_and_the_readme_serves(
        blob: bytes, caplog: pytest.LogCaptureFixture) -> None:
    files = {"package.json": blob, "README.md": b"# relay\n\nRelay routes HTTP.\n"}
    with caplog.at_level(logging.WARNING, logger="coderecalld"):
        assert purpose(files, files_reader(files), repo="relay") == "Relay routes HTTP."
    [record] = [r for r in caplog.records if r.getMessage() == "index.manifest_unreadable"]
    assert record.fields["repo"] == "relay" and record.fields["path"] == "package.json"


@pytest.mark.parametrize(("manifest", "crate"), [
    (b'[package]\nname = "tokio-util"\nversion = "0.7.0"\n', "tokio-util"),
    # the library's own name is what code writes (`use bytes_lib::..`)
    (b'[package]\nname = "bytes"\n\n[lib]\nname = "bytes_lib"  # the import name\npath = "src/lib.rs"\n', "bytes_lib"),
    (b'[lib]\npath = "src/lib.rs"\n\n[package]\nname = "walkdir"\n', "walkdir"),
    (b'[workspace]\nmembers = ["a", "b"]\n', ""),
    (b'[package\nname = "broken"\n', ""),  # no TOML: cargo refuses it
])
def test_a_cargo_manifest_names_its_crate(manifest: bytes, crate: str) -> None:
    """``layout.rust_crates`` reads a Rust file's crate name (``resolve_rust``: a path of
    its own crate, ``use bytes::..`` in its tests, is no other crate's)."""
    assert cargo_crate(manifest) == crate
