#!/usr/bin/env bash
# Regenerate the Python gRPC stubs from proto/ into clients/ (the one documented command).
#
#   scripts/gen_proto.sh [OUT_DIR]
#
# OUT_DIR defaults to clients/ at the repository root; scripts/check_proto.sh passes a
# temporary directory. Needs grpcio-tools (pinned in the `dev` extra): the stubs embed the
# generator's version, so regenerate with exactly that version. PYTHON overrides the
# interpreter (default: `python` on PATH, e.g. the activated .venv).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/clients}"
python="${PYTHON:-python}"

cd "$root"
mkdir -p "$out/coderecall/v1"
"$python" -m grpc_tools.protoc -Iproto \
    --python_out="$out" --grpc_python_out="$out" --pyi_out="$out" \
    proto/coderecall/v1/coderecall.proto
