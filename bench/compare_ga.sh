#!/usr/bin/env bash
# Global Arrays patch latency and the HF proxy: Remora's GA-compatible layer against Global
# Arrays itself, the same C programs (bench/peers/ga_latency.c; apps/hf_proxy's hf_proxy_ga,
# block layout, rma_nb and rma_blocking, HF_TASKS tasks per phase, default 16384, the fastest of
# 3 runs) compiled against each, run interleaved REPS times on 2 ranks (one per core), then one
# table of medians (bench/peers/peer_report.py) and the CSV.
#   bench/compare_ga.sh BUILD_DIR [REPS]        (REPS: default 3)
# BUILD_DIR: a Remora build with the MPI transport (MPICH; a Release build for figures); its
# GA layer runs under mpiexec.mpich. Global Arrays: Debian's libglobalarrays-dev (GA 5.8 over
# Open MPI; it also needs libarmci-mpi-dev and libscalapack-openmpi-dev), under
# mpiexec.openmpi with its default one-sided settings.
set -euo pipefail
build=${1:?usage: bench/compare_ga.sh BUILD_DIR [REPS]}
reps=${2:-3}
tasks=${HF_TASKS:-16384}
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
hf_sources=("$root"/apps/hf_proxy/{hf_main_ga,hf_array_ga,hf_proxy,hf_model,hf_driver}.c)
have_ga=0
if [ -e /usr/include/ga.h ] && command -v mpicc.openmpi >/dev/null; then
  mpicc.openmpi -O2 -I/usr/include "$here/peers/ga_latency.c" -o "$work/ga_latency_ga" \
    -lga-openmpi -lscalapack-openmpi -llapack -lblas -larmci-openmpi -lgfortran -lm
  mpicc.openmpi -O2 -I/usr/include "${hf_sources[@]}" -o "$work/hf_proxy_ga_ga" \
    -lga-openmpi -lscalapack-openmpi -llapack -lblas -larmci-openmpi -lgfortran -lm
  have_ga=1
else
  echo "compare_ga: Global Arrays not found (libglobalarrays-dev, mpicc.openmpi): Remora only" >&2
fi

# hf_proxy_ga's table rows ("block rma_nb manual 862987.1 ...") as CSV rows for WHO.
hf_rows() {
  awk -v who="$1" -v tasks="$tasks" '$1 ~ /^(block|element_cyclic)$/ && $4 ~ /^[0-9.]+$/ {
    printf "hf_proxy_ga,%s_%s/%s,2,%d,tasks_per_s,%s\n", $1, $2, who, tasks, $4 }'
}
hf_options=(--tasks "$tasks" --layout block --repetitions 3)

for rep in $(seq 1 "$reps"); do
  peer_repetition "$rep" "$reps"
  timeout 300 mpiexec.mpich -n 2 -bind-to core "$work/ga_latency_remora" --csv --label remora |
    peer_append "$rep" || echo "compare_ga: the Remora run failed" >&2
  for progress in manual thread; do
    timeout 300 mpiexec.mpich -n 2 -bind-to core "$build/apps/hf_proxy/hf_proxy_ga" \
      "${hf_options[@]}" --progress $progress | hf_rows "remora_$progress" | peer_append "$rep" ||
      echo "compare_ga: the Remora HF proxy ($progress) failed" >&2
  done
  if [ $have_ga = 1 ]; then
    timeout 300 mpiexec.openmpi -n 2 --bind-to core "$work/ga_latency_ga" --csv \
      --label ga58_openmpi | peer_append "$rep" || echo "compare_ga: the GA run failed" >&2
    # GA has no progress choice; manual initialises MPI without threads, as GA programs do.
    timeout 300 mpiexec.openmpi -n 2 --bind-to core "$work/hf_proxy_ga_ga" "${hf_options[@]}" \
      --progress manual | hf_rows ga58_openmpi | peer_append "$rep" ||
      echo "compare_ga: the GA HF proxy failed" >&2
  fi
done
peer_report
