"""The query path: plan each question, ask the store, enrich with the indexed commit.

Implements ``api.CodeRecallApi`` over the ledger, the store, the embedder and the mirrors.
No grpc here: the servicer decodes requests, calls these methods and encodes the results.

Every method takes the caller's ``principal`` (``auth.LOCAL``, everything, for in-process
callers). Its repo scope goes into every store filter; a repo named in a request narrows
it and a repo outside it answers exactly like an unknown one (DESIGN.md decision 10).
An empty scope answers empty without asking the store (``StoreFilter(repos=())`` means
"no restriction" there).
"""

from __future__ import annotations

import fnmatch
import functools
import itertools
import posixpath
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from coderecalld import credentials, deadline
from coderecalld.auth import LOCAL, Principal
from coderecalld.config import Config
from coderecalld.embed import sparse
from coderecalld.embed.local import Embedder
from coderecalld.errors import InvalidArgument, MirrorError, NotFound, PermissionDenied, StoreUnavailable
from coderecalld.files import classify, mirror, redact
from coderecalld.parse.registry import language_for, supported_languages
from coderecalld.parse.text import java_arity
from coderecalld.progress import DETACHED, RUNNING, Registry, Watch
from coderecalld.query import ask as asking
from coderecalld.query import (accessors, anchors, callgraph, card, confidence, fusion, impact, overlay, overloads, reuse, ruby,
                               validate)
from coderecalld.query import dialect
from coderecalld.query import frames as stack
from coderecalld.query import locate as locating
from coderecalld.query import shape as shapes
from coderecalld.query.callgraph import hit_role
from coderecalld.query.shape import Shape
from coderecalld.query.fuzzy import candidates as fuzzy_candidates
from coderecalld.query.fuzzy import judge as fuzzy_judge
from coderecalld.records import (
    VALUE_KINDS,
    Answer,
    Card,
    FileHit,
    FileState,
    FunctionHit,
    Hit,
    Impact,
    ImpactCut,
    Located,
    OverlayStatus,
    Page,
    RepoStatus,
    SearchHits,
    SourceText,
    SparseVector,
    SymbolHit,
    SymbolKind,
    is_part,
    unparted,
)
from coderecalld.store import StoreFilter
from coderecalld.store.base import HIT_FIELDS
from coderecalld.store.ledger import Ledger

#: Seconds a scope's count of points waiting for dense vectors is reused by the
#: low-confidence reason (a hint: a few seconds stale is fine, a count per query is not).
PENDING_NOTE_TTL_S = 10.0
#: Seconds a scope's count of never-embedded points (a blank text: constants, import-only
#: modules) is reused (``Service._waiting``): counting them reads every payload's text,
#: 1.6 s at 100k points.
BLANKS_TTL_S = 600.0
#: While at least this share of a hybrid query's scope waits for dense vectors (the model
#: fills them after the lexical index), the query is ranked by its words alone and the
#: answer says so, with low confidence (not an issue or a report, never embedded:
#: ``_embedded``): a chunk without a vector scores its lexical term
#: alone (at most ``fusion`` weight 0.1-0.2) against cosines of 0.3-0.8, so the code not yet
#: embedded is never on the page (structlog with 140 of 1,570 chunks embedded: the right
#: symbol in the top 5 for 4 of 17 questions, and no note; a newcomer). Seven question sets
#: (222 questions, ``eval_questions.py`` with a share of points' vectors hidden at random,
#: ``/work/lab/s31/pending_lab.py``), symbol@5 / @1: all embedded 166 / 112; 5 % hidden
#: 160 / 110; 20 % hidden 146 / 99; words alone 163 / 101.
PENDING_LEXICAL_SHARE = 0.1
#: A hybrid search page (an embedded query: a question, a name, a message) whose first
#: hit scores under ``RANK_FUSION_BELOW`` (the model is unsure) is the reciprocal-rank
#: fusion (``rank_fused``) of two rankings of the query's chunks: the score fusion below
#: (the model's cosine leads, ``SPARSE_WEIGHT_TEXT``) and the query's words alone (the
#: same ranking with no query vector, as while vectors fill): ``1 / (k + r_hybrid) +
#: RANK_FUSION_WEIGHT / (k + r_words)``. FastAPI's long methods whose parameters carry
#: ``Doc()`` prose took a question's first places by cosine while its words put the
#: function that does the work first (``solve_dependencies``: 1st by words, 20th hybrid; a
#: newcomer). 12 question sets (338 questions with an answer symbol; both rankings' first
#: 30, ``/work/lab/s34/fuse_an.py``), symbol@1 / @5: hybrid 184 / 270, words alone 179 /
#: 273; fused at k 5 always, weight 0.25 / 0.5 / 0.75: 193 / 276, 197 / 283, 199 / 284;
#: k 3, 0.4: 197 / 280; fused under 0.7 at 0.35 / 0.5 / 0.75: 190 / 279, 191 / 284,
#: 193 / 285; under 0.65 at 0.75: 190 / 280. CoSQA dev nDCG@10 (``eval_retrieval.py
#: --with``; 60.1 unfused): always at 0.25 / 0.5 / 0.75: 59.7 / 57.9 / 56.1; under 0.7 at
#: 0.35 / 0.5 / 0.75: 59.8 / 59.6 / 59.1; under 0.65 / 0.75 at 0.75: 59.6 / 58.1 (the
#: model is flattered there: its first cosine's median is 0.79, the question sets'
#: 0.60-0.80). Only the first ``RANK_FUSION_DEPTH`` of the hybrid ranking taking the
#: words' ranks (10, always, 0.5 / 0.75): CoSQA 58.4 / 57.4.
RANKINGS_FUSED = True
#: ... also for ``locate``'s candidates (measured, not done: see docs/retrieval.md).
RANKINGS_FUSED_LOCATE = False
RANK_FUSION_K = 5
RANK_FUSION_WEIGHT = 0.5
#: Only the hybrid ranking's first this many take the words' ranks (0: every chunk of both).
RANK_FUSION_DEPTH = 0
RANK_FUSION_BELOW = 0.7
#: ... and the second's score at least this share of the first's: a clear first is kept
#: (offline, the 12 sets: 0 / 0.75 / 0.8 / 0.9: symbol@5 284 / 283 / 280 / 277).
RANK_FUSION_MARGIN = 0.75
#: Largest page any query returns; larger requests are refused, not silently cut.
MAX_LIMIT = 500
#: Largest card budget (tokens); a card is meant to be a small part of a prompt.
MAX_CARD_TOKENS = 8000
#: Fusion of the two retrievers (docs/retrieval.md has every variant measured on CoSQA
#: dev): one score formula, ``cosine + w * s / (s + SPARSE_HALF)`` with ``s`` the sparse
#: (BM25) score, computed by ``fusion.hybrid`` over the dense candidates rescored by the
#: sparse retriever. The saturation puts BM25 on the cosine's 0..1 scale, so a lexical
#: match moves the dense order by a bounded amount instead of outvoting it by rank. 59.5
#: nDCG@10 vs 55.9 for the former weighted RRF (3:1, k=60), 59.2 for the best RRF (5:1,
#: k=10). ``FUSION`` names it for ``Store.hybrid``, the engine-side form of the same formula.
FUSION = "linear"
SPARSE_HALF = 20.0
#: ``w`` for a natural-language query and for a query made only of identifiers
#: (``HTTPServer.serve``, ``parse_qsl(``), where the names are the question: there the
#: lexical side gets the dense side's weight. Mixed queries interpolate. 0.1 was CoSQA's
#: best, where the model is flattered; on questions written about real repositories
#: (``tests/bench/eval_questions.py``, 78 questions on cobra, jinja, starlette and express:
#: the right symbol first / in the first 5) w 0.1 / 0.2 / 0.3 gave 34 / 37 / 36 and 59 /
#: 60 / 61 (starlette 7 / 7 / 4 first: the sparse side alone is weak there), CoSQA dev
#: nDCG@10 59.7 / 60.1 / 59.8.
SPARSE_WEIGHT_TEXT = 0.2
SPARSE_WEIGHT_CODE = 1.0
#: Candidates each retriever hands to the fusion (20, 50, 100, 200 measured; flat from 50).
PREFETCH_LIMIT = 100
#: Candidates each retriever hands to a hybrid search with a path glob, whose hits are the
#: first that match it (the engine's two-prefetch query saw at most 2 x 100 before).
GLOB_CANDIDATES = 2 * PREFETCH_LIMIT
#: Per query shape (``query/shape.py``): the sparse weight ``w`` of ``fusion.hybrid`` for an
#: identifier list or a literal (the names are the question); natural-language text keeps
#: the ``code_share`` interpolation above.
SHAPE_SPARSE_WEIGHT = {Shape.IDENTIFIER: SPARSE_WEIGHT_CODE, Shape.LITERAL: SPARSE_WEIGHT_CODE}
#: For an issue, a trace or a literal (``fusion.lexical_first``: the lexical side leads,
#: normalised to 0..1): the dense side's weight. On 35 held-out SWE-bench Lite issues
#: (issue 21) the sparse retriever alone put the fixed file in the top 5 for 68.6 % of
#: issues and the former hybrid for 37.1 %; on swe-lite-dev with the model (83 issues,
#: sympy + pylint) dense alone reached file@5 41.0 against sparse 61.4, and weights 0.1-0.5
#: moved locate file@5 77.1 -> 74.7-75.9 and search 63.9 -> 63.9-66.3: no weight helps
#: both, so 0, and 0 skips embedding the query. Literals: 0 / 0.1 / 0.3 gave Acc@1/@5
#: 80.5/92.5, 81.5/91.5, 81.5/92.5 (tests/bench/eval_shapes.py; docs/retrieval.md
#: "Every query shape").
LONG_DENSE_WEIGHT = {Shape.ISSUE: 0.0, Shape.TRACE: 0.0, Shape.LITERAL: 0.0}
#: Whether a short text that describes a change or a fault instead of asking
#: (``shape.describes``: a release note, a commit subject, a bug report's title) is embedded.
#: Not: it is ranked by its words alone, as with the model off (``fusion.hybrid`` without
#: the dense side; the role order then keeps non-source files well down), where it names
#: what the code does in the code's words. Sphinx's 104 release notes since 2024 / pytest's
#: 150 (locate file@1 / @5 / @10, function@10): embedded 56.7 / 82.7 / 86.5, 46.7 and 62.0 /
#: 90.0 / 94.0, 52.1; not 61.5 / 81.7 / 85.6, 56.5 and 71.3 / 88.7 / 95.3, 59.7; click's
#: and httpx's commit subjects 62.8 / 86.4 / 94.8 and 50.4 / 82.4 / 90.8 embedded, 66.0 /
#: 88.0 / 94.2 and 52.9 / 80.7 / 90.8 not; questions and CoSQA unchanged (docs/retrieval.md
#: "Descriptions of a change").
EMBED_DESCRIPTIONS = False
#: Short shapes ranked lexical-first too: a quoted string or config key is found by its
#: words (dense-led fusion: literal Acc@1 70.0, lexical-first 80.5, sparse alone 78.5).
LEXICAL_FIRST = frozenset({Shape.LITERAL})
#: Source first: the amount taken off a hit's ordering score (not off its reported score)
#: when its file's role is not one the query asks for (``Query.roles``; none asked: only
#: source is preferred). Chosen, not tuned (no dev set mixes roles in short questions):
#: small next to the ~0.1-0.3 spread of a page's fused scores, so a clearly better test
#: still ranks; CoSQA (one role) is unchanged; goldens: tests/integration/test_ranking_roles.py.
#: Tests 0.2: on flask, "how do I construct a Flask app" had test stubs (cosine ~0.80) over
#: the quickstart (0.745) and the best source chunk (0.666); 0.15 left them first. Docs
#: and examples 0.2 too (0.1 before): newcomers on gin and axios saw READMEs, changelogs
#: and docs/doc.md located first for "save an uploaded multipart file to a destination
#: path on disk" and "which adapter does axios pick for a request"; the flask and requests
#: questions (25/28, 20/21 in the top 5) are unchanged at 0.15 and 0.2. Docs 0.3 since the
#: fourteenth session: a docs section (a page's prose in a question's own words) still led
#: "where are the signals sent before and after a template is rendered" (flask's API page
#: 0.76 over ``_render`` 0.55) and a newcomer saw docs first on 4 of 30 uvicorn / attrs
#: queries. Written questions (``eval_questions.py``, symbol first): the new 100 54 -> 56 at
#: 0.3 and 0.4 (file first 78 -> 80 / 81); the first 137 91 -> 90 (express's "how do I run
#: the test suite locally", whose answer is its Readme, 1 -> 3; 1 -> 6 at 0.4); the six
#: labs within one subject (click @5 +0.5, httpx @5 -0.8). Generated and vendored 0.5
#: since the fifteenth session, as for an issue: they are copies of code (a bundle in
#: ``dist/``, a vendored library) or its build output, whose near-duplicate of a source
#: chunk scores alike or higher; a newcomer on axios saw four ``dist/`` copies of
#: ``combineURLs`` above ``lib/``'s for "tests for combineURLs" and the ``dist/node`` copy
#: of ``resolveConfig`` above ``lib/``'s for ``withXSRFToken`` (0.80 against 0.56).
#: Whether a role filter of several roles, source not among them, asks for each of them
#: (``_asked``): none of them pays its role's penalty against the others.
ROLES_FILTERED_ALIKE = True
ROLE_PENALTY = {"test": 0.2, "docs": 0.3, "example": 0.2, "generated": 0.5,
                "vendored": 0.5, "config": 0.05, "source": 0.0}
#: The same for an issue or a trace, on ``lexical_first``'s 0..1 lexical scale: on
#: swe-lite-dev (89 issues, the fixed file is never a test) a penalty ``p`` on every
#: non-source role put the fixed file in locate's top 5 for 61.8 / 66.3 / 67.4 / 69.7 /
#: 70.8 / 70.8 % at p = 0 / 0.1 / 0.2 / 0.3 / 0.5 / 1.0: a plateau from 0.3
#: (docs/retrieval.md "Query shapes"). 1.0, its end, since the twenty-ninth session: an
#: issue whose reproduction is a tutorial's code scores that example file twice the
#: source (typer's issue 11: `docs_src/parameter_types/enum/tutorial003.py` 1.000 against
#: `core.py`'s 0.471; a newcomer), so search's page led with six example chunks and no
#: `core.py`. swe-lite-dev snapshot and the 11 question sets unchanged, typer's 13 issues
#: search file@5 11 -> 12. An issue asking for tests (``Query.roles``) still gets them.
ROLE_PENALTY_LONG = {"test": 1.0, "docs": 1.0, "example": 1.0, "generated": 1.0,
                     "vendored": 1.0, "config": 1.0, "source": 0.0}
#: Taken off the ordering score of a hit whose role a role-asking query does not ask for
#: (source included: "tests for the cache provider" listed three source chunks before any
#: test, a newcomer on pytest); as much as a test costs a question.
ASKED_OTHER_PENALTY = 0.2
#: Taken off a stub's ordering score (``locate.is_stub``: ``@overload``, a ``.pyi`` or
#: ``.d.ts`` chunk), and off a declaration file's score in ``locate``: a signature without
#: behaviour ranked above its implementation (requests' ``Response.iter_content``, a
#: newcomer's finding; numpy's ``.pyi`` beside each ``.py`` took locate's second place for
#: 11 of 12 issues); as much as a test's.
STUB_PENALTY = 0.2
#: Taken off a whole-module chunk's ordering score for an issue or a trace: a file's
#: top-level chunk (``src.flask.app``, 1,625 lines) took page places from the functions an
#: issue is about (a newcomer on flask: 4 of 10 hits). swe-lite-dev search file@5 73.0 ->
#: 74.2, function@10 42.3 -> 44.9 at 0.2 (0.5: file@1 56.2 -> 53.9); locate unchanged.
MODULE_PENALTY_LONG = 0.2
#: Taken off the ordering score of a chunk of code in another language family than the
#: code an issue or a trace shows (``dialect.families``: its fences' languages, its frames'
#: and paths' files), in a repository none of whose candidates is code of that family
#: (``dialect.Scope``), in search's order and locate's file ranking: as much as a test's
#: (``ROLE_PENALTY_LONG``), on the lexical-first 0..1 scale. Without a repo filter a Go
#: panic drew flask's files, a PHP trace Polly's C# ones (newcomer trials). 0: off.
LANGUAGE_PENALTY = 1.0
#: The same for a natural-language question: a file's whole-module chunk (every word of
#: the file on the lexical side, its top-level code on the dense one) answers "how does
#: X work" with a whole file; the question is about a function (express's ``lib.response``,
#: cobra's module chunks first for "how does cobra pick the command"). Questions on
#: cobra, jinja, starlette and express (``eval_questions.py``, w 0.2): right symbol first
#: 37 -> 38 of 78, in the first 5 60 -> 62, right file in the first 5 78 -> 77.
MODULE_PENALTY_TEXT = 0.1
#: Query shapes whose search page leaves out a whole-module chunk below a hit of its own
#: file (``_without_covered_modules``).
MODULE_COVERED_SHAPES = frozenset({Shape.TEXT})
#: ... for a file of at most this many lines (its module chunk is little more than the
#: hit above it; a longer one's is top-level code the hit may not hold: a review). Chosen,
#: not tuned (axios's helpers are 10-40 lines); with no bound requests' Q20 went 10 -> 9 and
#: click's search function@10 50.6 -> 51.1, at 60 neither moved.
COVERED_MODULE_LINES = 60
#: Frames a trace needs before none of them in an indexed file says it is another
#: project's (``_foreign``).
FOREIGN_MIN_FRAMES = 2
#: Query shapes whose search page names the function enclosing a nested one it holds, right
#: after it (``_with_enclosing``): a callback's few lines matched a question about its
#: enclosing function, whose chunk the model reads only the first ``EMBED_TEXT_CHARS`` of
#: (axios's 136-line ``Axios._request`` chains its interceptors in two nested callbacks
#: at its end; they ranked 1 and 2, ``_request`` itself not in the first 60).
ENCLOSING_SHAPES = frozenset({Shape.TEXT})
#: Functions a page gains so, at most (each takes a place from the hits below it).
ENCLOSING_INSERTS = 2
#: Files whose functions are looked up for it, at most (one keyword lookup each).
ENCLOSING_FILES = 4
#: Languages whose nested functions are symbols of their own, named under the function
#: holding them (``a.b.c``; Go's closures are no symbols, Rust's and C++'s join with ``::``).
NESTING_LANGUAGES = frozenset({"python", "javascript", "typescript", "tsx", "jsx"})
#: Taken off a type's chunk (a class, struct, interface, trait or enum: ``_TYPE_KINDS``)
#: for a short text that asks for no type (``Query.types``): a class chunk is its header
#: and docstring, which say what the class is for in a question's own words, and it ranked
#: above the method that does what was asked (requests' ``HTTPAdapter`` above
#: ``HTTPAdapter.__init__`` for "where are the default connection pool size and retry count
#: set", an exception class above the code raising it: ``CookieConflictError`` above
#: ``RequestsCookieJar._find_no_duplicates``). ``locate`` already lists types after
#: functions (``locate._functions``). Written questions, right symbol first / in the first
#: 5 (``eval_questions.py``): on requests, flask, httpx and click (100, written for this
#: by a helper who never ran the product) 43 / 81 -> 49 / 82 at 0.05, 52 / 82 at 0.1, 54 /
#: 82 at 0.15 and 0.2; on cobra, starlette, jinja and express (78) 41 / 61 -> 43 / 61, 44
#: / 61, 44 / 62, 44 / 62; of 33 questions whose rank moved at 0.15, one fell (4 -> 5).
#: A type the text names (``Query.symbols``: "Fix typo in RemoteProtocolError
#: description", an httpx commit subject that lost its file's first place) is spared.
TYPE_PENALTY_TEXT = 0.15
#: Taken off a function defined inside a test function (``_test_closure``: a view, a
#: handler or a fake written for that test) besides its role's penalty, for a short text
#: that asks for no tests: flask's ``test_session_vary_cookie.vary_cookie_header_set`` (0.79) came
#: first above ``SecureCookieSessionInterface.save_session`` (0.56) for "where is the Vary
#: Cookie header added to the response", the test role's 0.2 short of the gap (a
#: newcomer). Second after 0.1; on the 237 written questions and the six labs nothing else
#: moved (such closures are rarely among the first candidates).
TEST_CLOSURE_PENALTY = 0.1
#: Subtracted from the definition of an exception class a trace's error line names
#: (``Query.raised``): the trace asks where it was raised, and the class's chunk matched
#: the heavy exception-name terms best (jinja's ``TemplateAssertionError`` and
#: ``TemplateSyntaxError`` before the lexer and compiler raising them; requests'
#: two-line ``TooManyRedirects`` 0.47 above ``resolve_redirects``). Traces only: an issue
#: may be about the exception class itself. 0.2 / 0.5 on the four question sets
#: (``eval_questions.py --set``): the same answers, right answers flagged low 2 / 1 on
#: jinja's and starlette's messages each; requests' ``Exceeded 30 redirects.`` first at 0.5.
RAISED_CLASS_PENALTY = 0.5
#: Candidates read beyond the page so the role order can promote a source hit from below it.
ROLE_OVERFETCH = 20
#: ... beyond a page of at least this many hits: a shorter page is the first part of this
#: one, not an answer of its own (marshmallow's ``"Invalid fields for"`` answered five tests
#: at ``--limit 5`` and the one source chunk holding it first at ``--limit 7``: it was the
#: 27th candidate, read only from a limit of 7 on; a newcomer).
PAGE_FLOOR = 10
#: Hits every search ranks before it cuts its page (``_search``'s ``fetch``), whatever the
#: ``limit`` up to this: a page of ``limit`` hits is then the first part of any longer page
#: up to ``RANKED_FLOOR``. The later steps read the ranked list whole: the rank fusion of the
#: hybrid and the lexical orders (``rank_fused``) gave a hit the lexical order ranks 21st
#: its second vote only when ``limit`` let both lists reach that deep, so the first ten
#: hits depended on ``limit``: 13 of 24 questions on loguru and hono differed between
#: ``--limit 10`` and ``--limit 50`` (a newcomer; loguru's ``Logger._log`` 9th at 50, absent
#: at 10), 17 of 48 question/scope pairs on packaging and jsonschema. With 50: 1 of 24 and
#: 2 of 48 (an enclosing class or an evidence holder a shorter page inserts). Measured with
#: the model: the 24 + 24 questions' top-5 and first answers unchanged (``search`` unscoped
#: first 18 -> 19 on packaging/jsonschema), CoSQA dev nDCG@10 59.2 -> 59.2 (R@10 82.4 ->
#: 82.2), p50 32.5 -> 32.2 ms (6.5k chunks, a busy machine).
RANKED_FLOOR = 50
#: A short query's search page that asks for no role and would show a hit of another role
#: ordered below every candidate read (``_source_missed``: a source chunk past the pool
#: may order above it), also reads the source chunks alone (one more hybrid query) and
#: orders them in. typer: "where does the typer command find the Typer app object inside
#: a python script or module" filled 76 of 100 places with `docs_src/` tutorials' module
#: chunks and never showed `get_typer_from_module`, first with `--role source` (a
#: newcomer); at `--limit 200` it was first: the page depended on the limit.
SOURCE_RESCUE = True
#: Name match, for a short natural-language question: a code symbol whose name has two or
#: more words, all in the question (``register_blueprint`` for "where are blueprints
#: registered on the app"), is ordered up by ``NAME_MATCH_WEIGHT``, among the first
#: ``NAME_MATCH_DEPTH`` fused candidates (which the role order then also sees). CoSQA dev
#: hybrid nDCG@10 (fresh index, tests/bench/eval_retrieval.py): 59.6 without; 59.7 / 59.3 /
#: 58.6 at 0.03 / 0.06 / 0.1; a partial-share bonus (any name word) lost 0.3-6.7 points at
#: 0.03-0.15, so only whole names count. Flask questions (docs/retrieval.md "Name match").
#: ``locate`` orders each file's functions the same way (its file scores stay as they
#: were): search's first hit ``GoogleDocstring._parse_raises_section`` for "The napoleon
#: extension does not parse Google-style Raises sections" was missing from locate's first
#: file's eight functions. Written questions (``eval_questions.py``, 137): locate symbol@1
#: / @5 94 / 114 -> 95 / 116; release notes unchanged. A name is the payload's ``name`` or
#: its qualified name's last part (``locate`` reads no ``name``).
NAME_MATCH_WEIGHT = 0.03
NAME_MATCH_DEPTH = 100
#: Verbatim tokens of a short query checked for exact evidence, and the rank (1-based) a
#: chunk holding one takes when the page would otherwise lack it.
MAX_EVIDENCE = 3
#: Chunks read for a command-line option's word (``--lf``: ``lf``), kept when their text
#: holds the option itself: the word alone is also a part of identifiers (``LFPlugin``).
OPTION_DEPTH = 30
#: The most methods a member call written as code (``c.json``) may mean to be answered by
#: them (``_members``): more is a common name (``get``), no evidence.
MEMBER_DEFINITIONS = 6
#: Exact-name definitions an identifier query reads before ordering and pinning them
#: (a page of up to this many is the same whatever its ``limit``).
EXACT_READ = 100
#: Where a verbatim token's or message's chunk is placed, unless the page holds one of its
#: role or a better one within these first ranks already. Held anywhere on the page
#: counted before: ``locate`` reads 400 candidates as its page and so never placed one
#: (serde_json: the chunk printing "EOF while parsing a value" was sixth of locate's
#: candidates, its file fifth).
EVIDENCE_RANK = 3
#: Whether an identifier a question writes (``_CODE_TOKEN``: ``FORCE_COLOR``) that one
#: source chunk alone uses as code, and no definition is named, places that chunk first,
#: not at ``EVIDENCE_RANK``: "where is the FORCE_COLOR environment variable read" is
#: answered by its one reader (rich's ``Console.is_terminal`` was third, under two chunks
#: the model liked; a newcomer).
SOLE_HOLDER_FIRST = True
#: Source chunks read on the token's words to see that one alone holds it.
SOLE_HOLDER_READS = 4
#: A message a source chunk holds whole in a string literal (no prefix of it; whole but
#: a location the runtime appended) takes the first place instead: the literal is where
#: the message is raised or printed (hono's ``Context is not finalized. ...`` was third,
#: behind two chunks of its words). eval_shapes.py trace Acc@1 (sympy + pylint, 108
#: ``Error: message`` of their raises, hybrid): 67.6 at rank 3, 88.0 first.
WHOLE_MESSAGE_FIRST = True
#: ... as does a template printing it with at least this many literal words (jq's
#: ``"Cannot use %s (%s) as object key"``, httpx's ``f'Invalid "auth" argument:
#: {auth!r}'``, pasted with their values filled in). 4 / 3: click's ``No such option
#: '--verbos'. Did you mean '--verbose'?`` (two spellings) answered core.py / the file
#: printing "Did you mean {possibility}?"; CoSQA 59.7, flask 25/28 and requests 20/21
#: questions either way (``eval_retrieval.py``, ``/tmp/s24/nlq_modes.py``). At 3
#: (``shape.TEMPLATE_MIN_WORDS``) every template that holds a message qualifies; kept as
#: the knob those runs set (``--set service.TEMPLATE_FIRST_WORDS=4``).
TEMPLATE_FIRST_WORDS = 3
#: Hits read past a page's ``limit`` for the parts of long functions it answers once
#: (``_collapse_parts``).
PART_OVERFETCH = 10
#: Characters of a chunk's source its payload ``embed_text`` holds (``locate.EMBEDDED_CHARS``,
#: ``index/chunk.py`` ``DEFAULT_MAX_CHARS``): a verbatim check of a longer chunk reads its
#: lines from git.
EMBED_TEXT_CHARS = locating.EMBEDDED_CHARS
#: Files (blobs) whose chunks' cut texts a message's verbatim check reads whole, per query
#: (``_holds_verbatim``): the best chunks by the message's words (blobs cached by id: a
#: file's chunks share one read, so a file's other chunks cost no read). serde_json's
#: ``ErrorCode::fmt`` prints "trailing characters" past its first 2,000 characters,
#: eleventh by the message's words: 2 reads went to better-scoring chunks. Counted by
#: chunk, marshmallow's ``Schema`` (its error table 300 lines in) was never read: six long
#: methods of the same two files took the reads.
VERBATIM_READS = 6
#: Blobs kept read for those checks (``_blob_bytes``; at most ``index.max_file_bytes`` each).
BLOB_CACHE = 32
#: Classes a ``--prefix`` lookup of ``Class.`` lists the members of (``_member_prefix``).
MEMBER_CLASSES = 5
_TYPE_KINDS = frozenset({"class", "interface", "struct", "trait", "enum"})
#: The kinds ``TYPE_PENALTY_TEXT`` applies to: types and type aliases (a TypeScript ``type
#: Hooks = {...}`` whose doc comments say what each hook is for: ky's type declarations
#: were 37 of a newcomer's 120 hits).
_PENALISED_TYPE_KINDS = _TYPE_KINDS | {"type_alias"}
#: Chunks a pasted message's words are looked up in (``_with_sentence``). A template's
#: chunk holds few of a message's words (``{value!r} is not a valid {number_type}.``:
#: click's ``_NumberParamTypeBase.convert`` was 42nd for ``Invalid value for '--count':
#: 'abc' is not a valid integer.``); 50 of them cost ~3 ms, their payloads' texts only.
#: A message holding no value (no quote, digit or colon: most of them are questions'
#: words, CoSQA's "python read file into list") reads ``SENTENCE_PLAIN_DEPTH``: its words
#: are the code's, verbatim or not at all.
SENTENCE_DEPTH = 50
SENTENCE_PLAIN_DEPTH = 10
_VALUE_HINT = re.compile(r"[\"'`:\d]")
#: What a message's candidates are read with (``_holds_verbatim``, an inserted hit's role).
_SENTENCE_FIELDS = ("repo", "path", "kind", "start_byte", "end_byte", "blob_id", "embed_text")
#: Chunks read per evidence token: its best and those tied with it (source first among them).
EVIDENCE_DEPTH = 5
EVIDENCE_PHRASE_SHARE = 0.5
#: A question asking for a symbol's callers (``Query.callers``) has its calling chunks
#: placed from this rank (1-based), at most ``CALLER_INSERTS`` of them; 0: off. First:
#: they are the answer (``eval_caller_questions.py``, 60 names of httpx / httpcore / h11 x
#: 2 phrasings, sparse side: a calling chunk first 34.2 % of questions ranked by their
#: words, 28.3 % placed from rank 2, 91.7 % from rank 1; in the first 5 88.3 -> 97.5 %).
#: Eight of a page of ten: the callers are the answer (4 listed seaborn's "who calls
#: iter_data" with 4 of its 16 calling functions, and a chunk saying ``iter(..)`` beside
#: them; a newcomer); the places left show the definition or the best other hit.
CALLER_RANK = 1
CALLER_INSERTS = 8
#: A definition whose whole name a short question's adjacent words spell
#: (``Query.compounds``) takes this rank (1-based) when the page lacks it; 0: off.
COMPOUND_RANK = 3
#: The rank a short question's first symbol written as a member of its owner
#: (``Class.method``, ``Mod::Class#method``; ``Query.symbols``) takes when the index
#: resolves it to functions or methods (``callgraph.definitions``), written as the
#: question's subject (``_subject``); 0: ``COMPOUND_RANK`` as any other. The 13 question
#: sets (model on, ``eval_questions.py``): symbol@1 +1 (click's ``Context.invoke``),
#: nothing else moved; arrow + rack (24 newcomer questions):
#: ``DateTimeFormatter._format_token``, ``Rack::Builder#map`` and ``Rack::Response#finish``
#: first, they were 2nd, 2nd and 3rd.
MEMBER_RANK = 1
COMPOUND_MAX_DEFINITIONS = 1
#: A name a short question writes as code (``Query.symbols``) that is the whole qualified
#: name of some of its definitions means those (``lineplot``: seaborn's function, not
#: ``_RegressionPlotter.lineplot``), before ``COMPOUND_MAX_DEFINITIONS`` is applied: two
#: definitions of one name named neither, and "Fixed a bug where :func:`lineplot` ..."
#: listed relational.py 10th. Sparse-only, locate file@1/5/10: seaborn's release notes
#: 65.1/87.2/97.7 -> 68.6/89.5/97.7; its subjects and werkzeug's unchanged (docs/retrieval.md
#: "A bare name's definition").
SYMBOL_QUALIFIED_FIRST = True
_COMPOUND_KINDS = frozenset({"function", "method", "class", "constructor", "interface", "struct",
                             "enum", "trait", "type"})
