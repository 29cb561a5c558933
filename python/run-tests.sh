#!/usr/bin/env bash
# Builds the Python package `remora` in a fresh virtual environment and runs its pytest suite
# under remorarun at 1, 2 and 4 ranks (each run with a timeout), then the examples at 4 ranks;
# with REMORAPY_MPI=1 also a build with the MPI transport under mpiexec (below).
# Exits non-zero on any failure.
#   python/run-tests.sh [BUILD_DIR]     (default: build-python in the repository root)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${1:-$here/../build-python}"
mkdir -p "$build"
build="$(cd "$build" && pwd)"
venv="$build/venv"
timeout_s="${REMORAPY_TEST_TIMEOUT:-300}"

if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --upgrade pip >/dev/null 2>&1 || true
# The build requirements go into the venv and the build runs there without isolation, in a
# build directory kept in $build: a second run rebuilds only what changed.
"$venv/bin/pip" install --quiet pytest scikit-build-core nanobind numpy
"$venv/bin/pip" install --quiet --no-build-isolation -Cbuild-dir="$build/pybuild" "$here"

fail=0
cd "$build"
for n in 1 2 4; do
  echo "== pytest under remorarun -n $n"
  if ! timeout "$timeout_s" "$venv/bin/remorarun" --tag-output -n "$n" \
      "$venv/bin/python" -m pytest -q -p no:cacheprovider "$here/tests"; then
    echo "FAILED: pytest at $n ranks" >&2
    fail=1
  fi
done
for ex in "$here"/examples/*.py; do
  echo "== example $(basename "$ex") under remorarun -n 4"
  if ! timeout "$timeout_s" "$venv/bin/remorarun" --tag-output -n 4 "$venv/bin/python" "$ex"; then
    echo "FAILED: example $(basename "$ex")" >&2
    fail=1
  fi
done
# With REMORAPY_MPI=1: a second build with the MPI transport (MPICH), and the suite under
# mpiexec.mpich at 2 ranks, on one node and with every rank its own node (REMORA_NODE_SIZE=1).
if [ "${REMORAPY_MPI:-0}" = 1 ]; then
  mvenv="$build/venv-mpi"
  [ -x "$mvenv/bin/python" ] || python3 -m venv "$mvenv"
  "$mvenv/bin/pip" install --quiet pytest scikit-build-core nanobind numpy
  "$mvenv/bin/pip" install --quiet --no-build-isolation -Cbuild-dir="$build/pybuild-mpi" \
    -Ccmake.define.REMORA_WITH_MPI=ON -Ccmake.define.MPI_C_COMPILER=mpicc.mpich \
    -Ccmake.define.MPIEXEC_EXECUTABLE="$(command -v mpiexec.mpich)" "$here"
  for node_size in 0 1; do
    echo "== pytest under mpiexec.mpich -n 2, REMORA_NODE_SIZE=$node_size"
    if ! REMORA_NODE_SIZE=$node_size timeout "$timeout_s" mpiexec.mpich -n 2 \
        "$mvenv/bin/python" -m pytest -q -p no:cacheprovider "$here/tests"; then
      echo "FAILED: pytest under mpiexec.mpich, REMORA_NODE_SIZE=$node_size" >&2
      fail=1
    fi
  done
fi
exit $fail
