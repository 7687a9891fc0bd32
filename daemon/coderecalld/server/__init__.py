"""The gRPC transport of the daemon: the only place in ``coderecalld`` that imports grpc.

* ``app.build_server`` wires the servicer, the error interceptor, health checking and
  reflection onto a ``grpc.Server``;
* ``servicer`` decodes a request, calls ``CodeRecallApi``, encodes the answer;
* ``convert`` holds every record <-> protobuf conversion;
* ``errors`` holds the one table from ``coderecalld.errors`` classes to status codes.
"""

from coderecalld.server.app import SERVICE_NAME, build_server, stop_server

__all__ = ["SERVICE_NAME", "build_server", "stop_server"]
