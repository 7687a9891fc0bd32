"""Python receivers typed by the binding that reaches a call (index/receivers.py
``name_type`` at a line) and by a parameter that shadows a module-level name of the same
spelling (index/resolve.py): starlette's name-only and left-out calls."""

from __future__ import annotations

from coderecalld import parse
from coderecalld.index import chunk, resolve

SOURCE = b'''from starlette.datastructures import URL, Headers, MutableHeaders
from starlette.routing import Router


class Box:
    def put(self) -> None: ...

    def take(self) -> None: ...


class Crate:
    def put(self) -> None: ...


def app() -> Router:
    return Router()


def test_url_for(app: Router) -> None:
    app.url_path_for("home")


def test_untyped(app) -> None:
    app.url_path_for("home")


def redirect(scope) -> None:
    url = URL(scope=scope)
    url = url.replace(scheme="https")
    url.include_query_params()


def vary(scope, flag) -> None:
    headers = Headers(scope=scope)
    if flag:
        headers = MutableHeaders(scope=scope)
        headers.add_vary_header("Accept")
    headers.add_vary_header("Origin")


def branches(flag) -> None:
    if flag:
        b = Box()
    else:
        b = Crate()
        b.put()
    b.put()


def loop(items) -> None:
    b = Box()
    for item in items:
        b.put()
        b = Crate()
'''


def sites() -> dict[str, list[tuple[int, str, str]]]:
    parsed = parse.symbols(SOURCE, "python")
    found = resolve.chunks(chunk.chunks("r", "pkg/m.py", SOURCE, parsed), parsed, "pkg/m.py", "pkg.m")
    return {c.qualified_name: [(s.line, s.name, s.target) for s in c.call_sites if "." in s.name]
            for c in found}


def test_a_parameter_shadows_the_modules_function_of_its_name() -> None:
    got = sites()
    assert got["test_url_for"] == [(20, "app.url_path_for", "starlette.routing.Router.url_path_for")]
    assert got["test_untyped"] == [(24, "app.url_path_for", "")]  # unknown, not `pkg.m.app.url_path_for`


def test_the_binding_above_a_call_in_its_block_types_it() -> None:
    got = sites()
    # the call on the reassigning line sees the URL above it; the line after, the result of
    # another file's method, named by it (its declared result types it at query time)
    assert got["redirect"] == [(29, "url.replace", "starlette.datastructures.URL.replace"),
                               (30, "url.include_query_params",
                                "starlette.datastructures.URL.replace().include_query_params")]
    # inside the `if`: its MutableHeaders; after it, the two bindings disagree: unknown
    assert got["vary"] == [(37, "headers.add_vary_header", "starlette.datastructures.MutableHeaders.add_vary_header"),
                           (38, "headers.add_vary_header", "")]


def test_a_binding_of_a_left_block_does_not_reach() -> None:
    got = sites()
    # `else:` left the `if` block of `b = Box()`: the Crate in its own block, then neither
    assert got["branches"] == [(46, "b.put", "pkg.m.Crate.put"), (47, "b.put", "")]
    # in a loop the Box of the line above reaches the first iteration's call
    assert got["loop"] == [(53, "b.put", "pkg.m.Box.put")]


CHAIN = b'''class Client:
    def root(self) -> "Client":
        return self

    def find(self):
        return 1

    def go(self):
        self.root().find()
        c = Client()
        c.root().find()
        self.find().bit_length()
'''


def test_a_chains_tail_is_typed_by_the_return_annotation_before_it() -> None:
    parsed = parse.symbols(CHAIN, "python")
    found = resolve.chunks(chunk.chunks("r", "m.py", CHAIN, parsed), parsed, "m.py", "m")
    got = {c.qualified_name: [(s.line, s.name, s.target) for s in c.call_sites] for c in found}["Client.go"]
    assert (9, "find", "m.Client.find") in got and (11, "find", "m.Client.find") in got
    assert (12, "bit_length", "") in got  # `find` has no return annotation: unknown


def test_a_union_annotation_types_only_its_one_class_besides_none() -> None:
    from coderecalld.index.receivers import Receivers
    got = Receivers("m", {"click": "click", "Union": "typing.Union", "typing": "typing"}, {}, set(), {})
    # typer's `obj: Union[click.Command, click.Group]` was typed `typing.Union`
    assert got.class_of("Union[click.Command, click.Group]", True) == ""
    assert got.class_of("Union[click.Command, None]", True) == "click.Command"
    assert got.class_of("typing.Union[click.Group]", True) == "click.Group"


