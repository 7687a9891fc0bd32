"""A method called on a construction, ``stream = await TCPClient().connect(..)``: the value
is the method's declared result (``-> IOStream``), in another file (read at query time) or
the same one; tornado's ``stream.write(..)`` was a name-only call (a newcomer). Real git
fixture, real embedded store."""

from __future__ import annotations

from conformance_cases import caller_rows, indexed

FILES = {
 "net/__init__.py": "",
 "net/iostream.py": '''\
class IOStream:
    def write(self, data):
        return data
''',
 "net/tcpclient.py": '''\
from net.iostream import IOStream


class TCPClient:
    async def connect(self, host, port) -> IOStream:
        return IOStream()

    def local(self) -> "Local":
        return Local()


class Local:
    def write(self, data):
        return data


async def own():
    s = TCPClient().local()
    s.write(b"x")
''',
 "demo/__init__.py": "",
 "demo/auth.py": '''\
import typing
from typing import cast

from net.iostream import IOStream


class Mixin:
    def redirect(self):
        handler = cast(IOStream, self)
        handler.write(b"x")
        other = typing.cast("IOStream", self)
        other.write(b"y")
''',
 "demo/client.py": '''\
from net.tcpclient import TCPClient


async def main(host, port):
    stream = await TCPClient().connect(host, port)
    stream.write(b"hello")
    other = TCPClient() + 1
    other.write(b"no")
''',
}

def test_a_value_of_a_method_called_on_a_construction_or_a_cast_is_typed(tmp_path) -> None:
    """Also ``handler = cast(RequestHandler, self)`` (tornado's auth mixins): the type named."""
    with indexed(tmp_path, FILES) as d:
        stream = caller_rows(d, "IOStream.write")
        local = caller_rows(d, "Local.write")
    # `TCPClient() + 1` is no method's value: a candidate of both
    assert stream == [("demo/auth.py", 10, "Mixin.redirect", "resolved"), ("demo/auth.py", 12, "Mixin.redirect", "resolved"),
                      ("demo/client.py", 6, "main", "resolved"), ("demo/client.py", 8, "main", "name_only")]
    assert local == [("demo/client.py", 8, "main", "name_only"), ("net/tcpclient.py", 19, "own", "resolved")]
