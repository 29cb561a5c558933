#!/usr/bin/env bash
# Installs what is missing, builds Remora (Release) and runs the demonstration on 4 ranks of
# this node over shared memory. No MPI needed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh demo
cmake -S . -B build-demo -G Ninja -DCMAKE_BUILD_TYPE=Release -DREMORA_BUILD_TESTS=OFF \
  -DREMORA_BUILD_BENCH=OFF >/dev/null
cmake --build build-demo
build-demo/tools/remorarun/remorarun -n 4 --timeout 60 build-demo/apps/demo/remora_demo
