#!/bin/sh
# Usage: tools/armci-bench.sh BUILD_DIR [REPEATS]   (default 5)
# Builds tools/armci-bench.c against Remora's libremora_armci in BUILD_DIR (a Release build with
# MPI, MPICH) and against ARMCI-MPI (Debian's libarmci-mpi-dev: its MPICH and Open MPI builds),
# then runs them at 2 ranks on this node, interleaved, REPEATS times (Remora also with
# REMORA_NODE_SIZE=1: each rank its own node, so the data moves through MPI), and prints each
# measure's median per implementation, with the date and the load average.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
repeats=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mpicc.mpich -O2 -I"$here/include/armci-compat" "$here/tools/armci-bench.c" -o "$work/remora" \
  -L"$build/src/armci" -L"$build/src" -lremora_armci -lremora \
  -Wl,-rpath,"$build/src/armci" -Wl,-rpath,"$build/src"
mpicc.mpich -O2 -I/usr/include "$here/tools/armci-bench.c" -o "$work/armci_mpich" -larmci-mpich
mpicc.openmpi -O2 -I/usr/include "$here/tools/armci-bench.c" -o "$work/armci_ompi" -larmci-openmpi
date -u
uptime
for r in $(seq "$repeats"); do
  mpiexec.mpich -n 2 "$work/remora" | sed 's/^/remora_armci(mpich) /' >>"$work/results"
  REMORA_NODE_SIZE=1 mpiexec.mpich -n 2 "$work/remora" |
    sed 's/^/remora_armci(mpich,node_size=1) /' >>"$work/results"
  mpiexec.mpich -n 2 "$work/armci_mpich" | sed 's/^/armci-mpi(mpich) /' >>"$work/results"
  mpiexec.openmpi -n 2 "$work/armci_ompi" | sed 's/^/armci-mpi(openmpi) /' >>"$work/results"
done
uptime
# Median per implementation and measure.
sort -k1,1 -k2,2 -k3,3g "$work/results" | awk '
  { key = $1 " " $2; v[key, ++n[key]] = $3 }
  END { for (k in n) { c = n[k]; m = (c % 2) ? v[k, (c + 1) / 2] : (v[k, c / 2] + v[k, c / 2 + 1]) / 2;
        printf "%-32s %-22s median %10.3f  (n=%d)\n", substr(k, 1, index(k, " ") - 1),
               substr(k, index(k, " ") + 1), m, c } }' | sort -k2,2 -k1,1
