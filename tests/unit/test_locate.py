"""File ranking from chunk candidates (``query/locate.py``)."""

from __future__ import annotations

import pytest

from coderecalld.query import locate
from coderecalld.query.service import _extra_above
from coderecalld.records import FileHit, FunctionHit, Hit


def _hit(path: str, name: str, score: float, kind: str = "function", role: str = "source",
         start: int = 1) -> Hit:
    return Hit(id=f"{path}:{name}", score=score, payload={
        "repo": "r", "path": path, "kind": kind, "qualified_name": name, "role": role,
        "start_line": start, "end_line": start + 9})


def test_a_file_many_chunks_match_beats_one_lucky_chunk() -> None:
    hits = [_hit("a.py", "lucky", 1.0), _hit("b.py", "f", 0.9), _hit("b.py", "g", 0.8),
            _hit("b.py", "h", 0.7)]
    files = locate.files(hits, 10)
    assert [f.path for f in files] == ["b.py", "a.py"]
    assert files[0].score == round(0.9 + locate.SPREAD * sum([0.8, 0.7][:locate.SUPPORT]), 6)
    assert [f.qualified_name for f in files[0].functions] == ["f", "g", "h"]


@pytest.fixture
def no_first_file_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(locate, "FIRST_FILE_EXTRA", 0)


@pytest.mark.usefixtures("no_first_file_extra")
def test_functions_skip_modules_and_sections_and_respect_the_cap() -> None:
    hits = [_hit("a.py", "a", 1.0, kind="module")] + [
        _hit("a.py", f"f{i}", 0.9 - i / 100, start=10 * i) for i in range(8)]
    (only,) = locate.files(hits, 10, functions_per_file=3)
    assert [f.qualified_name for f in only.functions] == ["f0", "f1", "f2"]
    assert only.functions[1].start_line == 10 and only.functions[1].end_line == 19


