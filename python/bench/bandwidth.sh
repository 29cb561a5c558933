#!/usr/bin/env bash
# Builds bandwidth.c against the Remora library that the Python package was built with, then
# runs bandwidth.py (Python) and bandwidth (C) alternately under remorarun -n 2, ROUNDS times
# each, and prints per operation and size the median over the rounds of each run's median
# GB/s, with the date and the load average.
#   python/bench/bandwidth.sh REMORA_VENV LIBREMORA_A [ROUNDS]
# LIBREMORA_A: libremora.a of the package's build directory (pip's -Cbuild-dir, under
# remora/src/), so both sides run the same library build.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
rv="$1"; lib="$2"; rounds="${3:-5}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -I"$here/../../include" -c "$here/bandwidth.c" -o "$tmp/bandwidth.o"
g++ -O2 "$tmp/bandwidth.o" "$lib" -lpthread -o "$tmp/bandwidth"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 0; i < rounds; i++)); do
  timeout 300 "$rv/bin/remorarun" -n 2 "$rv/bin/python" "$here/bandwidth.py" >>"$tmp/out"
  timeout 300 "$rv/bin/remorarun" -n 2 "$tmp/bandwidth" >>"$tmp/out"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
"$rv/bin/python" - "$tmp/out" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    lib, op, nbytes, med = line.strip().split(",")[:4]
    runs[(op, int(nbytes), lib)].append(float(med))
print("operation  bytes      library  median_GBps  (run medians)")
for (op, nbytes, lib), v in sorted(runs.items()):
    print("%-9s  %-9d  %-7s  %7.2f      (%s)" % (op, nbytes, lib, statistics.median(v),
                                               " ".join("%.2f" % x for x in v)))
PY
