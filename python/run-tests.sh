#!/usr/bin/env bash
# Builds the Python package `remora` in a fresh virtual environment and runs its pytest suite
# under remorarun at 1, 2 and 4 ranks (each run with a timeout), then the examples at 4 ranks.
# REMORAPY_MPI selects the builds:
#   0 (default)  the package as `pip install ./python` builds it (no MPI);
#   1            that, and a second build with the MPI transport (MPICH) whose suite runs under
#                mpiexec.mpich at 2 ranks, on one node and with every rank its own node;
#   only         the MPI build alone, under remorarun and under mpiexec.mpich (one build: CI).
# Exits non-zero on any failure.
#   python/run-tests.sh [BUILD_DIR]     (default: build-python in the repository root)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${1:-$here/../build-python}"
mkdir -p "$build"
build="$(cd "$build" && pwd)"
timeout_s="${REMORAPY_TEST_TIMEOUT:-300}"
mode="${REMORAPY_MPI:-0}"
fail=0

# install VENV BUILD_SUBDIR [pip -C options...]: the package into a venv of its own. The build
# requirements go into the venv and the build runs there without isolation, in a build
# directory kept in $build: a second run rebuilds only what changed.
install() {
  local venv=$1 subdir=$2
  shift 2
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --upgrade pip >/dev/null 2>&1 || true
  "$venv/bin/pip" install --quiet pytest scikit-build-core nanobind numpy
  "$venv/bin/pip" install --quiet --no-build-isolation -Cbuild-dir="$build/$subdir" "$@" "$here"
}

# under_remorarun VENV: the suite at 1, 2 and 4 ranks, then the examples at 4.
under_remorarun() {
  local venv=$1
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
  # The HF proxy's verification must catch a wrong contribution.
  echo "== example hf_proxy.py --inject-error under remorarun -n 2 (must fail verification)"
  local out
  out=$(timeout "$timeout_s" "$venv/bin/remorarun" -n 2 "$venv/bin/python" \
        "$here/examples/hf_proxy.py" --inject-error --tasks 64 --n 64 --layout block \
        --variant rma_nb 2>&1 || true)
  if ! grep -q "NOT verified" <<<"$out"; then
    echo "FAILED: hf_proxy.py --inject-error did not report 'NOT verified':" >&2
    echo "$out" >&2
    fail=1
  fi
}

# under_mpiexec VENV: the suite under mpiexec.mpich at 2 ranks, on one node
# (REMORA_NODE_SIZE=0) and with every rank its own node (REMORA_NODE_SIZE=1).
under_mpiexec() {
  local venv=$1
  for node_size in 0 1; do
    echo "== pytest under mpiexec.mpich -n 2, REMORA_NODE_SIZE=$node_size"
    if ! REMORA_NODE_SIZE=$node_size timeout "$timeout_s" mpiexec.mpich -n 2 \
        "$venv/bin/python" -m pytest -q -p no:cacheprovider "$here/tests"; then
      echo "FAILED: pytest under mpiexec.mpich, REMORA_NODE_SIZE=$node_size" >&2
      fail=1
    fi
  done
  # mpi4py in the same program: it must use the same MPI (MPICH), so it is built from source
  # against mpicc.mpich (a binary wheel bundles another MPI). Skipped, with the reason, when
  # it cannot be built here.
  if ! "$venv/bin/python" -c "import mpi4py" 2>/dev/null; then
    echo "== building mpi4py against MPICH (MPICC=mpicc.mpich, --no-binary=mpi4py)"
    if ! MPICC=mpicc.mpich "$venv/bin/pip" install --quiet --no-binary=mpi4py mpi4py \
        >"$build/mpi4py-build.log" 2>&1; then
      echo "SKIPPED: mpi4py interoperation: mpi4py could not be built against MPICH" \
           "(last lines of $build/mpi4py-build.log:)"
      tail -5 "$build/mpi4py-build.log"
      return
    fi
  fi
  for mode_n in world:2 comm:3; do
    echo "== mpi4py_interop.py ${mode_n%%:*} under mpiexec.mpich -n ${mode_n##*:}"
    if ! timeout "$timeout_s" mpiexec.mpich -n "${mode_n##*:}" "$venv/bin/python" \
        "$here/tests/mpi4py_interop.py" "${mode_n%%:*}"; then
      echo "FAILED: mpi4py_interop.py ${mode_n%%:*}" >&2
      fail=1
    fi
  done
}

mpi_options=(-Ccmake.define.REMORA_WITH_MPI=ON -Ccmake.define.MPI_C_COMPILER=mpicc.mpich
             -Ccmake.define.MPIEXEC_EXECUTABLE="$(command -v mpiexec.mpich || true)")
cd "$build"
case $mode in
  0 | 1)
    install "$build/venv" pybuild
    under_remorarun "$build/venv"
    if [ "$mode" = 1 ]; then
      install "$build/venv-mpi" pybuild-mpi "${mpi_options[@]}"
      under_mpiexec "$build/venv-mpi"
    fi
    ;;
  only)
    install "$build/venv-mpi" pybuild-mpi "${mpi_options[@]}"
    under_remorarun "$build/venv-mpi"
    under_mpiexec "$build/venv-mpi"
    ;;
  *)
    echo "REMORAPY_MPI='$mode' is not 0, 1 or only" >&2
    exit 2
    ;;
esac
exit $fail
