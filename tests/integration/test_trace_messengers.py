"""Frames of a pasted trace that carry an error without causing it, and a builtin's name
quoted in lower case (query/anchors.py), end to end on real git fixtures and the real
embedded store (model off: issues are ranked lexical-first).

* a guard (``Preconditions.checkNotNull``) throws for its caller: gson's trace of a null
  ``Long`` put ``$Gson$Preconditions.java`` first by the innermost frame's weight;
* a re-raise (``raise exc``) of an exception built from errors gathered elsewhere:
  marshmallow's ``_do_load`` took a ``Pluck`` issue's first place by its frames;
* ``a subclass of `dict``` named marshmallow's ``Dict`` field class as the issue's subject.

Each case first asserts the wrong order with the rule off, then the right one with it on.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import anchors
from coderecalld.query import frames as stack
from conformance_cases import indexed

FILES = {
    # --- a guard and the constructor that calls it (Java) ---
    "src/main/java/com/acme/internal/Preconditions.java": """\
package com.acme.internal;

public final class Preconditions {
  public static <T> T checkNotNull(T value) {
    if (value == null) {
      throw new NullPointerException();
    }
    return value;
  }
}
""",
    "src/main/java/com/acme/Primitive.java": """\
package com.acme;

import com.acme.internal.Preconditions;

public final class Primitive {
  private final Object value;

  public Primitive(Number number) {
    this.value = Preconditions.checkNotNull(number);
  }

  public Object get() {
    return value;
  }
}
""",
    # --- a schema re-raising the errors its fields gathered (Python) ---
    "lib/schema.py": '''\
class Schema:
    fields = {}

    def load(self, data):
        return self._do_load(data)

    def _do_load(self, data):
        exc = self._gathered(data)
        if exc:
            raise exc
        return data
''',
    "lib/errors.py": '''\
class ValidationError(Exception):
    def __init__(self, messages):
        super().__init__(messages)
        self.messages = messages
''',
    "lib/fields.py": '''\
class Field:
    def deserialize(self, value):
        return self._deserialize(value)


class Pluck(Field):
    """Plucks one key of a nested record: loads a plucked value under its key."""

    def __init__(self, nested, key):
        self.nested = nested
        self.key = key

    def _deserialize(self, value):
        return self.nested.load({self.key: value})


class Dict(Field):
    """A mapping field: keys and values, each loaded by its own field."""

    def _deserialize(self, value):
        return dict(value)
''',
    "lib/utils.py": '''\
def get_value(obj, key, default=None):
    """The value of an attribute of an object, or of a key of a mapping."""
    if isinstance(obj, dict):
        return obj.get(key, default)
    return getattr(obj, key, default)
''',
}

GUARDED = """\
Primitive of a null Long throws instead of holding null

Serializing a null value crashes:

```
Exception in thread "main" java.lang.NullPointerException
\tat com.acme.internal.Preconditions.checkNotNull(Preconditions.java:6)
\tat com.acme.Primitive.<init>(Primitive.java:9)
\tat Main.main(Main.java:6)
```
"""

RERAISED = """\
Pluck cannot load a plucked key

Loading a record whose plucked key is set fails:

Traceback (most recent call last):
  File "/home/me/app.py", line 14, in <module>
    print(s.load(data))
  File "/home/me/venv/lib/python3.11/site-packages/lib/schema.py", line 5, in load
    return self._do_load(data)
  File "/home/me/venv/lib/python3.11/site-packages/lib/schema.py", line 10, in _do_load
    raise exc
lib.errors.ValidationError: {'user': {'name': ['Unknown field.']}}

A Pluck plucks one key of a nested record, but a plucked value is loaded under the wrong
key of the nested record: the nested record of a plucked key should hold it under its key.
"""

LOWER_CASE = """\
Attributes of a subclass of `dict` are not read

