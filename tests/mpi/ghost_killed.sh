#!/bin/sh
# A ghost that dies under MPI ends the job (the launcher's handling of a dead process), with a
# message, not a hang: runs fault_ghost_work (every rank waits on its ghost's replies forever)
# with REMORA_PROGRESS=ghost on 2 ranks + 1 ghost, kills the ghost (MPI rank 2) with SIGKILL,
# and requires a non-zero exit and the launcher's report of the killed process.
# Usage: ghost_killed.sh <mpiexec> <fault_ghost_work>
mpiexec=$1
program=$2
tag="ghost-killed-$$"  # marks this test's processes, so that only they are looked at
out=$(mktemp)
# Without the launcher's own timeout (MPIEXEC_TIMEOUT), whose kill prints the same words as the
# report checked below: a job that does not end fails by CTest's timeout instead.
unset MPIEXEC_TIMEOUT
REMORA_PROGRESS=ghost REMORA_NODE_SIZE=0 REMORA_TEST_TAG=$tag "$mpiexec" -n 3 "$program" >"$out" 2>&1 &
launcher=$!

ghost=""
tries=0
while [ -z "$ghost" ] && [ $tries -lt 200 ]; do
  for environ in /proc/[0-9]*/environ; do
    pid=${environ#/proc/}
    pid=${pid%/environ}
    # Not the job's death-notice server (a copy of a rank's environment, named remora-notice).
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = remora-notice ] && continue
    if tr '\0' '\n' <"$environ" 2>/dev/null | grep -qx "REMORA_TEST_TAG=$tag" &&
       tr '\0' '\n' <"$environ" 2>/dev/null | grep -qxE "PMI_RANK=2|OMPI_COMM_WORLD_RANK=2"; then
      ghost=$pid
    fi
  done
  [ -z "$ghost" ] && sleep 0.1
  tries=$((tries + 1))
done
if [ -z "$ghost" ]; then
  echo "FAIL: the ghost process (MPI rank 2) never appeared"
  kill "$launcher" 2>/dev/null
  wait "$launcher"
  cat "$out"; rm -f "$out"
  exit 1
fi
sleep 1  # the ranks are now waiting on the ghost's replies
kill -KILL "$ghost"
wait "$launcher"
code=$?
cat "$out"
if [ "$code" -eq 0 ]; then
  echo "FAIL: the job exited 0 after its ghost was killed"
  rm -f "$out"; exit 1
fi
if ! grep -qE "BAD TERMINATION|KILLED|signal 9|Killed" "$out"; then
  echo "FAIL: no report of the killed ghost (pid $ghost) in the output"
  rm -f "$out"; exit 1
fi
rm -f "$out"
echo "PASS: killing the ghost (pid $ghost) ended the job with exit code $code"
