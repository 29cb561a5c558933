#!/usr/bin/env bash
# Is `acc_strategy=auto` within 10% of the best fixed strategy at every size of
# bench/acc_bandwidth (issue 14)? Runs are bimodal (a whole run lands in a fast or a slow mode at
# some sizes), so one run cannot say: every strategy runs in its own process (no window-order
# effect), the strategies interleaved and their order rotated, REPS times (default 5), and the
# table compares medians over the repetitions, size by size:
#   p = 2: the uncontended rows (batch: rank 0 onto rank 1) and the contended ones (timed: both
#          ranks onto rank 0); p = 4 (oversubscribed on 2 CPUs): the contended timed rows.
# Prints, per (ranks, rows, bytes): each strategy's median MB/s, the best fixed one, and
# best / auto (the factor by which auto is slower; > 1.10 is marked FAIL), then the CSV.
#   bench/acc_auto_check.sh BUILD_DIR [REPS]
# Environment: RANKS (default "2 4"), FIXED (default caller,native,owner), WINDOWS (timed
# windows per size, default 5), BATCHES (batch method, default 5), SIZES (bytes, a comma list;
# default 8 B .. 1 MiB in steps of 4), PEER=0 (no Open MPI osc sm rows: by default they run in the
# same repetitions, for the contended rows' ratio to osc sm), PIECES ("16384 4096": `auto` again
# with each REMORA_ACC_PIECE_BYTES, rows auto@N, compared with auto's default; the measurement of
# that threshold), BASE_LIB (a directory holding another build's libremora.so.0, e.g. main's
# build-rel/src: BASE_STRATEGIES, default auto, again with that library under the same bench
# binary, rows <strategy>@base; before/after in one interleaved run). Record the output (date,
# machine, load) in docs/benchmarks-log.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/peers/peer_lib.sh"
peer_init acc_auto_check
peer_programs "${1:?usage: bench/acc_auto_check.sh BUILD_DIR [REPS]}" bench/acc_bandwidth
reps=${2:-5}
fixed=${FIXED:-caller,native,owner}
peer=${PEER:-1}
if [ "$peer" = 1 ]; then
  for tool in mpicxx.openmpi mpiexec.openmpi; do
    command -v "$tool" >/dev/null || { echo "acc_auto_check: $tool missing: PEER=0" >&2; peer=0; }
  done
fi
[ "$peer" = 1 ] && mpicxx.openmpi -O2 -std=c++20 -DOMPI_SKIP_MPICXX=1 \
  "$here/peers/rma_peers_mpi.cpp" -o "$work/rma_peers_openmpi"

# One run: acc_bandwidth with one strategy (variants relabelled by $2, e.g. "auto@4096"; the
# _progress_<mode> suffix acc_bandwidth adds under REMORA_PROGRESS=thread|ghost is dropped, so
# the table compares like with like and main's rows stay apart from this tree's).
run_remora() {  # p strategy label [env...]
  local p=$1 strategy=$2 label=$3 method=timed
  shift 3
  [ "$p" -eq 2 ] && method=both
  env "$@" "$remorarun" -n "$p" --timeout 600 "$build/bench/acc_bandwidth" --csv \
    --method "$method" --strategies "$strategy" --windows "${WINDOWS:-5}" \
    --batches "${BATCHES:-5}" ${SIZES:+--sizes "$SIZES"} |
    sed "s/^acc_bandwidth,\(contended_timed_\)\{0,1\}$strategy\(_progress_[a-z]*\)\{0,1\},/acc_bandwidth,\1$label,/"
}

IFS=, read -r -a fixed_list <<<"$fixed"
variants=(auto "${fixed_list[@]}")
for piece in ${PIECES:-}; do variants+=("auto@$piece"); done
if [ -n "${BASE_LIB:-}" ]; then
  IFS=, read -r -a base_list <<<"${BASE_STRATEGIES:-auto}"
  for s in "${base_list[@]}"; do variants+=("$s@base"); done
fi
for rep in $(seq 1 "$reps"); do
  peer_repetition "$rep" "$reps"
  for p in ${RANKS:-2 4}; do
    # Rotate the order each repetition: no strategy always runs first or after the peer.
    n=${#variants[@]}
    for k in $(seq 0 $((n - 1))); do
      v=${variants[$(((k + rep) % n))]}
      if [[ "$v" == *@base ]]; then
        run_remora "$p" "${v%@base}" "$v" "LD_LIBRARY_PATH=$BASE_LIB" | peer_append "$rep"
      elif [[ "$v" == auto@* ]]; then
        run_remora "$p" auto "$v" "REMORA_ACC_PIECE_BYTES=${v#auto@}" | peer_append "$rep"
      else
        run_remora "$p" "$v" "$v" | peer_append "$rep"
      fi
    done
    if [ "$peer" = 1 ]; then
      timeout 600 mpiexec.openmpi --mca osc sm -n "$p" "$work/rma_peers_openmpi" --csv \
        --method timed --windows "${WINDOWS:-5}" --only acc_bandwidth --label osc_sm |
        peer_append "$rep"
    fi
  done
done

python3 - "$csv" "$fixed" <<'EOF'
import csv, statistics, sys
from collections import defaultdict
rows, fixed = sys.argv[1], sys.argv[2].split(",")
values = defaultdict(list)  # (ranks, kind, bytes, strategy) -> MB/s per repetition
for row in csv.reader(open(rows)):
    if len(row) < 7 or row[0] != "acc_bandwidth" or row[4] != "MBps":
        continue
    variant, ranks, size = row[1], int(row[2]), int(row[3])
    kind, strategy = ("contended", variant[len("contended_timed_"):]) \
        if variant.startswith("contended_timed_") else ("uncontended", variant)
    if strategy.startswith("contended_") or strategy == "put":
        continue  # batch rows of 3+ ranks (not run here); put, acc_bandwidth's reference
    values[(ranks, kind, size, strategy)].append(float(row[5]))
med = {k: statistics.median(v) for k, v in values.items()}
strategies = sorted({k[3] for k in med}, key=lambda s: (s != "auto", s.startswith("auto@"), s))
groups = sorted({k[:3] for k in med}, key=lambda g: (g[0], g[1] != "uncontended", g[2]))
print("Medians over repetitions, MB/s; best fixed / auto > 1.10 is FAIL")
peer = "osc_sm" in strategies
print("| ranks | rows | bytes | " + " | ".join(strategies) + " | best fixed | best / auto |"
      + (" auto / osc_sm |" if peer else ""))
print("|---:|---|---:|" + "---:|" * len(strategies) + "---|---:|" + ("---:|" if peer else ""))
failures = 0
for group in groups:
    cells = [med.get(group + (s,)) for s in strategies]
    auto = med.get(group + ("auto",))
    best = max(((med[group + (s,)], s) for s in fixed if group + (s,) in med), default=None)
    ratio = best[0] / auto if best and auto else float("nan")
    mark = " FAIL" if ratio > 1.10 else ""
    failures += ratio > 1.10
    print(f"| {group[0]} | {group[1]} | {group[2]} | "
          + " | ".join("" if c is None else f"{c:.0f}" for c in cells)
          + f" | {best[1] if best else ''} | {ratio:.2f}{mark} |"
          + (f" {auto / med[group + ('osc_sm',)]:.2f} |" if peer and auto and group + ("osc_sm",) in med
             else (" |" if peer else "")))
print(f"sizes where auto is more than 10% slower than the best fixed strategy: {failures}")
EOF
echo
echo "bench,variant,ranks,bytes,metric,value,rep"
cat "$csv"