#: Chunk candidates ``locate`` ranks files from, and the most files it answers. swe-lite-dev
#: (89 issues, sparse, issue_lab.py --set service.LOCATE_CANDIDATES=N): 100 / 200 / 400 /
#: 600 / 800 gave file@5 76.4 / 77.5 / 79.8 / 79.8 / 78.7, function@10 47.4 / 48.7 / 50.0 /
#: 51.3 / 50.0 at locate p50 16 / 26 / 34 / 48 / 58 ms (76k-chunk store, loaded machine).
LOCATE_CANDIDATES = 400
#: An issue's chunk search reads ``LOCATE_CANDIDATES`` candidates and orders
#: each by its own ordering score plus this share of its file's (``locate.file_scores``):
#: the chunks of the file the whole issue points at come before a lone strong chunk
#: elsewhere. swe-lite-dev (89 issues, sparse, issue_lab.py) search file@1/5/10, fn@10:
#: 30 candidates, no prior 57.3/74.2/76.4, 44.9; 400 candidates with a share of 0 / 0.25 /
#: 0.5 / 1 / 2: 59.6/78.7/83.1, 42.3 / 59.6/78.7/80.9, 47.4 / 60.7/79.8/79.8, 48.7 /
#: 61.8/70.8/70.8, 46.2 / 62.9/66.3/66.3, 47.4 (a large share fills the page from fewer files).
#: Not for a trace: its answer is one raise site (eval_shapes.py trace Acc@5 81.2 -> 79.3
#: with 0.5; issues are all of swe-lite-dev).
FILE_PRIOR = {Shape.ISSUE: 0.5}
#: Query shapes whose search page is led by ``locate``'s first file (``_by_files``): its
#: hits among the page's first ``PAGE_FLOOR`` (at least ``LOCATED_FIRST_HITS``) come
#: first, then the page in its own order. The chunks' first file is not always the one
#: ``locate`` ranks first from the same candidates (the file-level index, the leading
#: file: ``locate.files``), and ``locate``'s is right more often. Showing the next files'
#: best chunks too (``LOCATED_NEXT_HITS``) widened the page at the first file's expense:
#: file@5 up, function@10 down on every set of release notes (docs/retrieval.md "An
#: issue's page led by its located file").
LOCATED_ORDER_SHAPES = frozenset({Shape.ISSUE})
LOCATED_FIRST_HITS = 1
LOCATED_NEXT_HITS = 0
#: Hits of ``locate``'s first file an issue's page leads with at most (0: all it holds
#: among the page's first ``PAGE_FLOOR``). Three newcomers (sphinx, xarray, django) found
#: pages of ten chunks of one file; swe-lite-dev search file@5/10, function@10 with
#: ``LOCATED_NEXT_HITS`` 1: all 78.7/79.8, 55.1; at most 7: 78.7/82.0, 50.0; at most 5:
#: 79.8/83.1, 50.0 (next hits alone: 77.5/80.9, 55.1). A wider page costs the functions.
LOCATED_FIRST_MAX = 0
#: Files of ``locate``'s ranking read for that order.
LOCATED_ORDER_FILES = 10
MAX_LOCATE_FILES = 100
#: Whether an issue's or a trace's Python frames in another package's files are left out
#: of it, when the trace runs through indexed files too (``Service._without_foreign``).
FOREIGN_FRAMES_DROPPED = True
#: Files ``locate`` ranks at least, whatever its ``limit``: its answer's first files do not
#: depend on how many are asked (the default page).
LOCATE_RANKED_FILES = 10
#: Whether a question's first located file lists its extra functions (``locate.
#: FIRST_FILE_EXTRA``) only when they score at least the second file's best (``_extra_above``;
#: issues keep them: measured there, docs/retrieval.md).
FIRST_EXTRA_ABOVE_NEXT = True
#: Whether a function nested in its caller (a closure, ``get_table.append_row``) counts as
#: a callee ``locate`` lists after it (``_callees``): its lines are the caller's own, and it
#: took the first file's places after ``Autosummary.get_table`` and
#: ``ClassDocumenter._get_signature`` (a newcomer's Sphinx issues).
NESTED_CALLEES = False
#: A call's name matched to more same-file definitions than this (``__init__``, ``eval``
#: of many classes) names no callee (``_callees``).
CALLEE_MAX_DEFINITIONS = 2
_PLAIN_NAME = re.compile(r"^[^\W\d]\w*[!?]?$")
LOCATE_FIELDS = ("repo", "path", "role", "kind", "language", "qualified_name", "start_line", "end_line",
                 "snippet", "parent", "start_byte", "end_byte", "declares", "prose")
#: Query shapes whose ``locate`` fuses the file-level index's ranking (``locate.fused``):
#: a short text and a pasted issue (measured on six sets of both: docs/retrieval.md
#: "File-level terms"); a trace, identifiers and literals were not measured.
LEXICAL_FILES_SHAPES = frozenset({Shape.TEXT, Shape.ISSUE})
#: Files of the file-level index fused, and the chunks read of a file only it names (to
#: list that file's functions: ``_file_chunks``).
LEXICAL_FILES_DEPTH = 50
LEXICAL_FILE_CHUNKS = 400
#: The roles the file-level index answers from when neither the filter nor the query
#: names any (``()``: every role).
LEXICAL_FILES_ROLES: tuple[str, ...] = (str(classify.Role.SOURCE),)
# Base#route!, A\B::c, JS's private Hono.#dispatch
_IDENTIFIER = re.compile(r"^\\?(?:[^\W\d]|\$)[\w$]*[!?]?(?:(?:\.#?|::|#|\\)(?:[^\W\d]|\$)[\w$]*[!?]?)*$")
#: A call's argument list closing a name (``Element.text()``, ``Element.html(String)``,
#: ``parse(css, root)``): no nested parentheses, one line.
_CALL_ARGUMENTS = re.compile(r"\([^()\n]*\)$")


def uncalled(text: str) -> str:
    """``text`` without the argument list closing it when what is left is one name
    (``_IDENTIFIER``): ``Element.text()`` -> ``Element.text``; else ``text`` itself."""
    bare = _CALL_ARGUMENTS.sub("", text.strip())
    return bare if bare != text.strip() and _IDENTIFIER.match(bare) else text


