#!/bin/sh
# Usage: small_shm.sh REMORARUN PROGRAM
# Runs PROGRAM on 2 ranks with /dev/shm a 64 MiB tmpfs (Docker's default) in a private mount
# namespace, then checks that the job left no object there. Needs root for the mount: exits 77
# (skipped, with the reason) without it.
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
  echo "SKIP: mounting a small /dev/shm needs root and unshare -m"
  exit 77
fi
exec unshare -m sh -c '
  if ! mount -t tmpfs -o size=64m tmpfs /dev/shm; then
    echo "SKIP: cannot mount a tmpfs on /dev/shm"
    exit 77
  fi
  "$1" -n 2 --timeout 60 "$2"
  status=$?
  left=$(ls -A /dev/shm)
  if [ -n "$left" ]; then
    echo "FAILED: the job left objects in /dev/shm: $left"
    exit 1
  fi
  exit $status' small_shm "$1" "$2"
