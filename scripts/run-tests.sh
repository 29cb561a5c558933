#!/usr/bin/env bash
# Installs what is missing, builds Remora with warnings as errors and runs the whole test
# suite, including the MPI transport's tests under MPICH (label mpi); then an Open MPI smoke
# job; then the GA tests that pass on Global Arrays 5.8, run on GA itself; the Python package;
# then the suite built with ASan+UBSan (against MPICH, with an MPI subset), and the queue,
# active-message, barrier and progress tests built with TSan up to 7 ranks (8-rank runs add
# time, not new interleavings of a rank's threads), without MPI. REMORA_SKIP_SANITIZERS=1 stops
# after the MPI jobs; REMORA_SKIP_MPI=1 builds the plain suite and ASan without MPI.
#
# What shortens CI on a 2-core machine (measurements: docs/testing.md, "Shortening CI"):
# - every build compiles with -g1 (line tables: backtraces and sanitizer reports keep lines);
# - the MPI registrations leave out what repeats another run: mpi_inter at one rank, and mpi.*
#   (one node: remorarun's data path) beyond 2 ranks, and with a progress thread at 1 rank;
# - the plain job runs every registered test; the other jobs only add what they check;
# - the sanitizer jobs leave out the tests labelled plain_only (the nonblocking collective
#   matrices completed by remora_request_test at 6 and 7 ranks: 127 s of their test time, for
#   paths they run at 6 and 7 ranks blocking and at 2 ranks through the same test loop);
# - ASan+UBSan runs every test except the 8-rank runs (-LE np8): each test it leaves out also
#   runs at 4 or 5 ranks there (coll_bypass_delay is registered at 4 ranks for this), and 8
#   ranks on 2 cores took 42 % of the job's test time (227 of 546 s) for the same code paths;
#   likewise the 5-7-rank runs of tests that also run at 2-4 ranks (label also_below5, both
#   sanitizer jobs): the runs at 5 or more ranks that remain are the tests registered only there;
#   runs with a progress thread or ghost only at 2 ranks where a test runs there (-LE
#   async_beside_np2);
#   it stays a Debug (-O0) build: -O1 compiled 32 % slower; it is built against MPICH (about 8 %
#   more to compile) and runs 54 MPI tests at 1-3 ranks;
# - TSan leaves out the runs in which every process has one thread (-LE one_thread): it does
#   not see across processes;
# - every job but the plain one builds only what its tests run (build_only): ASan does not
#   compile the GA and ARMCI layers and their test programs, which it does not run;
# - the Open MPI smoke job is a Debug build (-O0 compiles about 20 % faster than -O2, and its
#   22 tests take seconds): it checks that Remora works with Open MPI, not its speed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
jobs=$(nproc)
# Each phase's start, in seconds since the script's: where CI time goes, from the log alone.
phase() { echo "=== [${SECONDS} s] $*"; }

# Compiling is about half of a run. ccache (installed above) keeps what it compiled in its own
# directory outside the clone (~/.cache/ccache unless CCACHE_DIR says otherwise), so a later run
# on the same machine compiles only what changed; the first run, or REMORA_CCACHE=0, compiles
# everything. Outputs are the compiler's own (warnings included: ccache replays them, and a
# failed compile is never cached). CCACHE_BASEDIR makes paths relative to the clone, so clones
# in different directories share entries; CCACHE_NOHASHDIR leaves the build directory out of
# the hash (it appears only in debug information). Every CMake configure below, pip's included,
# takes the launcher from the environment.
if [ "${REMORA_CCACHE:-1}" = 1 ] && command -v ccache >/dev/null; then
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  ccache --zero-stats >/dev/null
  trap 'echo "=== ccache, this run:"; ccache --print-stats | grep -E "^(direct_cache_hit|preprocessed_cache_hit|cache_miss)\s" || true' EXIT
fi