#: A module-qualified name with a module path (Go's ``github.com/gin-gonic/gin.node.getValue``).
_MODULE_QUALIFIED = re.compile(r"^[\w.@~-]+(?:/[\w.@~-]+)+\.[^\W\d]\w*(?:\.[^\W\d]\w*)*$")
_HIDDEN_KINDS = ("section",)
#: A constant's or an environment variable's name, in capitals with an underscore
#: (``WEB_CONCURRENCY``, ``_MAX_RETRIES``): pinned only by a definition spelt so, not by a
#: case-insensitive match. Not a capitals-only word: ``JSON`` and ``URL`` name the types
#: ``Json`` and ``Url`` (Rust, Go, .NET) as their lowercase spelling does.
_SHOUTED = re.compile(r"^_*[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
# A qualified name (``Flask.run``, ``a::b``): the code may write it in parts (``self.run``),
# so its absence as one token is no evidence of anything.
_DOTTED_NAME = re.compile(r"\w(?:\.|::)\w")
#: ``search`` modes: both retrievers fused, or one alone.
SEARCH_MODES = ("hybrid", "dense", "sparse")
_WILDCARDS = "*?["
INDEX, OVERLAY = "index", "overlay"  # SymbolHit.source
# (hit, match, source) of one ranked answer; the query's (dense, sparse) vectors.
Ranked = list[tuple[Hit, str, str]]
Vectors = tuple[Any, Any]
_R = TypeVar("_R")
#: A query speaking of what is not implemented: a function raising ``NotImplementedError``
#: is its answer, no stub (``locate.NOT_IMPLEMENTED_ASKED``).
_NOT_IMPLEMENTED = re.compile(r"NotImplemented|\b(?:not|un)\s*implemented\b|must be implemented", re.IGNORECASE)


def _not_implemented_asked(method: Callable[..., _R]) -> Callable[..., _R]:
    """``method`` (``search``, ``locate``: ``query`` first) with
    ``locate.NOT_IMPLEMENTED_ASKED`` set for its query while it runs."""
    @functools.wraps(method)
    def run(self: Any, query: str, *args: Any, **kwargs: Any) -> _R:
        token = locating.NOT_IMPLEMENTED_ASKED.set(bool(_NOT_IMPLEMENTED.search(query or "")))
        try:
            return method(self, query, *args, **kwargs)
        finally:
            locating.NOT_IMPLEMENTED_ASKED.reset(token)
    return run


class Service:
    """Answers queries. ``sync`` runs one repo's sync now (the daemon's job runner)."""

    progress: Registry = DETACHED  # Daemon.open sets the daemon's (WatchProgress)
    #: Measure ``Features.agree`` for every hybrid answer, not only where it can change
    #: the verdict (``confidence.needs_agreement``): the evaluation harness replays other
    #: thresholds on it.
    full_features: bool = False

    def __init__(self, cfg: Config, ledger: Ledger, store: Any, embedder: Embedder | None,
                 sync: Callable[[str], None] | None = None,
                 overlay: overlay.Overlay | None = None) -> None:
        self.cfg = cfg
        self.ledger = ledger
        self.store = store
        self.embedder = embedder
        self._sync = sync
        self.overlay = overlay
        self._scope_counts: dict[StoreFilter, tuple[float, int]] = {}
        self._pending_bounds: dict[StoreFilter, tuple[float, int]] = {}
        self._blank_counts: dict[StoreFilter, tuple[float, int]] = {}
        self._store_repos: tuple[int, frozenset[str] | None] = (0, None)
        # repo -> ((repo, indexed commit), its indexed paths by suffix): anchors' deeper paths
        self._path_suffixes: dict[str, tuple[tuple[str, str], anchors.PathSuffixes]] = {}

    # --- search ---------------------------------------------------------------------

    @_not_implemented_asked
    def search(self, query: str, limit: int = 10, repo: str = "", language: str = "",
               path_prefix: str = "", *, path_glob: str = "", kind: str = "", mode: str = "",
               session: str = "", role: str | tuple[str, ...] = "",
               principal: Principal = LOCAL) -> SearchHits:
        """Search chunks by meaning and by identifiers, best first.

        ``mode`` is ``hybrid`` (default, also ``""``): both retrievers fused, and a query
        that exactly names a symbol gets that symbol pinned first; ``dense`` or ``sparse``:
        that retriever alone, nothing pinned (for measurement). ``repo``, ``language``,
        ``kind`` match exactly, ``path_prefix`` is a string prefix and ``path_glob`` an
        fnmatch glob over the whole path (``*`` spans ``/``). ``session`` adds that
        session's overlay files (``source = "overlay"``), which shadow their committed
        versions. The answer carries ``low_confidence`` (``confidence.confidence``).

        Any query shape is understood (``query/shape.py``): a question, identifiers, a
        literal, a trace, a pasted issue of up to ``validate.MAX_SEARCH_QUERY_CHARS``
        characters; the retrievers are weighed by shape (``SHAPE_SPARSE_WEIGHT``,
        ``LONG_DENSE_WEIGHT``; a text describing a change, ``EMBED_DESCRIPTIONS``). Hybrid
        orders source before tests, docs and examples unless the query asks for those
        (``ROLE_PENALTY``), and a distinctive token of a short query that the index holds
        verbatim puts a chunk holding it on the page (match ``"evidence"``). ``role``: only
        files of these roles (``files.classify.Role``; one name, a comma-separated list or a
        tuple).
        Raises ``InvalidArgument`` for an empty or oversized query, a bad limit, an unknown
        mode, role or a malformed session.
        """
        query = validate.text("query", query, validate.MAX_SEARCH_QUERY_CHARS).strip()
        if not query:
            raise InvalidArgument("query: must not be empty")
        limit = _limit(limit, 10)
        mode = self._mode(mode)
        validate.text("language", language, validate.MAX_LANGUAGE_CHARS)
        validate.text("path_prefix", path_prefix, validate.MAX_PATH_CHARS)
        validate.text("path_glob", path_glob, validate.MAX_PATH_CHARS)
        validate.text("kind", kind, validate.MAX_LANGUAGE_CHARS)
        language, kind = language.lower(), kind.lower()  # "Python" means python
        _known("language", language, _LANGUAGES)
        _known("kind", kind, _KINDS)
        roles = _roles(role)
        flt = self._filter(principal, repo, language=language, kind=kind,
                           path_prefix=path_prefix or _literal_prefix(path_glob))
        if flt is None:
            return SearchHits([], *confidence.confidence(confidence.Features(mode, 0)))
        flt = replace(flt, roles=roles)
        asked = self._asked(query, flt, roles)
        ranked, features = self._search(asked, flt, limit, mode, path_glob, principal, session)
        if asked.long and ranked:  # the flat-top rule's exemption (not in dense mode)
            features = replace(features, named_top=self._names_file(
                asked, flt, str(ranked[0][0].payload.get("path", "")), titles=mode != "dense"),
                foreign=self._foreign(asked, flt))
        low, reason = confidence.confidence(features)
        if not ranked and not shapes.sparse_vector(asked).indices:
            # `"~="`: "no hits (a filter may leave none: --repo ..)" blamed the filters (a newcomer)
            reason = (f"no word of {query.strip()[:80]!r} is searchable: punctuation and stop words "
                      "are not indexed; search for the words around it")
        if low and features.mode != "sparse":
            reason += self._pending_note(flt)
        if mode == "dense" or (mode == "hybrid" and _embedded(asked)):
            low, reason = self._filling_note(flt, low, reason, mode)
        unfinished = self._first_index_note(flt)
        if unfinished:  # a partial index can miss the answer, however strong the hits look
            low, reason = True, unfinished + (f"; {reason}" if reason else "")
        commits: dict[str, str] = {}  # one ledger read per repo, not per hit (~3 ms each)
        return SearchHits([self._hit(h, match, score=score, commits=commits, source=source)
                           for (h, match, source), score in zip(ranked, _descending(ranked), strict=True)],
                          low, reason, features)

    def _mode(self, mode: str) -> str:
        """``mode`` of ``search`` or ``locate`` (``""``: hybrid), checked: one of
        ``SEARCH_MODES``, and ``dense`` only with the model (without it, dense answered "no
        hits", low confidence "no results": nothing relevant; a newcomer). Raises
        ``InvalidArgument``."""
        mode = mode or "hybrid"
        if mode not in SEARCH_MODES:
            raise InvalidArgument(f"mode: must be one of {', '.join(SEARCH_MODES)}, got {mode!r}")
        if mode == "dense" and self.embedder is None:
            raise InvalidArgument("mode: dense needs the embedding model, and this daemon runs "
                                  "without it ([embedding] enabled = false); use hybrid or sparse")
        return mode

    def _search(self, asked: shapes.Query, flt: StoreFilter, limit: int, mode: str, path_glob: str,
                principal: Principal, session: str, fields: tuple[str, ...] | None = HIT_FIELDS,
                file_prior: bool = True) -> tuple[Ranked, confidence.Features]:
        """The ranked answer to the analysed query ``asked`` (committed hits less shadowed
        ones, merged with the session's overlay hits in the same order) and its confidence
        features. Hybrid hits carry the payload ``fields`` (None: all of it).
        ``file_prior``: order an issue's chunks with their file's score (``FILE_PRIOR``)
        and answer each long function once (``_collapse_parts``); ``locate`` ranks files
        itself, from every part, and passes False."""
        view = self._view(principal, session, flt)
        # A glob is checked here, after the store's prefix filter: a one-retriever mode
        # over-fetches so it still fills a page; hybrid reads payloads until it has ``limit``
        # matches (``_ranked``).
        glob = path_glob if _has_wildcard(path_glob) else ""
        fetch = MAX_LIMIT if glob and mode in ("dense", "sparse") else max(limit, RANKED_FLOOR)
        if file_prior:  # parts of one function collapse into one hit: read a few more
            fetch = min(fetch + PART_OVERFETCH, MAX_LIMIT)
        # an issue's page follows ``locate``'s files: rank them from every candidate
        located = mode == "hybrid" and file_prior and asked.shape in LOCATED_ORDER_SHAPES
        if located:
            fetch = max(fetch, LOCATE_CANDIDATES)
        embed = self.embedder and mode != "sparse" and (mode == "dense" or (
            _embedded(asked) and not self._filling(flt)))
        vectors = (self.embedder.embed_query(asked.dense_text).tolist() if embed else None,
                   shapes.sparse_vector(asked))
        fusions: dict[str, fusion.Fused] = {}
        # a second ranking (``rank_fused``) reads again what the first read: once per request
        reading = reuse.Reused(self.store)

        def committed(using: Vectors, into: dict[str, fusion.Fused]) -> Ranked:
            """The index's ranking of ``asked`` with ``using``, less what the session hides."""
            return [(h, m, INDEX) for h, m in self._ranked(reading, asked, using, flt,
                                                           fetch + view.shadow_points, mode, fields,
                                                           into, INDEX, glob, file_prior)
                    if not view.hides(h)]

        ranked = committed(vectors, fusions)
        if (RANKINGS_FUSED and mode == "hybrid" and vectors[0] is not None and (file_prior or RANKINGS_FUSED_LOCATE)
                and _unsure(ranked)):
            # the same page ranked by the query's words alone (as while vectors fill), and
            # both orders fused by their ranks (``rank_fused``)
            ranked = rank_fused(ranked, committed((None, vectors[1]), {}))
        if view.flt is not None:
            overlaid = [(overlay.restore(h), m, OVERLAY) for h, m in self._ranked(
                self.overlay.store, asked, vectors, view.flt, fetch, mode, fields, fusions,
                OVERLAY, glob, file_prior)]
            hits = [r[0] for r in ranked + overlaid]
            ranked = _merge(ranked, overlaid, _ordering(asked, hits, file_prior)
                            if mode == "hybrid" else (lambda h: -h.score))
        if path_glob:
            ranked = [r for r in ranked if _in_glob(r[0], path_glob)]
        order: list[tuple[str, str]] = []
        by_chunks: Ranked = []
        if located:  # from every candidate, before parts collapse, as ``locate`` ranks
            found = self._ranked_files(asked, ranked, flt, mode, LOCATED_ORDER_FILES, 0)[0]
            order = [(f.repo, f.path) for f in found]
        if file_prior:
            ranked = _collapse_parts(ranked)
            if asked.shape in MODULE_COVERED_SHAPES:
                ranked = _without_covered_modules(ranked)
            if asked.long:
                ranked = _modules_after_symbols(ranked, max(limit, PAGE_FLOOR))
            if order:
                # the flag stays judged on the chunks' own order, as it was measured
                by_chunks = ranked[:limit]
                ranked = _by_files(ranked, order)
                if asked.long:
                    ranked = _modules_after_symbols(ranked, max(limit, PAGE_FLOOR))
                if MEMBERS_FIRST:
                    ranked = _members_first(ranked, max(limit, PAGE_FLOOR))
        if mode == "hybrid" and asked.shape in ENCLOSING_SHAPES and file_prior:
            # a search page (``locate`` lists a file's functions by its own rule)
            ranked = self._with_enclosing(ranked, flt, limit, fields, view, path_glob)
        absent: list[str] = []  # one-word evidence no indexed chunk holds (hybrid only)
        unheld: list[str] = []  # a quoted literal no hit holds verbatim (hybrid only)
        if mode == "hybrid":
            ranked = self._with_evidence(asked, ranked, flt, limit, fields, view, path_glob, absent)
            if HOLDERS_FIRST and asked.shape is Shape.IDENTIFIER and _CODE_TOKEN.fullmatch(asked.text.strip()):
                extra = (self._source_code_holders(asked.text.strip(), ranked[:limit], flt, view, path_glob, fields)
                         if not asked.roles and not flt.roles else [])
                ranked = self._holders_first(asked.text.strip(), ranked, limit, asked.roles, extra)
            elif LITERAL_HOLDERS_FIRST and asked.shape is Shape.LITERAL:
                ranked = self._literal_holders_first(asked, ranked, flt, limit, fields, view, path_glob, unheld)
        ranked = ranked[:limit]
        if file_prior and any(locating.is_overload(h.payload) for h, _, _ in ranked):
            ranked = self._implemented(ranked, flt, fields, view)
        features = self._features(asked, mode, by_chunks if order else ranked, vectors, flt, view,
                                  fusions)
        if (mode == "hybrid" and not absent and asked.shape is Shape.IDENTIFIER and view.flt is None
                and len(asked.text.split()) == 1 and _DOTTED_NAME.search(asked.text)):
            absent = self._absent_member(asked.text, flt)  # a qualified name's member
        elif asked.shape is Shape.TEXT and ABSENT_TEXT_NAMES:
            # a code word of a question or a report no indexed chunk holds: the API it asks
            # about is not here ("FluxCapacitor no longer works" answered a CLI group at 0.13
            # with no note: a report is ranked by its words alone, on a scale no floor
            # judges; two newcomers)
            absent = [token for token in absent if not _DOTTED_NAME.search(token) and not _ACRONYMS.fullmatch(token)
                      and not self._singular_held(token, flt)]
        elif not (len(asked.evidence) == 1 and (asked.shape is Shape.LITERAL or (
                asked.shape is Shape.IDENTIFIER and absent and not _DOTTED_NAME.search(absent[0])))):
            absent = []
        if absent and view.flt is None:  # no session overlay
            features = replace(features, absent=absent[0], scoped=bool(
                path_glob or flt.path or flt.path_prefix or flt.language or flt.kind or flt.roles))
        elif unheld and ranked:
            features = replace(features, unheld=unheld[0])
        return ranked, replace(features, shape=str(asked.shape))

    def _implemented(self, page: Ranked, flt: StoreFilter, fields: tuple[str, ...] | None,
                     view: overlay.View) -> Ranked:
        """``page`` with each Python ``@overload`` stub (``locate.is_overload``) answered by
        its implementation, the last definition of its name in its file, at the stub's
        place and score; one a page answers already, or a later stub of it, is left out.
        ``_ranked`` collapses stubs whose implementation is among the candidates
        (``_collapse_stubs``); arrow's ``api.get`` was shown at a stub's lines, 41-58, its
        implementation (83-86) nowhere on the page (a newcomer). One keyword lookup per
        file holding such stubs."""
        wanted: dict[tuple[str, str], set[str]] = {}
        for hit, _, source in page:
            if source == INDEX and locating.is_overload(hit.payload):
                wanted.setdefault(_chunk_key(hit.payload)[:2], set()).add(str(hit.payload["qualified_name"]))
        last: dict[tuple[str, str, str], Hit] = {}
        for (repo, path), names in wanted.items():
            for h in self._file_definitions(flt, repo, path, names, _with_role_fields(fields)):
                key = (repo, path, str(h.payload["qualified_name"]))
                if view.hides(h) or locating.is_stub(h.payload) or is_part(key[2]):
                    continue
                if key not in last or int(h.payload.get("start_line", 0)) > int(last[key].payload.get("start_line", 0)):
                    last[key] = h
        out: Ranked = []
        shown: set[str] = set()
        for hit, match, source in page:
            key = (*_chunk_key(hit.payload)[:2], str(hit.payload.get("qualified_name", "")))
            if source == INDEX and key in last and locating.is_overload(hit.payload):
                hit = replace(last[key], score=hit.score)
            if hit.id in shown:
                continue
            shown.add(hit.id)
            out.append((hit, match, source))
        return out

    def _ranked(self, store: Any, asked: shapes.Query, vectors: Vectors, flt: StoreFilter,
                limit: int, mode: str, fields: tuple[str, ...] | None,
                fusions: dict[str, fusion.Fused], source: str,
                glob: str = "", file_prior: bool = True) -> list[tuple[Hit, str]]:
        """``store``'s answer; a hybrid one leaves its ``fusion.Fused`` in ``fusions[source]``
        (what ``_features`` judges agreement from). With ``glob``, hybrid hits are the first
        ``limit`` of ``GLOB_CANDIDATES`` fused candidates whose path matches it. Hybrid
        reads ``ROLE_OVERFETCH`` more candidates and orders them by ``_order``."""
        dense, sparse_vector = vectors
        # a name written as its call (``Element.text()``) names the definition: with its
        # parentheses it pinned nothing, and a method named by an English word lost to its
        # namesakes (``Element.val()`` first; a newcomer)
        query = uncalled(asked.text) if asked.shape is Shape.IDENTIFIER else asked.text
        if mode == "sparse":
            if not sparse_vector.indices and _IDENTIFIER.match(query):
                # Every word a stop word: the one lexical hit left is a symbol the whole
                # query names (a function `to`: conformance case 34).
                return [(h, "exact") for h in self._exact(store, query, flt, limit)]
            return [(h, "sparse") for h in store.sparse_search(sparse_vector, flt, limit)]
        if mode == "dense":
            return [(h, "dense") for h in store.dense_search(dense, flt, limit)] if dense else []
        # read past the page (``EXACT_READ``), ordered, then cut with the page: which
        # definitions are pinned must not depend on ``limit`` (attrs' `collect_by_mro` pinned
        # three stubs at --limit 8, the implementation at 10)
        pinned = (self._exact(store, query, flt, max(limit, EXACT_READ))
                  if (asked.shape is Shape.IDENTIFIER and _IDENTIFIER.match(query))
                  or (asked.shape is Shape.LITERAL and _MODULE_QUALIFIED.match(query)) else [])
        if asked.shape is Shape.IDENTIFIER and _SHOUTED.match(query):
            # a constant or an environment variable (``WEB_CONCURRENCY``) is not the
            # lowercase function of its letters (uvicorn's test fixture ``web_concurrency``
            # was pinned first, the code reading the variable absent: a newcomer)
            pinned = [h for h in pinned if _written(query, h.payload)]
        # nor is a lowercase name (an option key ``force_ip_resolve``) the constant
        # ``FORCE_IP_RESOLVE`` holding it: a constant is pinned as written
        # (or a class's member a subclass inherits, its name as written: ``SubSub.get`` is
        # ``Sub``'s ``get = _cached_get``)
        pinned = [h for h in pinned if h.payload.get("kind") not in VALUE_KINDS or _written(query, h.payload)
                  or (h.payload.get("parent") and h.payload.get("name") == shapes.dotted(query).rpartition(".")[2])]
        # the name as written first, then source (a bundle's copies in dist/ held the first
        # places), an implementation before a declaration, then by path and line
        pinned.sort(key=lambda h: (not _written(query, h.payload), *_source_order(h.payload),
                                   str(h.payload.get("path", "")), int(h.payload.get("start_line", 0))))
        members = (self._members(store, query, flt) if not pinned and asked.shape is Shape.IDENTIFIER
                   else [])
        if (not pinned and not members and asked.shape is Shape.IDENTIFIER and source == INDEX
                and _PLAIN_NAME.match(query.strip())):
            pinned = self._bindings(query.strip(), flt, fields)
        depth = limit + min(len(pinned), limit) + ROLE_OVERFETCH
        if file_prior and FILE_PRIOR.get(asked.shape, 0.0) > 0:
            depth = max(depth, LOCATE_CANDIDATES)
        name_match = asked.shape is Shape.TEXT and NAME_MATCH_WEIGHT > 0
        if fields is not None and "path" not in fields:
            fields = (*fields, "path")
        if asked.long or asked.shape in LEXICAL_FIRST:
            # A glob is applied to these hits afterwards (``_search``): read enough of them.
            fused = fusion.lexical_first(store, dense, sparse_vector, flt,
                                         max(depth, GLOB_CANDIDATES) if glob else depth,
                                         dense_weight=LONG_DENSE_WEIGHT.get(asked.shape, 0.0),
                                         prefetch=PREFETCH_LIMIT, fields=fields)
        else:
            weight = SHAPE_SPARSE_WEIGHT.get(asked.shape, SPARSE_WEIGHT_TEXT + (
                SPARSE_WEIGHT_CODE - SPARSE_WEIGHT_TEXT) * code_share(query))
            keep = (lambda h: _in_glob(h, glob)) if glob else None
            if name_match:
                depth = max(depth, NAME_MATCH_DEPTH)
            fused = fusion.hybrid(store, dense, sparse_vector, flt, depth,
                                  weight=weight, half=SPARSE_HALF,
                                  prefetch=GLOB_CANDIDATES if glob else PREFETCH_LIMIT,
                                  fields=fields, keep=keep)
        fusions[source] = fused
        candidates = fused.hits
        # a search page's (``locate`` reads its candidates whole and passes no file prior)
        if (SOURCE_RESCUE and file_prior and not (asked.long or asked.shape in LEXICAL_FIRST) and not asked.roles
                and not flt.roles and len(candidates) >= depth
                and _source_missed(asked, candidates, limit, file_prior)):
            held = {h.id for h in candidates}
            own = fusion.hybrid(store, dense, sparse_vector, replace(flt, roles=(str(classify.Role.SOURCE),)),
                                depth, weight=weight, half=SPARSE_HALF,
                                prefetch=GLOB_CANDIDATES if glob else PREFETCH_LIMIT, fields=fields, keep=keep)
            candidates = candidates + [h for h in own.hits if h.id not in held]
        if asked.long:
            candidates = anchors.boost(store, asked, flt, candidates, fields,
                                       self._suffixes(flt) if source == INDEX else None)
            if glob:  # before the order and the cut: a page cut first could hold no match
                candidates = [h for h in candidates if _in_glob(h, glob)]
        pinned_ids = {h.id for h in (*pinned, *members)}
        key = _ordering(asked, candidates, file_prior)
        ranked = [(h, "exact") for h in pinned] + [(h, "name") for h in members]
        ranked += sorted(((h, "hybrid") for h in candidates if h.id not in pinned_ids),
                         key=lambda item: key(item[0]))
        return _without_older_copies(_collapse_stubs(ranked))[:limit]

    def _with_enclosing(self, ranked: Ranked, flt: StoreFilter, limit: int,
                        fields: tuple[str, ...] | None, view: overlay.View, path_glob: str) -> Ranked:
        """``ranked`` with the function enclosing a nested function of its first ``limit``
        hits right after the first of them (match ``"enclosing"``), moved up from below or
        read from the store, unless it is above already, when the nested one starts past
        the source the model read of the enclosing one (``locate.enclosing``: its lines
        were embedded only as the nested function's; a short enclosing function was read
        whole and ranked on its own); at most ``ENCLOSING_INSERTS``. One keyword lookup per
        file holding a nested function on the page, at most ``ENCLOSING_FILES``; none when
        no hit may be nested (``_may_be_nested``: a page of 300 methods asked 300 lookups,
        a review)."""
        asked: dict[tuple[str, str], set[str]] = {}
        for hit, _, source in ranked[:limit]:
            p = hit.payload
            if source == INDEX and _may_be_nested(p) and (
                    (key := (str(p.get("repo")), str(p.get("path")))) in asked or len(asked) < ENCLOSING_FILES):
                asked.setdefault(key, set()).update(locating.enclosing_names(str(p.get("qualified_name", ""))))
        read = _with_role_fields(fields)
        functions = {(repo, path): [h for h in self._file_definitions(flt, repo, path, names, read)
                                    if not view.hides(h) and _in_glob(h, path_glob)]
                     for (repo, path), names in asked.items()}
        rows = list(ranked)
        i = inserted = 0
        while i < min(limit, len(rows)) and inserted < ENCLOSING_INSERTS:
            hit, _, source = rows[i]
            where = _chunk_key(hit.payload)[:2]
            outer = locating.enclosing(functions[where], hit) if where in functions and source == INDEX else None
            if outer is not None:
                name = str(outer.payload["qualified_name"])
                at = next((j for j, r in enumerate(rows) if _chunk_key(r[0].payload)[:2] == where
                           and unparted(str(r[0].payload.get("qualified_name", ""))) == name), None)
                if at is None or at > i:
                    if at is not None:
                        del rows[at]
                    rows.insert(i + 1, (replace(outer, score=hit.score), "enclosing", INDEX))
                    inserted += 1
                    i += 1  # the function placed asks for no function around it
            i += 1
        return rows

    def _asked(self, query: str, flt: StoreFilter, roles: Sequence[str] = ()) -> shapes.Query:
        """``query`` analysed for ``flt``'s scope: without the one repository's own name
        (``shape.without_project``) and a trace's frames in another package's files
        (``_without_foreign``), asking for the roles of ``roles``, a role filter of several
        roles none of which is source (``Query.roles``): ``--role test,docs`` answered tests
        only, the docs ranked under them by their role's penalty (click's "Exit Codes"
        sections, first with ``--role docs``; a newcomer). With source among them, source
        still leads."""
        asked = self._without_foreign(shapes.without_project(shapes.analyze(query), self._project_names(flt)), flt)
        if ROLES_FILTERED_ALIKE and len(roles) > 1 and classify.Role.SOURCE not in roles:
            asked = replace(asked, roles=asked.roles | frozenset(roles))
        return asked

    def _without_foreign(self, asked: shapes.Query, flt: StoreFilter) -> shapes.Query:
        """``asked`` without its Python frames in another package's files when the trace
        also runs through ``flt``'s (``shape.without_frames``, ``anchors.foreign_frames``);
        as it is for any other shape (no store call)."""
        if not FOREIGN_FRAMES_DROPPED or asked.shape not in (Shape.ISSUE, Shape.TRACE) or len(asked.frames) < 2:
            return asked
        return shapes.without_frames(asked, anchors.foreign_frames(self.store, asked, flt, self._suffixes(flt)))

    def _foreign(self, asked: shapes.Query, flt: StoreFilter) -> int:
        """The frames of a trace alone (``Shape.TRACE``) none of which is in an indexed file
        of ``flt`` (``anchors.indexed_frames``), else 0: a trace of another project's code,
        answered by its words alone (a gson newcomer's ``com.acme.json.JsonReader`` frames
        got gson's benchmarks, unflagged). Not one frame alone (``FOREIGN_MIN_FRAMES``):
        a Rust panic's one location is the caller's (``thread 'main' panicked at
        src/main.rs:27:10``, ``#[track_caller]``) whatever code panicked, and an axum
        newcomer's pasted panics were flagged above their right answers."""
        if asked.shape is not Shape.TRACE or len(asked.frames) < FOREIGN_MIN_FRAMES:
            return 0
        found = anchors.indexed_frames(self.store, asked, flt, self._suffixes(flt))
        return 0 if found else len(asked.frames)

    def _names_file(self, asked: shapes.Query, flt: StoreFilter, path: str, *,
                    titles: bool = True) -> bool:
        """Whether the issue or trace ``asked`` points at the file ``path``: names it by
        path (``shape.names_file``) or, with ``titles``, by a title name only it defines in
        ``flt`` (``anchors.title_defined_in``): the flat-top flag's exemptions."""
        return shapes.names_file(asked, path) or (
            titles and anchors.title_defined_in(self.store, asked, flt, path))

    def _absent_member(self, query: str, flt: StoreFilter) -> list[str]:
        """``[member]`` when ``query`` is one qualified name (``Sinatra::Helpers#
        websocket_upgrade!``, ``GuzzleHttp\\Client::sendWebSocket``) whose member no
        indexed chunk in scope holds as a word and nothing defines, else ``[]``: its owner's
        chunks matched its parts, confidently (a newcomer's two such searches answered the
        ``Sinatra`` module at 0.89 with no flag; the bare name was flagged). One sparse
        query and, when it finds nothing, one keyword lookup."""
        member = stack.callable_name(query).rsplit(".", 1)[-1].rstrip("!?=")
        vector = shapes.evidence_vector(member) if member else None
        if vector is None or len(vector.indices) != 1:
            return []
        if self.store.sparse_search(vector, flt, 1, fields=("path",)):
            return []
        # a definition of that name (a constant past the text its module's chunk is read
        # from has no terms of its own: a review's ``uuid.NAMESPACE_URL``)
        return [] if self.store.find(flt, "name", member, limit=1) else [member]

    def _with_evidence(self, asked: shapes.Query, ranked: Ranked, flt: StoreFilter, limit: int,
                       fields: tuple[str, ...] | None, view: overlay.View,
                       path_glob: str = "", absent: list[str] | None = None) -> Ranked:
        """``ranked`` with, for each of the first ``MAX_EVIDENCE`` verbatim tokens of a short
        query (``Query.evidence``) that the page lacks but some indexed chunk holds, the
        best such chunk (source first) at rank ``EVIDENCE_RANK`` (match ``"evidence"``): an
        exact string the index holds is never lost below fused scores, and a source chunk
        holding it is not hidden by a test holding it too (the page holds a token when a
        chunk of that role or a better one holds it). A chunk holds a word when it has
        its term, a phrase when it scores at least ``EVIDENCE_PHRASE_SHARE`` of the best
        chunk on its words; a command-line option (``--lf``) when its text holds the option
        as a whole word (its word alone is a part of ``LFPlugin``: ``OPTION_DEPTH`` chunks
        are read and the page's texts checked). One sparse query per token, one score
        lookup for the page. A one-word token no chunk in scope holds is appended to
        ``absent``. Then the definitions the question names (``_with_symbols``,
        ``_with_compounds``), and last a message's holder (``_with_sentence``)."""
        page = ranked[:limit]
        for token in asked.evidence[:MAX_EVIDENCE]:
            vector = shapes.evidence_vector(token)
            if vector is None:
                continue
            option = _option_text(token)
            held = self.store.sparse_search(
                vector, flt, (OPTION_DEPTH if option else EVIDENCE_DEPTH) + view.shadow_points,
                fields=None if option else fields)
            found = [h for h in held if not view.hides(h) and _in_glob(h, path_glob)]
            if option:  # the option's word is also a part of identifiers (--lf: LFPlugin)
                found = [h.keep(fields) for h in found if _holds_text(h, option)]
                if not asked.roles and not flt.roles and all(hit_role(h.payload) != "source" for h in found):
                    # its tests say `--tb` more often than the one long function registering
                    # it (pytest's `pytest_addoption`, 150 lines: "where is the --tb option
                    # read" answered `on_rm_rf_error`; a newcomer): source holders, deeper
                    found = self._source_holders(vector, token, flt, view, path_glob, fields,
                                                 LITERAL_HOLDER_DEPTH) or found
                if not found:
                    continue
            if not found:
                # one word no indexed chunk (in scope) holds; not when the glob or the
                # session only left out the chunks read (a glob's match may lie deeper:
                # jq's `reduce` in parser.y was reported absent with `--path-glob '*.y'`)
                if (absent is not None and len(vector.indices) == 1 and not held
                        and token not in shapes.example_values(asked.text)):
                    absent.append(token)
                continue
            if (not option and not asked.roles and not flt.roles
                    and all(hit_role(h.payload) != "source" for h in found)):
                found = self._source_holders(vector, token, flt, view, path_glob, fields) or found
            bar = found[0].score * EVIDENCE_PHRASE_SHARE if len(vector.indices) > 1 else 0.0
            # an identifier: a chunk using it as code (read verbatim, whatever its score
            # on the identifier's words) before one naming it in prose
            code = (self._as_code([h.id for h in found], token)
                    if not option and _CODE_TOKEN.fullmatch(token) else None)
            best = min((h for h in found if h.score > bar or (code and h.id in code)), key=lambda h: (
                _penalty(h.payload, asked.roles, ROLE_PENALTY), code is not None and h.id not in code,
                -h.score))
            rank = EVIDENCE_RANK
            if (SOLE_HOLDER_FIRST and code and best.id in code and asked.shape is Shape.TEXT
                    and hit_role(best.payload) == "source"
                    and self._sole_source_holder(vector, token, flt, view, path_glob, best)):
                rank = 1
            # Held by a page chunk of its role or a better one: a test holding ``tmp_path``
            # most often was placed though the fixture's source was first.
            worst = _penalty(best.payload, asked.roles, ROLE_PENALTY)
            ids = [h.id for h, _, source in page[:rank] if source == INDEX
                   and _penalty(h.payload, asked.roles, ROLE_PENALTY) <= worst]
            if option:
                held = ids and any(_holds_text(h, option)
                                   for h in self.store.retrieve(ids, fields=("embed_text",)))
            elif code and best.id in code:  # held as code, not only in a docstring
                held = bool(ids) and bool(self._as_code(ids, token))
            else:
                held = any(s > bar for s in self.store.sparse_scores(vector, ids).values())
            if held:
                continue
            page = _insert([r for r in page if r[0].id != best.id], best, "evidence",
                           min(rank, limit), limit)
        if asked.symbols and COMPOUND_RANK > 0:
            page = self._with_symbols(asked, page, flt, limit, fields, view, path_glob)
        if asked.compounds and COMPOUND_RANK > 0:
            page = self._with_compounds(asked, page, flt, limit, fields, view, path_glob)
        if asked.callers and CALLER_INSERTS > 0:
            page = self._with_callers(asked, page, flt, limit, fields, view, path_glob)
        if asked.sentence:  # last: a name the message's words spell must not push it off
            page = self._with_sentence(asked, page, flt, limit, fields, view, path_glob)
        return page + [r for r in ranked[limit:] if r not in page]

    def _sole_source_holder(self, vector: SparseVector, token: str, flt: StoreFilter,
                            view: overlay.View, path_glob: str, best: Hit) -> bool:
        """Whether ``best`` is the one source chunk in scope using the identifier ``token``
        as code and no definition is named ``token`` (an environment variable, a settings
        key: ``SOLE_HOLDER_FIRST``). One sparse query of ``SOLE_HOLDER_READS`` source chunks,
        one name lookup."""
        if self.store.find(flt, "name", token, limit=1):
            return False
        holders = self._source_holders(vector, token, flt, view, path_glob, ("path",), depth=SOLE_HOLDER_READS)
        # another file's top-level code holding it reads it too (``_as_code`` reads no module)
        if any(h.payload.get("kind") == locating.MODULE_KIND and h.payload.get("path") != best.payload.get("path")
               for h in holders):
            return False
        return self._as_code([h.id for h in holders], token) == {best.id}

    def _source_holders(self, vector: SparseVector, token: str, flt: StoreFilter,
                        view: overlay.View, path_glob: str,
                        fields: tuple[str, ...] | None, depth: int = 0) -> list[Hit]:
        """The source chunks holding ``token`` verbatim among the first ``EVIDENCE_DEPTH``
        source chunks its words find (``vector``), best first, for a token whose best
        holders are all tests, docs or other roles: 30 marshmallow tests asserting
        ``"Invalid fields for"`` held its words better than the one method raising it, which
        the evidence never read (it read the first ``EVIDENCE_DEPTH`` holders). One sparse
        query, the texts of long chunks read as ``_holds_verbatim`` reads them."""
        read = None if fields is None else tuple(dict.fromkeys((*_with_role_fields(fields), *_SENTENCE_FIELDS)))
        pattern = _phrase(token)
        texts: dict[str, str] = {}
        return [h.keep(_with_role_fields(fields)) for h in self.store.sparse_search(
                    vector, replace(flt, roles=("source",)), (depth or EVIDENCE_DEPTH) + view.shadow_points,
                    fields=read)
                if not view.hides(h) and _in_glob(h, path_glob) and self._holds_verbatim(h, pattern, texts)]

    def _with_sentence(self, asked: shapes.Query, page: Ranked, flt: StoreFilter, limit: int,
                       fields: tuple[str, ...] | None, view: overlay.View, path_glob: str) -> Ranked:
        """``page`` with a chunk holding the message ``asked.sentence`` at rank
        ``EVIDENCE_RANK`` (match ``"evidence"``): one holding it verbatim whole, else one
        with a template printing it (``shape.message_templates``: ``"{value!r} is not a
        valid {number_type}."`` prints ``'abc' is not a valid integer.``; the most literal
        words first), else one holding it without a location or a prefix of it
        (``shape.sentence_patterns``: ``'... status code ' + status``); the best such by
        role (source first: axios's ``settle.js`` builds the message, its test holds it
        whole), then by that order, then by the sparse score of the message's words; unless
        the page holds it so already within ``EVIDENCE_RANK`` in a chunk of that role or a
        better one (a first hit holding it where the evidence would go first is then
        relabelled ``"evidence"``: pinned, for the confidence and ``locate``). One sparse query (``SENTENCE_DEPTH`` chunks, their texts read), two for
        a message with a location, and one text read of the page."""
        # the message's words, and without the location a runtime appended (its words,
        # ``line``, ``column``, matched tests and position helpers before the message)
        vectors = [v for v in (shapes.evidence_vector(t) for t in dict.fromkeys(
            (asked.sentence, shapes.sentence_core(asked.sentence))) if t) if v is not None]
        if not vectors:
            return page
        read = None if fields is None else tuple(dict.fromkeys((*_with_role_fields(fields), *_SENTENCE_FIELDS)))
        # quoted by the asker (a literal): the words are the code's, verbatim, read deeper
        # (or by a question quoting it: marshmallow's "Missing data for required field." is
        # held by the class `Field`, 11th by the message's words)
        quoted = any(f"{q}{asked.sentence}{q}" in asked.text for q in "\"'")
        depth = (SENTENCE_DEPTH if asked.shape is Shape.LITERAL or quoted or _VALUE_HINT.search(asked.sentence)
                 else SENTENCE_PLAIN_DEPTH)
        lists = [self.store.sparse_search(vector, flt, depth + view.shadow_points, fields=read)
                 for vector in vectors]
        # rank by rank across the two lists: a long chunk's text is read for the first
        # ``VERBATIM_READS`` that need it, and the message's core words find its holder
        found = [h for h in _dedupe(h for row in itertools.zip_longest(*lists) for h in row if h is not None)
                 if not view.hides(h) and _in_glob(h, path_glob)]
        texts: dict[str, str] = {}  # a long chunk's whole text, read once
        patterns = shapes.sentence_patterns(asked.sentence)

        # every pattern is a run of the message's first words: a chunk without the shortest
        # holds none (one search instead of one per pattern, for most chunks)
        shortest = min(patterns, key=lambda p: p.pattern.count("\\W+"))

        def holds(h: Hit) -> tuple[int, int, int] | None:
            """How ``h`` holds the message, smaller better: (0, 0, _) whole, (1, -words, 0)
            by a template, (2, k, _) by the k-th other pattern, the last 0 in a string
            literal and 1 in a comment or a docstring's prose (serde_json's ``ErrorCode``
            enum documents "trailing characters", its ``Display`` prints them); None when it
            does not."""
            k = None
            if self._holds_verbatim(h, shortest, texts):
                k = next((i for i, pattern in enumerate(patterns) if self._holds_verbatim(h, pattern, texts)), None)
            text = texts.get(h.id) or str(h.payload.get("embed_text", ""))
            if k == 0:
                return 0, 0, _in_prose(text, patterns[0])
            words = shapes.template_words(text, asked.sentence)
            if words:
                return 1, -words, 0
            return None if k is None else (2, k, _in_prose(text, patterns[k]))

        held = [(_penalty(h.payload, asked.roles, ROLE_PENALTY), how, -h.score, h)
                for h in found if (how := holds(h)) is not None]
        # a class or module holds its methods' messages: the method holding it as well is
        # where it is raised (jinja's ``FileSystemLoader`` class came before its
        # ``get_source``)
        held = [r for r in held if not any(_encloses(r[3], o[3]) and o[1] <= r[1] for o in held)]
        if not held:
            return page
        worst, how, _, best = min(held, key=lambda r: r[:3])
        # a source string literal printing the whole message is where it is raised: first
        # (whole; its template with TEMPLATE_FIRST_WORDS literal words; whole but the
        # location a runtime appended)
        whole = how == (0, 0, 0) or (how[0] == 1 and -how[1] >= TEMPLATE_FIRST_WORDS) or (
            how == (2, 1, 0) and bool(shapes.sentence_core(asked.sentence)))
        rank = 1 if worst == 0.0 and whole and WHOLE_MESSAGE_FIRST else EVIDENCE_RANK
        ids = [h.id for h, _, source in page[:rank] if source == INDEX
               and _penalty(h.payload, asked.roles, ROLE_PENALTY) <= worst]
        holders = [h.id for h in self.store.retrieve(ids, fields=_SENTENCE_FIELDS)
                   if (mine := holds(h)) is not None and mine <= how and not _encloses(h, best)] if ids else []
        if holders:
            if rank == 1 and page[0][0].id in holders and page[0][1] == "hybrid":
                # first already, as the evidence would place it: say so (its confidence is
                # the evidence's; attrs' raise site of a pasted message was flagged low,
                # a test holding the message whole scoring above it before the role order)
                page = [(page[0][0], "evidence", page[0][2]), *page[1:]]
            return page
        return _insert([r for r in page if r[0].id != best.id], best.keep(_with_role_fields(fields)),
                       "evidence", min(rank, limit), limit)

    def _source_code_holders(self, token: str, page: Ranked, flt: StoreFilter, view: overlay.View,
                             path_glob: str, fields: tuple[str, ...] | None) -> Ranked:
        """Source chunks off ``page`` using the identifier ``token`` as code (``_as_code``),
        among the first ``EVIDENCE_DEPTH`` source chunks its words find that hold it
        (``_source_holders``), at most ``HOLDERS_JOINING``, best first: starlette's
        ``redirect_slashes`` answered ``Router.__init__`` storing it and no chunk reading it
        (``Router.app``, 6th). One sparse query, at most ``CODE_READS`` chunk reads."""
        vector = shapes.evidence_vector(token)
        if vector is None or HOLDERS_JOINING <= 0:
            return []
        seen = {r[0].id for r in page}
        found = [h for h in self._source_holders(vector, token, flt, view, path_glob, fields) if h.id not in seen]
        code = self._as_code([h.id for h in found], token) if found else set()
        return [(h, "evidence", INDEX) for h in found if h.id in code][:HOLDERS_JOINING]

    def _holders_first(self, token: str, ranked: Ranked, limit: int,
                       roles: frozenset[str] = frozenset(), extra: Ranked = ()) -> Ranked:
        """``ranked`` with, among its first ``limit``, the chunks using ``token`` as code
        (``_as_code``) right after the pinned definition of that name (match ``"exact"``),
        source ones first (unless the query asks for a role), each group in its order: a
        query that is one identifier asks where it is, and a
        chunk of its words that does not hold it is no answer (werkzeug's
        ``automatically_set_content_length`` answered ``EnvironBuilder.content_length``
        first and ``WERKZEUG_SERVER_FD`` a function reading ``WERKZEUG_RUN_MAIN``; the
        one function reading it was third). ``extra``: source chunks off the page using it
        (``_source_code_holders``), with the page's holders. One blob read per page chunk
        (``_as_code``)."""
        page = ranked[:limit]
        rest = [r for r in page if r[1] != "exact"]
        code = self._as_code([r[0].id for r in rest if r[2] == INDEX], token, reads=limit)
        joined = [r for r in extra if r[0].id not in code]
        code |= {r[0].id for r in joined}
        both = [*(r for r in rest if r[0].id in code), *joined]
        # a class holding its method's use: the method is where it is, the class after the
        # holders of its role
        holders = sorted(both, key=lambda r: (_holder_cost(r[0].payload, roles), any(
            o is not r and _encloses(r[0], o[0]) for o in both)))
        return _holders_before(page, ranked, limit, holders, roles) if holders else ranked

    def _literal_holders_first(self, asked: shapes.Query, ranked: Ranked, flt: StoreFilter, limit: int,
                               fields: tuple[str, ...] | None, view: overlay.View, path_glob: str,
                               unheld: list[str] | None = None) -> Ranked:
        """``ranked`` with, among its first ``limit``, the chunks holding the quoted literal
        ``asked.text`` verbatim (``_holds_verbatim``; quotes off) first, by role (source
        first unless the query asks for a role), each role's in page order, then the rest.
        Source holders the page lacks (``_source_holders``: among the first
        ``EVIDENCE_DEPTH`` source chunks of its words) join the source ones after the
        page's. A quoted literal asks where it is written: cobra's ``"unknown command"``
        answered one source function and nine tests, ``legacyArgs`` printing it absent, and
        starlette's ``"starlette.exception_handlers"`` ranked two chunks without it above
        the one holding it. Unchanged when nothing holds it. One text read of the page, one
        sparse query (source holders) of ``LITERAL_HOLDER_DEPTH``. A literal neither the page
        nor those source chunks hold is appended to ``unheld`` (the answer's confidence says
        so: a quoted phrase no chunk holds, "frobnicate the widget cache", answered a
        constructor at 1.0 with no note; a newcomer)."""
        literal = _unquoted(asked.text)
        if not literal:
            return ranked
        pattern = _phrase(literal)
        page = ranked[:limit]
        texts: dict[str, str] = {}
        ids = [r[0].id for r in page if r[2] == INDEX]
        read = self.store.retrieve(ids, fields=_SENTENCE_FIELDS) if ids else []
        holding = {h.id for h in read if self._holds_verbatim(h, pattern, texts)}
        held = [r for r in page if r[2] == INDEX and r[0].id in holding]
        vector = shapes.evidence_vector(literal)
        seen = {r[0].id for r in page}
        extra = ([(h, "evidence", INDEX) for h in self._source_holders(vector, literal, flt, view, path_glob, fields,
                                                                       LITERAL_HOLDER_DEPTH)
                  if h.id not in seen][:limit]
                 if vector is not None and not asked.roles and not flt.roles else [])
        if (not held and not extra and unheld is not None
                and not any(shapes.template_words(str(h.payload.get("embed_text", "")), literal) for h in read)):
            # a message with the values it printed is held by a template (``f"Invalid URL
            # {url!r}: .."``): flagged as held by none, a review
            unheld.append(literal)
        both = held + extra  # a class holding its method's literal: the method is where it is
        both = [r for r in both if not any(o is not r and _encloses(r[0], o[0]) for o in both)]
        holders = sorted((r for r in both if r[1] != "exact"), key=lambda r: _holder_cost(r[0].payload, asked.roles))
        return _holders_before(page, ranked, limit, holders, asked.roles) if holders else ranked

    def _as_code(self, ids: Sequence[str], token: str, reads: int = 0) -> set[str]:
        """The ids of ``ids`` whose chunk uses the identifier ``token`` as code
        (``_in_code``: not only in a comment or a docstring), each read once from its file's
        blob (``_chunk_source``, redacted: the embedded text repeats a docstring unquoted); at
        most the first ``CODE_READS``, module chunks (whole files) never.
        flask's ``json_provider_class`` is a class attribute, no symbol: its evidence was
        ``JSONProvider``'s docstring naming it, and ``App.__init__``, which calls it, was
        not on the page."""
        out = set()
        for h in self.store.retrieve(list(ids)[:reads or CODE_READS], fields=_SENTENCE_FIELDS):
            if h.payload.get("kind") == "module":
                continue  # a whole file: its symbols' chunks say where the code is
            # the source lines: the embedded text repeats a docstring unquoted
            source = self._chunk_source(h.payload)
            if _in_code(redact.text(source, str(h.payload.get("path", "")))[0], token):
                out.add(h.id)
        return out

    def _holds_verbatim(self, hit: Hit, pattern: re.Pattern[str], texts: dict[str, str]) -> bool:
        """Whether ``hit``'s chunk holds ``pattern``: its ``embed_text``, and where that was
        cut (``EMBED_TEXT_CHARS``: a long function's message lay past its first 2,000
        characters, gin's ``node.addRoute``), its lines from its file's blob
        (``_chunk_source``; redacted where they match), at most ``VERBATIM_READS`` chunks per query (``texts`` caches
        them by id); a chunk that cannot be read holds nothing."""
        text = str(hit.payload.get("embed_text", ""))
        if pattern.search(text):
            return True
        module = hit.payload.get("kind") == "module"
        if len(text) < EMBED_TEXT_CHARS:
            return False
        if module and not (MODULE_TAIL_VERBATIM and hit.payload.get("language") == "python"):
            return False  # a module chunk's top-level code is told apart in Python only
        if hit.id not in texts:
            # a blob's read is the cost (cached: its other chunks' lines are a slice of it)
            blob = f"blob:{hit.payload.get('blob_id', '')}"
            if blob not in texts and sum(key.startswith("blob:") for key in texts) >= VERBATIM_READS:
                return False
            texts[blob] = ""
            texts[hit.id] = self._chunk_source(hit.payload)
        source = texts[hit.id]
        found = pattern.search(source)
        # a module chunk's lines are its file's: it holds its top-level code's alone (its
        # symbols hold theirs)
        if found and module:
            found = next((m for m in pattern.finditer(source) if _top_level(source, m.start())), None)
        # redacted only when it holds the pattern: a secret must not be found by its words
        return bool(found) and bool(
            pattern.search(redact.text(source, str(hit.payload.get("path", "")))[0]))

    def _chunk_source(self, payload: dict) -> str:
        """A chunk's text (payload ``repo``, ``path``, ``blob_id``, ``start_byte``,
        ``end_byte``) read from its file's blob in the repo's mirror, not redacted (the
        caller redacts what it matched: a whole file's redaction cost tens of ms on sympy's
        largest); ``""`` when the blob is missing, over ``index.max_file_bytes`` or
        unreadable."""
        try:
            data = _blob_bytes(str(mirror.mirror_dir(self.cfg.data_dir / "mirrors", payload["repo"])),
                               str(payload["blob_id"]), self.cfg.index.max_file_bytes)
            return data[int(payload["start_byte"]):int(payload["end_byte"])].decode("utf-8", errors="replace")
        except (KeyError, ValueError, TypeError, OSError, MirrorError):
            return ""

    def _with_callers(self, asked: shapes.Query, page: Ranked, flt: StoreFilter, limit: int,
                      fields: tuple[str, ...] | None, view: overlay.View, path_glob: str) -> Ranked:
        """``page`` with the chunks that call the symbol a question asks the callers of
        (``Query.callers``: "what calls `merge_environment_settings`") from rank
        ``CALLER_RANK`` on (match ``"caller"``), at most ``CALLER_INSERTS``: the call sites
        ``find_callers`` answers (``callgraph.callers``: resolved ones first, then inherited,
        override and name-only ones), then by role as the question asks (``_penalty``: the
        code's before a test's; a question asking for tests, "tests for ProxyFix", gets the
        tests' calls only, one asking for none the code's only when it has any), each
        calling chunk once. Before, such a question ranked the definition
        and its namesakes by their words: requests' one caller of
        ``merge_environment_settings`` (``Session.request``) was not among the first 8 (a
        newcomer). A few keyword lookups and one read of the chunks placed."""
        sites = callgraph.callers(self.store, flt, asked.callers[0])
        if "test" in asked.roles:  # "tests for X": the tests' calls only
            sites = [sc for sc in sites if hit_role(sc[0].hit.payload) == "test"]
        elif any(hit_role(sc[0].hit.payload) != "test" and sc[1] in _CALLING for sc in sites):
            # the code's calls only, when it has a resolved one: "where does requests raise
            # MissingSchema" placed the 2,000-line test class asserting it second, under
            # the one method raising it (a newcomer); flask's one ``reference`` to
            # ``get_flashed_messages`` (a Jinja global) is no call (a review)
            sites = [sc for sc in sites if hit_role(sc[0].hit.payload) != "test"]
        order = sorted(sites, key=lambda sc: (
            callgraph.RANK.get(sc[1], 9), _penalty(sc[0].hit.payload, asked.roles, ROLE_PENALTY),
            sc[0].hit.payload.get("path", "")))
        ids = list(dict.fromkeys(site.hit.id for site, _ in order
                                 if not view.hides(site.hit) and _in_glob(site.hit, path_glob)))
        ids = ids[:CALLER_INSERTS]
        found = {h.id: h for h in self.store.retrieve(ids, fields=_with_role_fields(fields))}
        rank = CALLER_RANK
        for hit in (found[i] for i in ids if i in found):
            if rank > limit:  # the best callers hold the places there are
                break
            page = _insert([r for r in page if r[0].id != hit.id], hit, "caller", rank, limit)
            rank += 1
        return page

    def _with_symbols(self, asked: shapes.Query, page: Ranked, flt: StoreFilter, limit: int,
                      fields: tuple[str, ...] | None, view: overlay.View,
                      path_glob: str) -> Ranked:
        """``page`` with the definition of each symbol a short question names as code
        (``Query.symbols``: ```Cache.get()``` -> ``Cache.get``, ``Session.request``) at
        rank ``COMPOUND_RANK`` on (the first, when it is a function or method written with
        its owner, at ``MEMBER_RANK``), the first named first, unless it is there or higher
        already (moved up from further down: ``locate`` reads ``LOCATE_CANDIDATES``, where
        a named method deep in the pool was listed below its file's other chunks): the
        definitions the name means as ``callgraph.definitions`` resolves it (qualified,
        module-qualified, re-exported: ``pytest.approx``; inherited: ``Dataset.where`` is
        ``DataWithCoords.where``), else, for a dotted name, those named its last part whose
        module path or qualified name holds every part before it (those parts in any case:
        ``tool.vault.fetch`` written for ``Vault.fetch``; not ``pytest.fail`` for a test's
        nested ``fail``, nor ``pytest.skip`` for ``_pytest.skipping.Skip``); of those, the
        ones whose qualified name is the name as written when there are some
        (``SYMBOL_QUALIFIED_FIRST``: ``lineplot`` is the function, not a method). A name with
        more than ``COMPOUND_MAX_DEFINITIONS`` definitions (``@overload`` stubs beside
        their implementation aside) names nothing in particular. A definition's chunk holds
        ``def get`` inside ``class Cache``, never the text ``Cache.get`` that verbatim
        evidence looks for: a release note naming ``Cache.get()``, ``Cache.set()`` and
        ``Cache.mkdir()`` listed none of them in the top 10. A few keyword lookups per
        symbol (``callgraph.definitions``), one more for the fallback."""
        rank = COMPOUND_RANK
        for i, symbol in enumerate(asked.symbols):
            defs = [h for h in callgraph.definitions(self.store, flt, symbol)
                    if h.payload.get("kind") in _COMPOUND_KINDS and not view.hides(h)
                    and _in_glob(h, path_glob)]
            # the first name written as a member of its owner (``Response.raise_for_status``,
            # ``Rack::Response#finish``) that the index resolves to functions, as the
            # question's subject, is what it is about (a type's name, ``Rack::Lint``, or a
            # member further on, "how does refresh use Cache.get", is often its context)
            at = (MEMBER_RANK if i == 0 and defs and MEMBER_RANK > 0 and "." in symbol
                  and all(h.payload.get("kind") in locating.CALLABLE_KINDS for h in defs)
                  and not (asked.roles or flt.roles) and _subject(asked.text, symbol) else rank)
            if not defs and "." in symbol:
                owner, name = symbol.rsplit(".", 1)
                defs = [h for h in self._definitions(flt, "name", name, view, path_glob)
                        if set(owner.lower().split(".")) <= _name_parts(h.payload)]
            if SYMBOL_QUALIFIED_FIRST:
                # not a test's `fn sort_by` over the source's `WalkDir::sort_by` (walkdir:
                # "how does `sort_by` order entries" placed the test first)
                written = [h for h in defs if h.payload.get("qualified_name") == symbol]
                cost = (lambda hs: min((_penalty(h.payload, asked.roles, ROLE_PENALTY) for h in hs), default=9.0))
                defs = written if written and cost(written) <= cost(defs) else defs
            best = self._missing_definition(asked, page[:at], defs, written=symbol)
            if best is not None:
                page = _insert([r for r in page if r[0].id != best.id],
                               best.keep(_with_role_fields(fields)), "name", min(at, limit), limit)
                rank += at == rank
        return page

    def _with_compounds(self, asked: shapes.Query, page: Ranked, flt: StoreFilter, limit: int,
                        fields: tuple[str, ...] | None, view: overlay.View,
                        path_glob: str) -> Ranked:
        """``page`` with a definition whose whole name the question's adjacent words spell
        (``Query.compounds``: "the flask run command" -> ``run_command``; a snake_case one
        also private: "check the match regex" -> ``_check_match``) at rank
        ``COMPOUND_RANK`` when the page lacks every definition of that name: the best by
        role (source first), then by the question's lexical score; a test's or a docs
        page's definition only when the question asks for that role. A name defined more
        than ``COMPOUND_MAX_DEFINITIONS`` times names nothing in particular. One keyword
        lookup, and one score lookup per name inserted."""
        # A snake_case name is also looked up private ("check the match" -> _check_match).
        names = list(dict.fromkeys(v for n in asked.compounds
                                   for v in ((n, "_" + n) if "_" in n else (n,))))
        held = {str(h.payload.get("name_lc", "")) for h in self.store.find_any(
            flt, "name_lc", names, limit=4 * len(names), fields=("name_lc",))}
        for name in (n for n in names if n in held):
            # Each name's own read: a common one (to_dict) must not hide another's count.
            defs = self._definitions(flt, "name_lc", name, view, path_glob)
            if not defs or len(defs) > COMPOUND_MAX_DEFINITIONS:
                continue
            # prose words meet a test's or a docs tool's name by chance ("collected as a test
            # module": pytest's test class `TestModule`; "objects interface": seaborn's docs
            # builder's `objects_interface`; a newcomer): those roles only when asked (an
            # example's `ComplexCLI` is one's answer; a review)
            defs = [h for h in defs if str(h.payload.get("role") or "source") not in {"test", "docs"} - asked.roles]
            if not defs:
                continue
            best = self._missing_definition(asked, page, defs)
            if best is None:
                continue
            # One name per question: the first (pairs before triples) held.
            return _insert([r for r in page if r[0].id != best.id],
                           best.keep(_with_role_fields(fields)), "name",
                           min(COMPOUND_RANK, limit), limit)
        return page

    def _definitions(self, flt: StoreFilter, key: str, value: str, view: overlay.View,
                     path_glob: str) -> list[Hit]:
        """The definitions (``_COMPOUND_KINDS``) whose ``key`` payload is ``value``, at most
        8, less those the session shadows or ``path_glob`` excludes."""
        return [h for h in self.store.find(flt, key, value, limit=8)
                if h.payload.get("kind") in _COMPOUND_KINDS and not view.hides(h)
                and _in_glob(h, path_glob)]

    def _missing_definition(self, asked: shapes.Query, shown: Ranked, defs: list[Hit],
                            written: str = "") -> Hit | None:
        """The definition of ``defs`` to place: None when there is none, more than
        ``COMPOUND_MAX_DEFINITIONS`` (``@overload`` stubs and declaration files left out
        when an implementation is among them: ``pytest.raises`` has two overloads; one
        method's overloads in one file, ``Element.text()`` and ``Element.text(String)``,
        count as one: ``_one_method``), or ``shown`` holds one; else the best by role
        (source first), then, for a getter and its setter (``_accessor_pair``) named
        ``written`` with empty parentheses in the question (```Element.text()```), the
        getter, then by the question's lexical score, then path. Among other overloads
        ``()`` only marks a method (```Sets.newHashSet()``` for its varargs one, a review)."""
        defs = [h for h in defs if not locating.is_stub(h.payload)] or defs
        if not defs or (len(defs) > COMPOUND_MAX_DEFINITIONS and not _one_method(defs)):
            return None
        ids = {h.id for h in defs}
        if any(h.id in ids for h, _, _ in shown):
            return None
        lexical = self.store.sparse_scores(shapes.sparse_vector(asked), ids)
        bare = bool(written) and f"{written}()" in asked.text and _accessor_pair(defs)
        return min(defs, key=lambda h: (_penalty(h.payload, asked.roles, ROLE_PENALTY),
                                        bare and not str(h.payload.get("qualified_name", "")).endswith("()"),
                                        -lexical.get(h.id, 0.0), str(h.payload.get("path", ""))))

    def _singular_held(self, token: str, flt: StoreFilter) -> bool:
        """Whether ``token`` written as a plural (``InvalidSpecifiers``, ``Matches``) names a
        code word the index holds without its ``s`` or ``es``: a question's plural of a
        class, no absent name (a review). One term lookup per ending."""
        for cut in (2, 1) if token.endswith("es") else (1,) if token.endswith("s") else ():
            vector = shapes.evidence_vector(token[:-cut])
            if vector is not None and self.store.sparse_search(vector, flt, 1, fields=()):
                return True
        return False

    def _bindings(self, name: str, flt: StoreFilter, fields: tuple[str, ...] | None) -> list[Hit]:
        """The Python module chunks that bind ``name`` in their top-level code (``NAME =
        ..``, ``NAME: T = ..``; ``_top_level``, which reads Python's blocks only: express's
        ``var etagFn`` inside ``res.send = function () {..}`` pinned its module, a review),
        for a one-name query no symbol is named:
        a module-level value is no symbol (a class a factory makes included), and a long
        module's chunk scored too low on the name's one term to be found. jsonschema's
        ``Draft202012Validator = create(..)``, line 812 of a 1,410-line module, was not on
        the page of ``search Draft202012Validator`` (a newcomer). Among the first
        ``BINDING_DEPTH`` module chunks holding its term; read as ``_holds_verbatim`` reads."""
        vector = shapes.evidence_vector(name)
        if vector is None or BINDING_DEPTH <= 0:
            return []
        pattern = re.compile(rf"(?m)^[ \t]*{re.escape(name)}[ \t]*(?::[^=\n]*)?=(?![=>])")
        read = None if fields is None else tuple(dict.fromkeys((*fields, *_SENTENCE_FIELDS, "language")))
        texts: dict[str, str] = {}
        return [h.keep(fields) for h in self.store.sparse_search(vector, replace(flt, kind="module"), BINDING_DEPTH,
                                                                 fields=read)
                if h.payload.get("language") == "python" and self._holds_verbatim(h, pattern, texts)]

    def _exact(self, store: Any, query: str, flt: StoreFilter, limit: int) -> list[Hit]:
        """The symbols ``query`` names: by qualified or plain name (case-insensitive), or
        by module-qualified name (``github.com/gin-gonic/gin.node.getValue``, as Go and
        call targets print it; exact); failing those, a dotted name by the qualified
        names it ends (``_qualified_tail``), then as the method its class inherits
        (``callgraph.inherited_definition``)."""
        # Ruby's Helpers#send_file, PHP's \GuzzleHttp\describe_type
        written = shapes.dotted(query).replace("\\", ".").lstrip(".")
        lowered = written.lower()
        hits = store.find(flt, "qualified_name_lc", lowered, limit=limit)
        hits += store.find(flt, "name_lc", lowered, limit=limit)
        if "." in written:
            hits += store.find(flt, "fq_name", written, limit=limit)
        hits = [h for h in hits if h.payload.get("kind") not in _HIDDEN_KINDS]
        if not hits and "." in written:  # Go's node.getValue is gin.node.getValue
            hits = [h for h, _, _ in _qualified_tail(store, flt, written)][:limit]
        if not hits:  # Rust's Type::method of a trait impl, Java's Outer$Inner.m, json!
            hits = [h for h in callgraph.written_tail(store, flt, query)
                    if h.payload.get("kind") not in _HIDDEN_KINDS][:limit]
        if not hits and "." in written:
            # a method the class inherits, as ``symbols`` finds it (jsoup's ``Element.remove``
            # is ``Node.remove``: ``symbols`` resolved it, search pinned ``Elements.remove``'s
            # namesakes' words instead; a newcomer)
            hits = [h for h in callgraph.inherited_definition(store, flt, written)
                    if h.payload.get("kind") not in _HIDDEN_KINDS][:limit]
        return _dedupe(hits)

    def _members(self, store: Any, query: str, flt: StoreFilter) -> list[Hit]:
        """The methods a member call written as code means (``c.json``, ``app.route``,
        ``self.session.get``: a lowercase receiver, a variable's, whose type the query does
        not say) when no definition is named so: the methods of its last name, source
        first, when 1 to ``MEMBER_DEFINITIONS`` are (hono's ``c.json`` answered
        pretty-json's middleware, ``Context.json`` not among 20). One keyword lookup."""
        written = shapes.dotted(query).replace("\\", ".").strip(".")
        head, _, name = written.rpartition(".")
        if not head or not head[:1].islower() or not _IDENTIFIER.match(written):
            return []
        methods = [h for h in store.find(flt, "name", name, limit=MEMBER_DEFINITIONS + 1)
                   if h.payload.get("kind") == "method" and not locating.is_stub(h.payload)]
        if not 0 < len(methods) <= MEMBER_DEFINITIONS:
            return []
        return sorted(methods, key=lambda h: (*_source_order(h.payload), str(h.payload.get("path", "")),
                                              int(h.payload.get("start_line", 0))))

    def _features(self, asked: shapes.Query, mode: str, ranked: Ranked, vectors: Vectors,
                  flt: StoreFilter, view: overlay.View, fusions: dict[str, fusion.Fused],
                  ) -> confidence.Features:
        """What ``confidence.confidence`` judges: the first two scores, whether the first
        hit was pinned, (a question) whether its name says a word of ``asked``
        (``confidence.says_name``) and (hybrid) whether each retriever alone ranks it in its
        top ``confidence.AGREE_K`` (``fusion.agreement`` over the answer of the store the
        hit came from)."""
        dense, sparse_vector = vectors
        used = mode if dense is not None or mode == "sparse" else "sparse"  # no model: sparse alone
        if not ranked:
            return confidence.Features(used, 0)
        top, match, source = ranked[0]
        where = (top.payload.get("repo"), top.payload.get("path"))
        # An issue asks which file: the second is the best hit of another file than the first's.
        # A trace's raised class is demoted (``RAISED_CLASS_PENALTY``), not a rival: its
        # score, the best on the exception's name, flagged right answers "none stands out"
        # (requests' ``TooManyRedirects: Exceeded 30 redirects.``, a newcomer's re-run)
        second = next((h.score for h, _, _ in ranked[1:] if (not asked.long
                       or (h.payload.get("repo"), h.payload.get("path")) != where)
                       and not _raised_class(h.payload, asked)), 0.0)
        # pinned: an exact name's definition, a chunk the query's verbatim evidence placed
        # first (a source literal holding the whole message), or a call site of the
        # function a callers question names (its five callers first were flagged for the
        # fused scores' disagreement: a gson newcomer)
        features = confidence.Features(used, len(ranked), top.score, second,
                                       match in ("exact", "evidence", "caller"))
        if match == "name" and asked.shape is Shape.IDENTIFIER:
            return replace(features, member=shapes.dotted(asked.text).strip("."))  # ``_members``
        if asked.shape is Shape.TEXT:
            features = replace(features, name_says=confidence.says_name(
                (t for t, _ in asked.terms), str(top.payload.get("qualified_name", ""))))
        if used != "hybrid" or features.pinned:
            return features
        if not (self.full_features or confidence.needs_agreement(features)):
            return features  # agree stays None: the verdict is the same either way
        store, where = (self.overlay.store, view.flt) if source == OVERLAY else (self.store, flt)
        agree, dense_top, sparse_top = fusion.agreement(
            store, fusions[source], top.id, sparse_vector, where, confidence.AGREE_K)
        return replace(features, agree=agree, dense_top=dense_top, sparse_top=sparse_top)

    # --- locate ---------------------------------------------------------------------

    @_not_implemented_asked
    def locate(self, query: str, limit: int = 10, repo: str = "", *,
               role: str | tuple[str, ...] = "", mode: str = "",
               functions: int = locating.FUNCTIONS_PER_FILE,
               principal: Principal = LOCAL) -> Located:
        """The files ``query`` is about, best first (``query/locate.py``): at most ``limit``
        files (1..``MAX_LOCATE_FILES``; 0 = 10), each with its best ``functions`` functions
        (0..50; 0 = none listed), ranked from the top ``LOCATE_CANDIDATES`` chunks of the
        search ``search`` would run (any query shape; ``mode`` and ``role`` as there); in
        hybrid mode, for a shape of ``LEXICAL_FILES_SHAPES``, fused with the file-level
        index's files by reciprocal ranks (``locate.fused``); a file's score is its own
        evidence, never rising down the list (``locate.evidence_scores``).
        ``low_confidence`` as the chunk search's. Raises ``InvalidArgument`` as ``search``."""
        query = validate.text("query", query, validate.MAX_SEARCH_QUERY_CHARS).strip()
        if not query:
            raise InvalidArgument("query: must not be empty")
        limit = _bounded("limit", limit, 10, MAX_LOCATE_FILES)
        if not 0 <= functions <= 50:
            raise InvalidArgument(f"functions: must be 0..50, got {functions}")
        mode = self._mode(mode)
        roles = _roles(role)
        flt = self._filter(principal, repo)
        if flt is None:
            return Located((), True, "no results")
        # once: up to ~150 ms for a 200,000-character paste
        asked = self._asked(query, flt, roles)
        flt = replace(flt, roles=roles)
        ranked, features = self._search(asked, flt, LOCATE_CANDIDATES, mode, "", principal, "",
                                        fields=LOCATE_FIELDS, file_prior=False)
        # ranked as for a page of at least ``LOCATE_RANKED_FILES``, then cut: a smaller
        # ``limit`` is the same answer's first files (the file-level ranking keeps a share
        # of ``limit`` places for its own files, so seaborn's `--limit 5` dropped
        # `utils.py`, 5th of 10, for two examples scoring a quarter of it; a newcomer)
        found, placed, penalty, lexical = self._ranked_files(asked, ranked, flt, mode,
                                                             max(limit, LOCATE_RANKED_FILES), functions,
                                                             cut=limit)
        commits: dict[str, str] = {}
        if not asked.long and FIRST_EXTRA_ABOVE_NEXT and len(found) > 1 and found[1].functions:
            found = [_extra_above(found[0], functions, max(f.score for f in found[1].functions)), *found[1:]]
        found = [replace(f, commit=self._commit(f.repo, commits), functions=_non_rising(f.functions))
                 for f in found]
        low, reason = confidence.confidence(features)
        if asked.long and found:
            # judged on the chunks' file scores: a fused score is rank-based, always flat
            own = sorted(locating.file_scores(placed, penalty=penalty).values(), reverse=True)
            low, reason = confidence.flat_files(own[:2], self._names_file(asked, flt, found[0].path),
                                                fused=bool(lexical))
            foreign = self._foreign(asked, flt)
            if foreign:
                low, reason = confidence.confidence(confidence.Features(features.mode, len(found),
                                                                        foreign=foreign))
        if mode == "hybrid" and _embedded(asked):
            low, reason = self._filling_note(flt, low, reason)
        return Located(tuple(found), low, reason, features.shape)

    def _ranked_files(self, asked: shapes.Query, ranked: Ranked, flt: StoreFilter, mode: str,
                      limit: int, functions: int, cut: int = 0,
                      ) -> tuple[list[FileHit], list[Hit], Callable[[dict], float], list[Hit]]:
        """``locate``'s files for the candidates ``ranked`` (best first): at most ``limit``
        (then, with ``cut``, the first ``cut`` of them and the named files among them),
        each listing ``functions`` functions (0: none, and no store call for them), ranked
        as ``locate`` says; with the placed candidates, the file penalty and the file-level
        index's hits they were ranked with (for ``locate``'s confidence). ``search`` orders
        an issue's page by these files (``LOCATED_ORDER_SHAPES``)."""
        table = ROLE_PENALTY_LONG if asked.long else ROLE_PENALTY
        tongue = dialect.scope(_families(asked), (h.payload for h, _, _ in ranked))
        named = _named(ranked, asked)
        if tongue.families:  # a definition in another language is not the one an issue names
            foreign = {_chunk_key(h.payload) for h, _, _ in ranked if tongue.foreign(h.payload)}
            named = {key: None for key in named if key not in foreign}
        named_files = list(dict.fromkeys(key[:2] for key in named))
        penalty = ((lambda p: _file_penalty(p, frozenset() if _chunk_key(p)[:2] in named_files
                                            else asked.roles, table, asked.long, tongue))
                   if mode == "hybrid" else (lambda p: 0.0))
        for hit, _, _ in ranked:
            hit.payload.setdefault("role", hit_role(hit.payload))
        if LOCATE_TEXT_DEMOTED and asked.shape is Shape.TEXT and mode == "hybrid":
            # a question's file is scored from its chunks as search orders them: a whole
            # module or a bodiless declaration scores its file less (``_text_demoted``),
            # before the pinned ones are placed (a review)
            ranked = [(_text_demoted(h, asked), match, source) for h, match, source in ranked]
        if asked.long and mode == "hybrid":
            # prose in the code (a help text, a documented entry point) scores its file and
            # its place in the file's list less, unless quoted or named exactly
            ranked = [(h if match in ("exact", "evidence") else _prose_demoted(h, asked), match, source)
                      for h, match, source in ranked]
        # A pinned exact name carries the lookup's 1.0, under fused scores above 1: it
        # keeps the best score of the candidates (gin: locate Context.ShouldBindJSON listed
        # it 8th in context.go).
        top = max((h.score for h, _, _ in ranked), default=0.0)
        words = _name_words(asked)
        vector = shapes.sparse_vector(asked)
        lexical = self._lexical_files(asked, vector, flt) if mode == "hybrid" else []
        if asked.long and lexical:
            # a declaration file and a file of interfaces and types only: last of the
            # file-level ranking too, as its chunks are penalised (``_file_penalty``)
            declaring = {_chunk_key(h.payload)[:2] for h, _, _ in ranked if locating.declares_shape(h.payload)}
            lexical = sorted(lexical, key=lambda h: (_chunk_key(h.payload)[:2] in declaring
                                                     or locating.declares_only(str(h.payload.get("path", "")))
                                                     or tongue.foreign({"repo": h.payload.get("repo"), "language":
                                                                        language_for(str(h.payload.get("path", "")))})))
        placed = list(_as_placed(ranked, top))
        if asked.raised and asked.shape is Shape.TRACE:
            # the class of the exception a trace raised is where it is defined: its chunk,
            # the best on the exception's name, led locate with its file (requests'
            # ``TooManyRedirects: Exceeded 30 redirects.`` located exceptions.py above the
            # sessions.py raising it; a newcomer). Search demotes it (``RAISED_CLASS_PENALTY``)
            placed = [h for h in placed if not _raised_class(h.payload, asked)] or placed
        listing = functions > 0
        # a chunk no candidate holds scores at most the last candidate's
        floor = min((h.score for h in placed), default=None)
        found = locating.files(placed, limit, penalty=penalty,
                               functions_per_file=functions,
                               bonus=((lambda p: NAME_MATCH_WEIGHT * _name_match(p, words))
                                      if words and listing else None),
                               callees=(lambda r, p, names: self._callees(flt, r, p, names))
                               if listing else None,
                               lexical=lexical,
                               chunks_of=(lambda r, p: self._file_chunks(vector, flt, r, p, floor))
                               if listing else None,
                               lead=confidence.FLAT_LONG_FILES if asked.long else 0.0,
                               kept=int(limit * (locating.LEXICAL_FILES_KEPT_LONG if asked.long
                                                 else locating.LEXICAL_FILES_KEPT)),
                               named=named_files,
                               # a query asking for docs or tests of a named function
                               # wants those first: its file is kept, not ranked up
                               named_weight=0.0 if asked.roles else None,
                               spans=(lambda r, p, names: self._spans(flt, r, p, names))
                               if listing else None,
                               # the chunks holding a quoted message or literal, first in
                               # their files whatever their kind
                               verbatim={_chunk_key(h.payload) for h, match, _ in ranked
                                         if match == "evidence"}
                               if asked.sentence or asked.shape is Shape.LITERAL else (),
                               definitions=(lambda r, p, names: self._file_definitions(
                                   flt, r, p, names, LOCATE_FIELDS)) if listing else None)
        if cut and len(found) > cut:
            # the first ``cut`` files, with the files of the definitions the query names
            # among them as on any page (``locate.with_kept``: "where are the docs of
            # `make_widget`" keeps the source file defining it)
            keep = set(locating.with_kept([(f.repo, f.path) for f in found], named_files, cut))
            found = [f for f in found if (f.repo, f.path) in keep]
        return found, placed, penalty, lexical

    def _lexical_files(self, asked: shapes.Query, vector: SparseVector, flt: StoreFilter,
                       ) -> list[Hit]:
        """The file-level index's best ``LEXICAL_FILES_DEPTH`` files for ``vector`` (the
        query's sparse vector) when ``asked`` is of ``LEXICAL_FILES_SHAPES`` (``[]``
        otherwise, and from a store indexed before it had one), of the roles the filter or
        the query asks for, else source files."""
        if asked.shape not in LEXICAL_FILES_SHAPES or LEXICAL_FILES_DEPTH <= 0:
            return []
        roles = flt.roles or tuple(sorted(asked.roles)) or LEXICAL_FILES_ROLES
        return self.store.file_search(vector, replace(flt, roles=roles), LEXICAL_FILES_DEPTH)

    def _file_chunks(self, vector: SparseVector, flt: StoreFilter, repo: str, path: str,
                     ceiling: float | None = None) -> list[Hit]:
        """The chunks of a file only the file-level index named, or ranked by its module
        chunk alone (at most ``LEXICAL_FILE_CHUNKS``), each scored by ``vector``, the
        query's (0 without a shared term): what ``locate`` lists its functions from. With
        ``ceiling``, the scores are scaled so that the file's best chunk scores it (the
        last candidate's score: a chunk the candidates missed ranks below all of them),
        the others in proportion to their BM25 scores; without it, raw BM25 scores, on
        another scale than the candidates' (httpx's ``main`` was listed at 87.1 beside
        functions at 0.3-1.8; a newcomer). Two store calls."""
        hits = self.store.find(replace(flt, repo=repo, path=path), "path", path,
                               limit=LEXICAL_FILE_CHUNKS)
        scores = self.store.sparse_scores(vector, [h.id for h in hits])
        best = max(scores.values(), default=0.0)
        scale = ceiling / best if ceiling is not None and best > 0 else 1.0
        return [replace(h, score=scale * scores.get(h.id, 0.0)) for h in hits]

    def _file_definitions(self, flt: StoreFilter, repo: str, path: str, names: Iterable[str],
                          fields: Sequence[str] | None) -> list[Hit]:
        """The chunks of ``repo``'s ``path`` whose qualified name is one of ``names`` (at most
        8 per name: a file may define one twice, and its parts share it), payload ``fields``
        only (None: all); one keyword lookup."""
        names = sorted(set(names))
        return self.store.find_any(replace(flt, repo=repo, path=path), "qualified_name", names,
                                   limit=8 * len(names), fields=fields)

    def _spans(self, flt: StoreFilter, repo: str, path: str, names: Sequence[str],
               ) -> dict[str, list[tuple[int, int]]]:
        """(start line, end line) of each whole definition of ``names`` (qualified names of
        ``repo``'s ``path``; several where the file defines one twice); one keyword lookup
        (``locate.files``' ``spans``)."""
        out: dict[str, list[tuple[int, int]]] = {}
        for h in self._file_definitions(flt, repo, path, names, ("qualified_name", "start_line", "end_line")):
            out.setdefault(h.payload["qualified_name"], []).append(
                (int(h.payload["start_line"]), int(h.payload["end_line"])))
        return out

    def _callees(self, flt: StoreFilter, repo: str, path: str, names: Sequence[str],
                 ) -> dict[str, list[tuple[str, int, int]]]:
        """For each qualified name of ``names`` (functions of ``repo``'s ``path``), the
        functions and methods of the same file it calls, in call order, as (qualified
        name, start line, end line). A call site resolved at index time (its ``target``)
        names the definition whose module-qualified name it is; an unresolved one only
        when written bare or on the caller's own object (``helper(``, ``self._helper(``,
        ``this.helper(``: ``_same_file_call``), matched by name to at most
        ``CALLEE_MAX_DEFINITIONS`` same-named definitions of the file (more: a common name,
        no evidence). Never a call on another object by its last name: requests'
        ``DEFAULT_PORTS.get(`` listed ``Session.get`` as ``should_strip_auth``'s helper (a
        newcomer). Itself, parts of long functions, bodyless stubs and Rust macros left out. Two keyword
        lookups (``locate.with_callees``)."""
        where = replace(flt, repo=repo, path=path)
        callers = self.store.find_any(where, "qualified_name", list(names), limit=4 * len(names),
                                      fields=("qualified_name", "call_sites"))
        sites: dict[str, list[tuple[str, str]]] = {}
        for h in callers:  # a getter and its setter, overload stubs: one name, their calls added
            sites.setdefault(h.payload["qualified_name"], []).extend(
                c for c in map(_same_file_call, h.payload.get("call_sites") or ()) if c is not None)
        called = {name for row in sites.values() for name, _ in row}
        if not called:
            return {}
        defined: dict[str, list[tuple[str, int, int, str]]] = {}
        for h in self.store.find_any(where, "name", sorted(called), limit=MAX_LIMIT,
                                     fields=("name", "qualified_name", "fq_name", "kind",
                                             "start_line", "end_line", "snippet", "path",
                                             "language")):
            p = h.payload
            if (p.get("kind") in locating.CALLABLE_KINDS and not is_part(p["qualified_name"])
                    and not locating.is_stub(p)
                    # a Rust macro a function invokes (walkdir's `itry!`) is syntax, not where
                    # the work is: it was listed after the first function of 4 of 5 traces
                    and not str(p.get("snippet", "")).lstrip().startswith("macro_rules!")):
                defined.setdefault(p["name"], []).append(
                    (p["qualified_name"], int(p["start_line"]), int(p["end_line"]),
                     str(p.get("fq_name") or "")))
        out: dict[str, list[tuple[str, int, int]]] = {}
        for own, row in sites.items():
            found = out.setdefault(own, [])
            for name, target in row:
                defs = defined.get(name, ())
                if target:
                    defs = [d for d in defs if d[3] == target]
                elif len(defs) > CALLEE_MAX_DEFINITIONS:
                    continue
                found += [d[:3] for d in defs if d[0] != own and d[:3] not in found
                          and (NESTED_CALLEES or not d[0].startswith(own + "."))]
        return out

    # --- symbols --------------------------------------------------------------------

    def find_symbols(self, name: str, repo: str = "", prefix: bool = False,
                     limit: int = 50, *, fuzzy: bool = False, session: str = "",
                     offset: int = 0, principal: Principal = LOCAL) -> Page:
        """Symbols whose name or qualified name equals ``name`` ignoring case (or starts with
        it when ``prefix``), or whose module-qualified name (``pkg.mod.Class.method``, as a
        call site's target prints it; ``fq_aliases``: its other module names) equals
        ``name`` exactly, ranked: exact case >
        case-insensitive > prefix, then source first (``role_rank``), an implementation
        before a declaration file's signature (``locate.declares_only``), then by path. Failing those, a dotted name matches the
        qualified names it ends (``_qualified_tail``: ``node.getValue`` is Go's
        ``gin.node.getValue``); failing all of those, or matching only in another case, a
        dotted name that a package re-exports finds the definition it stands for (match
        ``"reexport"``, ranked with exact: ``httpcore.ConnectionPool`` ->
        ``httpcore._sync.connection_pool.ConnectionPool``; ``marshmallow.Schema`` -> the
        class before the module ``marshmallow.schema``); failing all, ``Class.method``
        that ``Class`` inherits finds its base's method (match ``"inherited"``,
        ``callgraph.inherited_definition``).

        ``fuzzy`` also finds prefixes, substrings and small typos (``query/fuzzy.py``: trigram
        index, at most 2 edits), ranked after them: ... > prefix > substring > fuzzy, then
        by score (0..1; 1.0 for the exact kinds), repo, path. ``session`` adds that
        session's overlay files, which shadow their committed versions.

        The answer is a ``Page``: at most ``limit`` hits from ``offset`` on, with ``total``
        (each store lookup reads at most ``MAX_LIMIT`` points: when more match, it reads
        one more and ``Page.lower_bound`` says more match than ``total``, on no page: sphinx's 828 names
        under ``--prefix _`` were paged as the whole answer while 270 more were on none; a
        newcomer)."""
        name = _symbol_name(name, prefix=prefix)
        limit = _limit(limit, 50)
        offset = _offset(offset)
        flt = self._filter(principal, repo)
        if flt is None:
            return Page()
        view = self._view(principal, session, flt)
        cut: list[str] = []  # the fields whose lookup read its limit

        def indexed(asked: str) -> list[tuple[Hit, str, float, str]]:
            return [(h, match, score, INDEX) for h, match, score in self._symbols(
                self.store, flt, asked, prefix, fuzzy, cut) if not view.hides(h)]
        base, params = overloads.split(name) if not prefix else (name, None)
        found = indexed(base) if params is not None else []
        if found:  # Selector.select(String,Element): the overloads printing that list
            kept = {h.id for h in overloads.select([f[0] for f in found], name, params)}
            found, name = [f for f in found if f[0].id in kept], base
        else:
            found = indexed(name)
        if not found and not prefix and is_part(name):  # a hit's `f#part2`, no Ruby `C#part2`
            name = unparted(name)
            found = indexed(name)
        if not prefix:  # Ruby's ``Parser.parse`` beside ``Parser#parse``: the one spelled
            kept = {h.id for h in ruby.spelled(name, [f[0] for f in found])}
            found = [f for f in found if f[0].id in kept]
        if view.flt is not None:
            found += [(overlay.restore(h), match, score, OVERLAY) for h, match, score in
                      self._symbols(self.overlay.store, view.flt, name, prefix, fuzzy)]
        found.sort(key=lambda f: (_MATCH_ORDER[f[1]], -f[2], _generic_order(name, f[0].payload),
                                  *_source_order(f[0].payload), _plain_order(name, f[0].payload),
                                  _member_order(name, f[0].payload), _card_rank(f[0].payload),
                                  f[0].payload["repo"], f[0].payload["path"], f[0].payload["start_line"]))
        # a property's getter and setter are one row (``accessors.merged``)
        rows = {h.id: h for h in accessors.merged([f[0] for f in found], self._points_of_file)}
        found = [(rows[h.id], *rest) for h, *rest in found if h.id in rows]
        commits: dict[str, str] = {}
        return Page([self._hit(h, match, score=score, commits=commits, source=source)
                     for h, match, score, source in found[offset:offset + limit]], len(found), offset,
                    lower_bound=bool(cut))

    def _symbols(self, store: Any, flt: StoreFilter, name: str, prefix: bool,
                 fuzzy: bool, cut: list[str] | None = None) -> list[tuple[Hit, str, float]]:
        """(hit, match kind, score) of every symbol of ``store`` that ``name`` matches; each
        name field whose lookup read ``MAX_LIMIT`` points (more may match) is added to ``cut``."""
        hits = []
        for field in ("qualified_name_lc", "name_lc"):
            read = store.find(flt, field, name.lower(), prefix=prefix or fuzzy, limit=MAX_LIMIT + 1)
            if cut is not None and len(read) > MAX_LIMIT:  # one more than read: more match
                cut.append(field)
            hits += read[:MAX_LIMIT]
        if "." in name:  # module-qualified, as call targets print it (pkg.mod.Class.method)
            for field in ("fq_name", "fq_aliases"):
                hits += store.find(flt, field, name, limit=MAX_LIMIT)
        if fuzzy:
            hits += fuzzy_candidates(store.find_overlap, flt, name)
        out = []
        for hit in _dedupe(hits):
            if is_part(str(hit.payload.get("qualified_name", ""))):
                continue  # a long function's later part is no symbol: its first chunk is
            judged = _judge(name, hit.payload, fuzzy)
            if judged is not None and hit.payload.get("kind") not in _HIDDEN_KINDS:
                out.append((hit, *judged))
        if not prefix and "." in name and all(match == "case_insensitive" for _, match, _ in out):
            # Go's package ``viper`` and its type ``Viper``: ``Viper.AllKeys`` matched the
            # package's wrapper ``viper.AllKeys`` in another case and hid the method
            # ``viper.Viper.AllKeys`` its tail names exactly (a newcomer)
            seen = {hit.id for hit, _, _ in out}
            out += [row for row in _qualified_tail(store, flt, name) if row[0].id not in seen]
        if not out and not prefix:  # Rust's Type::method of a trait impl, Java's Outer$Inner.m
            out = [(hit, "exact", 1.0) for hit in callgraph.written_tail(store, flt, name)
                   if hit.payload.get("kind") not in _HIDDEN_KINDS]
        if not prefix and "." in name and all(match == "case_insensitive"
                                              or classify.declaration_file(str(hit.payload.get("path", "")))
                                              for hit, match, _ in out):
            # a public name a package re-exports (httpcore.ConnectionPool), also when only
            # another case matched: marshmallow.Schema answered the module marshmallow.schema;
            # or only a stub (`.pyi`) defines it: attrs' `attr.asdict` answered its stub alone
            seen = {hit.id for hit, _, _ in out}
            out += [(hit, "reexport", 1.0) for hit in callgraph.reexported(store, flt, name)
                    if hit.payload.get("kind") not in _HIDDEN_KINDS and hit.id not in seen]
        if not out and not prefix:  # fmt::format_system_error, util.finalizeIssue (match "scoped")
            out = _without_scope(store, flt, name)
        if not out and not prefix and "." in name:
            # a method the class inherits (starlette's ``Request.url_for`` is
            # ``HTTPConnection.url_for``: ``card`` and ``callers`` found it, ``symbols`` not)
            out = [(hit, "inherited", 1.0) for hit in callgraph.inherited_definition(store, flt, name)
                   if hit.payload.get("kind") not in _HIDDEN_KINDS]
        if not out and not prefix and not fuzzy:
            # a name as code writes it through an import's local name (`xr.Dataset` of
            # `import xarray as xr`, `ast_unparse`): what those calls resolve to (match "as_called")
            out = [(hit, "as_called", 1.0) for hit in callgraph.as_called(store, flt, name)
                   if hit.payload.get("kind") not in _HIDDEN_KINDS]
        if not out and prefix and not fuzzy and "." in shapes.dotted(name):
            out = self._member_prefix(store, flt, name)
        if prefix and not fuzzy and "::" in name and not name.startswith("<"):
            seen = {hit.id for hit, _, _ in out}
            out += [row for row in _trait_members(store, flt, name) if row[0].id not in seen]
        return out

    def _member_prefix(self, store: Any, flt: StoreFilter, name: str) -> list[tuple[Hit, str, float]]:
        """A ``--prefix`` lookup of ``Class.`` or ``Class.ge`` whose class's qualified name
        is longer (Java's and Go's carry their package: ``Excluder.`` found nothing of
        ``com.google.gson.internal.Excluder``): the members of each class so named (at most
        ``MEMBER_CLASSES``), by the class's own qualified name as the prefix."""
        written = shapes.dotted(name)
        owner, _, rest = written.rpartition(".")
        heads = [written.lower()]  # Ruby's Sinatra::Helpers. is Sinatra.Helpers.
        heads += [f"{h.payload['qualified_name']}.{rest}".lower() for h in callgraph.definitions(
            store, flt, owner) if h.payload.get("kind") in _TYPE_KINDS][:MEMBER_CLASSES]
        # a namespace (Ruby's module Helpers): a module symbol, not a file's module chunk
        heads += [f"{q}.{rest}".lower() for h in store.find(flt, "name", owner.rpartition(".")[2], limit=MAX_LIMIT)
                  if h.payload.get("kind") == "module"
                  and ((q := str(h.payload.get("qualified_name", ""))) == owner or q.endswith("." + owner))][:MEMBER_CLASSES]
        out: dict[str, tuple[Hit, str, float]] = {}
        for head in dict.fromkeys(heads):  # a class reopened twice is one prefix
            for hit in store.find(flt, "qualified_name_lc", head, prefix=True, limit=MAX_LIMIT):
                p = hit.payload
                if p.get("kind") not in _HIDDEN_KINDS and not is_part(str(p.get("qualified_name", ""))):
                    out.setdefault(hit.id, (hit, "prefix", 1.0))
        return list(out.values())

    # --- callers --------------------------------------------------------------------

    def find_callers(self, name: str, repo: str = "", limit: int = 100, *, offset: int = 0,
                     principal: Principal = LOCAL, omitted: dict[str, int] | None = None) -> Page:
        """Call sites of ``name`` (bare, ``Class.method`` or module-qualified), ``resolved``
        ones first (tied to the definition through imports, its module or its class), then
        ``inherited``, ``override``, ``reference`` (named as a value, not called) and
        ``name_only`` ones (``callgraph.RANK``); each source
        first (``role_rank``: a test's calls after the code's), then by repo, path, line. ``omitted["other_type"]``: calls left out as calls on another type.
        A ``Page``: at most ``limit`` sites from ``offset`` on, with the ``total``."""
        name = _symbol_name(name)
        limit = _limit(limit, 100)
        offset = _offset(offset)
        flt = self._filter(principal, repo)
        if flt is None:
            return Page()
        self._overloads_named(flt, name)
        return self._callers_page(name, flt, limit, offset, omitted)

    def _overloads_named(self, flt: StoreFilter, name: str) -> None:
        """Raises ``NotFound`` listing the overloads of ``name`` less its parameter list when
        that list matches none of them (``overloads.select``: ``callers
        Selector.select(int)`` answered every ``select``'s calls); nothing otherwise."""
        base, params = overloads.split(name)
        if params is not None:
            overloads.select(callgraph.definitions(self.store, flt, base), name, params)

    def _callers_page(self, name: str, flt: StoreFilter, limit: int, offset: int,
                      omitted: dict[str, int] | None = None) -> Page:
        """``find_callers``' page for a name the index itself gave (a card's definition's
        module-qualified name): not validated as a caller's input is, for a module name
        may hold what a written name may not (a JS module under ``.github/``: an empty
        dotted segment, refused as input)."""
        commits: dict[str, str] = {}
        found = [(role_rank(site.hit.payload),
                  callgraph.caller_hit(site, confidence, self._commit(site.hit.payload["repo"], commits)))
                 for site, confidence in callgraph.callers(self.store, flt, name, omitted, spelled=True)]
        found.sort(key=lambda r: (callgraph.RANK.get(r[1].confidence, 9), r[0], r[1].repo, r[1].path,
                                  r[1].line, r[1].caller))
        page = Page.cut([hit for _, hit in found], offset, limit)
        # every page says what the whole answer holds: an agent read a second page of 43
        # name-only sites (gin's Context.Render) to learn that it held nothing certain
        page.by_confidence = tuple(Counter(hit.confidence for _, hit in found).items())  # in rank order
        return page

    def find_callees(self, name: str, repo: str = "", limit: int = 100, *, offset: int = 0,
                     principal: Principal = LOCAL) -> Page:
        """Calls made by the definitions ``name`` means (as in ``find_callers``), in source
        order: ``callee`` as written, ``target`` resolved where possible (``resolved``), else
        ``name_only``. A ``Page`` as ``find_callers``'."""
        name = _symbol_name(name)
        limit = _limit(limit, 100)
        offset = _offset(offset)
        flt = self._filter(principal, repo)
        if flt is None:
            return Page()
        self._overloads_named(flt, name)
        commits: dict[str, str] = {}
        found = callgraph.sites(ruby.spelled(name, self._definitions_of(flt, name)))
        # a call on another file's result: the method its declared result has (Go's
        # ``NewRouter().HandleFunc``: ``Router.HandleFunc``), none when what is called is no
        # function (mux's ``reg.NumSubexp`` listed ``RegexpCompileFunc().NumSubexp``, of a
        # package variable of func type)
        typed = callgraph.chained(self.store, flt, {s.target for s in found}, least=1)
        # a result of no stated type (a Python function of no return annotation, pytest's
        # own fixture): a call on it is of an unknown type, name-only
        found = [replace(s, target=typed.get(s.target, "" if callgraph.on_result(s.target) else s.target))
                 for s in found]
        # a method of a module's instance: its class's (`backend_registry.load_backend_module`
        # is `BackendRegistry.load_backend_module`), a name `symbols` and `card` know
        held = callgraph.instance_methods(self.store, flt, {s.target for s in found if s.target and not s.via})
        found = [replace(s, target=held.get(s.target, s.target)) for s in found]
        # `super().m()` past a first base without `m` (scikit-learn's mixins): the base's that has it
        past = callgraph.super_targets(self.store, flt, found)
        found = [replace(s, target=past.get(callgraph.super_key(s), s.target)) for s in found]
        # A target through another file's attribute (``via``) names a path, not a definition.
        return Page.cut([callgraph.caller_hit(site, callgraph.NAME_ONLY if site.via or not site.target
                                              else callgraph.RESOLVED,
                                              self._commit(site.hit.payload["repo"], commits))
                         for site in found],
                        offset, limit)

    def _definitions_of(self, flt: StoreFilter, name: str) -> list[Hit]:
        """``callgraph.definitions`` of ``name``, or, when none and ``name`` is a long
        function's part as a search hit names it (``plot_violins#part2``: `card` said no
        symbol had it; a newcomer), of the function. A Ruby method named ``part2``
        (``Day1#part2``) is found as written first (a review)."""
        found = callgraph.definitions(self.store, flt, name)
        return found or (callgraph.definitions(self.store, flt, unparted(name)) if is_part(name) else [])

    def get_card(self, name: str, repo: str = "", budget_tokens: int = 800, *,
                 principal: Principal = LOCAL) -> Card:
        """The developer card of the definition ``name`` means (when several do: a class or
        function, then another type, then an extension, then other kinds (``_card_rank``), then source first (``role_rank``), an implementation
        before a declaration file's (``locate.declares_only``: axios's ``index.d.ts``), then
        by repo and path; of overloads the longest; the others are counted and named in
        ``Card.others``: hono's ``getConnInfo`` has eight, one per adapter),
        trimmed to ``budget_tokens``
        (``card.CHARS_PER_TOKEN`` characters each). Raises ``NotFound`` when nothing in the
        caller's scope is named so."""
        name = _symbol_name(name)
        _bounded("budget_tokens", budget_tokens, 800, MAX_CARD_TOKENS)
        flt = self._filter(principal, repo)
        defs = ruby.spelled(name, self._definitions_of(flt, name)) if flt is not None else []
        defs = accessors.merged(defs, self._points_of_file)  # a property's getter and setter: one card
        if not defs:
            if flt is not None:
                self._overloads_named(flt, name)
            raise NotFound(f"symbol {name!r} not found")
        # Overloads share a name: the longest definition is the implementation.
        ordered = sorted(defs, key=lambda h: (_card_rank(h.payload),
                                              _generic_order(name, h.payload),
                                              *_source_order(h.payload), _plain_order(name, h.payload),
                                              _member_order(name, h.payload),
                                              h.payload["repo"], h.payload["path"],
                                              h.payload["start_line"] - h.payload["end_line"]))
        best = ordered[0].payload
        # the other definitions the name means (an overload's stubs of the same name aside)
        others = list(dict.fromkeys(
            f"{p['repo']}:{p['path']}:{p['start_line']} {p['qualified_name']}" for p in (h.payload for h in ordered[1:])
            if (p["repo"], p["path"], p["qualified_name"]) != (best["repo"], best["path"], best["qualified_name"])))
        fq = best.get("fq_name") or best["qualified_name"]
        file_flt = StoreFilter(repos=(best["repo"],), path=best["path"])
        file_points = [h.payload for h in self.store.find(file_flt, "path", best["path"], limit=MAX_LIMIT)]
        file_points += self._members_elsewhere(best)
        # a Ruby instance method beside a singleton one of its name is asked as Ruby writes it
        if not callgraph.askable(fq):
            # a name the callers graph cannot ask by (a JS module under `.github/`: an empty
            # dotted segment): its qualified name, every definition of which it may call
            fq = best["qualified_name"]
        spelled = (f"{fq.rpartition('.')[0]}#{fq.rpartition('.')[2]}" if best.get("language") == "ruby"
                   and ruby.instance_spelling(name) else fq)
        # call sites across every repo the caller may read, whatever ``repo`` chose the definition by
        every = self._filter(principal, "")
        callers = self._callers_page(spelled, every, MAX_LIMIT, 0) if every is not None else Page()
        purpose = str(self.ledger.repo_meta(best["repo"]).get("purpose", ""))
        inherited = [(b.payload, [h.payload for h in self.store.find(
            StoreFilter(repos=(b.payload["repo"],), path=b.payload["path"]), "path", b.payload["path"],
            limit=MAX_LIMIT)]) for b in callgraph.base_classes(self.store, flt, best)] if best["kind"] == "class" else []
        built = card.build(best, file_points, callers, self._commit(best["repo"], {}), purpose, inherited)
        return replace(card.fit(built, budget_tokens or 800), callers_total=callers.total,
                       others=tuple(others[:card.MAX_OTHERS]), definitions_total=1 + len(others))

    def _points_of_file(self, repo: str, path: str) -> list[Hit]:
        """The points of ``repo``'s file ``path`` (``accessors.merged``: what lies between)."""
        return self.store.find(StoreFilter(repos=(repo,), path=path), "path", path, limit=MAX_LIMIT)

    def _members_elsewhere(self, best: dict) -> list[dict]:
        """The members of type ``best`` defined in other files, for languages where a type's
        methods may live apart from it (``MEMBERS_ELSEWHERE``): Go's in its package's
        directory (mux's ``Router.Use`` in ``middleware.go``; ``card Router`` listed 23 of
        ``mux.go``'s methods, not it), Rust's impls, C#'s partial classes, Swift's and
        Kotlin's extensions, Ruby's reopened classes in its repo; each of the type's
        language and role. One prefix lookup; ``[]`` for other kinds and languages."""
        language = str(best.get("language") or "")
        kinds = _PENALISED_TYPE_KINDS | ({"module"} if language == "ruby" else set())  # a Ruby module reopened
        if best.get("kind") not in kinds or language not in MEMBERS_ELSEWHERE:
            return []
        qn, path = str(best["qualified_name"]), str(best["path"])
        folder = posixpath.dirname(path)
        return [p for p in (h.payload for h in self.store.find(
                    StoreFilter(repos=(best["repo"],)), "qualified_name_lc", qn.lower() + ".", prefix=True,
                    limit=MAX_LIMIT))
                if p.get("path") != path and p.get("parent") == qn and p.get("language") == language
                and hit_role(p) == hit_role(best) and (language != "go" or posixpath.dirname(str(p["path"])) == folder)]

    # --- source ---------------------------------------------------------------------

    def read_symbol(self, repo: str, path: str, start_line: int, end_line: int, *,
                    principal: Principal = LOCAL) -> SourceText:
        """Lines ``start_line..end_line`` (1-based, inclusive; ``end_line`` 0 = to the end) of
        ``path`` at the indexed commit, read from the mirror's git objects, with secrets
        redacted exactly as in the index.

        Only a path the ledger knows and that is neither sensitive nor excluded is read; any
        other answers like a missing file."""
        validate.text("repo", repo, validate.MAX_REPO_CHARS)
        validate.repo_path("path", path)
        validate.line_range(start_line, end_line)
        commit = self._indexed_commit(principal, repo)
        repository = mirror.open_repo(str(mirror.mirror_dir(self.cfg.data_dir / "mirrors", repo)))
        row = self.ledger.file(repo, path)
        hidden = (row is None or row.reason in ("sensitive", "excluded") or classify.sensitive(path)
                  or classify.path_excluded(path, self.cfg.index, self.cfg.repo(repo)))
        try:
            blob = mirror.read_path(repository, commit, path)
        except MirrorError as exc:
            # a blob the mirror lacks (a partial clone): no internal error (a review)
            if hidden:
                raise NotFound(f"{path}: no such file at {commit[:12]}") from None
            raise NotFound(f"{path}: the mirror lacks this file's blob at {commit[:12]} (not indexed: "
                           f"missing_blob); fetch the repository whole, then sync") from exc
        if hidden:
            raise NotFound(f"{path}: no such file at {commit[:12]}")  # as mirror.read_path says
        if len(blob) > self.cfg.index.max_file_bytes:  # bounds the decode + redaction work
            raise InvalidArgument(f"{path}: {len(blob)} bytes, over index.max_file_bytes "
                                  f"({self.cfg.index.max_file_bytes})")
        if blob.startswith((b"\xff\xfe", b"\xfe\xff")):  # NULs too, but text: as indexing says
            raise InvalidArgument(f"{path}: UTF-16 text (not indexed: encoding); read serves UTF-8 text")
        if b"\0" in blob[:classify.BINARY_SNIFF_BYTES]:
            # as indexing judges it (``classify.classify``): a PNG was served as a megabyte of
            # U+FFFD and NUL characters, exit 0 (a newcomer)
            raise InvalidArgument(f"{path}: a binary file ({len(blob)} bytes, not indexed); "
                                  "read serves text files")
        source = blob.decode("utf-8", errors="replace").removeprefix("\ufeff")
        lines = redact.split_lines(redact.text(source, path)[0])
        if start_line > len(lines):
            raise InvalidArgument(f"lines: start_line {start_line} > {len(lines)}, the last line of {path}")
        end = min(end_line or len(lines), len(lines))
        return SourceText(repo, path, commit, start_line, end, "".join(lines[start_line - 1:end]))

    # --- repos ----------------------------------------------------------------------

    def list_repos(self, *, principal: Principal = LOCAL) -> list[RepoStatus]:
        """Every configured repo in the caller's scope with its ledger state."""
        return [self._status(r.name) for r in self.cfg.repos if principal.allows(r.name)]

    def sync_repo(self, name: str, *, principal: Principal = LOCAL) -> RepoStatus:
        """Sync ``name`` now (blocking) and return its status. Needs the ``admin`` role."""
        if not principal.is_admin:
            raise PermissionDenied("sync: needs the 'admin' role")
        validate.text("name", name, validate.MAX_REPO_CHARS)
        if self.cfg.repo(name) is None or not principal.allows(name):
            raise NotFound(unknown_repo(name, principal.scope(r.name for r in self.cfg.repos)))
        if self._sync is None:
            raise InvalidArgument("sync: this daemon was started without a sync runner")
        self._sync(name)
        return self._status(name)

    def watch_progress(self, repo: str = "", once: bool = False, *, principal: Principal = LOCAL,
                       alive: Callable[[], bool] = lambda: True) -> Watch:
        """A stream of ``progress.Progress`` for ``repo`` (every configured repo in the
        caller's scope when ``""``, in config order): current states, then each change
        until cancelled (``Watch.cancel``), ``alive()`` is false or the daemon stops;
        ``once`` ends after the current states. ``NotFound`` for a repo outside the scope
        (like an unknown one); ``ResourceExhausted`` when too many streams are open."""
        validate.text("repo", repo, validate.MAX_REPO_CHARS)
        scope = [r.name for r in self.cfg.repos if principal.allows(r.name)]
        if repo and repo not in scope:
            raise NotFound(unknown_repo(repo, scope))
        return self.progress.watch([repo] if repo else scope, once=once, alive=alive)

    def _status(self, name: str) -> RepoStatus:
        repo_cfg = self.cfg.repo(name)
        row = self.ledger.repo(name)
        if row is None:
            return RepoStatus(name, credentials.redact_url(repo_cfg.url) if repo_cfg else "",
                              repo_cfg.branch if repo_cfg else "", "", 0, 0, 0, 0.0, "pending", "")
        meta = self.ledger.repo_meta(name)
        return RepoStatus(row.name, credentials.redact_url(repo_cfg.url if repo_cfg else row.url), row.branch,
                          row.indexed_commit, row.files, row.symbols, row.chunks,
                          row.last_sync_unix_s, str(row.state), credentials.redact_url(row.error),
                          purpose=str(meta.get("purpose", "")),
                          languages=tuple((str(k), int(v)) for k, v in meta.get("languages", [])),
                          packages=tuple(str(p) for p in meta.get("packages", [])),
                          pending_vectors=self.pending_vectors(name), lag_s=row.lag_s(time.time()),
                          files_failed=len(self.ledger.files(name, FileState.FAILED)))

    def lag_s(self, name: str) -> float:
        """Seconds repo ``name``'s index has been behind its fetched head (0 when caught up
        or never fetched)."""
        row = self.ledger.repo(name)
        return row.lag_s(time.time()) if row else 0.0

    def pending_vectors(self, name: str = "") -> int:
        """Points of repo ``name`` (all configured repos when ``""``: a repo dropped from
        the config is never embedded, so its points do not wait) still waiting for a dense
        vector; 0 with embeddings disabled (no point ever gets one, so none waits)."""
        if not self.embedder:
            return 0
        if name:
            return self.store.count_missing_dense(name)
        repos = tuple(r.name for r in self.cfg.repos)
        return self.store.count_missing_dense(flt=StoreFilter(repos=repos)) if repos else 0

    def _first_index_note(self, flt: StoreFilter) -> str:
        """``"first index in progress: repo 'x' (indexing, 120/900 files, 3000 chunks
        without dense vectors)"`` for the repos ``flt`` covers that have no indexed commit
        yet while a run of theirs is in progress or queued; ``""`` when none: the answer
        then covers a whole commit of every repo in scope."""
        names = [flt.repo] if flt.repo else list(flt.repos) or [r.name for r in self.cfg.repos]
        notes = []
        for name in names:
            phase = self.progress.phase(name)  # no ledger read: most searches stop here
            if phase not in RUNNING or phase == "embedding":
                continue  # at rest, or lexically complete
            state = self.progress.get(name)
            row = self.ledger.repo(name)
            if row is not None and row.indexed_commit:
                continue
            files = f", {state.files_done}/{state.files_total} files" if state.files_total else ""
            notes.append(f"repo {name!r} ({state.phase}{files}, "
                         f"{state.pending_vectors} chunks without dense vectors)")
        if not notes:
            return ""
        return ("first index in progress, this answer covers what is indexed so far: "
                + ", ".join(notes[:5]) + (f" and {len(notes) - 5} more" if len(notes) > 5 else ""))

    # --- impact, overlays, answers --------------------------------------------------------

    def analyze_impact(self, name: str, repo: str = "", depth: int = impact.DEFAULT_DEPTH,
                       limit: int = impact.DEFAULT_NODES, *, principal: Principal = LOCAL) -> Impact:
        """Transitive callers of ``name`` (named as in ``find_callers``) as a tree ``depth``
        levels deep (1..10; 0 = 3) of at most ``limit`` nodes (1..2000; 0 = 200), callers
        limited to ``repo`` when given; see ``query/impact.py``. Raises ``InvalidArgument``."""
        name = _symbol_name(name)
        depth = _bounded("depth", depth, impact.DEFAULT_DEPTH, impact.MAX_DEPTH)
        limit = _bounded("limit", limit, impact.DEFAULT_NODES, impact.MAX_NODES)
        flt = self._filter(principal, repo)
        if flt is None:
            return Impact(name, (), 0, 0, 0, False)
        self._overloads_named(flt, name)
        # every level asks again for the definitions and re-export modules the last one read
        # (each caller's owner, its package's star imports): read once per request
        # (and the calls of a name every level asks with another, `Model`: `Reused.find_any`)
        reading = reuse.Reused(self.store, by_value=True)
        roots = frozenset(impact.root_key(h.payload) for h in callgraph.definitions(reading, flt, name))
        commits: dict[str, str] = {}
        # one lookup budget for every level's callers: a cut drops callers, as the limits do
        with callgraph.budget() as spent:
            found = impact.analyze(name, roots, lambda asked, at: callgraph.callers(reading, flt, asked, at=at),
                                   lambda r: self._commit(r, commits), depth, limit, role_rank, _walk_clock())
        if not spent.cut:
            return found
        cut = {*found.cut, ImpactCut.HIERARCHY}
        return replace(found, truncated=True, cut=tuple(c for c in ImpactCut if c in cut))

    def index_overlay(self, repo: str, path: str, content: bytes, session: str, ttl_s: int = 0, *,
                      principal: Principal = LOCAL) -> OverlayStatus:
        """Index ``content`` as ``repo``/``path`` for ``session`` only, for ``ttl_s`` seconds
        (0 = 3600, max 86400); empty content removes it (see ``query/overlay.py``). Any role may
        write, but only into a repo in its scope (``NotFound`` otherwise, as for an unknown
        repo). Raises ``InvalidArgument`` (bad path, session, TTL, content over
        ``index.max_file_bytes``), ``ResourceExhausted`` (too many overlay files) and
        ``StoreUnavailable`` (while the index is rebuilt for a new vector space: retry)."""
        validate.text("repo", repo, validate.MAX_REPO_CHARS)
        validate.repo_path("path", path)
        if not isinstance(content, bytes):
            raise InvalidArgument("content: expected bytes")
        if self.cfg.repo(repo) is None or not principal.allows(repo):
            raise NotFound(unknown_repo(repo, principal.scope(r.name for r in self.cfg.repos)))
        if self.overlay is None:
            # UNAVAILABLE, worth retrying (the CLI's exit 3), not a usage error (a review)
            raise StoreUnavailable("overlay: unavailable while the index is rebuilt for a new "
                                  "vector space (retry after the switch), or not started")
        return self.overlay.put(principal.name, session, repo, path, content, ttl_s)

    def ask(self, question: str, repo: str = "", limit: int = asking.DEFAULT_EVIDENCE, *,
            principal: Principal = LOCAL) -> Answer:
        """Evidence for ``question`` (hybrid search, ``limit`` chunks: 1..50, 0 = 8) and, when
        ``[ask] endpoint`` is set, a model's answer citing only that evidence (``query/ask.py``).
        Endpoint failures answer status ``model_error``, never an error."""
        question = validate.text("question", question, validate.MAX_QUERY_CHARS).strip()
        if not question:
            raise InvalidArgument("question: must not be empty")
        limit = _bounded("limit", limit, asking.DEFAULT_EVIDENCE, asking.MAX_EVIDENCE)
        flt = self._filter(principal, repo)
        ranked = (self._search(shapes.analyze(question), flt, limit, "hybrid", "", principal, "",
                               fields=None)[0]
                  if flt else [])
        commits: dict[str, str] = {}
        evidence = [(self._hit(h, m, commits=commits), str(h.payload.get("embed_text", "")))
                    for h, m, _ in ranked]
        return asking.answer(self.cfg.ask, question, evidence)

    def _filling(self, flt: StoreFilter) -> tuple[int, int] | None:
        """(waiting, points) when at least ``PENDING_LEXICAL_SHARE`` of the points ``flt``
        covers wait for dense vectors (a hybrid query is then ranked by its words alone),
        else None; None without a model. Both counts are reused for ``PENDING_NOTE_TTL_S``
        per filter. The exact count of the waiting reads every point's text (1.6 s at 100k
        points: every search paid it once per filter every ``PENDING_NOTE_TTL_S``, a stall
        of the 100k benchmark's tail); it is asked only when the points without a vector,
        the never-embedded among them, reach the share (``count_missing_dense``'s ``upper``,
        2 ms)."""
        if self.embedder is None:
            return None
        points = self._cached_count(self._scope_counts, flt, lambda: self.store.count(flt))
        bound = self._pending_bound(flt)
        if not points or bound < PENDING_LEXICAL_SHARE * points:
            return None
        waiting = self._waiting(flt, bound)
        return (waiting, points) if waiting and waiting >= PENDING_LEXICAL_SHARE * points else None

    def _pending_bound(self, flt: StoreFilter) -> int:
        """Every point ``flt`` covers without a dense vector, the never-embedded too
        (``count_missing_dense``'s ``upper``), reused for ``PENDING_NOTE_TTL_S``."""
        return self._cached_count(self._pending_bounds, flt,
                                  lambda: self.store.count_missing_dense(flt=flt, upper=True))

    def _waiting(self, flt: StoreFilter, bound: int) -> int:
        """The points ``flt`` covers that wait for a dense vector: ``bound``
        (``_pending_bound``) less those never embedded (a blank text), counted exactly (a
        read of every payload's text) at most once per ``BLANKS_TTL_S`` per filter: they
        change only when a sync writes."""
        if not bound:
            return 0
        blank = self._cached_count(self._blank_counts, flt,
                                   lambda: max(0, bound - self.store.count_missing_dense(flt=flt)),
                                   ttl=BLANKS_TTL_S)
        return max(0, bound - blank)

    def _filling_note(self, flt: StoreFilter, low: bool, reason: str, mode: str = "hybrid",
                      ) -> tuple[bool, str]:
        """(low, reason) of a hybrid answer, said to be ranked by words alone and low while
        its scope fills (``_filling``), and of a dense one, said to cover the embedded chunks
        only (a review: 20 % of pytest answered a dense search with no note); as given
        otherwise."""
        filling = self._filling(flt)
        if filling is None:
            return low, reason
        note = (f"{filling[0]} of {filling[1]} chunks in scope still wait for dense vectors: "
                + ("this dense answer covers the others only" if mode == "dense"
                   else "ranked by their words alone until embedded"))
        return True, note + (f"; {reason}" if reason and "wait for dense vectors" not in reason else "")

    @staticmethod
    def _cached_count(cache: dict[StoreFilter, tuple[float, int]], flt: StoreFilter,
                      count: Callable[[], int], ttl: float | None = None) -> int:
        """``count()`` for ``flt``, reused for ``ttl`` seconds (``PENDING_NOTE_TTL_S`` by
        default; at most 1,024 scopes cached; the cache is emptied past them)."""
        now = time.monotonic()
        cached = cache.get(flt)
        if cached is None or now - cached[0] > (PENDING_NOTE_TTL_S if ttl is None else ttl):
            if len(cache) > 1024:
                cache.clear()
            cached = cache[flt] = (now, count())
        return cached[1]

    def _pending_note(self, flt: StoreFilter) -> str:
        """``"; N chunks in scope still wait for dense vectors ..."`` when the repos ``flt``
        covers have points without one, else ``""``: a weak answer may only mean the model
        has not reached the code yet. Asked only for low-confidence answers; the count is
        ``_waiting``'s, its bound reused for ``PENDING_NOTE_TTL_S`` per filter."""
        if self.embedder is None:
            return ""
        waiting = self._waiting(flt, self._pending_bound(flt))
        if not waiting:
            return ""
        return (f"; {waiting} chunks in scope still wait for dense vectors (found by their "
                "words only until embedded)")

    def _view(self, principal: Principal, session: str, flt: StoreFilter) -> overlay.View:
        """The overlay ``session`` shows the caller within ``flt`` (nothing without one)."""
        if not session:
            return overlay.NO_VIEW
        overlay.check_session(session)
        if self.overlay is None:
            return overlay.NO_VIEW
        return self.overlay.view(principal.name, session, flt, self._file_points)

    def _file_points(self, repo: str, path: str) -> int:
        row = self.ledger.file(repo, path)
        return row.chunks if row else 0

    # --- helpers --------------------------------------------------------------------

    def _filter(self, principal: Principal, repo: str, **kwargs: str) -> StoreFilter | None:
        """The store filter of the caller's scope narrowed to ``repo``; ``None`` when the
        scope is empty (the caller may see nothing)."""
        validate.text("repo", repo, validate.MAX_REPO_CHARS)
        scope = principal.scope(r.name for r in self.cfg.repos)
        if repo and repo not in scope:
            raise NotFound(unknown_repo(repo, scope))  # out of scope == unknown
        if not scope:
            return None
        if not repo and self._scope_is_everything(scope):
            return StoreFilter(**kwargs)  # nothing to hide: no scope condition to check
        return StoreFilter(repos=(repo,) if repo else scope, **kwargs)

    def _project_names(self, flt: StoreFilter) -> tuple[str, ...]:
        """The names a question may call the one repository of ``flt``'s scope by: its
        configured name and its URL's last part (``.git`` dropped); ``()`` when the scope
        holds several repositories (there the name tells them apart)."""
        repos = flt.repos or tuple(r.name for r in self.cfg.repos)
        if len(repos) != 1:
            return ()
        cfg = self.cfg.repo(repos[0])
        tail = cfg.url.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git") if cfg else ""
        return tuple(dict.fromkeys(n for n in (repos[0], tail) if n))

    def _scope_is_everything(self, scope: tuple[str, ...]) -> bool:
        """Whether ``scope`` (the caller's repos) covers every repo the store holds, so the
        store needs no scope condition. A filter on 115 repos made a dense search at 1M
        points 4.3x slower (7.9 vs 1.8 ms) and a hybrid one 2.2x (17.8 vs 8.0 ms) here: the
        engine checks it on every graph node it visits. Only when the store can say what
        it holds (``Store.repos``: the embedded store, whose only writer is this process
        and which writes configured repos only); asked once per store."""
        if len(scope) < len(self.cfg.repos):
            return False
        key = id(self.store)
        if self._store_repos[0] != key:
            held = self.store.repos()
            self._store_repos = (key, None if held is None else frozenset(held))
        held = self._store_repos[1]
        return held is not None and held <= set(scope)

    def _indexed_commit(self, principal: Principal, repo: str) -> str:
        if self.cfg.repo(repo) is None or not principal.allows(repo):
            raise NotFound(unknown_repo(repo, principal.scope(r.name for r in self.cfg.repos)))
        row = self.ledger.repo(repo)
        if row is None or not row.indexed_commit:
            raise NotFound(f"repo {repo!r} has no indexed commit yet")
        return row.indexed_commit

    def _suffixes(self, flt: StoreFilter) -> Callable[[], list[anchors.PathSuffixes]]:
        """The indexed paths of ``flt``'s repos by suffix (``anchors.PathSuffixes``), built
        on first call and kept per repo until its indexed commit changes (one ledger query
        per repo and commit: sympy's 1,500 paths in ~5 ms)."""
        def build() -> list[anchors.PathSuffixes]:
            repos = (flt.repo,) if flt.repo else (flt.repos or tuple(self.ledger.repo_names()))
            out = []
            for repo in repos:
                row = self.ledger.repo(repo)
                key = (repo, row.indexed_commit if row else "")
                cached = self._path_suffixes.get(repo)
                if cached is None or cached[0] != key:
                    cached = (key, anchors.PathSuffixes(self.ledger.paths(repo)))
                    self._path_suffixes[repo] = cached
                out.append(cached[1])
            return out
        return build

    def _commit(self, repo: str, memo: dict[str, str]) -> str:
        if repo not in memo:
            row = self.ledger.repo(repo)
            memo[repo] = row.indexed_commit if row else ""
        return memo[repo]

    def _hit(self, hit: Hit, match: str, score: float | None = None,
             commits: dict[str, str] | None = None, source: str = INDEX) -> SymbolHit:
        p = hit.payload
        return SymbolHit(
            repo=p["repo"], path=p["path"], language=p.get("language", ""), kind=p["kind"],
            name=p["name"], qualified_name=p["qualified_name"], parent=p.get("parent", ""),
            signature=p.get("signature", ""), docstring=p.get("docstring", ""),
            start_line=int(p["start_line"]), end_line=int(p["end_line"]),
            start_byte=int(p["start_byte"]), end_byte=int(p["end_byte"]),
            commit="" if source == OVERLAY else self._commit(p["repo"], {} if commits is None else commits),
            score=hit.score if score is None else score,
            match=match, snippet=p.get("snippet", ""), source=source, id=str(hit.id),
            role=hit_role(p))


#: Languages whose types' methods may be defined in other files than the type (``card``):
#: Go (a package's files), Rust (impl blocks), C# (partial classes), Swift and Kotlin
#: (extensions), Ruby (a class reopened).
MEMBERS_ELSEWHERE = frozenset({"go", "rust", "csharp", "swift", "kotlin", "ruby"})
_MATCH_ORDER = {"exact": 0, "reexport": 0, "scoped": 0, "inherited": 0, "as_called": 0, "case_insensitive": 1, "prefix": 2,
                "substring": 3, "fuzzy": 4}


def _source_order(payload: dict) -> tuple[float, bool, bool]:
    """Where a definition stands among its namesakes: source first (``role_rank``), then an
    implementation before a signature without behaviour (``locate.is_stub``: a declaration
    file's, axios's ``index.d.ts``; a Python ``@overload`` stub, werkzeug's two
    ``MapAdapter.match`` stubs were listed before it; an abstract or interface method),
    then the type before its extensions (``_extends``). The order of ``symbols``, ``card``
    and pinned names after their match."""
    return role_rank(payload), locating.is_stub(payload), _extends(payload)


#: A Swift extension's head: ``extension HTTPHeaders: Collection``, ``public extension
#: Request``, ``@available(...) extension``. Indexed as a class named by the type it extends.
_EXTENSION_HEAD = re.compile(r"^(?:(?:@\w+(?:\([^)]*\))?|public|internal|private|fileprivate|open)\s+)*extension\b")


def _extends(payload: dict) -> bool:
    """Whether ``payload`` is an extension of a type defined elsewhere (``_EXTENSION_HEAD``),
    not the type: Alamofire's ``card HTTPHeaders`` described ``extension HTTPHeaders:
    Collection`` (lines 160-176), not the struct (28-140)."""
    return payload.get("language") == "swift" and _EXTENSION_HEAD.match(str(payload.get("signature", ""))) is not None


#: Kinds a card prefers for a name many definitions share (``get_card``): a class or a
#: function, then another type, before a value, a module or a docs section.
_CARD_KINDS = {"class": 0, "function": 0, "method": 0, "struct": 1, "enum": 1, "interface": 1,
               "trait": 1, "type_alias": 1}


def _card_rank(payload: dict) -> int:
    """``_CARD_KINDS``'s rank (3 for a kind it lacks), an extension of a type (``_extends``)
    or a Scala object 2: after the struct or enum it extends, the class or trait it is the
    companion of (ox's ``card Channel`` described ``object Channel``, not the class)."""
    return 2 if _extends(payload) or _scala_object(payload) else _CARD_KINDS.get(str(payload["kind"]), 3)


_SCALA_OBJECT = re.compile(r"(?:\w+(?:\[[^\]]*\])?\s+)*object\b")


def _scala_object(payload: dict) -> bool:
    """Whether ``payload`` is a Scala ``object`` (``private case object X``)."""
    return payload.get("language") == "scala" and _SCALA_OBJECT.match(str(payload.get("signature", ""))) is not None


#: A name written with type parameters: ``ResiliencePipeline<T>``, .NET's ``ResiliencePipeline`1``.
_GENERIC_NAME = re.compile(r"<[^<>]*>\s*$|`\d+$")


def _member_order(name: str, payload: dict) -> int:
    """0 for a top-level definition (no parent) or when ``name`` is qualified, else 1: a
    bare name first names a function or class of its own, a method being written with its
    class (typer's ``card get_command`` described a three-line ``TyperCLIGroup.get_command``
    override while ``callers get_command`` answered the public function, a newcomer)."""
    bare = not re.search(r"[.:#\\]", name.strip())
    return int(bare and bool(payload.get("parent")) and payload.get("kind") in ("method", "function"))


def _generic_order(name: str, payload: dict) -> int:
    """1 when ``name`` writes a generic type (``Foo<T>``, ``Foo`1``) and the definition is
    none, else 0: the generic ``class Foo<T>`` before a plain ``Foo`` of the same name
    (Polly's ``symbols "ResiliencePipeline<T>"`` and its card answered the non-generic
    class; the index names both ``ResiliencePipeline``). Asked explicitly, so it comes
    before the role order; a plain name's preference (``_plain_order``) after it."""
    return int(_GENERIC_NAME.search(name.strip()) is not None and not _generic(payload))


def _plain_order(name: str, payload: dict) -> int:
    """1 when ``name`` is plain and the definition generic, else 0: ``Foo`` is the plain
    ``Foo`` before ``Foo<T>`` of the same role. After the role order: hono's generic
    ``class Hono<E, S, ..>`` came after two benchmark callbacks named ``Hono`` (``card
    Hono`` answered one)."""
    return int(_GENERIC_NAME.search(name.strip()) is None and _generic(payload))


def _generic(payload: dict) -> bool:
    """Whether the definition's signature declares type parameters (``Foo<T>``)."""
    return re.search(rf"\b{re.escape(str(payload.get('name', '')))}\s*<", str(payload.get("signature", ""))) is not None


def _written(name: str, payload: dict) -> bool:
    """Whether ``name`` is a point's name as written, case and all: its name, qualified or
    module-qualified name, or the tail of one at a dot (Go's ``gin.node.getValue``)."""
    name = name.replace("::", ".")
    names = (str(payload.get("qualified_name", "")), str(payload.get("fq_name") or ""))
    return payload.get("name") == name or any(n == name or n.endswith("." + name) for n in names)


def _match_kind(name: str, payload: dict) -> str:
    if name in (payload["name"], payload["qualified_name"], payload.get("fq_name")) or name in (
            payload.get("fq_aliases") or ()):
        return "exact"
    lowered = name.lower()
    if lowered in (payload["name_lc"], payload["qualified_name_lc"]):
        return "case_insensitive"
    return "prefix"


def _trait_members(store: Any, flt: StoreFilter, name: str) -> list[tuple[Hit, str, float]]:
    """A Rust ``--prefix`` lookup's members from trait impls: ``RouteFuture::po`` names
    ``<RouteFuture as Future>::poll`` (the index's name of an ``impl Future for
    RouteFuture`` method, which the plain prefix never reached: an axum newcomer). One
    prefix lookup of ``<Type as `` (at most ``MAX_LIMIT``), the member's name after the
    trait matched by the rest."""
    owner, _, rest = name.rpartition("::")
    out = []
    for hit in store.find(flt, "qualified_name_lc", f"<{owner.lower()} as ", prefix=True, limit=MAX_LIMIT):
        p = hit.payload
        member = str(p.get("qualified_name", "")).rpartition(">::")[2]
        if (member.lower().startswith(rest.lower()) and p.get("kind") not in _HIDDEN_KINDS
                and not is_part(member)):
            out.append((hit, "prefix", 1.0))
    return out


def _qualified_tail(store: Any, flt: StoreFilter, name: str) -> list[tuple[Hit, str, float]]:
    """Symbols whose qualified or module-qualified name ends with the dotted ``name`` at a
    dot (``node.getValue`` is Go's ``gin.node.getValue``, whose qualified names carry the
    package; ``Strings.trim`` Java's ``com.acme.Strings.trim``), as ``callgraph.definitions``
    reads them: ``exact`` when the case matches too, else ``case_insensitive``. One keyword
    lookup of the last segment (at most ``MAX_LIMIT`` points)."""
    tail = "." + name.lower()
    out = []
    for hit in store.find(flt, "name_lc", name.rsplit(".", 1)[-1].lower(), limit=MAX_LIMIT):
        p = hit.payload
        if p.get("kind") in _HIDDEN_KINDS or is_part(str(p.get("qualified_name", ""))):
            continue
        names = [p.get("qualified_name") or "", p.get("fq_name") or ""]
        if any(n.endswith("." + name) for n in names):
            out.append((hit, "exact", 1.0))
        elif any(n.lower().endswith(tail) for n in names):
            out.append((hit, "case_insensitive", 1.0))
    return out


#: A name's leading scope: a lower-case namespace, module or import alias and its separator
#: (``fmt::``, ``util.``, ``z.``); a class's name (``Foo.``) is no such scope.
_LEADING_SCOPE = re.compile(r"^[a-z_][\w$]*(?:::|\.)(?=[\w$~])")


def _without_scope(store: Any, flt: StoreFilter, name: str) -> list[tuple[Hit, str, float]]:
    """Symbols ``name`` means once its leading lower-case scopes are dropped, one at a
    time, as match ``"scoped"``: code writes a name through the namespace or import alias
    it is reached by, which the index may not name it by (fmt opens ``namespace fmt`` with
    a macro, so ``fmt::format_system_error`` is ``format_system_error``; zod's
    ``util.finalizeIssue`` is ``import * as util``'s). What is left must name a definition
    of a module, or one of a class as written (``detail::buffer::push_back``), exactly, in a
    file whose path holds every dropped scope as a directory or its stem
    (``include/fmt/format.h``, ``core/util.ts``): ``requests.get`` is no repo's
    ``ApiClient.get``, ``os.path.join`` no ``app/client.py``'s ``join`` (a review). A few
    keyword lookups per dropped scope."""
    out: list[tuple[Hit, str, float]] = []
    rest, dropped = name, []
    while not out and (scope := _LEADING_SCOPE.match(rest)):
        dropped.append(scope.group().rstrip(":."))
        rest = rest[scope.end():]
        hits = [h for field in ("qualified_name_lc", "name_lc") for h in store.find(flt, field, rest.lower(), limit=MAX_LIMIT)]
        if "." in rest or "::" in rest:
            hits += [hit for hit, kind, _ in _qualified_tail(store, flt, shapes.dotted(rest)) if kind == "exact"]
        out = [(hit, "scoped", 1.0) for hit in _dedupe(hits)
               if hit.payload.get("kind") not in _HIDDEN_KINDS and not is_part(str(hit.payload.get("qualified_name", "")))
               and (_match_kind(rest, hit.payload) == "exact" or _qualified_ends(hit.payload, rest))
               and (not hit.payload.get("parent") or "." in rest or "::" in rest)
               and _path_holds(str(hit.payload.get("path", "")), dropped)]
    return out


def _qualified_ends(payload: dict, rest: str) -> bool:
    """Whether ``payload``'s qualified name ends with ``rest`` at a scope separator."""
    qualified = shapes.dotted(str(payload.get("qualified_name", "")))
    written = shapes.dotted(rest)
    return qualified == written or qualified.endswith("." + written)


def _path_holds(path: str, scopes: list[str]) -> bool:
    """Whether every one of ``scopes`` is a directory of ``path`` or its file's stem."""
    parts = path.split("/")
    names = {*parts[:-1], parts[-1].split(".", 1)[0]}
    return all(scope in names for scope in scopes)


def _judge(name: str, payload: dict, fuzzy: bool) -> tuple[str, float] | None:
    """(match kind, score) of a looked-up point; ``None`` when ``name`` does not match it."""
    kind = _match_kind(name, payload)
    lowered = name.lower()
    if kind != "prefix" or payload["name_lc"].startswith(lowered) or payload[
            "qualified_name_lc"].startswith(lowered):
        return kind, 1.0
    return fuzzy_judge(name, payload) if fuzzy else None


def _source_missed(asked: shapes.Query, candidates: Sequence[Hit], limit: int, file_prior: bool) -> bool:
    """Whether the first ``limit`` of ``candidates`` in ``asked``'s order (``_ordering``)
    hold a hit of a role other than source whose ordering score is below every
    candidate's own score: a source chunk the retrievers ranked just past the candidates
    scores at most that lowest score and pays no role penalty, so it may order above the
    hit (``SOURCE_RESCUE``)."""
    floor = min(h.score for h in candidates)
    key = _ordering(asked, candidates, file_prior)
    page = sorted(candidates, key=key)[:limit]
    return any(hit_role(h.payload) != classify.Role.SOURCE and -key(h) < floor for h in page)


def _ordering(asked: shapes.Query, hits: Sequence[Hit], file_prior: bool = True,
              ) -> Callable[[Hit], float]:
    """The hybrid order of ``asked``'s candidates ``hits``, as a sort key (smaller first):
    a hit's score less ``ROLE_PENALTY`` (issues, traces: ``ROLE_PENALTY_LONG``) of its role
    unless the query asks for that role (``Query.roles``; none asked: source first), less
    ``STUB_PENALTY`` for a stub (``locate.is_stub``) and ``MODULE_PENALTY_LONG``
    (issues, traces) or ``MODULE_PENALTY_TEXT`` (questions) for a whole-module chunk,
    less ``RAISED_CLASS_PENALTY`` for the class of an exception a trace names,
    less ``TYPE_PENALTY_TEXT`` for a type's chunk when a short text asks for no type
    and names none of that name (``Query.symbols``), less ``TEST_CLOSURE_PENALTY`` for a
    function nested in a test function when a short text asks for no tests,
    plus ``NAME_MATCH_WEIGHT`` for a code symbol whose whole name is in a question's words
    (``_name_match``), plus (issues,
    ``file_prior``) ``FILE_PRIOR`` times its file's score among ``hits``
    (``locate.file_scores``). Scores are unchanged; ``sorted`` keeps ties stable."""
    penalties = ROLE_PENALTY_LONG if asked.long else ROLE_PENALTY
    typed = TYPE_PENALTY_TEXT if asked.shape is Shape.TEXT and not asked.types else 0.0
    named_types = {symbol.rpartition(".")[2] for symbol in asked.symbols}  # "RemoteProtocolError"
    closures = TEST_CLOSURE_PENALTY if asked.shape is Shape.TEXT and "test" not in asked.roles else 0.0
    words = _name_words(asked)
    share = FILE_PRIOR.get(asked.shape, 0.0) if file_prior else 0.0
    tongue = dialect.scope(_families(asked), (h.payload for h in hits))
    prior = (locating.file_scores(hits, penalty=lambda p: _file_penalty(p, asked.roles, penalties, tongue=tongue))
             if share > 0 else {})

    def key(hit: Hit) -> float:
        payload = hit.payload
        bonus = NAME_MATCH_WEIGHT * _name_match(payload, words) if words else 0.0
        if prior:
            bonus += share * prior.get((payload.get("repo", ""), payload.get("path", "")), 0.0)
        demote = _kind_demotion(payload, asked)
        if asked.raised and payload.get("kind") == "class" and payload.get("name") in asked.raised:
            demote += RAISED_CLASS_PENALTY
        if typed and payload.get("kind") in _PENALISED_TYPE_KINDS and named_types.isdisjoint(
                (payload.get("name"), str(payload.get("qualified_name", "")).rpartition(".")[2])):
            demote += typed  # (``locate`` reads no ``name``)
        if closures and _test_closure(payload):
            demote += closures
        if tongue.foreign(payload):
            demote += LANGUAGE_PENALTY
        demote += _prose_demotion(payload, asked)
        return -(hit.score - _penalty(payload, asked.roles, penalties) - demote + bonus)
    return key


#: Symbol kinds a name match applies to: code, not docs sections or whole files.
_NAME_MATCH_SKIP = frozenset({"section", "module"})


def _name_words(asked: shapes.Query) -> frozenset[str]:
    """The words a code symbol's whole name is matched against (``_name_match``): a short
    question's (``_question_words``), none for another shape or with ``NAME_MATCH_WEIGHT``
    0. Search's order and locate's function lists read the same."""
    if asked.shape is not Shape.TEXT or NAME_MATCH_WEIGHT <= 0:
        return frozenset()
    return _question_words(asked.text)


def _question_words(query: str) -> frozenset[str]:
    """The lowercased words of a question (stop words and 1-letter words dropped)."""
    return frozenset(t for t in sparse.tokens(query) if len(t) > 1)


def _name_match(payload: dict, words: frozenset[str]) -> float:
    """1.0 when every word of a code symbol's name of two or more words (``run_command`` ->
    run, command) is in ``words``, else 0.0; a word matches its plural or inflection
    (``blueprints``, ``registered``: one is a prefix of the other by at most 3 letters, both
    at least 4 long). 0.0 for sections and modules."""
    if payload.get("kind") in _NAME_MATCH_SKIP:
        return 0.0
    name = payload.get("name") or unparted(str(payload.get("qualified_name", ""))).rpartition(".")[2]
    parts = _symbol_words(str(name))
    return 1.0 if len(parts) >= 2 and all(_word_in(part, words) for part in parts) else 0.0


@functools.lru_cache(maxsize=1 << 14)
def _symbol_words(name: str) -> tuple[str, ...]:
    """The words of a symbol's name after the whole identifier (``run_command`` -> run,
    command; none for one word), 1-letter ones left out; cached (a page's ordering reads
    one per candidate)."""
    terms = [t for t in sparse.tokens(name) if len(t) > 1]
    return tuple(terms[1:])  # the whole identifier comes first, then its parts


def _word_in(part: str, words: frozenset[str]) -> bool:
    if part in words:
        return True
    if len(part) < 4:
        return False
    return any(len(w) >= 4 and abs(len(w) - len(part)) <= 3 and (w.startswith(part) or part.startswith(w))
               for w in words)


def _option_text(token: str) -> re.Pattern[str] | None:
    """For a command-line option (``--lf``), the pattern of it as a whole word in a
    chunk's text; None for any other token."""
    if not token.startswith("--"):
        return None
    return re.compile(r"(?<![\w-])" + re.escape(token) + r"(?![\w-])")


#: An evidence token that is an identifier as code writes one: a snake_case, camelCase or
#: CONSTANT_CASE name (``json_provider_class``, ``SESSION_COOKIE_SAMESITE``).
_CODE_TOKEN = re.compile(r"[A-Za-z$][\w$]*(?:_[\w$]+|[a-z][A-Z][\w$]*)")
#: Chunks read per identifier token to see it used as code (``_as_code``).
CODE_READS = 8
#: A query that is one identifier (``_CODE_TOKEN``) lists the page's chunks using it as code
#: first, after its definition (``_holders_first``).
HOLDERS_FIRST = True
#: Source chunks off the page using that identifier as code that join its holders
#: (``_source_code_holders``).
HOLDERS_JOINING = 3
#: A quoted literal query lists the chunks holding it verbatim first, source first
#: (``_literal_holders_first``).
LITERAL_HOLDERS_FIRST = True
#: An acronym's plural in prose ("UUIDs", "URLs", "APIs"): a code word by its case, held
#: by no chunk as written, yet no name of the code (flask's "how are UUIDs ... preserved").
_ACRONYMS = re.compile(r"[A-Z]{2,}s")
#: Whether a short text's one-word code token that no indexed chunk holds
#: (``_with_evidence``'s ``absent``) makes its answer low-confidence, as a literal's does.
ABSENT_TEXT_NAMES = True
#: Source chunks a quoted literal's words find that are read for holding it verbatim
#: (``_literal_holders_first``): arrow's ``"2 days ago"``, in ``Arrow.dehumanize``'s
#: docstring, was never found among the 5 best of its words (locale classes full of
#: "days" and "ago"), and 30 places were tests (a newcomer). A holder is checked from its
#: payload (``_holds_verbatim``; at most ``VERBATIM_READS`` blob reads).
LITERAL_HOLDER_DEPTH = 50


def _holders_before(page: Ranked, ranked: Ranked, limit: int, holders: Ranked,
                    roles: frozenset[str] = frozenset()) -> Ranked:
    """``ranked`` with its first ``limit`` (``page``) reordered: the pinned definitions
    (match ``"exact"``) first, then ``holders`` (chunks of the page and chunks joining from
    off it, in their order), then the page's other chunks, then the rest of ``ranked`` less
    the joined ones (``_holders_first``, ``_literal_holders_first``). A pinned definition
    of a role the query does not ask for (``_penalty``: a test's) comes after the holders of
    a cheaper role: ky's option ``throwHttpErrors`` is defined only as tests' callbacks
    (``{throwHttpErrors: () => false}``), four pinned first, the source reading it 5th."""
    pinned = [r for r in page if r[1] == "exact"]
    moved = {r[0].id for r in (*pinned, *holders)}
    first = pinned + holders
    if pinned and holders:  # stable: a pinned definition before the holders of its role
        cost = {r[0].id: _holder_cost(r[0].payload, roles) for r in first}
        first = sorted(first, key=lambda r: cost[r[0].id])
    return first + [r for r in page if r[0].id not in moved] + [
        r for r in ranked[limit:] if r[0].id not in moved]


def _non_rising(functions: tuple[FunctionHit, ...]) -> tuple[FunctionHit, ...]:
    """A located file's functions in their order (``locate.files``: the first, then the
    functions it calls, then by score) with scores that never rise down the list, as a
    search page's: a function listed above one that scores higher (a callee placed after
    its caller, a holder of the quoted message) shows that one's score. Three newcomers
    read 1.98, 0.99, 1.28 as a ranking out of order; cutting the later scores instead
    showed a callee's half score (``locate.CALLEE_SHARE``) on every function after it
    (attrs: seven functions at 0.359, one at 0.407 in search; a newcomer)."""
    out: list[FunctionHit] = []
    for f in reversed(functions):
        out.append(replace(f, score=out[-1].score) if out and f.score < out[-1].score else f)
    return tuple(reversed(out))


def _holder_cost(payload: dict, roles: frozenset[str]) -> tuple[float, bool]:
    """How late a holder of a searched token or literal goes: by its role (``_penalty``),
    then a declaration file's after an implementation's (attrs' ``collect_by_mro``: three
    ``.pyi`` stubs of ``attrs`` led the page, the function reading it 4th)."""
    return _penalty(payload, roles, ROLE_PENALTY), classify.declaration_file(str(payload.get("path", "")))


def _unquoted(text: str) -> str:
    """A quoted literal query's text without its quotes (``"unknown command"`` ->
    ``unknown command``); ``""`` when it is not quoted."""
    text = text.strip()
    return text[1:-1].strip() if len(text) > 2 and text[0] == text[-1] and text[0] in "\"'`" else ""


#: Line openings of a comment in the indexed languages (``* `` a block comment's line).
_COMMENT_OPENINGS = ("#", "//", "/*", "* ", "*/", "--")
#: A triple-quoted string's quotes, and one whole on a line.
_TRIPLE = re.compile(r"\"\"\"|\'\'\'")
_TRIPLE_WHOLE = re.compile(r"[rRbBuUfF]{0,2}(\"\"\"|\'\'\').*?\1")


def _in_code(text: str, token: str) -> bool:
    """Whether ``text`` (a chunk's) holds ``token`` as a whole word in code: not on a
    comment line (``_COMMENT_OPENINGS``), not inside a triple-quoted string (a Python
    docstring: one opens where a line's triple quotes are left unclosed, and closes at the
    next), not inside one whole on its line (``x = \"\"\"a token\"\"\"``)."""
    word = re.compile(r"(?<![\w$])" + re.escape(token) + r"(?![\w$])")
    inside = None  # the quotes of the triple-quoted string a line is inside
    for line in text.split("\n"):
        if inside is not None:
            end = line.find(inside)
            if end < 0:
                continue
            line, inside = line[end + 3:], None  # what follows the closing quotes is code
        elif line.lstrip().startswith(_COMMENT_OPENINGS):
            continue
        code = _TRIPLE_WHOLE.sub(" ", line)
        opened = _TRIPLE.search(code)
        if opened:
            inside, code = opened.group(), code[:opened.start()]
        if word.search(code):
            return True
    return False


def _holds_text(hit: Hit, pattern: re.Pattern[str]) -> bool:
    """Whether ``hit``'s chunk text (payload ``embed_text``) matches ``pattern``."""
    return bool(pattern.search(str(hit.payload.get("embed_text", ""))))


def _in_glob(hit: Hit, glob: str) -> bool:
    """Whether ``hit``'s path matches ``glob`` (fnmatch over the whole path, ``*`` spans
    ``/``); every hit when ``glob`` is empty."""
    return not glob or fnmatch.fnmatchcase(hit.payload["path"], glob)


def _accessor_pair(defs: Sequence[Hit]) -> bool:
    """Whether ``defs`` are two overloads, one without parameters and one with one, by
    their qualified names' parameter lists (``text()`` and ``text(String)``:
    ``parse.text.java_arity``, which a JVM's and .NET's names carry)."""
    arities = sorted(java_arity(str(h.payload.get("qualified_name", "")), str(h.payload.get("name", "")))
                     or (-1, -1) for h in defs)
    return arities == [(0, 0), (1, 1)]


def _one_method(defs: Sequence[Hit]) -> bool:
    """Whether ``defs`` are one method's overloads: one file, one module-qualified name
    (``fq_name``, which drops a JVM or .NET parameter list: ``org.jsoup.nodes.Element.text``
    for ``text()`` and ``text(String)``). A jsoup newcomer's "what does `Element.text()`
    return" pinned nothing: two definitions named nothing in particular."""
    keys = {(h.payload.get("repo"), h.payload.get("path"), h.payload.get("fq_name")) for h in defs}
    return len(keys) == 1 and all(key[2] for key in keys)


def _penalty(payload: dict, roles: frozenset[str], penalties: dict[str, float]) -> float:
    """What a hit's role costs its ordering score: nothing for a role the query asks for
    (``roles``); else its ``penalties`` entry, and for a query that asks for roles at least
    ``ASKED_OTHER_PENALTY`` (source too: "tests for the cache provider" wants tests)."""
    role = hit_role(payload)
    if role in roles:
        return 0.0
    cost = penalties.get(role, 0.0)
    return max(cost, ASKED_OTHER_PENALTY) if roles else cost


def _test_closure(payload: dict) -> bool:
    """Whether a chunk is a Python function or method defined inside a test function: a
    test file's (``hit_role``) callable whose enclosing scope's name starts with ``test``
    (``test_session_vary_cookie.vary_cookie_header_set``; not a test class's method,
    ``TestSession.test_vary``, whose scope is a class). Python only: a Go name carries its
    package (``test.newServer`` in a ``package test``), and pytest's and unittest's
    ``test`` prefix is the convention read here."""
    if (payload.get("kind") not in ("function", "method") or payload.get("language") != "python"
            or hit_role(payload) != "test"):
        return False
    scope = unparted(str(payload.get("qualified_name", ""))).rpartition(".")[0]
    return scope.rpartition(".")[2].startswith("test")


def _named(ranked: Ranked, asked: shapes.Query) -> dict[tuple[str, str, int, str], None]:
    """The chunks of ``ranked`` that are definitions the query names, by ``_chunk_key``,
    best first: a pinned exact name, a definition inserted for a name (match ``"exact"``,
    ``"name"``), verbatim evidence whose name is one of ``asked.symbols`` as written, or
    (a short text that asks for no callers and is no diagnostic, ``_DIAGNOSTIC``) a
    function or class ranked on its own whose name is one of them.
    ``locate`` keeps their files in its answer (``locate.fused``'s ``named``) and charges
    those files their role's penalty only, never ``ASKED_OTHER_PENALTY``: "fix minor typo in
    `make_context` docs" asks for docs and names a source method (click's core.py was 43rd
    of the files, out of the answer)."""
    return dict.fromkeys(_chunk_key(h.payload) for h, match, _ in ranked
                         if (match in ("exact", "name") or (
                             match == "evidence" and any(_written(s, h.payload)
                                                         for s in asked.symbols)) or (
                             # a short text's named definition the ranking found itself:
                             # tornado's "HTTPServerRequest() no longer accepts host=" put
                             # the class first on search's page, and wsgi.py, which only
                             # uses it, first of locate's files (a newcomer)
                             match == "hybrid" and not asked.long and not asked.callers
                             and not _DIAGNOSTIC.match(asked.text)
                             and h.payload.get("kind") in locating.FUNCTION_KINDS
                             and any(_written(s, h.payload) for s in asked.symbols)))
                         and _named_in_role(h.payload, asked))


#: A text that opens as a tool's diagnostic (``error: ..``, Rust's ``error[E0277]: ..``):
#: the names it quotes are values it printed, no definition asked about (``_named``:
#: axum's "error: `Json<_>` consumes the request body .." located json.rs, defining
#: ``Json``, above the macro printing the message; the eleven question sets).
_DIAGNOSTIC = re.compile(r"(?i)^\s*(?:error|warning|fatal|panic)(?:\[\w+\])?\s*:")
#: A test's definition of one of these shapes is named as a test (``_named_in_role``).
_TEST_NAME = re.compile(r"(?:^|\.)(?:test|Test)|(?:Test|_test|Tests)$")


def _named_in_role(payload: dict, asked: shapes.Query) -> bool:
    """Whether a definition the query names counts as named for ``locate``'s files: one in
    a source file or a file of a role the query asks for, or a test's definition named as a
    test (``test_x``, ``TestX``, ``XTest``) or as code (in a code span, or called a
    fixture: "`mock_timing` fixture"). A test module's fixture that shares its name
    with what the text speaks of is no file the text names: structlog's fixture ``exc_info``
    put ``tests/test_frames.py`` first for "ProcessorFormatter loses the traceback ..;
    exc_info is cleared before the last processor runs", above the ``stdlib.py`` to fix
    (a newcomer)."""
    role = hit_role(payload)
    if role == classify.Role.SOURCE or role in asked.roles:
        return True
    name = str(payload.get("qualified_name", ""))
    # ... or named as code: in a code span, or called a fixture ("`mock_timing` fixture
    # does not patch ..": pytest's conftest.py fell out of the answer; a review)
    short = re.escape(name.rpartition(".")[2])
    return role == classify.Role.TEST and bool(
        _TEST_NAME.search(name) or re.search(rf"`{short}`|\b{short}\b`?\s+fixture|\bfixture\s+`?{short}\b", asked.text))


#: Receivers that are the calling function's own object (``_same_file_call``).
_OWN_RECEIVERS = frozenset({"self", "cls", "this", "Self"})


#: Words before a name written in a question's subject at most (``_subject``): "how does
#: X", "where does the X", "when X", "X ...".
SUBJECT_WORDS = 3
_SPELT_NAME = re.compile(r"[\w$]+(?:(?:\.|::|#)[\w$!?]+)+")


def _subject(text: str, symbol: str) -> bool:
    """Whether the dotted ``symbol`` (``Query.symbols``' spelling, ``shape.dotted``:
    ``Rack::Response#finish`` is ``Rack.Response.finish``) is written among ``text``'s first ``SUBJECT_WORDS`` + 1
    words, where a question names its subject ("what does Rack::Response#finish return"),
    not further on ("why does warm call Cache.get": ``warm`` is asked about; a review)."""
    for i, word in enumerate(text.split()[:SUBJECT_WORDS + 1]):
        for m in _SPELT_NAME.finditer(word):
            spelt = shapes.dotted(m.group())
            if spelt == symbol or spelt.endswith("." + symbol) or symbol.endswith("." + spelt):
                return True
    return False


def _extra_above(first: FileHit, listed: int, next_best: float) -> FileHit:
    """``first`` (a question's first located file) with the functions past its first
    ``listed`` kept only when they score at least ``next_best``, the second file's best
    function: rack's "which function converts a status symbol like :not_found into a numeric
    status code" listed `response.rb`'s eight predicates, down to 0.48, before `utils.rb`'s
    `status_code` at 0.72, ninth (a newcomer; gin's first file likewise)."""
    kept = first.functions[:listed] + tuple(f for f in first.functions[listed:] if f.score >= next_best)
    return first if len(kept) == len(first.functions) else replace(first, functions=kept)


def _same_file_call(site: dict) -> tuple[str, str] | None:
    """A call site's (name, target) when it may call a function of its own file: resolved
    (``target`` set: the definition with that module-qualified name), or unresolved and
    written bare or on the caller's own object (``helper``, ``self.helper``, ``this.helper``,
    ``Self::helper``); ``None`` for a call on another object (``kwargs.get``)."""
    written = str(site.get("name", "")).replace("::", ".").replace("->", ".")
    receiver, _, name = written.rpartition(".")
    target = str(site.get("target") or "")
    if not _PLAIN_NAME.match(name):
        return None
    if target or not receiver or receiver in _OWN_RECEIVERS:
        return name, target
    return None


def _chunk_key(payload: dict) -> tuple[str, str, int, str]:
    """A chunk's identity in one answer: ``(repo, path, start_line, qualified_name)``."""
    return (str(payload.get("repo", "")), str(payload.get("path", "")),
            int(payload.get("start_line", 0)), str(payload.get("qualified_name", "")))


def _file_penalty(payload: dict, roles: frozenset[str], penalties: dict[str, float],
                  long: bool = False, tongue: dialect.Scope = dialect.Scope()) -> float:
    """A file's penalty in ``locate`` from its best chunk's ``payload``: its role's
    (``_penalty``) plus, for a declaration file (``locate.declares_only``), a test's in
    ``penalties``: a stub file is no more where an issue's fix goes than a test is (numpy's
    ``.pyi`` files kept second place at ``STUB_PENALTY`` on issues). For an issue (``long``)
    a file that only declares shapes (``locate.declares_shape``: a TypeScript file of
    interfaces and types, payload ``declares``) likewise: ky's ``types/options.ts``, every option documented, led
    the files of issues whose fix was in ``merge.ts`` or ``Ky.ts``. A file of code in
    another language family than the query's, in a repository holding none of its
    family among the candidates (``tongue``: ``dialect.Scope``), pays ``LANGUAGE_PENALTY``."""
    path = str(payload.get("path", ""))
    stub = penalties["test"] if locating.declares_only(path) or (long and locating.declares_shape(payload)) else 0.0
    if tongue.foreign(payload):
        stub += LANGUAGE_PENALTY
    return _penalty(payload, roles, penalties) + stub


def _families(asked: shapes.Query) -> frozenset[str]:
    """The language families of the code an issue or a trace shows (``dialect.families``
    over its text, its frames' and its paths' files); empty for another shape or with
    ``LANGUAGE_PENALTY`` 0: nothing is foreign."""
    if LANGUAGE_PENALTY <= 0:
        return frozenset()
    return dialect.of_query(asked)


def role_rank(payload: dict) -> float:
    """Where a point's role puts it among answers of one kind, source first: its
    ``ROLE_PENALTY`` (source 0, config 0.05, examples and tests 0.2, docs 0.3, generated
    and vendored copies 0.5). ``symbols``, ``callers`` and ``card`` order by it after their
    match kind: a bundle's copy in ``dist/`` or a test's helper of the same name came
    first by path; a test's calls come before a bundle's (axios: 19 of ``settle``'s 25
    call sites were in ``dist/``)."""
    return ROLE_PENALTY.get(hit_role(payload), max(ROLE_PENALTY.values()))


def _roles(role: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The role filter: names from a comma-separated string or a sequence, each a
    ``classify.Role``; ``InvalidArgument`` naming the accepted ones otherwise."""
    names = role.split(",") if isinstance(role, str) else list(role)
    out = tuple(dict.fromkeys(n.strip().lower() for n in names if n.strip()))
    for name in out:
        if name not in classify.ROLES:
            raise InvalidArgument(f"role: unknown {name!r}; expected one of {', '.join(classify.ROLES)}")
    return out


def _collapse_parts(ranked: Ranked) -> Ranked:
    """``ranked`` with each long function answered once (``index/chunk.py`` cuts one into
    ``name``, ``name#part2``, ...): a chunk after another of the same function (same repo,
    path and qualified name less ``#partN``) is left out, the first kept wherever it was
    (a part names the lines it matched; the whole function after it added nothing). gin:
    ``search node.getValue`` answered ``getValue`` seven times, the whole function and
    five parts of 1-3 lines. Likewise the names of one function an assignment chain gives
    (JS ``req.get = req.header = function``: two symbols of one scope ending on the same
    line): the first kept, the other left out unless it is an exact name match."""
    seen: set[tuple[str, str, str]] = set()
    ends: set[tuple[str, str, str, object]] = set()
    out = []
    for row in ranked:
        p = row[0].payload
        parted = (str(p.get("repo")), str(p.get("path")), unparted(str(p.get("qualified_name", ""))))
        chained = (*parted[:2], parted[2].rpartition(".")[0], p.get("end_line"))
        callable_ = p.get("kind") in locating.CALLABLE_KINDS and p.get("end_line") is not None
        if parted in seen or (callable_ and row[1] != "exact" and chained in ends):
            continue
        if row[1] == "exact" or p.get("kind") in locating.FUNCTION_KINDS:
            seen.add(parted)
        if callable_:
            ends.add(chained)
        out.append(row)
    return out


def _without_covered_modules(ranked: Ranked) -> Ranked:
    """``ranked`` without the whole-module chunk (kind ``module``) of a file of at most
    ``COVERED_MODULE_LINES`` lines below a hit of the same file: the file is on the page
    already, and its module chunk (the whole small file) took a place from another file's
    answer (axios's 22-line ``lib/core/buildFullPath.js`` right after its one 7-line
    function). A longer file's module chunk is its top-level code, which the hit above may
    not hold (a module-level constant a question asks about: a review); an exact match is
    kept."""
    files: set[tuple[str, str]] = set()
    out = []
    for row in ranked:
        p = row[0].payload
        key = (str(p.get("repo")), str(p.get("path")))
        if (p.get("kind") == "module" and key in files and row[1] != "exact"
                and int(p.get("end_line") or 0) - int(p.get("start_line") or 0) < COVERED_MODULE_LINES):
            continue
        files.add(key)
        out.append(row)
    return out


def _may_be_nested(payload: dict) -> bool:
    """Whether a hit may be a function nested in another (``_with_enclosing``): a function of
    ``NESTING_LANGUAGES`` with a parent, or a method two scopes deep (a JS object literal's
    method in a function, ``dispatchXhrRequest.request.ontimeout``); a class's own method
    (``Handler.handle``) is none."""
    if payload.get("language") not in NESTING_LANGUAGES or not payload.get("parent"):
        return False
    return payload.get("kind") == "function" or (
        payload.get("kind") == "method" and "." in str(payload.get("parent")))


def _by_files(ranked: Ranked, order: Sequence[tuple[str, str]]) -> Ranked:
    """``ranked`` with the hits of ``order``'s first file ``(repo, path)`` first, as many
    as it holds among ``ranked``'s first ``PAGE_FLOOR`` and at least ``LOCATED_FIRST_HITS``,
    then the first ``LOCATED_NEXT_HITS`` of each next file in ``order``, then every other
    hit in ``ranked``'s order; a file without hits in ``ranked`` (one only the file-level
    index names) places none. Each file's hits keep their order; no hit is added or lost;
    the order does not depend on the page's limit."""
    by_file: dict[tuple[str, str], list[int]] = {}
    for i, (hit, _, _) in enumerate(ranked):
        by_file.setdefault(_chunk_key(hit.payload)[:2], []).append(i)
    first: list[int] = []
    for n, key in enumerate(order):
        held = by_file.get(key, [])
        lead = max(LOCATED_FIRST_HITS, sum(1 for i in held if i < PAGE_FLOOR))
        first += held[:(min(lead, LOCATED_FIRST_MAX) if LOCATED_FIRST_MAX else lead)
                      if n == 0 else LOCATED_NEXT_HITS]
    placed = set(first)
    return [ranked[i] for i in first] + [r for i, r in enumerate(ranked) if i not in placed]


#: On an issue's page (led by ``locate``'s files, ``LOCATED_ORDER_SHAPES``), a whole
#: module's or a type's chunk comes after the first function or method of it on the
#: page, as ``locate`` lists a file's functions before its types: the title's class name
#: gave its 159-line class chunk the definition bonus, and the method ``locate`` listed
#: first came second (a newcomer's scikit-image issue). Of the 450 issues of the sets, 28
#: had search's first hit a class, struct or module whose method ``locate`` listed first
#: and right (search symbol@1 175 against locate's 203).
MEMBERS_FIRST = True


def _members_first(ranked: Ranked, limit: int) -> Ranked:
    """``ranked`` with each module or type chunk among the first ``limit`` (not an exact
    name's or a message's evidence) moved after the first function or method of it within
    them (of its file; of a type, one its qualified name holds: ``Cls.m``, ``T::m``),
    which takes its place; each hit keeps its score (the page is in ``locate``'s file
    order already, not by score: ``_by_files``). No hit is added or lost."""
    rows = list(ranked)
    i = 0
    while i < min(limit, len(rows)):
        hit, match, _ = rows[i]
        kind = hit.payload.get("kind")
        if match not in ("exact", "evidence") and (kind == "module" or kind in _TYPE_KINDS):
            at = next((j for j in range(i + 1, min(limit, len(rows)))
                       if _member_of(rows[j][0].payload, hit.payload)), None)
            if at is not None:
                rows.insert(i, rows.pop(at))
                i += 1  # the container, one place down, is done
        i += 1
    return rows


def _member_of(payload: dict, container: dict) -> bool:
    """Whether the chunk ``payload`` is a function or method of ``container``'s (a whole
    module's chunk: of its file; a type's: its qualified name under the type's)."""
    if payload.get("kind") not in locating.CALLABLE_KINDS or _chunk_key(payload)[:2] != _chunk_key(container)[:2]:
        return False
    if container.get("kind") == "module":
        return True
    owner = str(container.get("qualified_name", ""))
    name = str(payload.get("qualified_name", ""))
    return bool(owner) and name.startswith((owner + ".", owner + "::"))


def _modules_after_symbols(ranked: Ranked, limit: int) -> Ranked:
    """``ranked`` (an issue's or a trace's hits) with each whole-module chunk (kind
    ``module``) among the first ``limit`` followed by the first hit of a symbol of the same
    file within them, moved up: the file keeps its rank and the hit after it says where in
    it (gson's ``RuntimeTypeAdapterFactory.java``, lines 1-331, was first for an issue
    naming the class, its methods five places below; axum's ``json.rs``, 1-369, four places
    above ``json_content_type``: a newcomer). Not the module's place: a weak symbol of the
    file (one shared word) then led the page above another file's strong hit and turned the
    answer's confidence low (a review). An exact match stays."""
    rows = list(ranked)
    i = 0
    while i < min(limit, len(rows)):
        hit, match, _ = rows[i]
        if hit.payload.get("kind") == "module" and match != "exact":
            where = _chunk_key(hit.payload)[:2]
            at = next((j for j in range(i + 1, min(limit, len(rows)))
                       if _chunk_key(rows[j][0].payload)[:2] == where
                       and rows[j][0].payload.get("kind") != "module"), None)
            if at is not None and at > i + 1:
                rows.insert(i + 1, rows.pop(at))
        i += 1
    return rows


def _without_older_copies(ranked: list[tuple[Hit, str]]) -> list[tuple[Hit, str]]:
    """``ranked`` with each docs file kept in several releases answered once per place
    from its newest release on the page (``locate.older_copies``)."""
    moved = locating.older_copies([(str(h.payload.get("repo", "")), str(h.payload.get("path", "")),
                                    hit_role(h.payload)) for h, _ in ranked])
    out = []
    for i, row in enumerate(ranked):
        if i not in moved:
            out.append(row)
        elif moved[i] is not None:  # the newest release's copy, at this place and score
            hit, match = ranked[moved[i]]
            out.append((replace(hit, score=row[0].score), match))
    return out


def _collapse_stubs(ranked: list[tuple[Hit, str]]) -> list[tuple[Hit, str]]:
    """``ranked`` (hits and matches, best first) with each function whose ``@overload``
    stubs and implementation are both among its hits (same repo, path and qualified name;
    ``locate.is_stub``) answered once: by its implementation, at the first place any of
    them held, with that place's score and match. pytest's ``Node.get_closest_marker``
    (two overloads) took places 1-3."""
    keyed = [((str(h.payload.get("repo")), str(h.payload.get("path")),
               str(h.payload.get("qualified_name"))), locating.is_stub(h.payload))
             for h, _ in ranked]  # one stub test per hit: up to LOCATE_CANDIDATES of them
    stubs = {key for key, stub in keyed if stub}
    if not stubs:
        return ranked
    implementations: dict[tuple[str, str, str], Hit] = {}
    for (hit, _), (key, stub) in zip(ranked, keyed):
        if key in stubs and not stub:
            implementations.setdefault(key, hit)
    out: list[tuple[Hit, str]] = []
    placed: set[tuple[str, str, str]] = set()
    for (hit, match), (key, _) in zip(ranked, keyed):
        if key not in implementations:
            out.append((hit, match))
        elif key not in placed:
            placed.add(key)
            out.append((replace(implementations[key], score=hit.score), match))
    return out


def _name_parts(payload: dict) -> set[str]:
    """The lowercased parts of a definition's module-qualified name and path
    (``tool/vault.py`` ``Vault.fetch``: tool, vault, py, fetch)."""
    text = ".".join((str(payload.get("fq_name") or ""), str(payload.get("qualified_name") or ""),
                     str(payload.get("path") or "").replace("/", ".")))
    return {part for part in text.lower().split(".") if part}


@functools.lru_cache(maxsize=BLOB_CACHE)
def _blob_bytes(git_dir: str, blob_id: str, max_bytes: int) -> bytes:
    """The bytes of blob ``blob_id`` in the mirror at ``git_dir`` (``b""`` over
    ``max_bytes``). Cached: a blob id names its content, so an entry never goes stale, and
    a large file's blob (sympy's ``numbers.py``, ~150 KB) cost ~10 ms to inflate per
    message check. Raises ``KeyError`` (no such blob), ``MirrorError``."""
    blob = mirror.open_repo(git_dir)[blob_id]
    return b"" if blob.size > max_bytes else bytes(blob.data)


def _descending(ranked: Ranked) -> list[float]:
    """The scores ``search`` reports for ``ranked``, in its order: each hit's score, but
    never above the one before it. Hybrid orders by more than the fused score (roles:
    source first; a pinned exact name first; evidence placed at its rank), so a test chunk
    scoring 0.8 can follow a source chunk scoring 0.6: two newcomers read such a page as
    unsorted. The confidence features keep the fused scores (``_features``)."""
    out: list[float] = []
    for hit, _, _ in ranked:
        out.append(min(hit.score, out[-1]) if out else hit.score)
    return out


def _with_role_fields(fields: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """``fields`` with what ranking an inserted definition reads (kind, name, path, role)."""
    return None if fields is None else tuple(dict.fromkeys((*fields, "kind", "name_lc", "path", "role")))


#: The confidences of a call site that is the code's call of the symbol, for
#: ``_with_callers``'s choice of the code's calls over the tests' (not a ``reference``, not
#: a ``name_only`` guess).
_CALLING = frozenset({callgraph.RESOLVED, callgraph.INHERITED, callgraph.OVERRIDE})
#: Module chunks holding a one-name query's term read for a binding of it (``_bindings``).
BINDING_DEPTH = 20
#: Whether a module chunk holds a verbatim text in its top-level code past the head its
#: embedded text keeps (``_holds_verbatim``): jsonschema's ``Draft7Validator = create(``,
#: line 718 of a 1,410-line module, was held by no hit (a newcomer).
MODULE_TAIL_VERBATIM = True
#: A line that opens a definition or a decorator (its indented lines are its body).
_DEFINITION_LINE = re.compile(r"(?:async\s+def|def|class|@)\b|@")


def _top_level(source: str, at: int) -> bool:
    """Whether offset ``at`` of a Python-like ``source`` lies in top-level code: on an
    unindented line, or under one that opens no definition (``def``, ``class``, a decorator;
    a line closing brackets, ``) -> T:``, continues the one above): the continuation lines
    of ``X = create(\n    meta_schema=..)``."""
    start = source.rfind("\n", 0, at) + 1
    while start > 0 and source[start:start + 1] in (" ", "\t", "\n", "\r", ")", "]", "}"):
        start = source.rfind("\n", 0, start - 1) + 1
    return not _DEFINITION_LINE.match(source[start:at + 1] if start <= at else source[start:])


def _raised_class(payload: dict, asked: shapes.Query) -> bool:
    """Whether ``payload`` is the class of an exception a trace raised (``Query.raised``)."""
    return (bool(asked.raised) and payload.get("kind") == "class"
            and str(payload.get("qualified_name", "")).rpartition(".")[2] in asked.raised)


def _phrase(text: str) -> re.Pattern[str]:
    """``text`` verbatim as a pattern, any run of whitespace matching any other: a phrase a
    docstring wraps ("that represents\\n        the time difference relative", arrow's
    ``Arrow.dehumanize``) is held as a reader of the rendered text quotes it."""
    return re.compile(r"\s+".join(re.escape(word) for word in text.split()))


def _insert(page: Ranked, hit: Hit, match: str, rank: int, limit: int) -> Ranked:
    """``page`` with ``hit`` at ``rank`` (1-based), cut to ``limit``. Its score becomes the
    one of the hit it displaces (the last one's when the page is shorter): a chunk placed
    by evidence carries no fused score, and scores must not rise down the page."""
    at = min(rank, len(page) + 1) - 1
    score = page[at][0].score if at < len(page) else (page[-1][0].score if page else hit.score)
    page = list(page)
    page.insert(at, (replace(hit, score=score), match, INDEX))
    return page[:limit]


def _unsure(ranked: Ranked) -> bool:
    """Whether a hybrid ranking's first hit leaves the model unsure: its score under
    ``RANK_FUSION_BELOW`` and the second's at least ``RANK_FUSION_MARGIN`` of it (requests'
    ``TooManyRedirects`` at 0.614 before ``handle_redirect`` at 0.450 was overturned by the
    words' ranking; a review)."""
    if not ranked or ranked[0][0].score >= RANK_FUSION_BELOW:
        return False
    return len(ranked) < 2 or ranked[1][0].score >= RANK_FUSION_MARGIN * ranked[0][0].score


def rank_fused(first: Ranked, second: Ranked, k: int | None = None, weight: float | None = None,
               depth: int | None = None) -> Ranked:
    """``first`` and ``second`` (two rankings of one query's chunks, best first) fused by
    reciprocal ranks: ``1 / (k + r_first) + weight / (k + r_second)``, ranks 1-based, a
    ranking a chunk is missing from adding nothing (``RANK_FUSION_K``, ``RANK_FUSION_WEIGHT``
    by default); ties keep ``first``'s order, then ``second``'s. A chunk in both keeps
    ``first``'s entry (its match). Scores: the fused score over the first chunk's, times
    that chunk's own score (``first``'s when in both), so the first shows the score it had
    and none rises down the list. Pure."""
    k = RANK_FUSION_K if k is None else k
    weight = RANK_FUSION_WEIGHT if weight is None else weight
    depth = RANK_FUSION_DEPTH if depth is None else depth
    fused: dict[str, float] = {}
    entries: dict[str, tuple[Hit, str, str]] = {}
    for rank, entry in enumerate(first, 1):
        fused[entry[0].id] = fused.get(entry[0].id, 0.0) + 1.0 / (k + rank)
        entries.setdefault(entry[0].id, entry)
    reordered = {entry[0].id for entry in first[:depth]} if depth else set(entries)
    for rank, entry in enumerate(second, 1):
        if depth and entry[0].id not in reordered:
            continue
        fused[entry[0].id] = fused.get(entry[0].id, 0.0) + weight / (k + rank)
        entries.setdefault(entry[0].id, entry)
    order = sorted(entries, key=lambda pid: -fused[pid])  # stable: first's order, then second's
    if not order:
        return []
    # the first hit shows its own score (of the ranking it came from), the rest below it
    scale = entries[order[0]][0].score / fused[order[0]]
    return [(replace(entries[pid][0], score=fused[pid] * scale), *entries[pid][1:]) for pid in order]


def _merge(committed: Ranked, overlaid: Ranked, key: Callable[[Hit], float]) -> Ranked:
    """One ranking of two stores' answers: pinned exact hits first (the overlay's, the
    fresher version, before the index's), then the rest by ``key`` (each store's own
    order: ``_ordering`` for hybrid; stable)."""
    pinned = [r for r in overlaid + committed if r[1] == "exact"]
    rest = [r for r in committed + overlaid if r[1] != "exact"]
    return pinned + sorted(rest, key=lambda r: key(r[0]))


def _in_prose(text: str, pattern: re.Pattern[str]) -> int:
    """0 when ``pattern``'s first match in ``text`` lies in a string literal (an odd count
    of one kind of quote before it on its line, triple-quoted strings closed on that line
    left out, or inside a triple-quoted string that is a value: ``_no_app_msg = \"\"\"``
    then the message on the next lines, flask's "Working outside of application context",
    was read as a docstring's prose and placed third under two methods of another file),
    else 1 (a comment; a docstring's prose, its opening line's included; an attribute
    docstring, the string right under a one-line assignment, as Sphinx reads it; also
    when it does not match ``text``, a cut chunk's payload)."""
    m = pattern.search(text)
    if m is None:
        return 1
    before = text[:m.start()]
    for quotes in ('"""', "'''"):
        if before.count(quotes) % 2:  # inside a triple-quoted string: a docstring, or a value?
            at = before.rfind(quotes)
            start = before.rfind("\n", 0, at) + 1
            head = before[start:at].strip().lower()
            if head and head not in _STRING_PREFIXES:
                return 0  # `x = """`, `raise E("""`, `return f"""`
            prior = before[:start].rstrip()
            above = _COMMENT_TAIL.sub("", prior.rpartition("\n")[2]).rstrip()
            # a docstring opens a body (`def keys(self) -> list:  # type: ignore`) or a
            # module, or documents the attribute assigned on the line above
            return 1 if not prior or above.endswith(":") or _ASSIGNED.fullmatch(above) else 0
    line = _TRIPLE_WHOLE.sub("", text[text.rfind("\n", 0, m.start()) + 1:m.start()])
    return 0 if any(line.count(q) % 2 for q in "\"'`") else 1


#: A one-line assignment (``X = 1``, ``timeout: float = 5.0``): a string right under it is
#: the attribute's docstring. One ending in an opener, a comma, an operator or a
#: backslash continues onto the string, which is then its value.
_ASSIGNED = re.compile(r"\s*[^\W\d][\w.]*(?:\s*:[^=]+)?\s*=(?!=)\s*\S.*(?<![([{,=+\\%*|&-])")
#: A line's trailing comment (no quote in it).
_COMMENT_TAIL = re.compile(r"\s#[^\"'\n]*$")
#: Letters that may prefix a Python string literal.
_STRING_PREFIXES = frozenset({"r", "u", "b", "f", "rb", "br", "fr", "rf"})


#: Repository names an unknown repo's error lists at most.
UNKNOWN_REPO_NAMES = 10


def unknown_repo(repo: str, scope: Iterable[str]) -> str:
    """The error of a ``repo`` the caller's ``scope`` lacks: it names the repositories the
    caller may ask about (the first ``UNKNOWN_REPO_NAMES``, sorted) and where to list them
    (``--repo nosuch`` said only "is not configured"; a newcomer). Names outside the
    caller's scope are never shown."""
    names = sorted(scope)
    shown = ", ".join(names[:UNKNOWN_REPO_NAMES]) + (f", ... ({len(names)} in all)" if len(names) > UNKNOWN_REPO_NAMES else "")
    return (f"repo {repo!r} is not configured; repos: {shown} (coderecall repos lists them)" if names
            else f"repo {repo!r} is not configured")


def _embedded(asked: shapes.Query) -> bool:
    """Whether a hybrid search embeds ``asked`` (``LONG_DENSE_WEIGHT`` of its shape above 0,
    and not a description unless ``EMBED_DESCRIPTIONS``): an issue or a report is ranked
    by its words alone, so the vectors' fill (``Service._filling``) changes nothing of it."""
    return LONG_DENSE_WEIGHT.get(asked.shape, 1.0) > 0 and (EMBED_DESCRIPTIONS or not asked.describes)


#: Whether ``locate`` scores a question's candidates as search orders them before ranking
#: their files: a whole-module chunk ``MODULE_PENALTY_TEXT`` lower, a stub (``locate.is_stub``:
#: an interface's method) ``STUB_PENALTY`` lower (``_text_demoted``). Without it a file's
#: module chunk, every word of the file on the lexical side, scored its file in full (chi's
#: ``throttle.go`` above ``timeout.go`` for "how does the Timeout middleware stop a
#: request", which search answered first; a newcomer).
LOCATE_TEXT_DEMOTED = True


def _kind_demotion(payload: dict, asked: shapes.Query) -> float:
    """What a chunk's kind takes off its ordering score for ``asked`` (``_ordering``): a
    stub's ``STUB_PENALTY`` (``locate.is_stub``), a whole module's ``MODULE_PENALTY_LONG``
    (issues, traces) or ``MODULE_PENALTY_TEXT`` (questions)."""
    demote = STUB_PENALTY if locating.is_stub(payload) else 0.0
    if payload.get("kind") == locating.MODULE_KIND:
        demote += (MODULE_PENALTY_LONG if asked.long
                   else MODULE_PENALTY_TEXT if asked.shape is Shape.TEXT else 0.0)
    return demote


#: Taken off the ordering score of a chunk that is mostly prose (``locate.prose_share``
#: over ``PROSE_FLOOR``), for an issue or a trace, in proportion to the share past the
#: floor: at most this much, for a chunk all prose. An issue's prose matched prose in the
#: code better than the code the fix changed: ripgrep's help text (``app.rs``, a function
#: per flag, each string literals for 50-83 % of it) led six of its twelve issues, loguru's
#: ``Logger.add`` (a 45 kB docstring documenting every option) eight of sixteen, pydantic's
#: ``ConfigDict`` (attribute docstrings) and fastapi's ``FastAPI.__init__`` (``Doc(..)``
#: literals) one each (newcomer trials; over the 45 sets' issues, a wrong first function
#: was 60 % prose or more 57 times, a fixed one 31 times). A chunk placed for a verbatim
#: quote of it (match ``"evidence"``) or an exact name keeps its score. 0: off. Measured
#: (``eval_questions.py --set service.PROSE_PENALTY_LONG=X``, locate file@1) 0 / 0.3 / 0.45
#: / 0.6: loguru 8 / 10 / 11 / 13 of 16, pytest 14 / 13 / 13 / 13 (``raises``, a
#: documented entry point, had carried the right file above ``_code/code.py``); ripgrep,
#: xarray, scikit-image, pydantic, flask and click unchanged at 0.6.
PROSE_PENALTY_LONG = 0.6
#: The prose share (``locate.prose_share``) under which a chunk is code.
PROSE_FLOOR = 0.6
#: Kinds never read for prose: a whole file (``MODULE_PENALTY_LONG`` already) and a
#: document's section (a role's penalty).
_PROSE_SKIP = frozenset({"module", "section", "file"})


#: Whether a prose chunk whose name or whose owner's name is a word of the issue's title
#: keeps its score (``_prose_demotion``): the title says the entry point, and its file is
#: where the issue points. pytest's ``raises`` ("pytest.raises(match=...) with alternation
#: .."), seaborn's ``heatmap``, rack's ``ShowExceptions`` and sympy's ``pretty_print``
#: (swe-lite-dev 23191), each documented at length, had carried their own files first.
PROSE_TITLED_KEPT = True


@functools.lru_cache(maxsize=64)
def _title_words(text: str) -> frozenset[str]:
    """The lower-case words of a query's first line (``\\w+`` runs)."""
    return frozenset(re.findall(r"\w+", text.partition("\n")[0].lower()))


def _prose_demotion(payload: dict, asked: shapes.Query) -> float:
    """What a chunk's prose takes off its ordering score for ``asked``: for an issue or a
    trace (``Query.long``), ``PROSE_PENALTY_LONG`` times its prose share past
    ``PROSE_FLOOR`` over the rest of the scale; else, for a whole module or a section, and
    (``PROSE_TITLED_KEPT``) for a chunk the title names by its name or its owner's, 0.0."""
    if not asked.long or PROSE_PENALTY_LONG <= 0 or payload.get("kind") in _PROSE_SKIP:
        return 0.0
    past = locating.prose_share(payload) - PROSE_FLOOR
    if past <= 0:
        return 0.0
    if PROSE_TITLED_KEPT:
        said = _title_words(asked.text)
        owner = re.split(r"[.:#]+", str(payload.get("parent") or ""))[-1]
        name = payload.get("name") or re.split(r"[.:#]+", str(payload.get("qualified_name") or ""))[-1]
        if str(name).lower() in said or (owner and owner.lower() in said):
            return 0.0
    return PROSE_PENALTY_LONG * past / (1.0 - PROSE_FLOOR)


def _prose_demoted(hit: Hit, asked: shapes.Query) -> Hit:
    """``hit`` with its prose's demotion (``_prose_demotion``) taken off its score, at 0 at
    least."""
    cost = _prose_demotion(hit.payload, asked)
    return replace(hit, score=max(hit.score - cost, 0.0)) if cost else hit


def _text_demoted(hit: Hit, asked: shapes.Query) -> Hit:
    """``hit`` with ``asked``'s (a question's) ordering demotions of its kind taken off its
    score, at 0 at least (``_kind_demotion``)."""
    cost = _kind_demotion(hit.payload, asked)
    return replace(hit, score=max(hit.score - cost, 0.0)) if cost else hit


def _as_placed(ranked: Ranked, top: float) -> Iterator[Hit]:
    """``locate``'s candidates of a ranked page: a pinned exact name's with the best score
    of the candidates (its lookup's 1.0 is under fused scores above 1: gin's locate
    ``Context.ShouldBindJSON`` listed it 8th in ``context.go``); an inserted verbatim
    chunk's, named definition's or calling chunk's (match ``"evidence"``, ``"name"``,
    ``"caller"``) with the score of the candidate above it, as the page places it
    (serde_json's ``<ErrorCode as Display>::fmt``, third in search for a pasted error
    message, sat under 40 chunks of tests and helpers in locate; click's ``make_context``,
    third on the page of "fix minor typo in `make_context` docs", kept its 0.1 under its
    own file's 0.108); an exact name's, evidence's or caller's placed first with ``1 +
    locate.SPREAD`` times the best score, so that its file leads."""
    above = top
    for i, (h, match, _) in enumerate(ranked):
        if match in ("exact", "evidence", "caller") and i == 0:
            # placed first (the definition a name query names, a source literal printing
            # the pasted message): its file leads whatever another file's second chunk
            # adds (httpx's _build_auth tied URL.__init__; starlette's locate
            # get_route_path listed the caller's staticfiles.py before _utils.py)
            h = replace(h, score=max(h.score, top * (1 + locating.SPREAD)))
        elif match == "exact":
            h = replace(h, score=max(h.score, top))
        elif match in ("evidence", "name", "caller"):
            h = replace(h, score=max(h.score, above))
        above = h.score
        yield h


def _encloses(outer: Hit, inner: Hit) -> bool:
    """Whether ``outer``'s chunk holds ``inner``'s, another chunk of the same file (a class
    its method, a module its functions), by their byte ranges (payload ``repo``, ``path``,
    ``start_byte``, ``end_byte``)."""
    a, b = outer.payload, inner.payload
    return (outer.id != inner.id and (a.get("repo"), a.get("path")) == (b.get("repo"), b.get("path"))
            and locating.holds(a, b))


def _dedupe(hits: list[Hit]) -> list[Hit]:
    seen: dict[str, Hit] = {}
    for hit in hits:
        seen.setdefault(hit.id, hit)
    return list(seen.values())


def code_share(query: str) -> float:
    """Share (0..1) of the query's whitespace-separated words that look like code."""
    words = query.split()
    return sum(1 for w in words if shapes.code_word(w)) / len(words) if words else 0.0


#: Filter values a chunk can carry: parser languages plus ``text`` (windows of other text
#: files), and ``records.SymbolKind``. Anything else would silently match nothing.
_LANGUAGES = frozenset([*supported_languages(), "text"])
_KINDS = frozenset(k.value for k in SymbolKind)


def _known(field: str, value: str, known: frozenset[str]) -> None:
    """Raise ``InvalidArgument`` naming the accepted values unless ``value`` is empty or one."""
    if value and value not in known:
        raise InvalidArgument(f"{field}: unknown {value!r}; expected one of {', '.join(sorted(known))}")


def _has_wildcard(glob: str) -> bool:
    return any(c in glob for c in _WILDCARDS)


def _literal_prefix(glob: str) -> str:
    """The part of ``glob`` before its first wildcard: a store-side prefix filter."""
    cut = min((glob.index(c) for c in _WILDCARDS if c in glob), default=len(glob))
    return glob[:cut]


def _symbol_name(name: str, *, prefix: bool = False) -> str:
    """``name`` validated (length, no NUL) and stripped, Go's receiver syntax read as the
    index names methods (``gin.(*Engine).ServeHTTP`` -> ``gin.Engine.ServeHTTP``:
    ``shape.go_receivers``), a Rust ``<T as Trait>`` without spaces but its ``as``;
    ``InvalidArgument`` if empty or if
    a dotted (or ``::``) segment is empty (``.get``, ``Session.``), except the last one of a
    ``prefix`` lookup (``Session.``: the class's members); a closing parameter list is read
    as a whole (a varargs overload printed ``Sel.sum(int...)`` was an empty segment)."""
    name = shapes.go_receivers(validate.text("name", name, validate.MAX_NAME_CHARS).strip())
    if not name:
        raise InvalidArgument("name: must not be empty")
    if name.startswith("<") and " as " in name:
        # a Rust trait method as rustc prints it, ``<(StatusCode, R) as IntoResponse>::m``:
        # the index names types and traits without their spaces (``parse.text.compact``)
        name = " as ".join(re.sub(r"\s+", "", part) for part in name.split(" as "))
    # a closing parameter list is no segments (``Sel.sum(int...)``, ``m(java.lang.String)``:
    # an overload as printed, ``overloads.split``)
    segments = overloads.split(name)[0].replace("::", ".").split(".")
    if len(segments) > validate.MAX_NAME_SEGMENTS:
        raise InvalidArgument(f"name: {len(segments)} dotted segments, more than {validate.MAX_NAME_SEGMENTS} "
                              "(the maximum)")
    if any(not s.strip() for s in (segments[:-1] if prefix else segments)):
        raise InvalidArgument(f"name: empty segment in {name!r} (a dotted name reads "
                              "Class.method or pkg.module.name)")
    return name


def _limit(limit: int, default: int) -> int:
    """``limit`` in 1..``MAX_LIMIT``, 0 meaning ``default``; ``InvalidArgument`` otherwise."""
    return _bounded("limit", limit, default, MAX_LIMIT)


def _offset(offset: int) -> int:
    """A page's ``offset`` (>= 0; past the end answers an empty page with its total)."""
    if offset < 0:
        raise InvalidArgument(f"offset: {offset} < 0 (0 is the first item)")
    return offset


def _walk_clock() -> Callable[[], bool]:
    """Whether an impact walk started now has spent its time: ``impact.WALK_SECONDS``, or
    ``impact.WALK_SHARE`` of what the request's deadline leaves, whichever is less."""
    left = deadline.remaining()
    until = time.monotonic() + min(impact.WALK_SECONDS, impact.WALK_SECONDS if left is None
                                   else left * impact.WALK_SHARE)
    return lambda: time.monotonic() > until


def _bounded(field: str, value: int, default: int, maximum: int) -> int:
    """``value`` in 1..``maximum``, 0 meaning ``default``; ``InvalidArgument`` naming the
    bound otherwise (``limit 900 > 500 (the maximum)``)."""
    if value < 0:
        raise InvalidArgument(f"{field}: {value} < 0 (0 means the default, {default})")
    if value > maximum:
        raise InvalidArgument(f"{field}: {value} > {maximum} (the maximum)")
    return value or default
