#!/usr/bin/env bash
# Paper 004 Fig. 3 (NBCBench method) on Remora and on the MPI libraries of this machine,
# interleaved: Remora's ibarrier, ibcast, iallreduce, ireduce, igather and ialltoall, every
# algorithm, manual and thread progress (bench/nbc_overhead), beside the same MPI calls of Open
# MPI and MPICH
# (bench/nbc_overhead_mpi, compiled here against each), at 2 and 4 ranks, REPS repetitions
# (default 3). Prints one table of medians with the ratio Remora / best peer per row
# (bench/peers/peer_report.py: the overhead and the blocking time), then the CSV; with PLOT_DIR
# also one plot of the overhead per operation, rank count and test frequency.
#   bench/nbc_overhead_peers.sh BUILD_DIR [REPS] [PLOT_DIR] [MAX_BYTES]
# BUILD_DIR is a Remora build with the benchmarks (a Release build for figures); MAX_BYTES is
# the largest message (default 65536). RANKS (environment, default "2 4") lists the rank counts;
# ALGORITHMS (environment, a comma list such as auto,shm) limits Remora's algorithms, OPERATIONS
# (such as ibcast,igather) the operations of both, SIZES (such as 8,1024,65536) replaces the
# powers of 4 up to MAX_BYTES, PROGRESS (default "manual thread") lists Remora's progress modes.
# p = 2 is bound one rank per core where the machine has
# 2 cores; 4 ranks on 2 cores are oversubscribed (the table says so). Progress and the load
# average go to stderr.
set -euo pipefail
build=${1:?usage: bench/nbc_overhead_peers.sh BUILD_DIR [REPS] [PLOT_DIR] [MAX_BYTES]}
reps=${2:-3}
plots=${3:-}
max_bytes=${4:-65536}
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$build" && pwd)
remorarun=$build/tools/remorarun/remorarun
for program in "$remorarun" "$build/bench/nbc_overhead"; do
  [ -x "$program" ] || { echo "nbc_overhead_peers: $program is missing (build the benchmarks)" >&2; exit 1; }
done
source "$here/peers/peer_lib.sh"
peer_init nbc_overhead_peers

peers=()  # label|program|launcher
add_peer() {  # label compiler launcher
  "$2" -O2 -std=c++20 -DOMPI_SKIP_MPICXX=1 -DMPICH_SKIP_MPICXX=1 -I"$here" \
    "$here/nbc_overhead_mpi.cpp" "$here/nbc/nbc_method.cpp" "$here/common/bench_report.cpp" \
    -o "$work/nbc_overhead_$1"
  peers+=("$1|$work/nbc_overhead_$1|$3")
}
peer_mpis add_peer

method=(--csv --max-bytes "$max_bytes")
[ -n "${SIZES:-}" ] && method+=(--sizes "$SIZES")
[ -n "${OPERATIONS:-}" ] && method+=(--operations "$OPERATIONS")
remora_only=()
[ -n "${ALGORITHMS:-}" ] && remora_only=(--algorithms "$ALGORITHMS")
for rep in $(seq 1 "$reps"); do
  peer_repetition "$rep" "$reps"
  for p in ${RANKS:-2 4}; do
    for progress in ${PROGRESS:-manual thread}; do
      REMORA_PROGRESS=$progress "$remorarun" -n "$p" --timeout 600 "$build/bench/nbc_overhead" \
        "${method[@]}" "${remora_only[@]}" | peer_append "$rep"
    done
    for peer in "${peers[@]}"; do
      IFS='|' read -r label program launcher <<<"$peer"
      # A peer that fails leaves its rows out (and says so) rather than ending the comparison.
      timeout 900 $launcher -n "$p" "$program" "${method[@]}" --label "$label" |
        peer_append "$rep" || echo "nbc_overhead_peers: $label at p = $p failed; its rows are missing" >&2
    done
  done
done

peer_report "$plots"
