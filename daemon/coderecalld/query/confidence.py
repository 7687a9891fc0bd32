"""Is a search answer weak? The measurements of one ranked answer and the rule that flags it.

Every Search response carries ``low_confidence``: set when the evidence is weak, so an
agent says "not found" instead of presenting the first hit as the answer. The rule
(``confidence``) is a pure function of ``Features``, so the evaluation harness can replay
it with other thresholds (``tests/bench/eval_retrieval.py --confidence``):

1. no hit at all: low ("no results");
2. the first hit was pinned by an exact symbol name: confident;
3. a literal (``"X-Request-Id"``, ``proxy_set_header``) whose one word no indexed chunk
   holds (``Features.absent``; the hits match only its parts): low;
3a. an identifier written as code calls a member (``c.json``, ``app.route``) no
   definition is named by, answered by the methods of its last name
   (``Features.member``): low, saying so;
3b. the first hit's score is under ``MIN_TOP_SCORE[mode]``: low;
4. an issue or a trace (``Features.shape``), ranked lexical-first (any mode but
   ``dense``, whose cosines keep the floors), whose first hit's file it does not name by
   path nor by a title name only that file defines (``named_top``: 1 miss in 22 path-named
   answers on swe-lite-dev; ``anchors.title_defined_in``): the best hit of another file
   (``Features.second_score`` there) scores at least ``FLAT_LONG`` of the first (nothing
   stands out): low;
5. the dense and the sparse retriever run alone disagree (the first hit is not in the top
   ``AGREE_K`` of both, a hit tied with the ``AGREE_K``-th counting as inside;
   ``fusion.agreement``), the first hit's name says no word of the question
   (``Features.name_says``) and its score is under ``MIN_TOP_SCORE_DISAGREE`` or the second
   hit is within ``MIN_GAP`` of it: low;
6. otherwise confident.

Scores are the search's own: hybrid ``cosine + w * s / (s + 20)`` (``service.FUSION``),
dense the cosine; sparse (BM25, unbounded, corpus-dependent) has no score rule.

Thresholds measured on natural-language questions about two real repositories (flask and
requests indexed with the model; docs/retrieval.md "Confidence"): 45 right answers, 50
answers with nothing relevant in the top 5 (4 wrong answers, 30 questions about other
subjects, 16 about features the library lacks). The floors and rules first set on CoSQA
(hybrid 0.55, disagreement under 0.65) flagged 23 of the 45 right answers (precision 68 %,
recall 98 %): right answers there score 0.45-0.76 and their retrievers often disagree,
while off-subject questions score under 0.48. Hybrid 0.50 with the name exemption: 7 of
45 (precision 86 %, recall 88 %). On CoSQA dev (500 queries, 90 without a relevant doc in
the top 10, ``eval_retrieval.py --confidence``) it flags 4.6 % with 43.5 % precision (base
rate 18 %) and 11.1 % recall (the CoSQA rule: 11.4 %, 40.4 %, 25.6 %): every CoSQA query
has its answer, so a miss is a ranking failure the features barely predict. A gap rule
only lowered precision there (``MIN_GAP`` 0.005: 26.8 %), so ``MIN_GAP`` is 0 (off). The
dense floor is the hybrid one less the ~0.05 the sparse term adds to a question (w = 0.1).
Recalibrate after a change of model or fusion: after w went to 0.2 the floors are 0.45 and
0.40, from newcomers' questions on four more repositories (``MIN_TOP_SCORE``).

Issues and traces are ranked lexical-first (scores 0..1 plus structural bonuses), so the
score floors say nothing there; what separates a wrong answer on swe-lite-dev (89 issues,
``tests/bench/issue_lab.py --snapshot``, docs/retrieval.md "Confidence") is a flat top,
"wrong" meaning the fixed file is not among the first 5 distinct files. For chunks,
second >= 0.9 x first flags 25 of 89 answers with 40.0 % precision (base rate 27.0 %) and
41.7 % recall (0.85: 34, 38.2 %, 54.2 %; 0.95: 15, 40.0 %, 25.0 %); for ``locate``'s files
(``flat_files``, 400 candidates), second >= 0.85 x first flags 25 with 48.0 % precision
(base 20.2 %) and 66.7 % recall (0.9: 18, 50.0 %, 50.0 %). Weak evidence, measured on one dev set of 89
issues; on a small repository (requests) it also fired on right answers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass

from coderecalld.embed import sparse

#: Minimum score of the first hit per search mode (see the module docstring). 0.50 / 0.45
#: until the question fusion weighed the lexical side 0.2 (``service.SPARSE_WEIGHT_TEXT``):
#: then, on 136 answerable queries and 32 about features the repositories lack (cobra,
#: jinja, starlette, express: ``tests/bench/eval_questions.py --features``, replayed on the
#: final index of the round), a hybrid floor of 0.50 / 0.45 flagged 30 / 29 of the 33 wrong
#: answers and 20 / 17 right ones (precision 60 / 63 %; of the 17: 9 questions, 6 of them by
#: the disagreement rule, which caught no wrong answer there; 7 messages and issues by the
#: flat-top rule; one member call); CoSQA's flags come from the disagreement rule, unchanged
#: (``eval_retrieval.py --confidence``: the same at 0.40-0.50).
MIN_TOP_SCORE = {"hybrid": 0.45, "dense": 0.40, "sparse": 0.0}
#: Minimum score of the first hit when the two retrievers disagree (hybrid).
MIN_TOP_SCORE_DISAGREE = 0.65
#: Score gap between the first two hits under which a disagreement flags (0: off).
MIN_GAP = 0.0
#: Share of the first hit's score at or above which the second's makes an issue's or a
#: trace's answer flat (chunks), and the same for ``locate``'s files (``flat_files``).
FLAT_LONG = 0.9
FLAT_LONG_FILES = 0.85
_LONG_SHAPES = ("issue", "trace")
#: Depth of each retriever's own ranking in which the first hit must appear to "agree".
AGREE_K = 3
#: Letters of a word compared by ``says_name`` (a crude stem: ``registered`` and
#: ``register_blueprint``, ``handle`` and ``handler`` meet).
NAME_STEM = 5


def says_name(query_terms: Iterable[str], name: str) -> bool:
    """Whether a word of the symbol ``name`` (its identifier parts, ``sparse.tokens``) is
    a word of ``query_terms`` (lowercased terms, stop words dropped), both cut to
    ``NAME_STEM`` letters; words under 3 letters never count."""
    asked = {t[:NAME_STEM] for t in query_terms if len(t) >= 3 and t.isalpha()}
    return any(t[:NAME_STEM] in asked for t in sparse.tokens(name) if len(t) >= 3 and t.isalpha())


@dataclass(frozen=True, slots=True)
class Features:
    """Measurements of one search answer.

    ``top_score``/``second_score`` are the first two hits' scores (0 when missing; for an
    issue or a trace the second is the best hit of another file than the first's);
    ``pinned``: the first hit was pinned by an exact name, or placed first by the query's
    verbatim evidence (a source literal holding a pasted message whole); ``agree``: the first hit is in
    the top ``AGREE_K`` of both retrievers run alone (``None`` when not measured: a
    one-retriever mode, or no hit); ``dense_top``/``sparse_top``: the best cosine and BM25
    score of those runs (0 when not run); ``absent``: a literal query's one word that no
    indexed chunk in scope holds ("" when held or not checked); ``scoped``: the search was
    narrowed (paths, a glob, a language, a kind or roles), so ``absent`` means "not in
    those", not "not indexed"; ``named_top``: the first
    hit's file is one the (issue) query names by path, or the only file defining a name of
    its title; ``name_says``: a word of the first hit's symbol name is (up to
    ``NAME_STEM`` letters) a word of the (short) query (``says_name``); ``foreign``: the
    frames of a trace alone when none of them is in an indexed file (0 otherwise);
    ``member``: an identifier written as code calls a member (``c.json``) that no
    definition is named, whose first hits are the methods of its last name (``""``
    otherwise); ``unheld``: a quoted literal that no hit holds verbatim (``""`` when one
    does, or not a literal).
    """

    mode: str
    hits: int
    top_score: float = 0.0
    second_score: float = 0.0
    pinned: bool = False
    agree: bool | None = None
    dense_top: float = 0.0
    sparse_top: float = 0.0
    shape: str = ""
    absent: str = ""
    scoped: bool = False
    named_top: bool = False
    name_says: bool = False
    foreign: int = 0
    member: str = ""
    unheld: str = ""

    @property
    def gap(self) -> float:
        """``top_score - second_score`` (the top score itself when there is one hit)."""
        return self.top_score - self.second_score

    def as_dict(self) -> dict[str, object]:
        """The fields and ``gap``, JSON-ready (logs, the evaluation harness)."""
        return {**asdict(self), "gap": self.gap}


def needs_agreement(features: Features) -> bool:
    """Whether running each retriever alone (``Features.agree``) could change the verdict of
    ``confidence`` with the shipped thresholds: only for an unpinned hybrid answer whose top
    score is at or above ``MIN_TOP_SCORE`` (under it, low anyway) and under
    ``MIN_TOP_SCORE_DISAGREE`` (at or above it, confident either way while ``MIN_GAP`` is
    0). The daemon skips the check otherwise: when the search's own candidates cannot
    settle it, it costs a sparse top-k query, ~4 ms at 1M points (docs/performance.md)."""
    if features.mode != "hybrid" or features.hits == 0 or features.pinned or features.name_says:
        return False
    if features.top_score < MIN_TOP_SCORE["hybrid"]:
        return False
    gap_rule = MIN_GAP > 0 and features.hits > 1 and features.gap < MIN_GAP
    return features.top_score < MIN_TOP_SCORE_DISAGREE or gap_rule


def confidence(features: Features, *, min_top_score: float | None = None,
               min_top_disagree: float | None = None, min_gap: float | None = None) -> tuple[bool, str]:
    """(low, reason) of one answer by the rule of the module docstring; reason ``""`` when
    confident. The keyword arguments replace ``MIN_TOP_SCORE[mode]``,
    ``MIN_TOP_SCORE_DISAGREE`` and ``MIN_GAP`` (calibration replays)."""
    if features.hits == 0:
        return True, "no results"
    if features.pinned:
        return False, ""
    if features.absent:
        where = "no chunk in the searched paths, languages, kinds or roles" if features.scoped else "no indexed chunk"
        rest = "the query's other words" if features.shape == "text" else "its parts"
        return True, f"{where} holds {features.absent!r}: these hits match {rest}"
    if features.unheld:  # a quoted literal: every hit is scored 0..1 by its words
        return True, f"no hit holds {features.unheld!r} verbatim: these hits match its words"
    if features.member:  # ``c.json``: the receiver's type is a guess
        head, _, name = features.member.rpartition(".")
        return True, (f"no definition is named {features.member!r}: the first hits are the "
                      f"definitions named {name!r} (the type of {head!r} is not known)")
    if features.foreign:  # a trace of code the index does not hold (another project's)
        return True, (f"none of the trace's {features.foreign} frames is in an indexed file: "
                      "these hits match its words only")
    if features.shape in _LONG_SHAPES and features.mode != "dense":
        if features.named_top:
            return False, ""  # the trace names the first hit's file: reliable whatever the gap
        if features.hits > 1 and features.second_score >= FLAT_LONG * features.top_score:
            return True, flat_reason(features.top_score, features.second_score, "hits")
        return False, ""
    floor = MIN_TOP_SCORE.get(features.mode, 0.0) if min_top_score is None else min_top_score
    if features.top_score < floor:
        return True, f"top score {below(features.top_score, floor)}"
    if features.agree is not False or features.name_says:
        return False, ""
    floor = MIN_TOP_SCORE_DISAGREE if min_top_disagree is None else min_top_disagree
    gap = MIN_GAP if min_gap is None else min_gap
    if features.top_score < floor:
        return True, f"dense and sparse disagree and the top score {below(features.top_score, floor)}"
    if features.hits > 1 and features.gap < gap:
        return True, f"dense and sparse disagree and the top two are within {features.gap:.3f} (< {gap})"
    return False, ""


def flat_files(scores: list[float], named_top: bool = False, fused: bool = False) -> tuple[bool, str]:
    """(low, reason) of ``locate``'s answer to an issue or a trace from its files' scores
    (best first): low when the second is at least ``FLAT_LONG_FILES`` of the first, unless
    the issue names the first file by path or by a title name only it defines
    (``named_top``). ``fused``: the answer was ordered by the file-index fusion, not by
    these chunk scores, and the reason says which scores it quotes (a flask newcomer read
    "within 10 % (1.214 and 1.096)" beside files shown at their fused 0.040 and 0.039; the
    files now show their own evidence, ``locate.EVIDENCE_SCORES``, which these scores are
    for source files; a test or docs file's is its score less its role's penalty)."""
    if not named_top and len(scores) > 1 and scores[1] >= FLAT_LONG_FILES * scores[0]:
        return True, flat_reason(scores[0], scores[1], "files by their chunks" if fused else "files")
    return False, ""


def flat_reason(top: float, second: float, what: str) -> str:
    """``"the top two files score within 4 % (1.212 and 1.166): none stands out"``. Hits
    are judged by their fused scores, which a search page orders by role and evidence too
    and shows capped so that they never rise (``service._descending``): their reason says
    so, or its numbers contradict the page's (a serde_json newcomer's finding)."""
    when = " before the page's role order" if what == "hits" else ""
    if second >= top:  # the order is more than the score (roles): the second scores higher
        return (f"the second of the top two {what} scores as high as the first{when} "
                f"({top:.3f} and {second:.3f}): none stands out")
    share = 100 * (1 - second / top) if top > 0 else 0.0
    return f"the top two {what} score within {share:.0f} %{when} ({top:.3f} and {second:.3f}): none stands out"


def below(value: float, bound: float) -> str:
    """``"VALUE < BOUND"`` with as many decimals (2 at least) as it takes for the printed
    numbers to compare as the real ones do: ``0.5496`` under ``0.55`` prints ``0.5496 <
    0.5500``, never ``0.55 < 0.55``. ``value`` must be under ``bound``."""
    for digits in range(2, 17):
        shown, limit = f"{value:.{digits}f}", f"{bound:.{digits}f}"
        if float(shown) < float(limit):
            return f"{shown} < {limit}"
    return f"{value!r} < {bound!r}"
