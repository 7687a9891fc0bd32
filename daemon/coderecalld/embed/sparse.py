"""Identifier-aware sparse vectors for the lexical half of hybrid search.

``tokens`` turns source code or a natural-language query into lowercase terms:

* every identifier is split on ``snake_case`` / ``kebab-case`` separators, camelCase and
  PascalCase humps, acronym runs (``HTTPServer`` -> ``http``, ``server``) and letter/digit
  boundaries (``utf8Decode`` -> ``utf``, ``8``, ``decode``);
* the whole identifier is kept as one more term (``parse_json``, ``httpserver``), so an
  exact name scores above a bag of its parts;
* dotted names (``os.path.join``) yield each segment; a ``.`` is never part of a term.

``vector`` weights a document's terms with the BM25 term-frequency component; ``query_vector``
gives each distinct query term weight 1.0. IDF is applied by Qdrant (``Modifier.Idf`` on the
sparse vector), so nothing here depends on the corpus and a chunk's vector never changes
when other chunks do.

Dimension ids are the first 4 bytes (little-endian) of ``blake2b(term, digest_size=4)``:
stable across processes and Python versions, unlike the salted built-in ``hash()``.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from collections import Counter

from coderecalld.records import SparseVector

TOKENIZER_VERSION = "ident-bm25-v1"
"""Identity of the term scheme: split rules, stop words, hash and BM25 constants.

