#!/bin/sh
# Remora's collectives (shm, message-based) beside Open MPI's and MPICH's in one interleaved
# run: coll_floor under remorarun, coll_floor_mpi under each MPI, REPS repetitions, p = 2 and 4
# (RANKS="2" for p = 2 only). PEERS (default "openmpi mpich") names the MPIs to run: above
# the core count MPICH's ranks busy-poll and one of its repetitions takes minutes.
# Usage: bench/coll_floor_peers.sh BUILD_DIR [REPS] > raw.txt; prints raw lines (label operation
# bytes median_us min_us, prefixed by p and repetition), then the medians over repetitions.
set -eu
build=$1
reps=${2:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
ompi=$build/coll_floor_ompi
# Rebuilt when its sources changed (an older binary lacks the operations added since).
source_dir=$(dirname "$0")/peers
if [ ! -x "$ompi" ] || [ "$source_dir/coll_floor_mpi.cpp" -nt "$ompi" ] ||
  [ "$source_dir/coll_floor_body.hpp" -nt "$ompi" ]; then
  mpicxx.openmpi -O2 -std=c++17 -I"$(dirname "$0")" "$source_dir/coll_floor_mpi.cpp" -o "$ompi"
fi
raw=$(mktemp)
for rep in $(seq 1 "$reps"); do
  for p in ${RANKS:-2 4}; do
    "$build/tools/remorarun/remorarun" -n "$p" "$build/bench/coll_floor" shm | sed "s/^/$p $rep /" >> "$raw"
    case " ${PEERS:-openmpi mpich} " in *" openmpi "*)
      mpiexec.openmpi -n "$p" "$ompi" openmpi | sed "s/^/$p $rep /" >> "$raw" ;;
    esac
    "$build/tools/remorarun/remorarun" -n "$p" "$build/bench/coll_floor" messages | sed "s/^/$p $rep /" >> "$raw"
    case " ${PEERS:-openmpi mpich} " in *" mpich "*)
      mpiexec.mpich -n "$p" "$build/bench/coll_floor_mpi" mpich | sed "s/^/$p $rep /" >> "$raw" ;;
    esac
  done
done
cat "$raw"
echo "# medians over $reps repetitions: p label operation bytes us"
awk '{ key = $1 " " $3 " " $4 " " $5; v[key] = v[key] " " $6 }
     END { for (k in v) { n = split(v[k], a, " "); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
             if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
           print k, a[int((n + 1) / 2)] } }' "$raw" | sort
rm -f "$raw"
