#!/usr/bin/env bash
# Measures REMORA_ACC_KERNEL_MIN_BYTES: bench/acc_bandwidth (2 ranks, double SUM, lock_all +
# flush, strategy auto) with each kernel width this CPU has (REMORA_ACC_KERNEL=base|avx2|avx512,
# wide from 0 bytes), sizes 8 B .. 1 MiB in steps of 2, the widths interleaved REPS times
# (default 3). Prints one table of medians (MB/s) and the threshold: the least size from which
# the widest kernel is never slower than the baseline at this size or any larger one.
#   bench/acc_kernel_thresholds.sh BUILD_DIR [REPS]
# Record its output (date, machine, load) in docs/benchmarks.md, "Reduction kernel widths", and
# the threshold as kDefaultWideMinBytes (src/rma/reduce_op.hpp) and REMORA_ACC_KERNEL_MIN_BYTES's
# default (src/core/config_vars.def).
set -euo pipefail
build=${1:?usage: bench/acc_kernel_thresholds.sh BUILD_DIR [REPS]}
reps=${2:-3}
build=$(cd "$build" && pwd)
remorarun=$build/tools/remorarun/remorarun
for program in "$remorarun" "$build/bench/acc_bandwidth"; do
  [ -x "$program" ] || { echo "acc_kernel_thresholds: $program is missing" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "acc_kernel_thresholds: $(date -u '+%Y-%m-%d %H:%M UTC'), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs" >&2
for rep in $(seq 1 "$reps"); do
  echo "acc_kernel_thresholds: repetition $rep of $reps, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  for width in base avx2 avx512; do
    # A width this CPU lacks makes remora_init fail: no rows for it.
    REMORA_ACC_KERNEL=$width REMORA_ACC_KERNEL_MIN_BYTES=0 "$remorarun" -n 2 --timeout 300 \
      "$build/bench/acc_bandwidth" --csv --factor 2 --strategies auto 2>/dev/null |
      grep '^acc_bandwidth,auto,' | sed "s/^/$width,/" >>"$work/rows.csv" || true
  done
done
python3 - "$work/rows.csv" <<'EOF'
import csv, statistics, sys
from collections import defaultdict
values = defaultdict(list)  # (width, bytes) -> MB/s
for row in csv.reader(open(sys.argv[1])):
    width, _, _, _, size, metric, value = row[:7]
    if metric == "MBps":
        values[(width, int(size))].append(float(value))
widths = [w for w in ("base", "avx2", "avx512") if any(k[0] == w for k in values)]
sizes = sorted({k[1] for k in values})
med = {k: statistics.median(v) for k, v in values.items()}
print("| bytes | " + " | ".join(widths) + " |")
print("|---:|" + "---:|" * len(widths))
for size in sizes:
    print(f"| {size} | " + " | ".join(f"{med.get((w, size), 0):.0f}" for w in widths) + " |")
widest = widths[-1]
threshold = None
for size in reversed(sizes):
    if med.get((widest, size), 0) < med.get(("base", size), 0):
        break
    threshold = size
print(f"threshold ({widest} never slower than base from here on): {threshold} bytes")
EOF