def test_typing_forms_and_abstract_types_type_no_class() -> None:
    from coderecalld.index.receivers import Receivers
    got = Receivers("m", {"typing": "typing", "Any": "typing.Any", "Mapping": "typing.Mapping",
                          "BinaryIO": "typing.BinaryIO", "abc": "collections.abc"}, {}, set(), {})
    # starlette's `value: typing.Any` made `value.lower()` a call of `typing.Any.lower`; its
    # `headers: Mapping` may be its own `Headers`
    assert [got.class_of(a, True) for a in ("typing.Any", "Any", "Mapping[str, str]", "abc.Mapping", "object")] == [
        "", "", "", "", ""]
    assert got.class_of("BinaryIO", True) == "typing.BinaryIO"  # a file: still a type
    assert got.class_of("str", True) == "builtins.str"


def test_nested_wrappers_are_read_through() -> None:
    from coderecalld.index.receivers import Receivers
    got = Receivers("m", {"Path": "pathlib.Path", "Optional": "typing.Optional",
                          "Annotated": "typing_extensions.Annotated", "typer": "typer"}, {}, set(), {})
    # typer's `config: Annotated[Optional[Path], typer.Option()]` was `typing.Optional`
    assert got.class_of("Annotated[Optional[Path], typer.Option()]", True) == "pathlib.Path"
    assert got.class_of("Annotated[Path, typer.Argument(help='a, b')]", True) == "pathlib.Path"


NARROWED = b'''from pkg.core import TyperOption, TyperArgument


def helper(param):
    if isinstance(param, TyperOption):
        param.get_default_string()
        if True:
            param.deeper()
    elif isinstance(param, TyperArgument):
        param.make_metavar()
    param.after()
    if isinstance(param, (TyperOption, TyperArgument)):
        param.either()
'''


def test_an_isinstance_block_types_its_name_inside_it_only() -> None:
    parsed = parse.symbols(NARROWED, "python")
    found = resolve.chunks(chunk.chunks("r", "m.py", NARROWED, parsed), parsed, "m.py", "m")
    got = {c.qualified_name: [(s.line, s.name, s.target) for s in c.call_sites if "." in s.name]
           for c in found}["helper"]
    assert got == [(6, "param.get_default_string", "pkg.core.TyperOption.get_default_string"),
                   (8, "param.deeper", "pkg.core.TyperOption.deeper"),
                   (10, "param.make_metavar", "pkg.core.TyperArgument.make_metavar"),
                   (11, "param.after", ""),  # after the blocks: unknown, as before
                   (13, "param.either", "")]  # one of two classes: unknown


GUARDED = b'''from pkg.core import Prefetch, Query


class Box:
    def __init__(self, query=None, other=None, flag=False):
        self._query = query or Query(self)
        self._other = other if other is not None else Query(self)
        self._mixed = Prefetch(query) if flag else Query(self)
        self._unsure = make() if flag else Query(self)

    def run(self):
        self._query.add_q()
        self._other.add_q()
        self._mixed.add_q()
        self._unsure.add_q()


def normalize(lookup, items):
    if not isinstance(lookup, Prefetch):
        lookup = Prefetch(lookup)
    lookup.add_prefix("x")
    for item in items:
        if not isinstance(item, Query):
            continue
        item.add_q()
    item.add_q()


def compare(self, other=None):
    if not isinstance(other, Query):
        raise TypeError(
            "not a query"
        )
    other.add_q()


def branches(lookup):
    if not isinstance(lookup, Prefetch):
        lookup = Prefetch(lookup)
    else:
        pass
    lookup.add_prefix("y")
    if not isinstance(lookup, Prefetch):
        log(lookup)
    lookup.add_prefix("z")
    if not isinstance(lookup, Prefetch):
        lookup = Query(lookup)
    lookup.add_prefix("w")
'''


def guarded_sites() -> dict[str, list[tuple[int, str, str]]]:
    parsed = parse.symbols(GUARDED, "python")
    found = resolve.chunks(chunk.chunks("r", "m.py", GUARDED, parsed), parsed, "m.py", "m")
    return {c.qualified_name: [(s.line, s.name, s.target) for s in c.call_sites if "." in s.name]
            for c in found}


def test_a_default_or_a_conditional_of_one_class_types_the_value() -> None:
    got = guarded_sites()["Box.run"]
    assert got == [(12, "self._query.add_q", "pkg.core.Query.add_q"),  # `query or Query(..)`
                   (13, "self._other.add_q", "pkg.core.Query.add_q"),  # `other if other is not None else ..`
                   (14, "self._mixed.add_q", ""),  # a Prefetch or a Query
                   (15, "self._unsure.add_q", "")]  # an unknown call's result or a Query


