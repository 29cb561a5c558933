#!/bin/sh
# Usage: tools/armci-reference-run.sh [RANKS...]   (default: 1 2 4)
# Builds tests/armci/armci_test.c, armci_group_test.c and armci_profiling_test.c against
# ARMCI-MPI itself (Debian's libarmci-mpi-dev: its Open MPI build libarmci-openmpi and its MPICH
# build libarmci-mpich) and runs each part of them under that MPI's mpiexec: the programs that
# check Remora's armci.h, run on ARMCI-MPI, show where a test assumes something ARMCI does not
# do. Prints one line per MPI, program part and rank count, and the first lines a failing run
# printed.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
ranks=${*:-1 2 4}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
status=0
# program: its parts ("all": run without arguments)
programs="armci_test:contiguous,strided,vector,acc,rmw,mutex,nonblocking,msg
armci_group_test:ranks,memory,collectives,default,extras
armci_profiling_test:all"
for mpi in openmpi mpich; do
 for entry in $programs; do
  program=${entry%%:*}
  parts=$(echo "${entry#*:}" | tr ',' ' ')
  if ! "mpicc.$mpi" -I/usr/include "$here/tests/armci/$program.c" -o "$work/$program" \
      "-larmci-$mpi" -lm 2>"$work/build"; then
    echo "$program: does not build against ARMCI-MPI ($mpi): $(grep -m1 error "$work/build")"
    status=1
    continue
  fi
  for part in $parts; do
    arg=$part
    [ "$part" = all ] && arg=
    for n in $ranks; do
      if timeout 120 "mpiexec.$mpi" -n "$n" "$work/$program" $arg >"$work/out" 2>&1; then
        echo "$program $part np$n: passes on ARMCI-MPI ($mpi)"
      else
        echo "$program $part np$n: FAILS on ARMCI-MPI ($mpi):"
        grep -v -e '^=*$' -e '^armci ' -e 'BAD TERMINATION' -e 'CLEANING UP' \
          -e 'IGNORE THE BELOW' -e 'PID [0-9]* RUNNING' -e 'EXIT CODE' -e '^-*$' "$work/out" |
          head -3 | sed 's/^/    /'
        status=1
      fi
    done
  done
 done
done
exit $status
