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
source "$here/peers/peer_lib.sh"
peer_init compare_ga

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

for rep in $(seq 1 "$reps"); do
  peer_repetition "$rep" "$reps"
  timeout 300 mpiexec.mpich -n 2 -bind-to core "$work/ga_latency_remora" --csv --label remora |
    peer_append "$rep" || echo "compare_ga: the Remora run failed" >&2
  if [ $have_ga = 1 ]; then
    timeout 300 mpiexec.openmpi -n 2 --bind-to core "$work/ga_latency_ga" --csv \
      --label ga58_openmpi | peer_append "$rep" || echo "compare_ga: the GA run failed" >&2
  fi
done
peer_report
