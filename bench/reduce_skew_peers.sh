#!/usr/bin/env bash
# Paper 002's skewed-reduce experiment on Remora and on the MPI libraries of this machine,
# interleaved: Remora's application-bypass and standard reduces (bench/reduce_skew, manual and
# thread progress) beside MPI_Reduce of Open MPI and MPICH (bench/reduce_skew_mpi, compiled
# here against each), at 4 and 8 ranks, REPS repetitions (default 3). Prints one table of
# medians with the ratio Remora / best peer per row (bench/peers/peer_report.py: CPU per rank
# and reduce under skew, and the latency without skew), then the CSV; with PLOT_DIR also the
# plots of paper 002 Fig. 6-7 and 9-10.
#   bench/reduce_skew_peers.sh BUILD_DIR [REPS] [PLOT_DIR] [ITERATIONS]
# BUILD_DIR is a Remora build with the benchmarks (a Release build for figures); ITERATIONS is
# reduce_skew's --iterations (default 200). On a machine with fewer cores than ranks every job
# is oversubscribed (the table says so). Progress and the load average go to stderr.
set -euo pipefail
build=${1:?usage: bench/reduce_skew_peers.sh BUILD_DIR [REPS] [PLOT_DIR] [ITERATIONS]}
reps=${2:-3}
plots=${3:-}
iterations=${4:-200}
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$build" && pwd)
remorarun=$build/tools/remorarun/remorarun
for program in "$remorarun" "$build/bench/reduce_skew"; do
  [ -x "$program" ] || { echo "reduce_skew_peers: $program is missing (build the benchmarks)" >&2; exit 1; }
done
source "$here/peers/peer_lib.sh"
peer_init reduce_skew_peers

peers=()  # label|program|launcher
add_peer() {  # label compiler launcher
  "$2" -O2 -std=c++20 -DOMPI_SKIP_MPICXX=1 -DMPICH_SKIP_MPICXX=1 -I"$here" \
    "$here/reduce_skew_mpi.cpp" "$here/skew/skew_method.cpp" "$here/common/bench_report.cpp" \
    -o "$work/reduce_skew_$1"
  peers+=("$1|$work/reduce_skew_$1|$3")
}
peer_mpis add_peer

for rep in $(seq 1 "$reps"); do
  peer_repetition "$rep" "$reps"
  for p in 4 8; do
    for progress in manual thread; do
      REMORA_PROGRESS=$progress "$remorarun" -n "$p" --timeout 600 "$build/bench/reduce_skew" \
        --csv --iterations "$iterations" | peer_append "$rep"
    done
    for peer in "${peers[@]}"; do
      IFS='|' read -r label program launcher <<<"$peer"
      # A peer that fails leaves its rows out (and says so) rather than ending the comparison.
      timeout 900 $launcher -n "$p" "$program" --csv --iterations "$iterations" --label "$label" |
        peer_append "$rep" || echo "reduce_skew_peers: $label at p = $p failed; its rows are missing" >&2
    done
  done
done

peer_report "$plots"
