#!/bin/sh
# Runs an MPI job and watches its end: once the job has printed MARKER (its checks passed), it
# must exit within SECONDS. If it has not, every process of the job is backtraced with gdb (the
# stacks go to the output), the job is killed, and the exit status says where it was:
#   75  every rank (process running PROGRAM) was inside MPI_Finalize: the MPI library's own
#       finalize hung (MPICH 4.0.2 ch4:ucx over TCP, docs/running-on-clusters.md, "What remains")
#   124 anything else (or gdb is missing, so nobody can tell)
# Otherwise the job's own exit status. The job's output is printed when it ends.
#   finalize_watchdog.sh SECONDS MARKER PROGRAM COMMAND [ARGS...]
set -u
limit=$1
marker=$2
program=$3
shift 3
out=$(mktemp)
trap 'rm -f "$out" "$out.bt"' EXIT

"$@" >"$out" 2>&1 &
job=$!

# The job's process tree (the launcher, its proxies, the ranks), from /proc.
descendants() {
  root=$1
  for stat in /proc/[0-9]*/stat; do
    # pid (comm) state ppid ...: comm may hold spaces, so cut after its closing parenthesis.
    line=$(cat "$stat" 2>/dev/null) || continue
    rest=${line##*) }
    set -- $rest
    echo "${line%% *} $2"
  done | awk -v root="$root" '
    { parent[$1] = $2 }
    END {
      found[root] = 1; print root
      do {
        grown = 0
        for (p in parent) if (!(p in found) && (parent[p] in found)) { found[p] = 1; print p; grown = 1 }
      } while (grown)
    }'
}

waited=0
while kill -0 "$job" 2>/dev/null; do
  sleep 1
  if grep -q "$marker" "$out"; then
    waited=$((waited + 1))
    [ "$waited" -ge "$limit" ] && break
  fi
done
if ! kill -0 "$job" 2>/dev/null; then
  wait "$job"
  status=$?
  cat "$out"
  exit $status
fi

cat "$out"
echo "finalize_watchdog: the job printed '$marker' but has not ended after $limit s; its stacks:"
pids=$(descendants "$job")
ranks=0
finalizing=0
for pid in $pids; do
  echo "=== PID $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)"
  command -v gdb >/dev/null 2>&1 || continue
  timeout 60 gdb -p "$pid" -batch -ex 'thread apply all bt' >"$out.bt" 2>&1
  grep -E '^(#|Thread )' "$out.bt"
  if [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$(readlink -f "$program")" ]; then
    ranks=$((ranks + 1))
    grep -q PMPI_Finalize "$out.bt" && finalizing=$((finalizing + 1))
  fi
done
for pid in $pids; do kill -TERM "$pid" 2>/dev/null; done
sleep 2
for pid in $pids; do kill -KILL "$pid" 2>/dev/null; done
wait "$job" 2>/dev/null
if ! command -v gdb >/dev/null 2>&1; then
  echo "finalize_watchdog: no gdb here, so where the job hung is unknown"
  exit 124
fi
if [ "$ranks" -gt 0 ] && [ "$finalizing" -eq "$ranks" ]; then
  echo "finalize_watchdog: all $ranks ranks are inside MPI_Finalize: the MPI library's finalize hung"
  exit 75
fi
echo "finalize_watchdog: $finalizing of $ranks ranks are inside MPI_Finalize: not the MPI library's finalize"
exit 124
