#!/usr/bin/env bash
# Runs paper 001's experiments on Remora and on the MPI libraries of this machine, interleaved,
# and prints one table of medians with the ratio Remora / best peer per row (then the CSV).
#   bench/compare_peers.sh BUILD_DIR [REPS]        (REPS: default 3)
# BUILD_DIR is a Remora build with the benchmarks (a Release build for figures). The MPI
# program (bench/peers/rma_peers_mpi.cpp, MPI only) is compiled here against each MPI found:
# Open MPI with `--mca osc sm` (its fastest one-sided component here) and with its default osc,
# and MPICH. Each repetition runs every program once, in turn, so that drifts of a shared
# machine hit all of them alike. One rank per core for p <= cores (bound to cores); above that
# the jobs are oversubscribed (and say so in the table).
# Output: the table on stdout, then the CSV rows with a `rep` column
# (bench,variant,ranks,bytes,metric,value,rep); progress and the load average on stderr.
set -euo pipefail
build=${1:?usage: bench/compare_peers.sh BUILD_DIR [REPS]}
reps=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$build" && pwd)
remorarun=$build/tools/remorarun/remorarun
for program in "$remorarun" "$build/bench/lock_put_unlock" "$build/bench/fence_cost"; do
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
  peers+=("openmpi_default|$work/rma_peers_openmpi|mpiexec.openmpi")
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
  for p in 2 4 8; do
    "$remorarun" -n "$p" --timeout 300 "$build/bench/fence_cost" --csv | append "$rep"
  done
  for peer in "${peers[@]}"; do
    IFS='|' read -r label program launcher <<<"$peer"
    for p in 2 4 8; do
      # shellcheck disable=SC2046,SC2086
      timeout 300 $launcher -n "$p" $(bind_options "$launcher" "$p") "$program" --csv \
        --label "$label" | append "$rep"
    done
  done
done

python3 - "$csv" "$cores" <<'PY'
import csv, statistics, sys
from collections import defaultdict
path, cores = sys.argv[1], int(sys.argv[2])
peers = ("openmpi_osc_sm", "openmpi_default", "mpich")
values = defaultdict(list)
with open(path) as f:
    for bench, variant, ranks, nbytes, metric, value, rep in csv.reader(f):
        if metric == "us":
            values[(bench, variant, int(ranks), int(nbytes))].append(float(value))
medians = {key: statistics.median(v) for key, v in values.items()}

def peer_of(bench, variant):
    name = variant[len("fence2_"):] if bench == "fence_cost" else variant
    return name if name in peers else None

# Remora's rows of the experiments the peers also ran, against the best peer of each row.
remora_variants = {"lock_put_unlock": ("immediate", "deferred"),
                   "fence_cost": ("fence2_immediate", "fence2_deferred")}
print(f"{'experiment':<16} {'p':>2} {'bytes':>7}  {'remora variant':<17} {'remora us':>10}"
      f"  {'best peer':<16} {'peer us':>10} {'ratio':>6}")
rows = sorted({(b, r, n) for (b, v, r, n) in medians if b in remora_variants})
for bench, ranks, nbytes in rows:
    found = [(medians[(bench, v, ranks, nbytes)], v) for v in remora_variants[bench]
             if (bench, v, ranks, nbytes) in medians]
    peer_rows = [(us, peer_of(b, v)) for (b, v, r, n), us in medians.items()
                 if b == bench and r == ranks and n == nbytes and peer_of(b, v)]
    if not found:
        continue
    best_peer = min(peer_rows) if peer_rows else None
    note = " (oversubscribed)" if ranks > cores else ""
    for us, variant in found:
        peer_us, peer = best_peer if best_peer else (float("nan"), "-")
        ratio = us / peer_us if best_peer else float("nan")
        print(f"{bench:<16} {ranks:>2} {nbytes:>7}  {variant:<17} {us:>10.4f}  {peer:<16}"
              f" {peer_us:>10.4f} {ratio:>6.2f}{note}")
print()
print("bench,variant,ranks,bytes,metric,value,rep")
with open(path) as f:
    sys.stdout.write(f.read())
PY