When the object is a subclass of `dict` with its own attributes, the attribute value is
not found: the mapping lookup returns the default instead of reading the attribute with
`getattr`.
"""


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("messengers"), FILES) as running:
        yield running


def _files(daemon: Daemon, issue: str) -> list[str]:
    return [f.path for f in daemon.service.locate(issue, limit=5, repo="fx").files]


def test_a_guard_frame_passes_the_innermost_weight_to_its_caller(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(anchors, "GUARD_FRAMES", False)
        assert _files(daemon, GUARDED)[0] == "src/main/java/com/acme/internal/Preconditions.java"
    files = _files(daemon, GUARDED)
    assert files[:2] == ["src/main/java/com/acme/Primitive.java",
                         "src/main/java/com/acme/internal/Preconditions.java"]
    functions = daemon.service.locate(GUARDED, limit=1, repo="fx").files[0].functions
    assert functions[0].qualified_name.startswith("com.acme.Primitive.Primitive")


def test_a_reraise_frame_is_no_place_of_failure(daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(anchors, "RERAISED_FRAMES", False)
        assert _files(daemon, RERAISED)[0] == "lib/schema.py"
    files = _files(daemon, RERAISED)
    assert files[0] == "lib/fields.py"
    assert "lib/schema.py" in files  # still named by the trace, lower


def test_a_lower_case_builtin_is_no_class_of_another_case(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(anchors, "LOWER_NAMES_EXACT", False)
        assert _files(daemon, LOWER_CASE)[0] == "lib/fields.py"
    assert _files(daemon, LOWER_CASE)[0] == "lib/utils.py"


@pytest.mark.parametrize(("function", "guard"), [
    ("com.google.gson.internal..Gson.Preconditions.checkNotNull", True),  # $Gson$Preconditions
    ("org.apache.commons.lang3.Validate.notNull", True),
    ("org.springframework.util.Assert.notNull", True),
    ("com.acme.Util.requireNonNull", True),
    # other checks may be the code at fault (a message swapping index and size), and a
    # domain class named Validate or Assert is no guard (a review)
    ("com.google.common.base.Preconditions.checkElementIndex", False),
    ("com.acme.bank.Validate.transfer", False),
    ("com.acme.Assert.Assert", False),
    ("com.acme.Primitive.Primitive", False),
    ("check_array", False),
])
def test_guard_functions(function: str, guard: bool) -> None:
    assert bool(anchors._GUARD.search(function)) is guard


@pytest.mark.parametrize(("code", "reraise"), [
    ("raise exc", True),
    ("raise", True),
    ("raise err from None", True),
    ("raise exc  # noqa: B904", True),
    ("raise ValueError(value)", False),
    ("raise ValidationError", False),  # a class raised: a new exception here
    ("raise self.error", False),
])
def test_reraise_lines(code: str, reraise: bool) -> None:
    assert bool(stack.RERAISE.fullmatch(code)) is reraise


def test_modules_an_issue_imports() -> None:
    code = "import attrs\n>>> from arrow import get\n@attrs.frozen\nresult = click.edit('a', editor=e)\n"
    assert anchors._modules(code) == {"attrs", "arrow"}
    # a variable named after its class means the class (``session.merge``: ``Session``), and
    # a keyword argument too (click's ``editor=``: ``Editor``): neither is a module (a review)
    assert not anchors._modules("obj = session.merge(obj)\nsession.commit()\n")
    assert "editor" not in anchors._BUILTINS
    assert {"dict", "list", "type"} <= anchors._BUILTINS and not {"map", "filter", "format"} & anchors._BUILTINS


def test_a_chained_traceback_is_no_handing_back() -> None:
    one = 'Traceback (most recent call last):\n  File "a.py", line 1, in f\n    raise exc\nE: x\n'
    chained = one + "\nThe above exception was the direct cause of the following exception:\n\n" + one
    assert stack.single_traceback(one) and not stack.single_traceback(chained)
