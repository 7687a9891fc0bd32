"""A class defined in a function whose base is another class the same function defines
(tornado's ``WithUserHandler(CurrentUserHandler)`` in a test's ``get_handlers``): the base is
that class, so the hierarchy reaches it and its ``self.finish()`` is a candidate of
``RequestHandler.finish``, not a call on another type left out (a newcomer). Real git
fixture, real embedded store."""

from __future__ import annotations

from conformance_cases import indexed

FILES = {
 "web/__init__.py": "",
 "web/handler.py": '''\
class RequestHandler:
    def finish(self):
        return None
''',
 "tests/__init__.py": "",
 "tests/web_test.py": '''\
from web.handler import RequestHandler


class GetCurrentUserTest:
    def get_handlers(self):
        class CurrentUserHandler(RequestHandler):
            def prepare(self):
                self.finish()

        class WithUserHandler(CurrentUserHandler):
            def get(self):
                self.finish()

        return [CurrentUserHandler, WithUserHandler]
''',
}

def test_a_nested_classs_base_defined_beside_it_is_in_the_hierarchy(tmp_path) -> None:
    with indexed(tmp_path, FILES) as d:
        omitted: dict[str, int] = {}
        found = [(s.line, s.caller, s.confidence) for s in d.service.find_callers(
            "RequestHandler.finish", repo="fx", omitted=omitted)]
    # `self.finish()` in WithUserHandler: its base is the function's CurrentUserHandler, whose
    # base is RequestHandler, so the method is found through both (it was a name-only
    # candidate while `self.m()` read top-level bases only)
    assert found == [(8, "GetCurrentUserTest.get_handlers.CurrentUserHandler.prepare", "resolved"),
                     (12, "GetCurrentUserTest.get_handlers.WithUserHandler.get", "resolved")]
    assert omitted.get("other_type", 0) == 0
