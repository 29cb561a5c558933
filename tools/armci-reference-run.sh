#!/bin/sh
# Usage: tools/armci-reference-run.sh [RANKS...]   (default: 1 2 4)
# Builds tests/armci/armci_test.c against ARMCI-MPI itself (Debian's libarmci-mpi-dev, its MPICH
# build libarmci-mpich) and runs each part of it under mpiexec.mpich: the program that checks
# Remora's armci.h, run on ARMCI-MPI, shows where the test assumes something ARMCI does not
# do. Prints one line per part and rank count, and the first lines a failing run printed.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
ranks=${*:-1 2 4}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! mpicc.mpich -I/usr/include "$here/tests/armci/armci_test.c" -o "$work/armci_test" \
    -larmci-mpich -lm 2>"$work/build"; then
  echo "armci_test: does not build against ARMCI-MPI: $(grep -m1 error "$work/build")"
  exit 1
fi
status=0
for part in contiguous strided vector acc rmw mutex nonblocking msg; do
  for n in $ranks; do
    if timeout 120 mpiexec.mpich -n "$n" "$work/armci_test" "$part" >"$work/out" 2>&1; then
      echo "$part np$n: passes on ARMCI-MPI"
    else
      echo "$part np$n: FAILS on ARMCI-MPI:"
      grep -v -e '^=*$' -e '^armci ' -e 'BAD TERMINATION' -e 'CLEANING UP' -e 'IGNORE THE BELOW' \
        -e 'PID [0-9]* RUNNING' -e 'EXIT CODE' "$work/out" | head -3 | sed 's/^/    /'
      status=1
    fi
  done
done
exit $status
