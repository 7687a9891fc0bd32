"""A parameter, loop variable or local named like a module function shadows it: django's
``for receiver in sync_receivers: receiver(..)`` in ``Signal.send`` was a ``resolved``
caller of the decorator ``receiver`` (and 9 of 12 nodes of its impact; a review). A
function-local import keeps its call resolved. Real git fixture, real embedded store."""

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


def other(receiver):
    return receiver(2)


def uses():
    receiver(3)
    return helper()


def local_import():
    from pkg.disp import helper as h
    return h()


def assigned():
    helper = lambda: 0
    return helper()
'''


def test_a_local_of_a_module_functions_name_is_no_call_of_it(tmp_path: Path) -> None:
    with indexed(tmp_path, {"pkg/__init__.py": "", "pkg/disp.py": DISPATCH}) as d:
        receiver = sorted((s.caller, s.line, s.confidence) for s in d.service.find_callers("pkg.disp.receiver", repo="fx"))
        helper = sorted((s.caller, s.line, s.confidence) for s in d.service.find_callers("pkg.disp.helper", repo="fx"))
    # the loop variable's and the parameter's calls are of unknown values: candidates only
    assert receiver == [("other", 15, "name_only"), ("send", 11, "name_only"), ("uses", 19, "resolved")]
    assert helper == [("assigned", 30, "name_only"), ("local_import", 25, "resolved"), ("uses", 20, "resolved")]
