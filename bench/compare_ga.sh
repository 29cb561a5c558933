#!/usr/bin/env bash
# Global Arrays patch latency: Remora's GA-compatible layer against Global Arrays itself, the
# same C program (bench/peers/ga_latency.c) compiled against each, run interleaved REPS times
# on 2 ranks (one per core), then one table of medians (bench/peers/peer_report.py) and the CSV.
#   bench/compare_ga.sh BUILD_DIR [REPS]        (REPS: default 3)
# BUILD_DIR: a Remora build with the MPI transport (MPICH; a Release build for figures); its
# GA layer runs under mpiexec.mpich. Global Arrays: Debian's libglobalarrays-dev (GA 5.8 over
# Open MPI; it also needs libarmci-mpi-dev and libscalapack-openmpi-dev), under
# mpiexec.openmpi with its default one-sided settings.
set -euo pipefail
build=${1:?usage: bench/compare_ga.sh BUILD_DIR [REPS]}
reps=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=$(cd "$build" && pwd)
[ -e "$build/src/ga/libremora_ga.so" ] ||
  { echo "compare_ga: $build has no GA layer (configure with the MPI transport)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

mpicc.mpich -O2 -I"$root/include/ga-compat" -I"$root/include" "$here/peers/ga_latency.c" \
  -o "$work/ga_latency_remora" -L"$build/src/ga" -L"$build/src" -lremora_ga -lremora \
  -Wl,-rpath,"$build/src/ga:$build/src"
have_ga=0
if [ -e /usr/include/ga.h ] && command -v mpicc.openmpi >/dev/null; then
  mpicc.openmpi -O2 -I/usr/include "$here/peers/ga_latency.c" -o "$work/ga_latency_ga" \
    -lga-openmpi -lscalapack-openmpi -llapack -lblas -larmci-openmpi -lgfortran -lm
  have_ga=1
else
  echo "compare_ga: Global Arrays not found (libglobalarrays-dev, mpicc.openmpi): Remora only" >&2
fi

csv=$work/rows.csv
: >"$csv"
append() { grep ',' | sed "s/\$/,$1/" >>"$csv" || true; }
for rep in $(seq 1 "$reps"); do
  echo "compare_ga: repetition $rep of $reps, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  timeout 300 mpiexec.mpich -n 2 -bind-to core "$work/ga_latency_remora" --csv --label remora |
    append "$rep" || echo "compare_ga: the Remora run failed" >&2
  if [ $have_ga = 1 ]; then
    timeout 300 mpiexec.openmpi -n 2 --bind-to core "$work/ga_latency_ga" --csv \
      --label ga58_openmpi | append "$rep" || echo "compare_ga: the GA run failed" >&2
  fi
done
python3 "$here/peers/peer_report.py" "$csv" --cores "$(nproc)"
echo
echo "bench,variant,ranks,bytes,metric,value,rep"
cat "$csv"