run_suite() {  # build-directory, extra CMake flags..., then ctest arguments after "--"
  local dir=$1; shift
  local cmake_flags=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do cmake_flags+=("$1"); shift; done
  shift
  phase "$dir: configure ${cmake_flags[*]}"
  cmake -S . -B "$dir" -G Ninja -DREMORA_WERROR=ON "${debug_info[@]}" "${cmake_flags[@]}" >/dev/null
  if [ -n "${build_only:-}" ]; then
    mapfile -t targets < <({ select_targets "$dir" "$build_only" "$@"
                             if [ ${#also_select[@]} -gt 0 ]; then
                               select_targets "$dir" tests "${also_select[@]}"
                             fi; } | sort -u)
    phase "$dir: build ${#targets[@]} targets (what the selected tests run)"
    cmake --build "$dir" --target "${targets[@]}"
  else
    cmake --build "$dir"
  fi
  phase "$dir: test"
  ctest --test-dir "$dir" --output-on-failure --no-tests=error -j "$jobs" "$@"
}

# build_only=tests: build only the outputs that the tests chosen by the ctest arguments run
# (paths under the build directory that Ninja knows as targets; a test's output files are not),
# known after configuring; build_only=tests+unit: also every GoogleTest program, whose tests
# CTest lists only once built (until then one unlabelled <target>_NOT_BUILT placeholder each).
# also_select: the ctest arguments of a second selection run from the same build (its
# programs are built too).
also_select=()
select_targets() {  # build-directory, tests or tests+unit, ctest arguments...
  local dir=$1 what=$2; shift 2
  local root; root=$(cd "$dir" && pwd)
  { ctest --test-dir "$dir" -N -V "$@" 2>&1 | grep -E 'Test command:|Could not find executable' |
      grep -o "$root/[^\"; ]*" |
      sed "s|^$root/||"
    if [ "$what" = tests+unit ]; then
      ctest --test-dir "$dir" -N | sed -n 's/^ *Test *#[0-9]*: \(.*\)_NOT_BUILT$/\1/p'
    fi
  } | sort -u | grep -Fxf <(ninja -C "$dir" -t targets all | sed 's/: [^:]*$//')
}

# Line tables and function names (-g1) instead of full debug information: backtraces and
# sanitizer reports keep file and line, the code is the same, compiling takes 15-28 % less CPU.
debug_info=(-DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
            -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
            -DCMAKE_C_FLAGS_DEBUG=-g1 -DCMAKE_CXX_FLAGS_DEBUG=-g1)

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
  # Open MPI smoke job: the MPI transport's own tests and a few of the suite, both paths, the
  # faults under mpiexec (fault_random: a rank killed, crashed or aborting at a random point),
  # and the package test (the installed package records Open MPI; a consumer with MPICH must
  # fail).
  build_only=tests run_suite build-openmpi -DCMAKE_BUILD_TYPE=Debug -DREMORA_BUILD_BENCH=OFF \
    -DREMORA_BUILD_APPS=OFF "${openmpi[@]}" -- -L 'mpi|package' \
    -R '(app_owns_mpi|window_sizes|identity\.np2|rdma\.np2|barrier\.np[23]|win_sync\.np2|package\.|fault_random)'
fi
if [ "${REMORA_SKIP_MPI:-0}" != 1 ]; then
  # The GA tests that pass on Global Arrays 5.8 itself, built against it and run there: a test
  # of Remora's ga.h must not assume what GA does not do (tests/ga/passes_on_ga.txt).
  phase "GA 5.8 reference run: tools/ga-reference-run.sh --expect"
  tools/ga-reference-run.sh --expect
fi
# The Python package (python/): pip-installed into a venv, its pytest suite under remorarun at 1,
# 2 and 4 ranks and the examples; with MPI also a build with the MPI transport under
# mpiexec.mpich (python/run-tests.sh).
phase "python: pip install ./python, pytest under remorarun (and mpiexec)"
python_mpi=only
[ "${REMORA_SKIP_MPI:-0}" = 1 ] && python_mpi=0
REMORAPY_MPI=$python_mpi python/run-tests.sh build-python
if [ "${REMORA_SKIP_SANITIZERS:-0}" != 1 ]; then
  # Built against MPICH: the non-MPI tests but the 8-rank runs, then an MPI subset at 1-3 ranks
  # on both paths (hwloc loads no plugins, whose memory LSan could not attribute:
  # RemoraSanitizers.cmake; tests/sanitizers suppresses nothing else).
  asan_mpi=(-L mpi -LE 'np[4-9]|mpi_ghost'
            -R '(app_owns_mpi|window_sizes|identity|rdma|barrier|win_sync|wait_policy|win_accumulate_owner|dead_rank)')
  if [ "${REMORA_SKIP_MPI:-0}" != 1 ]; then also_select=("${asan_mpi[@]}"); fi
  build_only=tests+unit run_suite build-asan -DCMAKE_BUILD_TYPE=Debug -DREMORA_SANITIZE=address \
    -DREMORA_BUILD_BENCH=OFF "${mpich[@]}" -- -LE 'np8|also_below5|plain_only|async_beside_np2|mpi|^ga$'
  also_select=()
  if [ "${REMORA_SKIP_MPI:-0}" != 1 ]; then
    phase "build-asan: MPI subset"
    ctest --test-dir build-asan --output-on-failure --no-tests=error -j "$jobs" "${asan_mpi[@]}"
  fi
  build_only=tests+unit run_suite build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DREMORA_SANITIZE=thread \
    -DREMORA_BUILD_BENCH=OFF -DREMORA_BUILD_APPS=OFF -DREMORA_WITH_MPI=OFF -- -L 'unit|am|coll|threads' \
    -LE 'np8|also_below5|plain_only|one_thread|tsan_cross_process'
fi
phase "all jobs passed"
