#!/usr/bin/env bash
# Runs put_get_latency.py for remora (under remorarun) and for mpi4py (under Open MPI with
# --mca osc sm) alternately, ROUNDS times each, and prints the median over the rounds of each
# run's median per-call time, with the date and the load average.
#   python/bench/run.sh REMORA_VENV MPI4PY_VENV [ROUNDS]
# REMORA_VENV has the remora package (and its remorarun); MPI4PY_VENV has mpi4py and numpy.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
rv="$1"; mv="$2"; rounds="${3:-5}"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 0; i < rounds; i++)); do
  timeout 300 "$rv/bin/remorarun" -n 2 "$rv/bin/python" "$here/put_get_latency.py" remora >>"$out"
  timeout 300 mpiexec.openmpi --allow-run-as-root --oversubscribe -n 2 --mca osc sm \
    "$mv/bin/python" "$here/put_get_latency.py" mpi4py >>"$out"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
"$rv/bin/python" - "$out" <<'PY'
import sys, collections, statistics
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    lib, op, med, mn, it, rep = line.strip().split(",")
    runs[(op, lib)].append(float(med))
print("operation  library  median_us_per_call  (run medians)")
for (op, lib), v in sorted(runs.items()):
    print("%-9s  %-7s  %.3f  (%s)" % (op, lib, statistics.median(v), " ".join("%.3f" % x for x in v)))
PY
