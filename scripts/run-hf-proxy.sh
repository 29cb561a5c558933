#!/usr/bin/env bash
# Runs the Hartree-Fock proxy (apps/hf_proxy, paper 003 section V-B1) under thread progress,
# then under ghost progress (remorarun starts the node's ghost process when REMORA_PROGRESS=ghost
# is in its environment). Builds nothing; exits non-zero if either run fails or does not verify.
#
#   scripts/run-hf-proxy.sh BUILD_DIR [RANKS=4] [hf_proxy options...]
#
# The accumulate strategy is the caller's REMORA_ACC_STRATEGY (default auto: CPU atomics for
# doubles, which need no progress; REMORA_ACC_STRATEGY=owner makes the progress thread or the
# ghost apply every accumulate, the Casper pattern of the paper's -CSP versions).
set -euo pipefail
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 BUILD_DIR [RANKS] [hf_proxy options...]" >&2
  exit 2
fi
build=$1
ranks=${2:-4}
shift $(($# < 2 ? $# : 2))
for progress in thread ghost; do
  REMORA_PROGRESS=$progress "$build/tools/remorarun/remorarun" -n "$ranks" --timeout 60 \
    "$build/apps/hf_proxy/hf_proxy" "$@"
done