Bump it on any change to this module's output; the store records it and refuses to mix
vectors made by different versions (DESIGN.md decision 7)."""

STOP_WORDS = frozenset(
    {
        # English function words that dominate natural-language queries.
        "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "is", "it",
        "of", "on", "or", "that", "the", "to", "with",
        # Keywords and receivers present in nearly every chunk of their language.
        "self", "cls", "this", "def", "return", "import", "pass",
    }
)
"""Terms dropped everywhere (also as whole identifiers). Kept short on purpose: IDF already
discounts common terms, this only removes the ones that carry no meaning at all."""

QUERY_STOP_WORDS = frozenset(
    {
        # Question words: a query asks "how do I ...", code never says it.
        "how", "what", "which", "why", "do", "does", "i", "can", "way", "using", "make",
        # A language's name says which language, not what the code does; rare in code, so
        # IDF would make it the heaviest term of the query.
        "python", "java", "javascript", "typescript", "golang", "rust", "cpp", "csharp",
    }
)
"""Terms dropped from queries only (documents keep them: ``make`` or ``python`` can be
real identifiers). On CoSQA dev, sparse alone went from 34.5 to 38.1 nDCG@10 (docs/retrieval.md)."""

MAX_TERM_CHARS = 64
"""Longer terms (base64 blobs, hashes, minified code) are dropped: they never match a query."""

BM25_K1 = 1.2
"""TF saturation. 1.2 is the customary default (Robertson & Zaragoza, "The Probabilistic
Relevance Framework: BM25 and Beyond", 2009, sec. 3.4; Lucene's and Qdrant's ``Bm25`` default)."""

BM25_B = 0.75
"""Length normalisation strength, the same customary default (ibid.; Qdrant ``Bm25`` default)."""

BM25_AVG_TERMS = 256.0
"""Assumed average document length in terms. A fixed prior (Qdrant's ``Bm25Config.avg_len``
default) instead of the corpus mean keeps each vector independent of the rest of the corpus."""

FILE_AVG_TERMS = 1500.0
"""The same prior for a whole file (``file_vector``): the mean terms per non-test ``.py``
file of CPython 3.11's standard library (2,669 files, mean 1,562, median 465)."""

FILE_MAX_CHARS = 1_000_000
"""Characters of a file ``file_vector`` reads (bounded so a huge file costs O(1))."""

# A word is a run of Unicode word characters; hyphens join words into one kebab-case
# compound only when a letter follows (``max-width`` yes, ``n-1`` no).
_COMPOUND = re.compile(r"\w+(?:-(?=[^\W\d_])\w+)*")
_SEPARATORS = re.compile(r"[_\-]+")
# ASCII fast path of ``_is_boundary`` (same parts, checked by tests/unit/test_sparse.py).
_ASCII_HUMPS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def tokens(text: str) -> list[str]:
    """Split ``text`` into lowercase search terms, in reading order.

    Each identifier contributes its whole lowercased form (separators kept, leading and
    trailing ``_``/``-`` stripped) followed by its parts, unless it has a single part.
    Stop words (``STOP_WORDS``) and terms longer than ``MAX_TERM_CHARS`` are dropped.
    Text is NFC-normalised first so composed and decomposed accents give the same term.

    Examples:
        ``parseJSONResponse`` -> ``["parsejsonresponse", "parse", "json", "response"]``;
        ``self.save`` -> ``["save"]``.

    Never raises for any ``str``; returns ``[]`` for empty or punctuation-only text.
    """
    out: list[str] = []
    for match in _COMPOUND.finditer(unicodedata.normalize("NFC", text)):
        out.extend(_compound_terms(match.group()))
    return out


def vector(text: str, avg_terms: float = BM25_AVG_TERMS) -> SparseVector:
    """Document-side sparse vector of ``text``.

    Weight of a dimension with term frequency ``tf`` in a document of ``dl`` terms (BM25's
    TF component, IDF left to Qdrant)::

        w = tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))

    with ``k1 = BM25_K1``, ``b = BM25_B``, ``avgdl = avg_terms`` (``BM25_AVG_TERMS``: a
    chunk's; ``FILE_AVG_TERMS`` for a whole file). Terms that hash to the
    same dimension are counted together. Indices are sorted, unique, ``0 <= i < 2**32``;
    an empty vector when ``text`` has no terms.
    """
    terms = tokens(text)
    counts = Counter(term_index(t) for t in terms)
    norm = BM25_K1 * (1.0 - BM25_B + BM25_B * len(terms) / avg_terms)
    indices = tuple(sorted(counts))
    values = tuple(counts[i] * (BM25_K1 + 1.0) / (counts[i] + norm) for i in indices)
    return SparseVector(indices=indices, values=values)


def file_vector(path: str, text: str) -> SparseVector:
    """Sparse vector of a whole file for the file-level index (``Store.upsert_files``):
    ``vector`` of its path and its first ``FILE_MAX_CHARS`` characters with the
    ``FILE_AVG_TERMS`` length prior. Searched with IDF over files, this is a file-level
    Okapi BM25 (``query/locate.py``)."""
    return vector(f"{path}\n{text[:FILE_MAX_CHARS]}", FILE_AVG_TERMS)


def query_vector(text: str) -> SparseVector:
    """Query-side sparse vector: weight 1.0 per distinct term dimension, less
    ``QUERY_STOP_WORDS``.

    With Qdrant's IDF modifier the score of a document is then the sum over shared terms of
    ``idf(term) * w_doc(term)``, i.e. BM25. Indices are sorted and unique.
    """
    indices = tuple(sorted({term_index(t) for t in tokens(text) if t not in QUERY_STOP_WORDS}))
    return SparseVector(indices=indices, values=(1.0,) * len(indices))


@functools.lru_cache(maxsize=1 << 16)
def term_index(term: str) -> int:
    """Stable 32-bit dimension id of one term (blake2b, 4-byte digest, little-endian)."""
    digest = hashlib.blake2b(term.encode("utf-8", "surrogatepass"), digest_size=4).digest()
    return int.from_bytes(digest, "little")


# Identifiers repeat heavily within and across files, so memoising per word pays off.
@functools.lru_cache(maxsize=1 << 16)
def _compound_terms(word: str) -> tuple[str, ...]:
    """Terms of one ``_COMPOUND`` match: the whole word, then its parts (if several)."""
    whole = word.strip("_-")
    parts = [sub for piece in _SEPARATORS.split(whole) if piece for sub in _split_case(piece)]
    terms = parts if len(parts) <= 1 else [whole, *parts]
    return tuple(t for t in (term.lower() for term in terms) if _keep(t))


def _keep(term: str) -> bool:
    return 0 < len(term) <= MAX_TERM_CHARS and term not in STOP_WORDS


def _split_case(piece: str) -> list[str]:
    """Split one separator-free word at case humps, acronym ends and letter/digit edges."""
    if piece.isascii():
        return _ASCII_HUMPS.findall(piece)
    parts: list[str] = []
    start = 0
    for i in range(1, len(piece)):
        if _is_boundary(piece, i):
            parts.append(piece[start:i])
            start = i
    parts.append(piece[start:])
    return parts


def _is_boundary(piece: str, i: int) -> bool:
    """True when a new part starts at ``piece[i]``."""
    prev, cur = piece[i - 1], piece[i]
    if prev.isdecimal() != cur.isdecimal():
        return True  # utf|8, 8|Decode
    if cur.isupper() and not prev.isupper():
        return True  # parse|JSON
    # Last capital of an acronym run starts the next word: HTTP|Server.
    return prev.isupper() and cur.isupper() and i + 1 < len(piece) and piece[i + 1].islower()
