"""Generated gRPC stubs for the ``coderecall.v1`` API (``proto/coderecall/v1/coderecall.proto``).

Do not edit ``coderecall_pb2*.py[i]`` by hand: regenerate with ``scripts/gen_proto.sh``;
``scripts/check_proto.sh`` fails when they are stale. Application code should prefer
``coderecall.Client``, which returns plain dataclasses instead of protobuf messages.
"""
