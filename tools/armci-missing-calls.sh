#!/bin/sh
# Usage: tools/armci-missing-calls.sh [ARMCI's include directory]   (default: /usr/include,
# Debian's libarmci-mpi-dev)
# Lists the functions that ARMCI-MPI's armci.h, message.h and armcix.h declare and Remora's
# include/armci-compat headers do not: the list of ARMCI calls not provided in
# docs/global-arrays.md.
set -eu
dir=${1:-/usr/include}
ours=$(dirname "$0")/../include/armci-compat
names() { cat "$@" | grep -oE '\b[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(' | sed 's/[[:space:](]//g' |
  grep -E '^(P?ARMCI_|ARMCIX_|p?armci_)' | sort -u; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
names "$dir/armci.h" "$dir/message.h" "$dir/armcix.h" >"$tmp/armci"
names "$ours/armci.h" "$ours/message.h" "$ours/armcix.h" >"$tmp/ours"
comm -23 "$tmp/armci" "$tmp/ours"
