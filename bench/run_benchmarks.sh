#!/usr/bin/env bash
# Runs every Remora micro-benchmark with every variant and writes one combined CSV to stdout
# (header `bench,variant,ranks,bytes,metric,value` once). Builds nothing.
#
#   bench/run_benchmarks.sh BUILD_DIR [benchmark options...] > results.csv
#
# Benchmark options (e.g. --iterations K, --batches B) are passed to every program.
# BENCH_PIN=1 pins rank r to CPU r mod nproc (taskset), so that the kernel cannot stack the
# ranks of a small job on one CPU while other work occupies the rest (see docs/benchmarks.md).
# Progress notes, the load average before and after, and failures go to stderr; the exit
# status is 1 if any run failed (its rows are then missing), else 0.
# Variants:
#   put, get, fetch_add (2, 4, 8 ranks)    REMORA_PROGRESS=manual and =thread
#   am                  polling            REMORA_PROGRESS=manual
#                       asleep             REMORA_PROGRESS=thread
#                       asleep_nospin      REMORA_PROGRESS=thread REMORA_WAIT_SPIN_US=0
#                                          REMORA_WAIT_YIELDS=0
#   barrier (2..8 ranks) REMORA_BARRIER=dissemination and =central, each with
#                        REMORA_PROGRESS=manual and =thread
#   lock_put_unlock (2 ranks), fence_cost (2, 4, 8 ranks)   REMORA_PROGRESS=manual
#   progress_overlap (2, 4 ranks)  REMORA_PROGRESS=manual, =thread and =ghost (the mode is
#                        process-wide: one run per mode; variants are <progress>/<strategy>)
#   nbc_overhead (4 ranks)  REMORA_PROGRESS=manual and =thread; nbc_overhead_mpi (4 ranks,
#                        under mpiexec) when it was built
#   coll_algorithms (2, 4, 8 ranks); its bcast at 2 ranks again with REMORA_RNDV_BYTES=0
#                        (every message by rendezvous) and =1G (every message eager)
#   array_patch, matmul (2, 4 ranks)   REMORA_PROGRESS=manual
#   hf_proxy (2, 4 ranks)  REMORA_PROGRESS=thread and =ghost, each with
#                        REMORA_ACC_STRATEGY=auto and =owner
set -u

if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 BUILD_DIR [benchmark options...] > results.csv" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
shift
launcher="$build/tools/remorarun/remorarun"
bin="$build/bench"
header="bench,variant,ranks,bytes,metric,value"
for program in "$launcher" "$bin"/bench_{put,get,am,fetch_add,barrier} "$bin"/lock_put_unlock \
  "$bin"/fence_cost "$bin"/progress_overlap; do
  if [ ! -x "$program" ]; then
    echo "$0: $program is missing: build it first (ninja -C $build)" >&2
    exit 2
  fi
done

failures=0
cpus=$(nproc)
if [ "${BENCH_PIN:-0}" = 1 ] && ! command -v taskset > /dev/null; then
  echo "$0: BENCH_PIN=1 needs taskset (util-linux)" >&2
  exit 2
fi
# run RANKS PROGRAM [VAR=VALUE...]: one job, its CSV rows (without the header) to stdout.
run() {
  local ranks=$1 program=$2
  shift 2
  local output status
  echo "# $* remorarun -n $ranks $program" >&2
  local command=("$bin/$program")
  if [ "${BENCH_PIN:-0}" = 1 ]; then
    # REMORA_RANK is set by remorarun in each rank's environment.
    command=(/bin/sh -c 'exec taskset -c $((REMORA_RANK % '"$cpus"')) "$0" "$@"' "$bin/$program")
  fi
  output=$(env "$@" "$launcher" -n "$ranks" --timeout 120 "${command[@]}" --csv "${options[@]}" "${program_args[@]}")
  status=$?
  if [ $status -ne 0 ] || [ "$(printf '%s\n' "$output" | head -n 1)" != "$header" ]; then
    echo "$0: FAILED (exit status $status): $* remorarun -n $ranks $program" >&2
    failures=$((failures + 1))
    return
  fi
  printf '%s\n' "$output" | tail -n +2
}

options=("$@")
program_args=()  # extra arguments of the next run() only
# The variants below set what they vary; clear it first so the caller's environment cannot
# mislabel a run.
unset REMORA_PROGRESS REMORA_BARRIER REMORA_WAIT_SPIN_US REMORA_WAIT_YIELDS REMORA_RNDV_BYTES
unset REMORA_ACC_STRATEGY
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg), BENCH_PIN=${BENCH_PIN:-0}" >&2
echo "$header"
for progress in manual thread; do
  run 2 bench_put REMORA_PROGRESS=$progress
  run 2 bench_get REMORA_PROGRESS=$progress
  for ranks in 2 4 8; do run $ranks bench_fetch_add REMORA_PROGRESS=$progress; done
done
run 2 bench_am REMORA_PROGRESS=manual
run 2 bench_am REMORA_PROGRESS=thread
run 2 bench_am REMORA_PROGRESS=thread REMORA_WAIT_SPIN_US=0 REMORA_WAIT_YIELDS=0
for progress in manual thread; do
  for barrier in dissemination central; do
    for ranks in 2 3 4 5 6 7 8; do
      run $ranks bench_barrier REMORA_BARRIER=$barrier REMORA_PROGRESS=$progress
    done
  done
done
run 2 lock_put_unlock REMORA_PROGRESS=manual
for ranks in 2 4 8; do run $ranks fence_cost REMORA_PROGRESS=manual; done
for progress in manual thread ghost; do
  for ranks in 2 4; do run $ranks progress_overlap REMORA_PROGRESS=$progress; done
done
for progress in manual thread; do
  run 4 nbc_overhead REMORA_PROGRESS=$progress
done
if [ -x "$bin/nbc_overhead_mpi" ] && command -v mpiexec > /dev/null; then
  # The MPI library's own launcher; Open MPI needs --oversubscribe for 4 ranks on 2 cores.
  echo "# mpiexec -n 4 nbc_overhead_mpi" >&2
  mpi_flags=()
  if mpiexec --version 2>&1 | grep -qiE "open ?mpi|openrte"; then
    mpi_flags=(--oversubscribe)
    [ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
  if output=$(timeout 300 mpiexec "${mpi_flags[@]}" -n 4 "$bin/nbc_overhead_mpi" --csv "${options[@]}"); then
    printf '%s\n' "$output" | tail -n +2
  else
    echo "$0: FAILED: mpiexec -n 4 nbc_overhead_mpi" >&2
    failures=$((failures + 1))
  fi
fi
for ranks in 2 4 8; do run $ranks coll_algorithms; done
program_args=(--ops bcast)
for rndv in 0 1G; do run 2 coll_algorithms REMORA_RNDV_BYTES=$rndv; done
program_args=()
for ranks in 2 4; do
  run $ranks array_patch REMORA_PROGRESS=manual
  run $ranks matmul REMORA_PROGRESS=manual
done
for progress in thread ghost; do
  for strategy in auto owner; do
    for ranks in 2 4; do
      run $ranks hf_proxy REMORA_PROGRESS=$progress REMORA_ACC_STRATEGY=$strategy
    done
  done
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
if [ $failures -ne 0 ]; then
  echo "$0: $failures run(s) failed" >&2
  exit 1
fi
exit 0
