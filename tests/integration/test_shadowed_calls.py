"""A loop variable named like a module function is another value: django's ``for receiver
in sync_receivers: receiver(..)`` in ``Signal.send`` was a ``resolved`` caller of the
decorator ``receiver`` (and 9 of 12 nodes of its impact; a review). A parameter or an
assignment may hold the function itself (a pytest test's parameter names its fixture,
``helper = wrap(helper)``): those stay as they were. Real git fixture, real embedded
store."""

from __future__ import annotations

from pathlib import Path

from conformance_cases import indexed

DISPATCH = '''\
def receiver(signal):
    return signal


def helper():
    return 1


def send(sync_receivers):
    for receiver in sync_receivers:
        receiver(1)


async def asend(async_receivers):
    return [receiver(2) for receiver in async_receivers]


def uses():
    receiver(3)
    return helper()


def local_import():
    from pkg.disp import helper as h
    return h()


def wrapped(helper=helper):
    return helper()
'''


def test_a_loop_variable_of_a_module_functions_name_is_no_call_of_it(tmp_path: Path) -> None:
    with indexed(tmp_path, {"pkg/__init__.py": "", "pkg/disp.py": DISPATCH}) as d:
        receiver = sorted((s.caller, s.line, s.confidence) for s in d.service.find_callers("pkg.disp.receiver", repo="fx"))
        helper = sorted((s.caller, s.line, s.confidence) for s in d.service.find_callers("pkg.disp.helper", repo="fx"))
    # the loop's and the comprehension's values are unknown: candidates only
    assert receiver == [("asend", 15, "name_only"), ("send", 11, "name_only"), ("uses", 19, "resolved")]
    # a default value's parameter is the function itself (a review): still resolved
    assert helper == [("local_import", 25, "resolved"), ("uses", 20, "resolved"), ("wrapped", 29, "resolved")]
