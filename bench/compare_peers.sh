#!/usr/bin/env bash
# Runs paper 001's and paper 000's experiments on Remora and on the MPI libraries of this
# machine, interleaved, and prints one table of medians with the ratio Remora / best peer per
# row (bench/peers/peer_report.py), then the CSV; with PLOT_DIR also one PNG per seed figure.
#   bench/compare_peers.sh BUILD_DIR [REPS] [PLOT_DIR]       (REPS: default 3)
# BUILD_DIR is a Remora build with the benchmarks (a Release build for figures). The MPI
# program (bench/peers/rma_peers_mpi.cpp, MPI only) is compiled here against each MPI found:
# Open MPI with `--mca osc sm` (its fastest one-sided component here) and with its default osc,
# and MPICH. Each repetition runs every program once, in turn, so that drifts of a shared
# machine hit all of them alike. One rank per core for p <= cores (bound to cores); above that
# the jobs are oversubscribed (and say so in the table).
# Experiments: lock_put_unlock and rma_latency (p = 2), acc_bandwidth (p = 2, and 4 contended;
# both methods, the fixed-duration contended rows at p = 2 and 4), fence_cost (p = 2, 4, 8).
# Output: the table on stdout, then the CSV rows with a `rep` column
# (bench,variant,ranks,bytes,metric,value,rep); progress and the load average on stderr.
# Plots need matplotlib (Debian python3-matplotlib).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/peers/peer_lib.sh"
peer_init compare_peers
peer_programs "${1:?usage: bench/compare_peers.sh BUILD_DIR [REPS] [PLOT_DIR]}" \
  bench/lock_put_unlock bench/fence_cost bench/rma_latency bench/acc_bandwidth
reps=${2:-3}
plots=${3:-}
cores=$(nproc)

peers=()  # label|program|launcher with its options
add_peer() {  # label compiler launcher
  "$2" -O2 -std=c++20 -DOMPI_SKIP_MPICXX=1 -DMPICH_SKIP_MPICXX=1 \
    "$here/peers/rma_peers_mpi.cpp" -o "$work/rma_peers_$1"
  if [ "$1" = openmpi ]; then
    peers+=("openmpi_osc_sm|$work/rma_peers_openmpi|$3 --mca osc sm")
    peers+=("openmpi_default|$work/rma_peers_openmpi --skip-cas|$3")
  else
    peers+=("$1|$work/rma_peers_$1|$3")
  fi
}
peer_mpis add_peer

bind_options() {  # launcher ranks: core binding for one rank per core, none when oversubscribed
  if [ "$2" -gt "$cores" ]; then return; fi
  case $1 in
    mpiexec.openmpi*) echo "--bind-to core" ;;
    mpiexec.mpich*) echo "-bind-to core" ;;
  esac
}

for rep in $(seq 1 "$reps"); do
  peer_repetition "$rep" "$reps"
  "$remorarun" -n 2 --timeout 300 "$build/bench/lock_put_unlock" --csv | peer_append "$rep"
  "$remorarun" -n 2 --timeout 300 "$build/bench/rma_latency" --csv | peer_append "$rep"
  for p in 2 4; do
    "$remorarun" -n "$p" --timeout 600 "$build/bench/acc_bandwidth" --csv | peer_append "$rep"
  done
  for p in 2 4 8; do
    "$remorarun" -n "$p" --timeout 300 "$build/bench/fence_cost" --csv | peer_append "$rep"
  done
  for peer in "${peers[@]}"; do
    IFS='|' read -r label program launcher <<<"$peer"
    for p in 2 4 8; do
      # shellcheck disable=SC2046,SC2086
      # A peer that fails leaves its rows out (and says so) rather than ending the comparison.
      timeout 300 $launcher -n "$p" $(bind_options "$launcher" "$p") $program --csv \
        --label "$label" | peer_append "$rep" ||
        echo "compare_peers: $label at p = $p failed; its rows are missing" >&2
    done
  done
done

peer_report "$plots"
