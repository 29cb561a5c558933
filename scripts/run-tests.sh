#!/usr/bin/env bash
# Installs what is missing, builds Remora with warnings as errors and runs the whole test
# suite, including the MPI transport's tests under MPICH (label mpi); then an Open MPI smoke
# job; then the suite built with ASan+UBSan, and the queue, active-message, barrier and
# progress tests built with TSan up to 7 ranks (8-rank runs add time, not new interleavings of
# a rank's threads), both without MPI. REMORA_SKIP_SANITIZERS=1 stops after the MPI jobs;
# REMORA_SKIP_MPI=1 builds the plain suite without MPI.
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

# The MPI launchers are named explicitly: the unsuffixed mpicc/mpiexec may be either MPI.
mpich=(-DREMORA_WITH_MPI=ON -DMPI_C_COMPILER=mpicc.mpich
       -DMPIEXEC_EXECUTABLE="$(command -v mpiexec.mpich || true)")
openmpi=(-DREMORA_WITH_MPI=ON -DMPI_C_COMPILER=mpicc.openmpi
         -DMPIEXEC_EXECUTABLE="$(command -v mpiexec.openmpi || true)")
if [ "${REMORA_SKIP_MPI:-0}" = 1 ]; then
  mpich=(-DREMORA_WITH_MPI=OFF)
fi
run_suite build -DCMAKE_BUILD_TYPE=RelWithDebInfo "${mpich[@]}" --
if [ "${REMORA_SKIP_MPI:-0}" != 1 ]; then
  # Open MPI smoke job: the MPI transport's own tests and a few of the suite, both paths.
  smoke=(test_mpi_app_owns_mpi test_mpi_window_sizes test_identity test_rdma test_barrier
         test_win_sync)
  echo "=== build-openmpi: configure, build ${smoke[*]}"
  cmake -S . -B build-openmpi -G Ninja -DREMORA_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DREMORA_BUILD_BENCH=OFF -DREMORA_BUILD_APPS=OFF "${openmpi[@]}" >/dev/null
  cmake --build build-openmpi --target "${smoke[@]}"
  echo "=== build-openmpi: test"
  ctest --test-dir build-openmpi --output-on-failure -j "$jobs" -L mpi \
    -R '(app_owns_mpi|window_sizes|identity\.np2|rdma\.np2|barrier\.np3|win_sync\.np2)'
fi
if [ "${REMORA_SKIP_SANITIZERS:-0}" != 1 ]; then
  run_suite build-asan -DCMAKE_BUILD_TYPE=Debug -DREMORA_SANITIZE=address \
    -DREMORA_BUILD_BENCH=OFF -DREMORA_WITH_MPI=OFF --
  run_suite build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREMORA_SANITIZE=thread \
    -DREMORA_BUILD_BENCH=OFF -DREMORA_BUILD_APPS=OFF -DREMORA_WITH_MPI=OFF -- -L 'unit|am|coll' \
    -LE np8
fi
