"""Synthetic camelCase names from a code vocabulary, for fuzzy-lookup fixtures
(tests/integration/test_bounded_requests.py) and benchmarks (tests/bench/bench_fuzzy.py)."""

from __future__ import annotations

import random

WORDS = ("get set is has find load save parse read write open close update delete create build "
         "make handle process validate check compute render format convert resolve register "
         "dispatch request response session cookie header body token user account order invoice "
         "payment refund customer product item cart price total amount date time config value key "
         "name path file stream buffer cache index query result error exception status code "
         "message event listener handler manager factory service provider adapter controller "
         "repository entity model view template context state node tree graph edge list map").split()


def camel(words: list[str]) -> str:
    """``["parse", "user", "token"]`` -> ``parseUserToken``."""
    return words[0] + "".join(w.capitalize() for w in words[1:])


def random_name(rng: random.Random, min_words: int = 2, max_words: int = 7) -> str:
    """A camelCase name of ``min_words``..``max_words`` words of ``WORDS``."""
    return camel([rng.choice(WORDS) for _ in range(rng.randint(min_words, max_words))])
