// The origin's side of a request whose replies carry data (owner-computes results, agent
// gets): the requests name this object by address (a token); each reply copies its chunk to
// its offset in the result buffer and counts down. Lives on the waiting origin's stack.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "transport/transport.hpp"

namespace remora::rma {

struct ReplyWait {
  std::atomic<uint64_t> remaining{0};
  unsigned char* result = nullptr;

  uint64_t token() { return reinterpret_cast<uintptr_t>(this); }
  // In the reply handler: one chunk has arrived.
  static void deliver(uint64_t token, uint64_t offset, const void* data, size_t bytes) {
    auto* wait = reinterpret_cast<ReplyWait*>(static_cast<uintptr_t>(token));
    std::memcpy(wait->result + offset, data, bytes);
    wait->remaining.fetch_sub(1, std::memory_order_release);  // last touch: the waiter may return
  }
  int wait(transport::Transport& transport) const {
    return transport.wait_until([this] { return remaining.load(std::memory_order_acquire) == 0; });
  }
};

}  // namespace remora::rma
