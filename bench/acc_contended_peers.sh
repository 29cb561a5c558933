#!/usr/bin/env bash
# Contended accumulate by the fixed-duration method (bench/common/timed_windows.hpp): every rank
# accumulates doubles (SUM) onto the same bytes of rank 0 in lock_all until a shared deadline,
# 8 B .. 1 MiB. Remora's bench/acc_bandwidth --method timed and Open MPI's osc sm running
# bench/peers/rma_peers_mpi.cpp --method timed, interleaved, REPS repetitions (default 3); prints
# the table of medians with Remora / osc sm (bench/peers/peer_report.py), then the CSV.
#   bench/acc_contended_peers.sh BUILD_DIR [REPS] [PLOT_DIR]
# Environment: RANKS (default "4 2"; above the core count the jobs are oversubscribed, and
# the table says so), STRATEGIES (default auto,native,caller), WINDOWS (per size, default 15),
# WINDOW_MS (default 20). p <= cores is bound one rank per core (remorarun's default).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/peers/peer_lib.sh"
peer_init acc_contended_peers
peer_programs "${1:?usage: bench/acc_contended_peers.sh BUILD_DIR [REPS] [PLOT_DIR]}" \
  bench/acc_bandwidth
reps=${2:-3}
plots=${3:-}
for tool in mpicxx.openmpi mpiexec.openmpi; do
  command -v "$tool" >/dev/null || { echo "acc_contended_peers: $tool (Open MPI) is missing" >&2; exit 1; }
done
mpicxx.openmpi -O2 -std=c++20 -DOMPI_SKIP_MPICXX=1 "$here/peers/rma_peers_mpi.cpp" \
  -o "$work/rma_peers_openmpi"

cores=$(nproc)
timed=(--csv --method timed --windows "${WINDOWS:-15}" --window-ms "${WINDOW_MS:-20}")
for rep in $(seq 1 "$reps"); do
  peer_repetition "$rep" "$reps"
  for p in ${RANKS:-4 2}; do
    bind=()
    [ "$p" -le "$cores" ] && bind=(--bind-to core)
    "$remorarun" -n "$p" --timeout 600 "$build/bench/acc_bandwidth" \
      "${timed[@]}" --strategies "${STRATEGIES:-auto,native,caller}" | peer_append "$rep"
    timeout 600 mpiexec.openmpi --mca osc sm -n "$p" ${bind[@]+"${bind[@]}"} \
      "$work/rma_peers_openmpi" "${timed[@]}" --only acc_bandwidth --label openmpi_osc_sm |
      peer_append "$rep"
  done
done

peer_report "$plots"
