#!/usr/bin/env bash
# Installs what is missing, builds Remora with warnings as errors and runs the whole test
# suite; then the same suite built with ASan+UBSan, and the queue, active-message, barrier
# and progress tests built with TSan. REMORA_SKIP_SANITIZERS=1 runs the plain suite only.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
jobs=$(nproc)

run_suite() {  # build-directory, extra CMake flags..., then ctest arguments after "--"
  local dir=$1; shift
  local cmake_flags=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do cmake_flags+=("$1"); shift; done
  shift
  echo "=== $dir: configure ${cmake_flags[*]}"
  cmake -S . -B "$dir" -G Ninja -DREMORA_WERROR=ON "${cmake_flags[@]}" >/dev/null
  cmake --build "$dir"
  echo "=== $dir: test"
  ctest --test-dir "$dir" --output-on-failure -j "$jobs" "$@"
}

run_suite build -DCMAKE_BUILD_TYPE=RelWithDebInfo --
if [ "${REMORA_SKIP_SANITIZERS:-0}" != 1 ]; then
  run_suite build-asan -DCMAKE_BUILD_TYPE=Debug -DREMORA_SANITIZE=address \
    -DREMORA_BUILD_BENCH=OFF --
  run_suite build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREMORA_SANITIZE=thread \
    -DREMORA_BUILD_BENCH=OFF -DREMORA_BUILD_APPS=OFF -- -L 'unit|am|coll'
fi
