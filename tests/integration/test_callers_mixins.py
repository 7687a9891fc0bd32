"""``self.m()`` in a mixin: django-rest-framework's ``CreateModelMixin.create`` calls
``self.get_serializer()``, which only ``GenericAPIView`` defines; ``CreateAPIView``
combines the two. ``callers GenericAPIView.get_serializer`` left those 5 calls out as calls
on another type (a newcomer). A class mixed in beside the method's class, by a class below
it, is of its hierarchy: its ``self.m()`` is a candidate; a class mixed with neither is not.
Real git fixture, real store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from conformance_cases import indexed

FILES = {
    "rest/__init__.py": "",
    "rest/mixins.py": '''class CreateModelMixin:
    def create(self, request):
        serializer = self.get_serializer(data=request.data)
        return serializer


class Unrelated:
    def run(self):
        return self.get_serializer()
''',
    "rest/generics.py": '''from rest import mixins


class GenericAPIView:
    def get_serializer(self, *args, **kwargs):
        return args

    def get(self, request):
        return self.get_serializer(request)


class CreateAPIView(mixins.CreateModelMixin, GenericAPIView):
    def post(self, request):
        return self.create(request)
''',
}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("mixins"), FILES) as daemon:
        yield daemon


def test_a_mixins_own_call_is_a_candidate_of_the_class_it_is_mixed_with(running: Daemon) -> None:
    omitted: dict[str, int] = {}
    page = running.service.find_callers("GenericAPIView.get_serializer", repo="fx", omitted=omitted)
    assert [(s.path, s.line, s.caller, s.confidence) for s in page] == [
        ("rest/generics.py", 9, "GenericAPIView.get", "resolved"),
        ("rest/mixins.py", 3, "CreateModelMixin.create", "name_only"),
    ]
    assert omitted.get("other_type") == 1  # Unrelated.run's: mixed with neither
