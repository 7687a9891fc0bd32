"""A language's own exception named beside the code a short text is about is no verbatim
evidence: packaging's "IndexError from generic_tags() when EXT_SUFFIX is an empty string"
located metadata.py first, by a validator whose ``except (ValueError, IndexError)`` held the
name, above tags.py where ``generic_tags`` indexes an empty split (a newcomer). A real git
fixture and the real embedded store, sparse side only."""

from __future__ import annotations

from pathlib import Path

from conformance_cases import indexed

VALIDATORS = "".join(f'''
def _process_{k}(value):
    """Check field {k} of the metadata: an empty string is no value."""
    try:
        head = value.split(";")[0]
    except (ValueError, IndexError):
        raise ValueError("invalid field {k}")
    return head or None
''' for k in range(6))
PLATFORMS = "".join(f'''
def platform_tags_{k}(suffix=""):
    """Generic platform tags of interpreter {k}: an empty suffix string is a generic tag."""
    return ["generic", suffix or "empty"]
''' for k in range(4))
FILES = {
    "pkg/metadata.py": VALIDATORS,
    "pkg/platforms.py": PLATFORMS,
    "pkg/tags.py": '''\
import sysconfig


def _generic_abi():
    ext_suffix = sysconfig.get_config_var("EXT_SUFFIX")
    parts = ext_suffix.split(".")
    return parts[1]


def generic_tags(interpreter=None, abis=None):
    """The tags of a generic interpreter."""
    abis = list(abis or [_generic_abi()])
    return [(interpreter, abi) for abi in abis]
''',
}


def test_a_builtin_exception_does_not_locate_the_code_catching_it(tmp_path: Path) -> None:
    title = "IndexError from generic_tags() when EXT_SUFFIX is an empty string"
    with indexed(tmp_path, FILES) as d:
        located = d.service.locate(title, limit=2, repo="fx")
        hits = d.service.search(title, limit=4, repo="fx")
    assert located.files[0].path == "pkg/tags.py"
    assert [f.qualified_name for f in located.files[0].functions][:2] == ["_generic_abi", "generic_tags"]
    assert hits[0].path == "pkg/tags.py"
    assert [h.path for h in hits if h.match == "evidence"] == []  # no catcher of IndexError placed
