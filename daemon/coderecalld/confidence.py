"""Is a search answer weak? The measurements of one ranked answer and the rule that flags it.

Every Search response carries ``low_confidence``: set when the evidence is weak, so an
agent says "not found" instead of presenting the first hit as the answer. The rule
(``confidence``) is a pure function of ``Features``, so the evaluation harness can replay
it with other thresholds (``tests/bench/eval_retrieval.py --confidence``):

1. no hit at all: low ("no results");
2. the first hit was pinned by an exact symbol name: confident;
3. the first hit's score is under ``MIN_TOP_SCORE[mode]``: low;
4. the first hit is not in the top ``AGREE_K`` of the dense and of the sparse retriever
   run alone (the two disagree) and the second hit is within ``MIN_GAP`` of it: low;
5. otherwise confident.

Scores are the search's own: hybrid ``cosine + w * s / (s + 20)`` (``service.FUSION``),
dense the cosine; sparse (BM25, unbounded, corpus-dependent) has no score rule.
The thresholds are measured on CoSQA dev (500 queries, docs/retrieval.md "Confidence");
recalibrate them there after a change of model or fusion.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

#: Minimum score of the first hit per search mode (see the module docstring).
MIN_TOP_SCORE = {"hybrid": 0.45, "dense": 0.45, "sparse": 0.0}
#: Score gap between the first two hits under which a disagreement of the retrievers flags.
MIN_GAP = 0.02
#: Depth of each retriever's own ranking in which the first hit must appear to "agree".
AGREE_K = 3


@dataclass(frozen=True, slots=True)
class Features:
    """Measurements of one search answer.

    ``top_score``/``second_score`` are the first two hits' scores (0 when missing);
    ``pinned``: the first hit was pinned by an exact name; ``agree``: the first hit is in
    the top ``AGREE_K`` of both retrievers run alone (``None`` when not measured: a
    one-retriever mode, or no hit); ``dense_top``/``sparse_top``: the best cosine and BM25
    score of those runs (0 when not run).
    """

    mode: str
    hits: int
    top_score: float = 0.0
    second_score: float = 0.0
    pinned: bool = False
    agree: bool | None = None
    dense_top: float = 0.0
    sparse_top: float = 0.0

    @property
    def gap(self) -> float:
        """``top_score - second_score`` (the top score itself when there is one hit)."""
        return self.top_score - self.second_score

    def as_dict(self) -> dict[str, object]:
        """The fields and ``gap``, JSON-ready (logs, the evaluation harness)."""
        return {**asdict(self), "gap": self.gap}


def confidence(features: Features) -> tuple[bool, str]:
    """(low, reason) of one answer by the rule of the module docstring; reason ``""`` when
    confident."""
    if features.hits == 0:
        return True, "no results"
    if features.pinned:
        return False, ""
    floor = MIN_TOP_SCORE.get(features.mode, 0.0)
    if features.top_score < floor:
        return True, f"top score {features.top_score:.2f} < {floor:.2f}"
    if features.agree is False and features.hits > 1 and features.gap < MIN_GAP:
        return True, (f"dense and sparse disagree and the top two are within {features.gap:.3f} "
                      f"(< {MIN_GAP})")
    return False, ""
