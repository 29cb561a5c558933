#!/bin/sh
# Usage: tools/ga-missing-calls.sh [GA's ga.h]   (default: /usr/include/ga.h, Debian's
# libglobalarrays-dev)
# Lists the GA_ and NGA_ functions that Global Arrays' C header declares and Remora's
# include/ga-compat/ga.h does not: the list of calls not provided in docs/global-arrays.md.
set -eu
ga_header=${1:-/usr/include/ga.h}
ours=$(dirname "$0")/../include/ga-compat/ga.h
names() { grep -oE '\bN?GA_[A-Za-z0-9_]+[[:space:]]*\(' "$1" | sed 's/[[:space:](]//g' | sort -u; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
names "$ga_header" >"$tmp/ga"
names "$ours" >"$tmp/ours"
comm -23 "$tmp/ga" "$tmp/ours"
