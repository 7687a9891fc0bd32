"""Name trigrams: what a symbol's name becomes in the fuzzy-lookup index.

The index path writes them (``index.points``, payload ``name_trigrams``); the query path
reads them (``query.fuzzy``). They live here, below both, like the sparse terms.
"""

from __future__ import annotations


def name_trigrams(name: str) -> list[str]:
    """Distinct trigrams of ``$name$`` lowercased, sorted (the payload's ``name_trigrams``)."""
    padded = f"${name.lower()}$"
    return sorted({padded[i:i + 3] for i in range(len(padded) - 2)})
