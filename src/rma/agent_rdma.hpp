// Puts and gets served by the target's progress agent (active messages): the path for windows
// over user memory (remora_win_create) when the operating system forbids single-copy access
// to another process's memory, or when the window asks for it (user_memory=agent). A put sends
// its data and returns (local completion); the target copies it into its memory and
// acknowledges, which completes it for flush / unlock / fence through the same per-target
// counters as owner-computes accumulates. A get sends a request and waits for the data.
//
// The agent is the target itself: its progress thread (REMORA_PROGRESS=thread), or the target
// inside any Remora call (manual). The node's ghost process cannot reach a rank's private
// memory, so these requests never go to it.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "transport/transport.hpp"

namespace remora::rma {

class OwnerComputes;
class Window;

class AgentRdma {
 public:
  // Registers the request and reply handlers: every rank must create it at the same point.
  // windows finds a window by id (the owner-computes channel keeps the table).
  static int create(transport::Transport& transport, OwnerComputes& windows,
                    std::unique_ptr<AgentRdma>* out);

  int put(Window& window, int target, uint64_t offset, const void* origin, size_t bytes);
  int get(Window& window, int target, uint64_t offset, void* result, size_t bytes);

 private:
  AgentRdma(transport::Transport& transport, OwnerComputes& windows)
      : transport_(transport), windows_(windows) {}
  static void on_request(int source, const void* payload, size_t bytes, void* context);
  static void on_reply(int source, const void* payload, size_t bytes, void* context);
  // The largest data chunk of one message.
  size_t chunk_bytes() const;

  transport::Transport& transport_;
  OwnerComputes& windows_;
  int request_handler_ = -1;
  int reply_handler_ = -1;
  // Released before each request, acquired by the reply handler: an in-process edge that
  // ThreadSanitizer can see (the real ordering goes through the target).
  std::atomic<uint64_t> requests_sent_{0};
};

}  // namespace remora::rma
