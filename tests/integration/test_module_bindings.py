"""A name a module binds in its top-level code is found there: jsonschema's
``Draft202012Validator = create(..)`` (a class a factory makes, no symbol), line 812 of a
1,410-line module, was on no page of ``search Draft202012Validator``, and the quoted
``"Draft7Validator = create("`` was "held by no hit" (a newcomer): a long module's chunk
scores low on one term, and its verbatim check read only its first 2,000 characters. A
name bound only inside a function is no module's binding. Real git fixture, real embedded
store, sparse side only."""

from __future__ import annotations

from pathlib import Path

from conformance_cases import indexed

HELPERS = "".join(f'''
def helper_{k}(schema, instance):
    """Check keyword {k} of a schema against an instance, one error per failure."""
    scratch_value = instance
    for key, value in schema.items():
        if key != "{k}":
            continue
        yield key, value, scratch_value
''' for k in range(30))
VALIDATORS = f'''"""Validators made by ``create``."""


def create(meta_schema, version):
    class Validator:
        META_SCHEMA = meta_schema

        def iter_errors(self, instance):
            return []
    return Validator
{HELPERS}

Draft7Validator = create(
    meta_schema={{"$schema": "draft-07"}},
    version="draft7",
)
'''
TESTS = {f"tests/test_draft7_{k}.py": (
    "from pkg.validators import Draft7Validator\n\n\n"
    f"def test_draft7_{k}():\n"
    f"    assert list(Draft7Validator().iter_errors({k})) == []\n"
    "    assert Draft7Validator.META_SCHEMA  # Draft7Validator\n") for k in range(8)}
# a JS module: a local ``var`` inside a function assigned at top level is no binding (a
# review: express's ``var etagFn`` inside ``res.send = function () {..}`` pinned the module)
RESPONSE_JS = ("var deprecate = require('depd')('express');\nvar res = Object.create(http.ServerResponse.prototype);\n"
               "module.exports = res;\n\n") + "res.send = function send(body) {\n" + "".join(
    f"  var part{k} = body[{k}];\n" for k in range(200)) + "  var etagFn = this.app.get('etag fn');\n  return etagFn(body);\n};\n"
FILES = {"pkg/validators.py": VALIDATORS, "lib/response.js": RESPONSE_JS, **TESTS}


def test_a_module_binding_is_found_where_it_is_bound(tmp_path: Path) -> None:
    assert len(VALIDATORS) > 6000 and VALIDATORS.index("Draft7Validator = create(") > 6000
    with indexed(tmp_path, FILES) as d:
        name = d.service.search("Draft7Validator", limit=3, repo="fx")
        quoted = d.service.search('"Draft7Validator = create("', limit=3, repo="fx")
        inner = d.service.search("scratch_value", limit=3, repo="fx")
        local_js = d.service.search("etagFn", limit=3, repo="fx")
    assert [(h.path, h.qualified_name, h.match) for h in name[:1]] == [
        ("pkg/validators.py", "pkg.validators", "exact")]
    assert (quoted[0].path, quoted[0].qualified_name, quoted.low_confidence) == (
        "pkg/validators.py", "pkg.validators", False)
    # bound only inside functions: no module chunk is pinned for it
    assert all(not (h.qualified_name == "pkg.validators" and h.match == "exact") for h in inner)
    assert all(not (h.path == "lib/response.js" and h.match == "exact" and h.kind == "module") for h in local_js)