def test_a_not_isinstance_guard_types_its_name_after_its_block() -> None:
    got = guarded_sites()
    # the block binds it to the class, or leaves (continue, a raise spanning lines)
    assert got["normalize"] == [(21, "lookup.add_prefix", "pkg.core.Prefetch.add_prefix"),
                                (25, "item.add_q", "pkg.core.Query.add_q"),
                                (26, "item.add_q", "")]  # after the loop: not every item passed
    assert got["compare"] == [(34, "other.add_q", "pkg.core.Query.add_q")]
    # an `else`, a block that neither leaves nor binds, a binding to another class: untyped
    assert got["branches"] == [(42, "lookup.add_prefix", ""), (45, "lookup.add_prefix", ""),
                               (48, "lookup.add_prefix", "")]


ASSERTED = b'''from starlette.requests import Request


def requires(*args, **kwargs):
    request = kwargs.get("request", args[0])
    assert isinstance(request, Request), "no request"
    request.url_for("home")


def branch(request, flag):
    if flag:
        assert isinstance(request, Request)
        request.url_for("a")
    request.url_for("b")


def either(x):
    assert isinstance(x, (Request, str))
    x.url_for("c")


class Child(Request):
    def bark(self): ...


def narrower(y: Child, z):
    assert isinstance(y, Request)
    y.bark()
    z = Child()
    assert isinstance(z, Request)
    z.bark()
'''


def test_an_asserted_isinstance_types_its_name_below_it() -> None:
    parsed = parse.symbols(ASSERTED, "python")
    found = resolve.chunks(chunk.chunks("r", "m.py", ASSERTED, parsed), parsed, "m.py", "m")
    got = {c.qualified_name: [(s.line, s.target) for s in c.call_sites if s.name.endswith("url_for")]
           for c in found}
    url_for = "starlette.requests.Request.url_for"
    # starlette's `requires`: the call was left out as another type's (a newcomer)
    assert got["requires"] == [(7, url_for)]
    # in the assert's block only; a tuple of classes says no one class
    assert got["branch"] == [(13, url_for), (14, "")]
    assert got["either"] == [(19, "")]
    # a narrower type known already stays (a review: `x: Child` was read as a Request)
    barks = {c.qualified_name: [(s.line, s.target) for s in c.call_sites if s.name.endswith("bark")]
             for c in found}
    assert barks["narrower"] == [(28, "m.Child.bark"), (31, "m.Child.bark")]


REVIEWED = b'''from .base import Meta, Reader


class Resource:
    class Meta(Meta):
        pass


class Outer:
    class Sub(Base):
        pass

    class Base:
        pass


class Base:
    def run(self):
        return 1


def read(path, y, a, b):
    fp = path if hasattr(path, "read") else Reader(path)
    fp.read()
    r = y if y is not None else Reader(y)
    r.read()
    q = a == b or Reader(a)
    q.read()
    if not isinstance(a, Reader):
        a = convert(a)  # a str or Reader()
    a.read()
'''


def test_a_reviews_wrong_targets_are_untyped_or_right() -> None:
    parsed = parse.symbols(REVIEWED, "python")
    found = resolve.chunks(chunk.chunks("r", "m.py", REVIEWED, parsed), parsed, "m.py", "m")
    # `class Meta(Meta)` is the imported Meta, never itself; a base defined below the
    # statement in its class body is not yet bound there: the module's
    assert {c.qualified_name: c.bases for c in found if c.bases} == {
        "Resource.Meta": ("base.Meta",), "Outer.Sub": ("m.Base",)}
    sites = {c.qualified_name: [(s.line, s.name, s.target) for s in c.call_sites if s.name.endswith(".read")]
             for c in found}["read"]
    assert sites == [(24, "fp.read", ""),  # `hasattr(path, "read")`: path may be any reader
                     (26, "r.read", "base.Reader.read"),  # `y is not None`: a default
                     (28, "q.read", ""),  # a comparison's bool or a Reader
                     (31, "a.read", "")]  # the binding's comment is no part of its value


SHADOWED = b'''from pkg import Box

b = Box()


def param(b):
    b.put()


def local():
    b = make()
    b.put()


def module_level():
    b.put()


def comprehension(items):
    return [b.put() for b in items]


def loop(pairs):
    for i, b in pairs:
        b.put()


def rebinds():
    global b
    b = Box()
    b.put()
'''


def test_a_functions_own_name_is_no_module_level_instance() -> None:
    # each was a resolved call of the module's `b = Box()` (a review)
    parsed = parse.symbols(SHADOWED, "python")
    found = resolve.chunks(chunk.chunks("r", "m.py", SHADOWED, parsed), parsed, "m.py", "m")
    got = {c.qualified_name: [s.target for s in c.call_sites if s.name == "b.put"] for c in found}
    assert got == {"param": [""], "local": [""], "module_level": ["pkg.Box.put"], "comprehension": [""],
                   "loop": [""], "rebinds": ["pkg.Box.put"], "m": []}
