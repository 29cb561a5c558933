#!/bin/sh
# Remora's collectives across simulated nodes (REMORA_NODE_SIZE=2 under mpiexec.mpich: 2 nodes
# of 2 ranks at p = 4) beside MPICH's and Open MPI's in one interleaved run: coll_floor in
# hierarchical and messages modes, coll_floor_mpi under each MPI (which sees one node and uses
# its shared memory), and each MPI kept off its shared memory (MPICH MPIR_CVAR_NOLOCAL=1, Open
# MPI --mca btl self,tcp) as a peer on the same footing as the simulated nodes. Barrier,
# allreduce, reduce and bcast only (COLL_FLOOR_ONLY).
# MPICH busy-polls: oversubscribed (p above the cores) its runs can take minutes and hit the
# 300 s cap; NO_MPICH=1 leaves them out.
# Usage: bench/coll_hierarchical_peers.sh BUILD_DIR [REPS] [P] > raw.txt; prints raw lines (p,
# repetition, label operation bytes median_us min_us), then the medians over repetitions.
set -eu
build=$1
reps=${2:-3}
p=${3:-4}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export COLL_FLOOR_ONLY=${COLL_FLOOR_ONLY:-barrier_x2,allreduce,reduce,bcast}
ompi=$build/coll_floor_ompi
[ -x "$ompi" ] || mpicxx.openmpi -O2 -std=c++17 -I"$(dirname "$0")" \
  "$(dirname "$0")/peers/coll_floor_mpi.cpp" -o "$ompi"
raw=$(mktemp)
run() { timeout 300 "$@" | grep -v '[=]' | sed "s/^/$p $rep /" >> "$raw" || true; }
for rep in $(seq 1 "$reps"); do
  REMORA_NODE_SIZE=2 run mpiexec.mpich -n "$p" "$build/bench/coll_floor" hierarchical
  run mpiexec.openmpi -n "$p" "$ompi" openmpi
  REMORA_NODE_SIZE=2 run mpiexec.mpich -n "$p" "$build/bench/coll_floor" messages
  [ "${NO_MPICH:-0}" = 1 ] || run mpiexec.mpich -n "$p" "$build/bench/coll_floor_mpi" mpich
  run mpiexec.openmpi --mca btl self,tcp -n "$p" "$ompi" openmpi_tcp
  [ "${NO_MPICH:-0}" = 1 ] || MPIR_CVAR_NOLOCAL=1 run mpiexec.mpich -n "$p" "$build/bench/coll_floor_mpi" mpich_nolocal
done
cat "$raw"
echo "# medians over $reps repetitions: p label operation bytes us"
awk '{ key = $1 " " $3 " " $4 " " $5; v[key] = v[key] " " $6 }
     END { for (k in v) { n = split(v[k], a, " "); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
             if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
           print k, a[int((n + 1) / 2)] } }' "$raw" | sort -k3,3 -k4,4n -k2,2
rm -f "$raw"
