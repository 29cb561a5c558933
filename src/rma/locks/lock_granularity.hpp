// The stripe size of a window's accumulate lock table across nodes. Where the table is taken
// with the transport's network atomics (a job on more than one node, on a window whose stripes
// are not node-local: caller computes, auto without target progress, windows over user memory),
// every stripe an accumulate touches costs one MPI compare-and-swap round trip to lock and one
// swap to unlock: with 256-byte stripes a 32 KiB accumulate made 256 round trips. Such windows
// use stripes of at least REMORA_ACC_LOCK_GRANULARITY_REMOTE bytes (64 KiB), so an accumulate of
// up to that size takes one or two stripes. Exclusion still holds between all paths: the choice
// depends only on facts every rank of the window shares (strategy, progress mode, whether the
// job spans nodes, user memory: all agreed at creation), the chosen granularity is the one the
// window publishes and checks in its sync part, and under stripes_for_range two overlapping
// ranges share a stripe whatever the granularity. The cost: disjoint ranges within one coarse
// stripe no longer update concurrently.
#pragma once

#include <cstdint>

#include "rma/window_options.hpp"
#include "transport/transport.hpp"

namespace remora::rma {

// Whether a lock table that is not node-local is taken through the network: the job spans
// nodes, so the transport's atomics on every rank's memory go through the network.
bool lock_table_through_network(const transport::Transport& transport, bool node_local_locks);

// The granularity the window's lock table uses (the options' lock_granularity, coarsened to
// lock_granularity_remote through the network).
uint64_t lock_table_granularity(const WindowOptions& options, bool through_network);

}  // namespace remora::rma
