// Transport-neutral part of active messages: the handler table, reassembly of chunked
// messages per source, and the inbox from which handlers run.
//
// Draining a transport's receive queue only copies chunks into the inbox, so a queue can be
// emptied at any time (also by a sender waiting for space, or from inside a handler) without
// running handlers recursively. Handlers then run from the inbox in dispatch(), which is never
// nested and runs on one thread at a time.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

#include "transport/transport.hpp"

namespace remora::transport {

namespace detail {
// Set while this thread runs a handler (AmDispatcher::in_handler). initial-exec: a direct TLS
// access, no __tls_get_addr call on every public entry point; constinit: no check for a TLS
// initialisation function either.
[[gnu::tls_model("initial-exec")]] extern thread_local constinit bool running_handler;
}  // namespace detail

class AmDispatcher {
 public:
  static constexpr int kMaxHandlers = 1024;

  explicit AmDispatcher(int nranks);

  int register_handler(AmHandler handler, void* context, int* handler_id);
  int handler_count() const { return handler_count_.load(std::memory_order_acquire); }

  // Consumer side (the caller serialises calls): one chunk of a message from source. Chunks
  // of one source arrive in order; a message is complete at its `last` chunk.
  void accept_chunk(int source, int handler, bool first, bool last, uint32_t total_bytes,
                    const void* data, size_t bytes);

  // Runs the handlers of complete messages in arrival order; returns whether it ran any.
  // Returns false at once when called from inside a handler or while another thread
  // dispatches (that thread then also runs what arrived meanwhile).
  bool dispatch();
  // Returns once no other thread is inside dispatch() (Transport::wait_for_handlers).
  void wait_for_dispatch() { std::lock_guard dispatching(dispatch_mutex_); }

  bool pending() const { return inbox_size_.load(std::memory_order_acquire) > 0; }

  // True on a thread that is running a handler. Inline: every public entry point asks.
  static bool in_handler() { return detail::running_handler; }

  // Between hold_handlers() and the matching release_handlers() (they nest), dispatch() on
  // this thread runs no handler: messages wait in the inbox for the next dispatch outside the
  // hold. For code that holds a lock which handlers take and meanwhile waits for the transport
  // (the accumulate lock table, whose words the MPI transport updates with MPI atomics whose
  // wait polls): a handler run there could wait for that lock, held by its own caller.
  static void hold_handlers();
  static void release_handlers();
  // Whether this thread may run handlers now (neither inside one nor holding them).
  static bool may_dispatch();

 private:
  struct Message {
    int source;
    int handler;
    std::vector<uint8_t> payload;
  };
  struct Partial {
    int handler = -1;
    uint32_t total_bytes = 0;
    std::vector<uint8_t> data;
  };
  struct Entry {
    AmHandler handler;
    void* context;
  };

  std::vector<Partial> partial_;  // per source; consumer side only
  std::mutex inbox_mutex_;
  std::deque<Message> inbox_;
  // Messages for handlers this rank has not registered yet (a peer finished start-up first):
  // kept, and moved to the front of the inbox when their handler is registered.
  std::deque<Message> unregistered_;
  std::atomic<size_t> inbox_size_{0};
  std::mutex dispatch_mutex_;
  std::mutex register_mutex_;
  Entry handlers_[kMaxHandlers] = {};
  std::atomic<int> handler_count_{0};
};

}  // namespace remora::transport