def test_penalty_orders_and_the_reported_score_is_the_file_s_own_evidence(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No file-level fusion (a trace, identifiers, ``--mode sparse``): the penalty orders,
    the score is the file's evidence, at most the score above it, as with the fusion."""
    hits = [_hit("tests/test_a.py", "t", 1.0, role="test"), _hit("a.py", "f", 0.95),
            _hit("tests/test_b.py", "t", 0.5, role="test")]
    penalty = {"source": 0.0, "test": 1.0}
    files = locate.files(hits, 1, penalty=lambda p: penalty[p["role"]])
    assert [(f.path, f.score, f.role) for f in files] == [("a.py", 0.95, "source")]
    every = locate.files(hits, 3, penalty=lambda p: penalty[p["role"]])
    # ordered by 0.95 / 0.0 / -0.5; reported 0.95, min(1.0, 0.95), min(0.5, 0.95)
    assert [(f.path, f.score) for f in every] == [
        ("a.py", 0.95), ("tests/test_a.py", 0.95), ("tests/test_b.py", 0.5)]
    monkeypatch.setattr(locate, "EVIDENCE_SCORES", False)
    assert [f.score for f in locate.files(hits, 3, penalty=lambda p: penalty[p["role"]])] == [
        0.95, 0.0, -0.5]


def test_the_first_file_lists_more_functions_than_the_others() -> None:
    hits = [_hit(path, f"{path[0]}{i}", score - i / 100, start=10 * i)
            for path, score in (("b.py", 0.8), ("a.py", 1.0), ("c.py", 0.6)) for i in range(12)]
    files = locate.files(hits, 3, functions_per_file=4)
    assert [(f.path, len(f.functions)) for f in files] == [
        ("a.py", 4 + locate.FIRST_FILE_EXTRA), ("b.py", 4), ("c.py", 4)]
    assert [f.qualified_name for f in files[0].functions] == [
        f"a{i}" for i in range(4 + locate.FIRST_FILE_EXTRA)]  # still its best, best first
    assert all(not f.functions for f in locate.files(hits, 3, functions_per_file=0))


def test_a_first_file_nearly_tied_with_the_second_lists_no_more_than_it() -> None:
    def answer(second: float) -> list[tuple[str, int]]:
        hits = [_hit(path, f"{path[0]}{i}", score - i / 1000, start=10 * i)
                for path, score in (("a.py", 1.0), ("b.py", second)) for i in range(12)]
        return [(f.path, len(f.functions)) for f in locate.files(hits, 2, functions_per_file=4)]

    # file scores: 1.0 + SPREAD x 0.999 against second + SPREAD x (second - 0.001)
    first = 1.0 + locate.SPREAD * 0.999
    at_tie = locate.FIRST_FILE_TIE * first
    just_over = (at_tie + 0.0005 + locate.SPREAD * 0.001) / (1 + locate.SPREAD)
    just_under = (at_tie - 0.0005 + locate.SPREAD * 0.001) / (1 + locate.SPREAD)
    assert answer(just_over) == [("a.py", 4), ("b.py", 4)]
    assert answer(just_under) == [("a.py", 4 + locate.FIRST_FILE_EXTRA), ("b.py", 4)]
    assert locate.FIRST_FILE_EXTRA > 0


@pytest.mark.usefixtures("no_first_file_extra")
def test_types_come_after_the_functions_of_a_file() -> None:
    hits = [_hit("a.py", "Session", 1.0, kind="class", start=1),
            _hit("a.py", "Session.send", 0.8, kind="method", start=50),
            _hit("a.py", "helper", 0.5, start=300)]
    (only,) = locate.files(hits, 10, functions_per_file=2)
    assert [f.qualified_name for f in only.functions] == ["Session.send", "helper"]
    (only,) = locate.files(hits, 10, functions_per_file=3)
    assert [f.qualified_name for f in only.functions] == ["Session.send", "helper", "Session"]


def test_an_overload_stub_is_listed_at_its_implementation() -> None:
    stub = _hit("m.py", "Response.iter_content", 0.9, kind="method", start=906)
    stub.payload["snippet"] = "@overload\n    def iter_content(self, chunk_size=1"
    impl = Hit(id="impl", score=0.4, payload={**stub.payload, "snippet": "def iter_content(",
                                               "start_line": 914, "end_line": 977})
    (only,) = locate.files([stub, impl], 10)
    assert [(f.qualified_name, f.start_line, f.end_line, f.score) for f in only.functions] == [
        ("Response.iter_content", 914, 977, 0.9)]
    (alone,) = locate.files([stub], 10)  # no implementation among the chunks: the stub's lines
    assert (alone.functions[0].start_line, alone.functions[0].end_line) == (906, 915)
    # ... unless the file's definitions are known: the last one is the implementation
    asked: list[tuple[str, str, tuple[str, ...]]] = []

    def spans(repo: str, path: str, names):  # type: ignore[no-untyped-def]
        asked.append((repo, path, tuple(names)))
        return {"Response.iter_content": [(906, 909), (914, 977), (910, 913)]}
    (found,) = locate.files([stub], 10, spans=spans)
    assert [(f.qualified_name, f.start_line, f.end_line, f.score) for f in found.functions] == [
        ("Response.iter_content", 914, 977, 0.9)]
    assert asked == [("r", "m.py", ("Response.iter_content",))]
    (found,) = locate.files([stub, impl], 10, spans=spans)  # the implementation among them: no lookup
    assert len(asked) == 1 and found.functions[0].start_line == 914
    assert locate.is_stub({"snippet": "  @typing.overload\ndef f(x: int) -> int: ..."})
    assert locate.is_stub({"snippet": "@staticmethod\n    @overload\n    def f(x: int): ..."})
    assert not locate.is_stub({"snippet": "@property\ndef f(self):"})
    assert not locate.is_stub({"snippet": "@overloaded_op\ndef f(x): return x"})
    assert not locate.is_stub({"snippet": "@overload(np.add)\ndef impl(a, b): return a"})


@pytest.mark.parametrize(("language", "kind", "snippet", "stub"), [
    ("java", "method", "abstract void readIntoField(JsonReader reader, Object target)\n"
                       "        throws IOException, IllegalAccessException;", True),
    ("java", "method", "@Override\n      void readIntoField(JsonReader reader, Object target) {", False),
    ("rust", "method", "fn deserialize_any<V>(self, visitor: V) -> Result<V::Value>;", True),
    ("rust", "method", "fn deserialize_any<V>(self, visitor: V) -> Result<V::Value> {", False),
    ("cpp", "method", "virtual double area() const = 0;", True),
    ("typescript", "method", "request(config: AxiosRequestConfig): Promise<R>;", True),
    ("java", "class", "interface Marker;", False),       # a type, not a callable
    ("python", "function", "def f(x): return x;", False),  # no braces in Python
])
def test_a_callable_declared_without_a_body_is_a_stub(language: str, kind: str, snippet: str,
                                                      stub: bool) -> None:
    assert locate.is_stub({"language": language, "kind": kind, "snippet": snippet,
                           "path": "src/a.x"}) is stub


@pytest.mark.parametrize(("snippet", "lines", "stub"), [
    # drf's BaseContentNegotiation.select_renderer, before DefaultContentNegotiation's (a newcomer)
    ("def select_renderer(self, request, renderers, format_suffix=None):\n"
     "    raise NotImplementedError('.select_renderer() must be implemented')", 3, True),
    ('def f(self):\n    """What a subclass does."""\n    raise NotImplementedError', 3, True),
    ("@abc.abstractmethod\ndef f(self):\n    ...", 3, True),
    ("def f(\n    self,\n):\n    raise NotImplementedError()", 4, True),
    ("def f(self):\n    ...", 2, False),  # no @abstractmethod: a protocol's, or a placeholder
    ("def f(self, x):\n    if x:\n        raise NotImplementedError", 5, False),
    ("def f(self):\n    raise NotImplementedError", 30, False),  # longer than it shows
])
def test_a_python_function_that_only_raises_not_implemented_is_a_stub(snippet: str, lines: int, stub: bool) -> None:
    assert locate.is_stub({"language": "python", "kind": "method", "snippet": snippet, "path": "rest/negotiation.py",
                           "start_line": 10, "end_line": 10 + lines - 1}) is stub


@pytest.mark.parametrize(("path", "declares"), [
    ("numpy/lib/_arraypad_impl.pyi", True), ("types/index.d.ts", True), ("lib/esm/a.d.mts", True),
    ("src/a.d.cts", True), ("numpy/lib/_arraypad_impl.py", False), ("src/index.ts", False),
    ("src/build.d.tsx", False), ("docs/pyi.md", False), ("stubs.py", False),
])
def test_declaration_files_are_stubs(path: str, declares: bool) -> None:
    assert locate.declares_only(path) is declares
    # every chunk of a declaration file is a stub, whatever its snippet
    assert locate.is_stub({"path": path, "snippet": "def f(x): return x"}) is declares


def test_a_long_functions_parts_are_listed_as_the_function() -> None:
    # index/chunk.py keeps a long function's whole chunk and adds parts ``name#partN``.
    whole = _hit("a.py", "lambdify", 0.5, start=100)
    whole.payload["end_line"] = 400
    part2 = _hit("a.py", "lambdify#part2", 0.9, start=200)
    part3 = _hit("a.py", "lambdify#part3", 0.8, start=300)
    (only,) = locate.files([part2, _hit("a.py", "other", 0.7), part3, whole], 10)
    # one place, at the whole function's lines, with its best part's score; then the rest
    assert [(f.qualified_name, f.start_line, f.end_line, f.score) for f in only.functions] == [
        ("lambdify", 100, 400, 0.9), ("other", 1, 10, 0.7)]
    # without the whole chunk among the candidates: the best part's own lines
    (alone,) = locate.files([part3, part2], 10)
    assert [(f.qualified_name, f.start_line, f.end_line) for f in alone.functions] == [
        ("lambdify", 200, 209)]
    # ... unless ``spans`` gives the whole definition's, asked once for the parted names only
    asked: list[tuple[str, str, list[str]]] = []

    def spans(repo: str, path: str, names: list[str]) -> dict[str, list[tuple[int, int]]]:
        asked.append((repo, path, list(names)))
        # the file defines it twice: the definition holding the part's lines (200-209, 300-309)
        return {"lambdify": [(20, 90), (100, 400), (500, 900)]}
    (spanned,) = locate.files([part3, _hit("a.py", "other", 0.7), part2], 10, spans=spans)
    assert [(f.qualified_name, f.start_line, f.end_line, f.score) for f in spanned.functions] == [
        ("lambdify", 100, 400, 0.9), ("other", 1, 10, 0.7)]
    assert asked == [("r", "a.py", ["lambdify"])]
    asked.clear()
    locate.files([part2, _hit("a.py", "other", 0.7), whole], 10, spans=spans)
    assert asked == []  # the whole chunk is there: no lookup


def test_file_scores_take_the_penalty_of_the_best_chunk() -> None:
    hits = [_hit("t.py", "test_f", 1.0, role="test"), _hit("t.py", "test_g", 0.6, role="test"),
            _hit("a.py", "f", 0.8)]
    scores = locate.file_scores(hits, penalty=lambda p: 0.5 if p["role"] == "test" else 0.0)
    assert scores == {("r", "t.py"): pytest.approx(1.0 + locate.SPREAD * 0.6 - 0.5),
                      ("r", "a.py"): pytest.approx(0.8)}
    assert [f.path for f in locate.files(hits, 2, penalty=lambda p: 0.5 if p["role"] == "test" else 0.0)] \
        == ["a.py", "t.py"]


def test_a_declaration_without_a_body_is_listed_after_the_implementations() -> None:
    """gson's abstract ``Adapter.readField`` (two lines, its words) came second in its file,
    the implementations it declares not at all; now they come first, the declaration after
    them, types last."""
    abstract = _hit("R.java", "Adapter.readField(A)", 0.9, kind="method")
    abstract.payload.update(language="java", snippet="abstract void readField(A a);")
    impl = _hit("R.java", "FieldAdapter.readField(T)", 0.5, kind="method")
    impl.payload.update(language="java", snippet="@Override\n void readField(T t) {")
    cls = _hit("R.java", "Adapter", 0.8, kind="class")
    (only,) = locate.files([abstract, impl, cls], 10)
    assert [f.qualified_name for f in only.functions] == [
        "FieldAdapter.readField(T)", "Adapter.readField(A)", "Adapter"]


def test_older_copies_of_versioned_docs() -> None:
    """jq keeps a manual per release (``docs/content/manual/v1.7/manual.yml``), Docusaurus
    ``versioned_docs/version-2.0/``: each file is answered from its newest release listed, in
    its first copy's place."""
    from coderecalld.query.locate import older_copies

    rows = [("jq", "docs/content/manual/v1.5/manual.yml", "docs"),
            ("jq", "docs/content/manual/dev/manual.yml", "docs"),
            ("jq", "src/linker.c", "source"),
            ("jq", "docs/content/manual/v1.7/manual.yml", "docs"),
            ("jq", "docs/content/manual/v1.5/manual.yml", "docs"),  # another section, same release
            ("site", "versioned_docs/version-2.0/intro.md", "docs"),
            ("site", "versioned_docs/version-1.9/intro.md", "docs"),
            ("site", "docs/intro.md", "docs"),
            ("other", "docs/content/manual/v1.7/manual.yml", "docs")]  # another repo's
    # the newest release on the list (dev) answers in the first copy's place; then 2.0's
    assert older_copies(rows) == {0: 1, 1: None, 3: None, 4: None, 5: 5, 6: None}
    # two sections of the newest release keep two places
    two = [("jq", "docs/v1.5/manual.yml", "docs"), ("jq", "docs/v1.7/manual.yml", "docs"),
           ("jq", "src/linker.c", "source"), ("jq", "docs/v1.7/manual.yml", "docs")]
    assert older_copies(two) == {0: 1, 1: None, 3: None}  # v1.5 held one place: v1.7 takes it
    four = [("jq", "docs/v1.5/m.yml", "docs"), ("jq", "docs/v1.7/m.yml", "docs"), ("jq", "docs/v1.5/m.yml", "docs"),
            ("jq", "docs/v1.7/m.yml", "docs"), ("jq", "docs/v1.7/m.yml", "docs")]
    assert older_copies(four) == {0: 1, 1: None, 2: 3, 3: None, 4: None}
    # moving names alone (docs/dev next to docs/latest) are no releases; source never collapses
    assert older_copies([("r", "docs/dev/setup.md", "docs"), ("r", "docs/latest/setup.md", "docs")]) == {}
    assert older_copies([("r", "api/v1/handlers.go", "source"), ("r", "api/v2/handlers.go", "source")]) == {}


def test_the_first_function_is_followed_by_the_helpers_it_calls() -> None:
    """sympy's ``sqf_list`` delegates to ``_generic_factor_list``, which calls
    ``_symbolic_factor_list`` (the edit site, ninth by the issue's words)."""
    from coderecalld.query.locate import with_callees
    from coderecalld.records import FunctionHit

    found = tuple(FunctionHit(n, i * 10, i * 10 + 5, 1.0 - i / 10) for i, n in enumerate(
        ["sqf_list", "Poly.sqf_list", "_generic_factor_list", "sqf", "_sorted_factors"]))
    graph = {"sqf_list": [("_generic_factor_list", 20, 25)],
             "_generic_factor_list": [("sqf_list", 0, 5), ("_symbolic_factor_list", 90, 99)],
             "_symbolic_factor_list": [("_sorted_factors", 40, 45)]}
    asked: list[list[str]] = []

    def callees(names):
        asked.append(list(names))
        return {n: graph.get(n, []) for n in names}

    listed = with_callees(found, callees, chain=2)
    assert [(f.qualified_name, f.start_line, f.score) for f in listed] == [
        ("sqf_list", 0, 1.0), ("_generic_factor_list", 20, 0.8), ("_symbolic_factor_list", 90, 0.4),
        ("Poly.sqf_list", 10, 0.9), ("sqf", 30, 0.7)]  # as many as found: the last gives its place
    assert asked == [["sqf_list"], ["_generic_factor_list"]]
    assert with_callees(found, callees, chain=0) == found
    # no callee: unchanged, one lookup
    asked.clear()
    assert with_callees(found[3:], callees, chain=2) == found[3:] and asked == [["sqf"]]


def test_an_interfaces_one_line_method_is_a_stub() -> None:
    from coderecalld.query.locate import is_stub

    def payload(language: str, snippet: str, lines: tuple[int, int]) -> dict:
        return {"path": "src/x", "kind": "method", "language": language, "snippet": snippet,
                "start_line": lines[0], "end_line": lines[1]}

    assert is_stub(payload("typescript", "json(): Promise<T>", (149, 149)))  # hono's ClientResponse
    assert is_stub(payload("go", "Read(p []byte) (n int, err error)", (10, 10)))
    assert not is_stub(payload("typescript", "json<T>(): Promise<T> { return this.body() }", (5, 5)))
    assert not is_stub(payload("typescript", "json = (v: T) => respond(v)", (5, 5)))
    assert not is_stub(payload("typescript", "json(): Promise<T>", (5, 9)))  # a body on the next lines
    assert not is_stub(payload("kotlin", "fun answer(): Int = 42", (3, 3)))  # an expression body


@pytest.mark.parametrize("match", ["exact", "evidence"])
def test_a_chunk_the_page_places_first_leads_locate(match: str) -> None:
    """A pinned definition of the name asked (``exact``) or the literal printing a pasted
    message (``evidence``), placed first, leads ``locate`` whatever another file's second
    chunk adds (starlette's ``locate get_route_path`` listed ``staticfiles.py``, whose two
    methods call it, before ``_utils.py``, which defines it; ``service._as_placed``)."""
    from coderecalld.query import service
    pinned = _hit("pkg/_utils.py", "get_route_path", 1.0)
    callers = [_hit("pkg/static.py", "Static.get_path", 1.0), _hit("pkg/static.py", "Static.lookup", 0.97)]
    ranked = [(pinned, match, service.INDEX)] + [(h, "hybrid", service.INDEX) for h in callers]
    top = max(h.score for h, _, _ in ranked)
    files = locate.files(service._as_placed(ranked, top), 10)
    assert [f.path for f in files] == ["pkg/_utils.py", "pkg/static.py"]
    assert files[0].score == round(top * (1 + locate.SPREAD), 6) > files[1].score
    # placed lower, an exact definition keeps the best score of the candidates, no more
    lower = [(callers[0], "hybrid", service.INDEX), (pinned, "exact", service.INDEX), (callers[1], "hybrid", service.INDEX)]
    assert [h.score for h in service._as_placed(lower, top)] == [1.0, 1.0, 0.97]


def test_a_bonus_orders_a_files_functions_and_leaves_file_scores_alone() -> None:
    hits = [_hit("a.py", "load_sections", 0.30), _hit("a.py", "parse_raises_section", 0.28),
            _hit("b.py", "other", 0.40)]
    plain = locate.files(hits, 5)
    bonus = locate.files(hits, 5, bonus=lambda p: 0.05 if p["qualified_name"] == "parse_raises_section" else 0.0)
    assert [f.path for f in plain] == [f.path for f in bonus] == ["b.py", "a.py"]
    assert [f.score for f in plain] == [f.score for f in bonus]
    assert [x.qualified_name for x in plain[1].functions] == ["load_sections", "parse_raises_section"]
    assert [x.qualified_name for x in bonus[1].functions] == ["parse_raises_section", "load_sections"]
    assert bonus[1].functions[0].score == pytest.approx(0.33)


def _file(path: str, role: str = "source") -> Hit:
    return Hit(id=f"file:{path}", score=1.0, payload={"repo": "r", "path": path, "role": role,
                                                      "language": "python"})


def test_fused_ranks_by_reciprocal_ranks_of_both_lists() -> None:
    by_chunks = [(0.9, ("r", "a.py"), []), (0.8, ("r", "b.py"), []), (0.7, ("r", "c.py"), [])]
    # c.py: third by chunks, first by the file index; k 2, weight 1 ->
    # a 1/3 + 1/5 (third lexically), b 1/4, c 1/5 + 1/3, d (lexical only) 1/4
    out = locate.fused(by_chunks, [("r", "c.py"), ("r", "d.py"), ("r", "a.py")], 10, k=2, weight=1.0)
    assert [key[1] for _, key, _ in out] == ["a.py", "c.py", "b.py", "d.py"]
    assert [round(score, 4) for score, _, _ in out] == [round(1 / 3 + 1 / 5, 4)] * 2 + [0.25, 0.25]
    # weight 0: the chunk ranking alone, a lexical-only file last
    out = locate.fused(by_chunks, [("r", "c.py"), ("r", "d.py")], 3, k=2, weight=0.0)
    assert [key[1] for _, key, _ in out] == ["a.py", "b.py", "c.py"]


def test_a_file_only_the_file_index_names_lists_its_own_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(locate, "LEXICAL_FILES_WEIGHT", 1.0)
    hits = [_hit("a.py", "fa", 1.0), _hit("b.py", "fb", 0.9)]
    asked = []

    def chunks_of(repo: str, path: str) -> list[Hit]:
        asked.append(path)
        return [_hit(path, "low", 0.1, start=1), _hit(path, "high", 0.6, start=20),
                _hit(path, path, 0.0, kind="module")]

    files = locate.files(hits, 3, lexical=[_file("z.py"), _file("a.py")], chunks_of=chunks_of)
    # a.py first in both; z.py first lexically ties b.py second by chunks, wins by rank 1 < 2
    assert [f.path for f in files] == ["a.py", "z.py", "b.py"]
    assert asked == ["z.py"]
    assert [f.qualified_name for f in files[1].functions] == ["high", "low"]
    assert files[1].functions[0].start_line == 20
    # each file's own evidence: a.py's chunk; z.py's best chunk + SPREAD x its next; b.py's
    # 0.9 no higher than the file above it
    assert locate.SPREAD == 0.25 and locate.SUPPORT == 1
    assert [f.score for f in files] == [1.0, 0.625, 0.625]
    monkeypatch.setattr(locate, "EVIDENCE_SCORES", False)  # the fused ranks' scores
    files = locate.files(hits, 3, lexical=[_file("z.py"), _file("a.py")], chunks_of=chunks_of)
    k, w = locate.LEXICAL_FILES_K, locate.LEXICAL_FILES_WEIGHT
    assert [f.score for f in files] == [round(1 / (k + 1) + w / (k + 2), 6),
                                        round(w / (k + 1), 6), round(1 / (k + 2), 6)]
    assert files[0].score >= files[1].score >= files[2].score
    # without a file index answer the chunk ranking and its scores are unchanged
    plain = locate.files(hits, 3)
    assert [(f.path, f.score) for f in plain] == [("a.py", 1.0), ("b.py", 0.9)]


def test_a_first_file_that_stands_out_on_the_chunks_keeps_its_place() -> None:
    hits = [_hit("a.py", "fa", 1.0), _hit("b.py", "fb", 0.7), _hit("c.py", "fc", 0.69)]
    lexical = [_file("b.py"), _file("c.py")]  # a.py: not among the file index's files
    k, w = locate.LEXICAL_FILES_K, locate.LEXICAL_FILES_WEIGHT
    fused = locate.files(hits, 3, lexical=lexical)
    assert [f.path for f in fused] == ["b.py", "c.py", "a.py"]  # 1/33 + w/32 > 1/31
    # each file's own chunk, a.py's 1.0 no higher than c.py's above it
    assert [f.score for f in fused] == [0.7, 0.69, 0.69]
    kept = locate.files(hits, 3, lexical=lexical, lead=0.85)  # 0.7 < 0.85 x 1.0: stands out
    assert [f.path for f in kept] == ["a.py", "b.py", "c.py"]
    assert [f.score for f in kept] == [1.0, 0.7, 0.69]
    by_rank = locate.fused([(h.score, (h.payload["repo"], h.payload["path"]), [h]) for h in hits],
                           [(f.payload["repo"], f.payload["path"]) for f in lexical], 3,
                           first=("r", "a.py"))  # the fused scores: the kept first takes the best
    assert [round(score, 6) for score, _, _ in by_rank] == [round(1 / (k + 2) + w / (k + 1), 6)] * 2 + [
        round(1 / (k + 3) + w / (k + 2), 6)]
    flat = locate.files(hits, 3, lexical=lexical, lead=0.6)  # 0.7 >= 0.6 x 1.0: flat, fused
    assert [f.path for f in flat] == ["b.py", "c.py", "a.py"]


def test_the_file_index_first_files_are_kept_in_the_answer() -> None:
    # chunks rank a..e; the file index ranks y.py, z.py (neither has a chunk), then c.py
    by_chunks = [(1.0 - i / 10, ("r", f"{p}.py"), []) for i, p in enumerate("abcde")]
    lexical = [("r", "y.py"), ("r", "z.py"), ("r", "c.py")]
    k, w = locate.LEXICAL_FILES_K, locate.LEXICAL_FILES_WEIGHT
    plain = locate.fused(by_chunks, lexical, 4)
    # the fusion alone: c.py moves up, y.py and z.py (w / (k + 1) < 1 / (k + 5)) stay out
    assert [key[1] for _, key, _ in plain] == ["c.py", "a.py", "b.py", "d.py"]
    kept = locate.fused(by_chunks, lexical, 4, kept=2)
    # the two lowest give their places to the file index's first two, spread over the
    # page (``_spread``: the j-th by place ceil(j x 4 / 2), never the first), scores never
    # rising down it
    assert [key[1] for _, key, _ in kept] == ["c.py", "y.py", "a.py", "z.py"]
    assert [round(score, 6) for score, _, _ in kept] == [
        round(1 / (k + 3) + w / (k + 3), 6), round(w / (k + 1), 6),
        round(w / (k + 1), 6), round(w / (k + 2), 6)]
    # a kept file the fusion already placed takes no second place
    once = locate.fused(by_chunks, [("r", "c.py"), ("r", "y.py")], 4, kept=2)
    assert [key[1] for _, key, _ in once] == ["c.py", "a.py", "b.py", "y.py"]
    # never the whole answer: at most limit - 1 places, the first stays the fusion's
    assert [key[1] for _, key, _ in locate.fused(by_chunks, lexical, 2, kept=5)] == ["c.py", "y.py"]


def test_kept_files_take_the_last_places_of_a_full_answer() -> None:
    hits = [_hit(f"{p}.py", f"f{p}", 1.0 - i / 20) for i, p in enumerate("abcdefghijkl")]
    lexical = [_file(f"x{i}.py") for i in range(6)]
    kept = int(10 * locate.LEXICAL_FILES_KEPT)
    files = locate.files(hits, 10, lexical=lexical, kept=kept)
    paths = [f.path for f in files]
    # spread over the page: the j-th kept file by place ceil(j x 10 / 4) = 3, 5, 8, 10
    assert kept == 4
    assert paths == ["a.py", "b.py", "x0.py", "c.py", "x1.py", "d.py", "e.py", "x2.py", "f.py", "x3.py"]
    assert all(a.score >= b.score for a, b in zip(files, files[1:]))
    assert [f.path for f in locate.files(hits, 10, lexical=lexical)] == [f"{p}.py" for p in "abcdefghij"]


def test_a_named_definition_file_is_kept_before_the_file_index_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    # chunks: a..l (12 files); the file index: x0, x1; the query names a definition in k.py
    monkeypatch.setattr(locate, "NAMED_FILES_WEIGHT", 0.0)  # kept only, not ranked
    by_chunks = [(1.0 - i / 20, ("r", f"{p}.py"), []) for i, p in enumerate("abcdefghijkl")]
    lexical = [("r", "x0.py"), ("r", "x1.py")]
    k, w = locate.LEXICAL_FILES_K, locate.LEXICAL_FILES_WEIGHT
    out = locate.fused(by_chunks, lexical, 5, kept=2, named=[("r", "k.py")])
    # two places for the fusion's best, then by fused score (k.py counts its chunk rank
    # 11), the file index's first by place ceil(1 x 5 / 2) = 3; scores never rise
    assert [key[1] for _, key, _ in out] == ["a.py", "b.py", "x0.py", "k.py", "x1.py"]
    assert [round(s, 6) for s, _, _ in out] == [round(1 / (k + 1), 6), round(1 / (k + 2), 6),
                                                round(w / (k + 1), 6), round(w / (k + 1), 6),
                                                round(w / (k + 2), 6)]
    # named first when places are short: limit 3 keeps two of the three
    assert [key[1] for _, key, _ in locate.fused(by_chunks, lexical, 3, kept=2, named=[("r", "k.py")])] == [
        "a.py", "k.py", "x0.py"]
    # a named file already placed takes no second place
    assert [key[1] for _, key, _ in locate.fused(by_chunks, lexical, 4, kept=0, named=[("r", "a.py")])] == [
        "a.py", "b.py", "c.py", "d.py"]


def test_a_docs_page_lists_its_best_sections() -> None:
    # requests' advanced.rst: search found its #Proxies/SOCKS section, locate listed nothing
    socks = _hit("docs/advanced.rst", "docs/advanced.rst#Proxies/SOCKS", 0.9, kind="section",
                 role="docs", start=300)
    proxies = _hit("docs/advanced.rst", "docs/advanced.rst#Proxies", 0.7, kind="section",
                   role="docs", start=250)
    page = _hit("docs/advanced.rst", "docs/advanced.rst", 0.5, kind="module", role="docs")
    code = _hit("src/adapters.py", "HTTPAdapter.proxy_manager_for", 0.8, kind="method")
    module = _hit("src/adapters.py", "src.adapters", 0.6, kind="module")
    docs, source = locate.files([socks, proxies, page, code, module], 10, functions_per_file=5)
    assert [(f.qualified_name, f.start_line, f.end_line, f.score) for f in docs.functions] == [
        ("docs/advanced.rst#Proxies/SOCKS", 300, 309, 0.9), ("docs/advanced.rst#Proxies", 250, 259, 0.7)]
    # a file with a function lists no section nor module chunk
    assert [f.qualified_name for f in source.functions] == ["HTTPAdapter.proxy_manager_for"]
    # as many places as functions get (the first file's extra ones too)
    many = [_hit("d.md", f"d.md#S{i}", 1.0 - i / 10, kind="section", role="docs", start=10 * i)
            for i in range(8)]
    (only,) = locate.files(many, 10, functions_per_file=2)
    assert [f.qualified_name for f in only.functions] == [
        f"d.md#S{i}" for i in range(2 + locate.FIRST_FILE_EXTRA)]


def test_a_named_file_is_kept_without_a_file_index_answer() -> None:
    hits = [_hit(f"{p}.py", f"f{p}", 1.0 - i / 10) for i, p in enumerate("abcde")]
    files = locate.files(hits, 3, named=[("r", "e.py")])
    assert [f.path for f in files] == ["a.py", "b.py", "e.py"]
    assert [f.score for f in files] == [1.0, 0.9, 0.6]  # chunk scores, still falling
    assert [f.path for f in locate.files(hits, 3)] == ["a.py", "b.py", "c.py"]
    # never the whole answer, and a file not ranked at all is no place-holder
    assert [f.path for f in locate.files(hits, 1, named=[("r", "e.py")])] == ["a.py"]
    assert [f.path for f in locate.files(hits, 3, named=[("r", "z.py")])] == ["a.py", "b.py", "c.py"]


def _nested(name: str, score: float, start_byte: int, end_byte: int, *, kind: str = "function",
            parent: str = "", start: int = 1, end: int = 10) -> Hit:
    return Hit(id=f"lib/Axios.js:{name}:{start_byte}", score=score, payload={
        "repo": "r", "path": "lib/Axios.js", "kind": kind, "qualified_name": name, "role": "source",
        "parent": parent, "start_line": start, "end_line": end, "start_byte": start_byte,
        "end_byte": end_byte})


@pytest.mark.usefixtures("no_first_file_extra")
def test_a_nested_callback_past_what_was_embedded_lists_its_enclosing_function_next() -> None:
    """axios: ``_request``'s interceptor callbacks lie past the 2,000 characters its vector
    was embedded from; they were listed, ``_request`` itself not."""
    hits = [_nested("Axios._request.pushResponseInterceptors", 0.9, 4000, 4100, parent="Axios._request",
                    start=146, end=148),
            _nested("Axios._request.unshiftRequestInterceptors", 0.8, 3600, 3900, parent="Axios._request",
                    start=135, end=143),
            _nested("Axios.constructor", 0.7, 100, 300, kind="method", parent="Axios", start=22, end=28),
            _nested("Axios.getUri", 0.6, 5800, 6000, kind="method", parent="Axios", start=202, end=206),
            _nested("Axios._request", 0.3, 1800, 5700, kind="method", parent="Axios", start=65, end=200),
            _nested("Axios", 0.2, 0, 6100, kind="class", start=21, end=207)]
    (only,) = locate.files(hits, 10, functions_per_file=3)
    assert [(f.qualified_name, f.start_line, f.end_line, f.score) for f in only.functions] == [
        ("Axios._request.pushResponseInterceptors", 146, 148, 0.9),
        ("Axios._request", 65, 200, 0.9),  # listed (the callback's score), the last one out
        ("Axios._request.unshiftRequestInterceptors", 135, 143, 0.8)]


@pytest.mark.usefixtures("no_first_file_extra")
def test_an_enclosing_function_read_whole_or_not_among_the_chunks_is_not_listed() -> None:
    near = [_nested("f.cb", 0.9, 500, 600, parent="f"), _nested("g", 0.8, 2000, 2100),
            _nested("f", 0.1, 0, 1000)]  # the callback lies within what f was embedded from
    (only,) = locate.files(near, 10, functions_per_file=2)
    assert [f.qualified_name for f in only.functions] == ["f.cb", "g"]
    absent = [_nested("f.cb", 0.9, 5000, 5100, parent="f"), _nested("g", 0.8, 6000, 6100)]
    (only,) = locate.files(absent, 10, functions_per_file=2)
    assert [f.qualified_name for f in only.functions] == ["f.cb", "g"]
    # one listed below moves up with its own score
    below = [_nested("f.cb", 0.9, 5000, 5100, parent="f"), _nested("g", 0.8, 6000, 6100),
             _nested("f", 0.7, 0, 5500, start=5, end=90)]
    (only,) = locate.files(below, 10, functions_per_file=3)
    assert [(f.qualified_name, f.score) for f in only.functions] == [("f.cb", 0.9), ("f", 0.7), ("g", 0.8)]


def test_enclosing_names_nearest_first() -> None:
    assert locate.enclosing_names("dispatchXhrRequest.request.ontimeout") == [
        "dispatchXhrRequest.request", "dispatchXhrRequest"]
    assert locate.enclosing_names("a.b.c.d.e#part2") == ["a.b.c.d", "a.b.c", "a.b"]
    assert locate.enclosing_names("top") == []


def test_a_source_files_own_tests_list_below_its_code() -> None:
    """A Rust source file holds its ``#[cfg(test)]`` tests (role test per chunk): the file
    keeps a source file's score, its tests list below its code, scored less."""
    penalty = {"source": 0.0, "test": 0.2}
    hits = [_hit("src/json.rs", "tests::json_content_types", 0.9, role="test"),
            _hit("src/json.rs", "tests::valid_json_content_type", 0.85, role="test"),
            _hit("src/json.rs", "json_content_type", 0.8),
            _hit("src/form.rs", "Form::from_request", 0.75)]
    files = locate.files(hits, 10, penalty=lambda p: penalty[p["role"]], functions_per_file=3)
    assert [f.path for f in files] == ["src/json.rs", "src/form.rs"]
    assert files[0].score == round(0.9 + locate.SPREAD * 0.85, 6)  # its tests count in full
    assert [(f.qualified_name, f.score) for f in files[0].functions] == [
        ("json_content_type", 0.8), ("tests::json_content_types", 0.7),
        ("tests::valid_json_content_type", 0.65)]
    # a file of tests alone is ordered by its score less the penalty, and reports its
    # chunks' own evidence (the penalty orders; it is no evidence)
    (only,) = locate.files(hits[:2], 10, penalty=lambda p: penalty[p["role"]], functions_per_file=3)
    assert only.score == round(0.9 + locate.SPREAD * 0.85, 6)
    assert [f.score for f in only.functions] == [0.9, 0.85]
    assert locate.file_scores(hits[:2], penalty=lambda p: penalty[p["role"]]) == {
        ("r", "src/json.rs"): pytest.approx(0.9 + locate.SPREAD * 0.85 - 0.2)}


@pytest.mark.usefixtures("no_first_file_extra")
def test_a_nested_function_listed_last_adds_no_function_past_the_cap() -> None:
    """A review: a file asked for 2 functions listed 3."""
    hits = [_nested("g", 0.95, 9000, 9100), _nested("f.cb", 0.9, 5000, 5100, parent="f"),
            _nested("f", 0.1, 0, 6000)]
    (only,) = locate.files(hits, 10, functions_per_file=2)
    assert [f.qualified_name for f in only.functions] == ["g", "f.cb"]


def test_the_files_of_named_definitions_are_a_ranking_of_the_fusion() -> None:
    """"Fixed a bug where :func:`lineplot` did not pass ``linestyle``": the file defining
    ``lineplot`` was 8th of seaborn's files by its chunks (its docs elsewhere, other
    functions saying ``linestyle``), kept in the answer but not ranked up. The named
    definitions' files, in the order named, are a third ranking of the fusion."""
    by_chunks = [(1.0 - i / 20, ("r", f"{p}.py"), []) for i, p in enumerate("abcdefgh")]
    lexical = [("r", "b.py"), ("r", "g.py")]
    k, w, n = locate.LEXICAL_FILES_K, locate.LEXICAL_FILES_WEIGHT, locate.NAMED_FILES_WEIGHT
    assert n > 0
    out = locate.fused(by_chunks, lexical, 4, named=[("r", "h.py"), ("r", "e.py")])
    scores = {f"{p}.py": 1 / (k + i + 1) for i, p in enumerate("abcdefgh")}
    scores["b.py"] += w / (k + 1)
    scores["g.py"] += w / (k + 2)
    scores["h.py"] += n / (k + 1)
    scores["e.py"] += n / (k + 2)
    want = sorted(scores, key=lambda p: -scores[p])[:4]
    assert "h.py" in want  # 8th by chunks, named first: among four
    assert [key[1] for _, key, _ in out] == want
    assert [round(s, 6) for s, _, _ in out] == [round(scores[p], 6) for p in want]
    # without names the chunks and the file index alone: h.py is out of four places
    assert "h.py" not in [key[1] for _, key, _ in locate.fused(by_chunks, lexical, 4)]


def test_an_issues_page_follows_the_located_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """``service._by_files``: the first file's hits, as many as it holds among the page's
    first ``PAGE_FLOOR`` and at least ``LOCATED_FIRST_HITS``, then each next file's first
    ``LOCATED_NEXT_HITS``, then every other hit in the page's order; a file with no hit on
    the page (only the file-level index named it) places none, and no hit is lost or
    repeated."""
    from coderecalld.query import service
    monkeypatch.setattr(service, "LOCATED_FIRST_HITS", 2)
    monkeypatch.setattr(service, "LOCATED_NEXT_HITS", 1)
    page = [_hit("a.py", "a1", 0.9), _hit("b.py", "b1", 0.8), _hit("b.py", "b2", 0.7),
            _hit("c.py", "c1", 0.6), _hit("b.py", "b3", 0.5), _hit("a.py", "a2", 0.4),
            _hit("a.py", "a3", 0.3)]
    ranked = [(h, "hybrid", service.INDEX) for h in page]
    order = [("r", "b.py"), ("r", "only-in-file-index.py"), ("r", "a.py"), ("r", "c.py")]

    def names(out):
        return [h.payload["qualified_name"] for h, _, _ in out]

    # b.py holds three of the first ten: it keeps three places
    assert names(service._by_files(ranked, order)) == ["b1", "b2", "b3", "a1", "c1", "a2", "a3"]
    # two of the first four: two (LOCATED_FIRST_HITS at least)
    monkeypatch.setattr(service, "PAGE_FLOOR", 4)
    assert names(service._by_files(ranked, order)) == ["b1", "b2", "a1", "c1", "b3", "a2", "a3"]
    monkeypatch.setattr(service, "PAGE_FLOOR", 2)
    assert names(service._by_files(ranked, order)) == ["b1", "b2", "a1", "c1", "b3", "a2", "a3"]
    assert service._by_files(ranked, []) == ranked


def test_a_located_files_function_scores_never_rise_down_its_list() -> None:
    """``locate`` lists a file's first function, then the functions it calls, then by
    score: click's 1.98, 0.99, 1.28 read as a ranking out of order (three newcomers). The
    order stays; a function listed above a higher one shows that one's score, and the
    functions below keep theirs (cut to the one above, a callee's half score was every
    later function's: a newcomer)."""
    from coderecalld.query.service import _non_rising
    from coderecalld.records import FunctionHit
    listed = (FunctionHit("a", 1, 5, 1.98), FunctionHit("b", 7, 9, 0.99), FunctionHit("c", 11, 20, 1.28),
              FunctionHit("d", 21, 30, 0.5))
    assert [(f.qualified_name, f.score) for f in _non_rising(listed)] == [
        ("a", 1.98), ("b", 1.28), ("c", 1.28), ("d", 0.5)]
    # a callee placed after its caller at half its score: the rest keep their own
    callee = (FunctionHit("a", 1, 5, 0.7), FunctionHit("b", 7, 9, 0.35), FunctionHit("c", 11, 20, 0.6),
              FunctionHit("d", 21, 30, 0.55), FunctionHit("e", 31, 40, 0.2))
    assert [f.score for f in _non_rising(callee)] == [0.7, 0.6, 0.6, 0.55, 0.2]
    assert _non_rising(()) == ()


def test_a_file_ranked_by_its_top_level_code_lists_it_before_its_types() -> None:
    """flask's globals.py, ranked by its module-level message ``_no_app_msg``, listed only
    two one-line type stubs (``AppContextProxy`` 24-24) under ``TYPE_CHECKING`` (a newcomer)."""
    module = _hit("globals.py", "flask.globals", 0.9, kind="module", start=1)
    module.payload["end_line"] = 60
    stubs = [_hit("globals.py", "AppContextProxy", 0.3, kind="class", start=24),
             _hit("globals.py", "_AppCtxGlobalsProxy", 0.2, kind="class", start=26)]
    (only,) = locate.files([module, *stubs], 10, functions_per_file=2)  # the first file: 3 more
    assert [(f.qualified_name, f.start_line, f.end_line) for f in only.functions] == [
        ("flask.globals", 1, 60), ("AppContextProxy", 24, 33), ("_AppCtxGlobalsProxy", 26, 35)]
    # a function of the file is listed instead, first
    (only,) = locate.files([module, *stubs, _hit("globals.py", "_lookup", 0.1, start=40)], 10,
                           functions_per_file=2)
    assert [f.qualified_name for f in only.functions] == ["_lookup", "AppContextProxy", "_AppCtxGlobalsProxy"]
    # the module chunk alone: its functions by the words (``chunks_of``), else the chunk
    # itself, never nothing (hono's types-only ``client/types.ts`` listed no line; a newcomer)
    (only,) = locate.files([module], 10, functions_per_file=2)
    assert [(f.qualified_name, f.start_line, f.end_line) for f in only.functions] == [("flask.globals", 1, 60)]
    (only,) = locate.files([module], 10, functions_per_file=2, chunks_of=lambda repo, path: [
        _hit("globals.py", "_find_app", 0.4, start=44)])
    assert [f.qualified_name for f in only.functions] == ["_find_app"]
    (only,) = locate.files([module], 10, functions_per_file=2, chunks_of=lambda repo, path: [])
    assert [f.qualified_name for f in only.functions] == ["flask.globals"]
    alias = _hit("types.ts", "ClientRequest", 0.5, kind="type", start=3)
    (only,) = locate.files([alias], 10, functions_per_file=2)
    assert [(f.qualified_name, f.start_line) for f in only.functions] == [("ClientRequest", 3)]
    assert all(not f.functions for f in locate.files([module, alias], 10, functions_per_file=0))


def test_a_questions_first_file_lists_its_extra_functions_only_above_the_next_files_best() -> None:
    """rack's "which function converts a status symbol like :not_found into a numeric status
    code": `response.rb`'s eight predicates, down to 0.48, came before `utils.rb`'s
    `status_code` (0.72), ninth; its first five stay, the extra ones only at 0.72 or more."""
    scores = [0.73, 0.72, 0.7, 0.6, 0.55, 0.74, 0.5, 0.48]  # the extra three: 0.74, 0.5, 0.48
    first = FileHit(repo="rack", path="lib/rack/response.rb", role="source", score=0.04,
                    functions=tuple(FunctionHit(f"f{i}", i, i, s) for i, s in enumerate(scores)))
    kept = _extra_above(first, 5, 0.72)
    assert [f.qualified_name for f in kept.functions] == ["f0", "f1", "f2", "f3", "f4", "f5"]
    assert _extra_above(first, 5, 0.4) is first  # all above: unchanged
    assert [f.qualified_name for f in _extra_above(first, 8, 0.99).functions] == [f"f{i}" for i in range(8)]


def test_a_type_listed_after_the_functions_scores_no_higher_than_them(monkeypatch: pytest.MonkeyPatch) -> None:
    # a named class scores above its file's methods (its name's bonus) and is listed last,
    # by kind: its score must not exceed theirs, or ``service._non_rising`` raises every
    # method above it to the class's score (a newcomer: 30 functions all at 1.082)
    hits = [_hit("f.py", "FileField", 1.082, kind="class", start=1),
            _hit("f.py", "FileField.deconstruct", 0.741, kind="method", start=20),
            _hit("f.py", "FileDescriptor.__get__", 0.734, kind="method", start=40),
            _hit("f.py", "FileDescriptor", 0.9, kind="class", start=35)]
    found = locate.files(hits, 1, functions_per_file=30)[0]
    assert [(f.qualified_name, f.score) for f in found.functions] == [
        ("FileField.deconstruct", 0.741), ("FileDescriptor.__get__", 0.734),
        ("FileField", 0.734), ("FileDescriptor", 0.734)]
    assert found.score == round(1.082 + locate.SPREAD * 0.9, 6)  # the file keeps its evidence
    monkeypatch.setattr(locate, "LATER_KINDS_CAPPED", False)
    listed = locate.files(hits, 1, functions_per_file=30)[0].functions
    assert [f.score for f in listed] == [0.741, 0.734, 1.082, 0.9]
