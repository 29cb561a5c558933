#!/usr/bin/env bash
# Installs what is missing, builds Remora (Release) and runs the demonstration, then the HF proxy,
# on 4 ranks of this node over shared memory. No MPI needed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh demo
cmake -S . -B build-demo -G Ninja -DCMAKE_BUILD_TYPE=Release -DREMORA_BUILD_TESTS=OFF \
  -DREMORA_BUILD_BENCH=OFF >/dev/null
cmake --build build-demo
build-demo/tools/remorarun/remorarun -n 4 --timeout 60 build-demo/apps/demo/remora_demo
# The Hartree-Fock proxy (paper 003): every variant and layout on 4 ranks, thread then ghost
# progress, each run verified.
scripts/run-hf-proxy.sh build-demo 4
