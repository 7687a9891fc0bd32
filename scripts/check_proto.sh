#!/usr/bin/env bash
# Fail (exit 1) when the checked-in stubs under clients/coderecall/v1 differ from what
# scripts/gen_proto.sh generates from proto/ now. CI runs this; fix with scripts/gen_proto.sh.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${PYTHON:-python}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

PYTHON="$python" "$root/scripts/gen_proto.sh" "$tmp"

stale=0
for name in coderecall_pb2.py coderecall_pb2_grpc.py coderecall_pb2.pyi; do
    if ! diff -u "$root/clients/coderecall/v1/$name" "$tmp/coderecall/v1/$name"; then
        stale=1
    fi
done
if [[ $stale -ne 0 ]]; then
    tools="$("$python" -c 'import importlib.metadata as m; print(m.version("grpcio-tools"))')"
    echo "check_proto: generated stubs in clients/coderecall/v1 are stale;" \
         "run scripts/gen_proto.sh (grpcio-tools $tools) and commit the result" >&2
    exit 1
fi
echo "check_proto: stubs are up to date"
