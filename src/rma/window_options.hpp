// Per-window choices: the accumulate strategy and the shape of the accumulate lock table.
// Defaults come from REMORA_* variables; a window's info string overrides them. Every rank of
// a window must use the same options (checked at creation), so that all accumulates to a
// location take paths that are atomic with respect to each other.
#pragma once

#include <cstdint>

#include "core/config.hpp"
#include "remora/win.h"
#include "rma/accumulate/acc_strategy.hpp"

namespace remora::rma {

// Fence and lock/unlock implementations (paper 001).
enum class SyncImpl : uint64_t {
  Immediate = REMORA_SYNC_IMMEDIATE,
  Deferred = REMORA_SYNC_DEFERRED
};

struct WindowOptions {
  AccStrategy strategy = AccStrategy::Auto;
  uint64_t lock_stripes = 256;       // stripes in the lock table (1 = whole window)
  uint64_t lock_granularity = 4096;  // bytes per stripe before the next one begins
  SyncImpl fence = SyncImpl::Immediate;
  SyncImpl lock = SyncImpl::Immediate;
  // Post-start-complete-wait (pscw.hpp): start waits for the posts (immediate), or returns at
  // once and queues operations until complete (deferred). Per rank: the two modes interoperate,
  // so it is not compared between ranks at creation.
  SyncImpl pscw = SyncImpl::Immediate;
  // Windows over user memory (user_memory.hpp): how other ranks' memory is reached. Per rank
  // (the paths interoperate), so not compared between ranks; ignored by remora_win_allocate.
  uint64_t user_memory = 0;  // a UserMemoryMode
  // The least granularity of a lock table taken through the network (lock_granularity.hpp).
  uint64_t lock_granularity_remote = 65536;

  bool operator==(const WindowOptions&) const = default;
};

const char* sync_impl_name(SyncImpl impl);

// Defaults from the configuration, then `key=value,key=value` pairs from info (may be NULL).
// Fails with REMORA_ERR_ARG naming function, the key and its value.
int parse_window_options(const char* function, const Config& config, const char* info,
                         WindowOptions* options);

}  // namespace remora::rma
