#!/bin/sh
# Usage: tools/ga-reference-run.sh [RANKS...]   (default: 1 2 4)
#        tools/ga-reference-run.sh --expect [FILE]   (default: tests/ga/passes_on_ga.txt)
# Builds each GA-style test program of tests/ga against Global Arrays itself (Debian's
# libglobalarrays-dev, Open MPI build: apt-get install libglobalarrays-dev libarmci-mpi-dev
# libscalapack-openmpi-dev) and runs it under mpiexec.openmpi: the same programs that check
# Remora's ga.h, run on GA, show where a test assumes something GA does not do. Prints one
# line per program and rank count, and the first lines a failing run printed. With --expect, runs
# only the programs and rank counts FILE lists as passing on GA (CI runs this) and fails if one
# does not.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
expect=
if [ "${1:-}" = --expect ]; then
  expect=${2:-$here/tests/ga/passes_on_ga.txt}
  [ -r "$expect" ] || { echo "ga-reference-run: cannot read the list '$expect'" >&2; exit 2; }
  ranks=
else
  ranks=${*:-1 2 4}
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
status=0
for source in "$here"/tests/ga/*_test.c; do
  name=$(basename "$source" _test.c)
  case $name in error | coll_errors) continue ;; esac  # they end the job on purpose
  if [ -n "$expect" ]; then
    ranks=$(awk -v p="$name" '$1 == p { $1 = ""; print }' "$expect")
    [ -n "$ranks" ] || continue
  fi
  if ! mpicc.openmpi -I/usr/include -I"$here/tests/ga" "$source" -o "$work/$name" \
      -lga-openmpi -lscalapack-openmpi -llapack -lblas -larmci-openmpi -lgfortran -lm \
      2>"$work/$name.build"; then
    echo "$name: does not build against GA: $(grep -m1 error "$work/$name.build")"
    status=1
    continue
  fi
  for n in $ranks; do
    if timeout 120 mpiexec.openmpi -n "$n" "$work/$name" >"$work/out" 2>&1; then
      echo "$name np$n: passes on GA"
    else
      echo "$name np$n: FAILS on GA:"
      grep -v -e '^-*$' -e MPI_ABORT -e NOTE: -e 'You may' -e 'exactly when' -e 'help message' \
        -e orte_base -e errorcode -e ORTE_ERROR "$work/out" | head -3 | sed 's/^/    /'
      status=1
    fi
  done
done
exit $status
