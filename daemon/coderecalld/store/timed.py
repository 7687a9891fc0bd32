"""A thin layer over any ``Store`` that times each call by method name
(``coderecall_store_operation_duration_seconds{op}``); everything else passes through."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

from coderecalld import metrics

_OPS = frozenset(metrics.STORE_OPS)


class TimedStore:
    """Wraps ``inner`` (an ``EdgeStore`` or any ``Store``): the methods named in
    ``metrics.STORE_OPS`` are observed in ``STORE_OP_DURATION`` (errors included, then
    re-raised unchanged); other attributes are ``inner``'s own. An attribute set on the
    wrapper (a test patching ``store.upsert``) shadows the inner one."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if name in _OPS and callable(attr):
            return _timed(name, attr)
        return attr

    def __repr__(self) -> str:
        return f"TimedStore({self.inner!r})"


def _timed(op: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    histogram = metrics.STORE_OP_DURATION.labels(op=op)

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            histogram.observe(time.perf_counter() - started)

    return call
