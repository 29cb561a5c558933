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
# Experiments: lock_put_unlock and rma_latency (p = 2), acc_bandwidth (p = 2, and 4 contended),
# fence_cost (p = 2, 4, 8).
# Output: the table on stdout, then the CSV rows with a `rep` column
# (bench,variant,ranks,bytes,metric,value,rep); progress and the load average on stderr.
# Plots need matplotlib (Debian python3-matplotlib).
set -euo pipefail
build=${1:?usage: bench/compare_peers.sh BUILD_DIR [REPS] [PLOT_DIR]}
reps=${2:-3}
plots=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$build" && pwd)
remorarun=$build/tools/remorarun/remorarun
for program in "$remorarun" "$build/bench/lock_put_unlock" "$build/bench/fence_cost" \
  "$build/bench/rma_latency" "$build/bench/acc_bandwidth"; do
  [ -x "$program" ] || { echo "compare_peers: $program is missing (build the benchmarks)" >&2; exit 1; }
done
cores=$(nproc)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

# The peers: label, compiler, launcher with its options.
peers=()
compile_peer() {  # label compiler
  local out=$work/rma_peers_$1
  "$2" -O2 -std=c++20 -DOMPI_SKIP_MPICXX=1 -DMPICH_SKIP_MPICXX=1 \
    "$here/peers/rma_peers_mpi.cpp" -o "$out"
}
if command -v mpicxx.openmpi >/dev/null && command -v mpiexec.openmpi >/dev/null; then
  compile_peer openmpi mpicxx.openmpi
  peers+=("openmpi_osc_sm|$work/rma_peers_openmpi|mpiexec.openmpi --mca osc sm")
  peers+=("openmpi_default|$work/rma_peers_openmpi --skip-cas|mpiexec.openmpi")
else
  echo "compare_peers: Open MPI not found (mpicxx.openmpi, mpiexec.openmpi): no Open MPI rows" >&2
fi
if command -v mpicxx.mpich >/dev/null && command -v mpiexec.mpich >/dev/null; then
  compile_peer mpich mpicxx.mpich
  peers+=("mpich|$work/rma_peers_mpich|mpiexec.mpich")
else
  echo "compare_peers: MPICH not found (mpicxx.mpich, mpiexec.mpich): no MPICH rows" >&2
fi

bind_options() {  # launcher ranks: core binding for one rank per core, none when oversubscribed
  if [ "$2" -gt "$cores" ]; then return; fi
  case $1 in
    mpiexec.openmpi*) echo "--bind-to core" ;;
    mpiexec.mpich*) echo "-bind-to core" ;;
  esac
}

csv=$work/rows.csv
: >"$csv"
append() {  # rep: CSV on stdin without its header, each row tagged with rep
  grep -v '^bench,' | grep ',' | sed "s/\$/,$1/" >>"$csv" || true
}
for rep in $(seq 1 "$reps"); do
  echo "compare_peers: repetition $rep of $reps, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  "$remorarun" -n 2 --timeout 300 "$build/bench/lock_put_unlock" --csv | append "$rep"
  "$remorarun" -n 2 --timeout 300 "$build/bench/rma_latency" --csv | append "$rep"
  for p in 2 4; do
    "$remorarun" -n "$p" --timeout 600 "$build/bench/acc_bandwidth" --csv | append "$rep"
  done
  for p in 2 4 8; do
    "$remorarun" -n "$p" --timeout 300 "$build/bench/fence_cost" --csv | append "$rep"
  done
  for peer in "${peers[@]}"; do
    IFS='|' read -r label program launcher <<<"$peer"
    for p in 2 4 8; do
      # shellcheck disable=SC2046,SC2086
      # A peer that fails leaves its rows out (and says so) rather than ending the comparison.
      timeout 300 $launcher -n "$p" $(bind_options "$launcher" "$p") $program --csv \
        --label "$label" | append "$rep" ||
        echo "compare_peers: $label at p = $p failed; its rows are missing" >&2
    done
  done
done

# The table needs only Python 3; the plots need matplotlib, which Debian's own interpreter has.
python=python3
if [ -n "$plots" ]; then
  for candidate in /usr/bin/python3 python3; do
    if "$candidate" -c "import matplotlib" 2>/dev/null; then python=$candidate; break; fi
  done
fi
"$python" "$here/peers/peer_report.py" "$csv" --cores "$cores" ${plots:+--plots "$plots"}
echo
echo "bench,variant,ranks,bytes,metric,value,rep"
cat "$csv"
