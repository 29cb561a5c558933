#!/usr/bin/env bash
# Installs the Debian 12 packages Remora needs that are missing. Usage: install-deps.sh [demo|test]
#   demo: compiler and build tools; test: also GoogleTest, pkg-config, Python 3 (with venv and
#   headers, for the Python package; pip fetches its build tools), and MPICH and
#   Open MPI for the MPI transport's tests, iproute2 and gdb for the two-host test, and Global
#   Arrays 5.8 (with the two packages it needs but does not declare) for the reference run of
#   the GA tests and the GA benchmarks.
set -euo pipefail
packages=(cmake ninja-build g++ make)
if [ "${1:-test}" = test ]; then
  packages+=(libgtest-dev pkg-config python3 libopenblas-dev)
  packages+=(liblapack-dev)  # the GA layer's solvers and eigensolvers (GA_Solve, GA_Diag...)
  packages+=(python3-venv python3-dev)  # the Python package: a venv, and headers to build it
  packages+=(python3-matplotlib)  # bench/peers/peer_report.py's plots (and their test)
  packages+=(mpich libmpich-dev openmpi-bin libopenmpi-dev)
  packages+=(iproute2)  # ip netns: the two-host MPI test
  packages+=(gdb)  # the two-host test's watchdog prints the stacks of a job that hangs
  packages+=(ccache)  # scripts/run-tests.sh: a later run compiles only what changed
  packages+=(libglobalarrays-dev libarmci-mpi-dev libscalapack-openmpi-dev)
fi
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing: ${missing[*]}"
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
