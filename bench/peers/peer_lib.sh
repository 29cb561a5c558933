# What the scripts that run Remora beside the MPI libraries share (bench/compare_peers.sh,
# bench/reduce_skew_peers.sh, bench/compare_ga.sh). Sourced, after `set -euo pipefail`:
#   peer_init NAME           $work (a directory removed at exit) and $csv (empty), the Open MPI
#                            variables for running as root and oversubscribed; NAME prefixes
#                            every message
#   peer_programs BUILD PROGRAM...  $build (absolute) and $remorarun; exits, naming it, when
#                            remorarun or a PROGRAM (a path under BUILD) is not executable
#   peer_mpis CALLBACK       CALLBACK LABEL COMPILER LAUNCHER for Open MPI, then MPICH, each
#                            when its C++ compiler and launcher are installed (says so if not)
#   peer_repetition REP REPS the repetition's line with the load average, on stderr
#   ... | peer_append REP    CSV rows (without their header) into $csv, tagged with REP
#   peer_report [PLOT_DIR]   the table of medians (bench/peers/peer_report.py), then the CSV
peer_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

peer_init() {
  peer_name=$1
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  csv=$work/rows.csv
  : >"$csv"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_rmaps_base_oversubscribe=1
}

peer_programs() {
  local program
  build=$(cd "$1" && pwd)
  shift
  remorarun=$build/tools/remorarun/remorarun
  for program in "$remorarun" "${@/#/$build/}"; do
    [ -x "$program" ] || { echo "$peer_name: $program is missing (build the benchmarks)" >&2; exit 1; }
  done
}

peer_mpis() {
  local callback=$1 label name
  for label in openmpi mpich; do
    if command -v "mpicxx.$label" >/dev/null && command -v "mpiexec.$label" >/dev/null; then
      "$callback" "$label" "mpicxx.$label" "mpiexec.$label"
    else
      [ "$label" = openmpi ] && name="Open MPI" || name=MPICH
      echo "$peer_name: $name not found (mpicxx.$label, mpiexec.$label): no $name rows" >&2
    fi
  done
}

peer_repetition() {
  echo "$peer_name: repetition $1 of $2, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
}

peer_append() {
  grep -v '^bench,' | grep ',' | sed "s/\$/,$1/" >>"$csv" || true
}

peer_report() {
  local plots=${1:-} python=python3 candidate
  # The table needs only Python 3; the plots need matplotlib, which Debian's own interpreter has.
  if [ -n "$plots" ]; then
    for candidate in /usr/bin/python3 python3; do
      if "$candidate" -c "import matplotlib" 2>/dev/null; then python=$candidate; break; fi
    done
  fi
  "$python" "$peer_dir/peer_report.py" "$csv" --cores "$(nproc)" ${plots:+--plots "$plots"}
  echo
  echo "bench,variant,ranks,bytes,metric,value,rep"
  cat "$csv"
}
