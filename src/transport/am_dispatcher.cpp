#include "transport/am_dispatcher.hpp"

#include <cstring>

#include "core/error.hpp"
#include "core/log.hpp"

namespace remora::transport {
namespace detail {
[[gnu::tls_model("initial-exec")]] constinit thread_local bool running_handler = false;
}  // namespace detail
using detail::running_handler;
namespace {
// initial-exec: as running_handler.
[[gnu::tls_model("initial-exec")]] thread_local int handlers_held = 0;
}  // namespace

void AmDispatcher::hold_handlers() {
  ++handlers_held;
}

void AmDispatcher::release_handlers() {
  --handlers_held;
}

bool AmDispatcher::may_dispatch() {
  return !running_handler && handlers_held == 0;
}

AmDispatcher::AmDispatcher(int nranks) : partial_(static_cast<size_t>(nranks)) {}

int AmDispatcher::register_handler(AmHandler handler, void* context, int* handler_id) {
  std::lock_guard lock(register_mutex_);
  const int id = handler_count_.load(std::memory_order_relaxed);
  if (id >= kMaxHandlers)
    return fail(REMORA_ERR_NOMEM, "remora_am_register: all %d handler ids are in use",
                kMaxHandlers);
  handlers_[id] = Entry{handler, context};
  handler_count_.store(id + 1, std::memory_order_release);
  *handler_id = id;
  // Held messages for this handler arrived before anything now in the inbox: they go first.
  std::lock_guard inbox(inbox_mutex_);
  for (auto held = unregistered_.rbegin(); held != unregistered_.rend(); ++held) {
    if (held->handler != id) continue;
    inbox_.push_front(std::move(*held));
    inbox_size_.fetch_add(1, std::memory_order_release);
  }
  std::erase_if(unregistered_, [id](const Message& m) { return m.handler == id; });
  return REMORA_SUCCESS;
}

void AmDispatcher::accept_chunk(int source, int handler, bool first, bool last,
                                uint32_t total_bytes, const void* data, size_t bytes) {
  Partial& partial = partial_[static_cast<size_t>(source)];
  if (first) {
    partial.handler = handler;
    partial.total_bytes = total_bytes;
    partial.data.clear();
    partial.data.reserve(total_bytes);
  }
  const auto* begin = static_cast<const uint8_t*>(data);
  partial.data.insert(partial.data.end(), begin, begin + bytes);
  if (!last) return;
  if (partial.data.size() != partial.total_bytes)
    log(LogLevel::Error, "active message from rank %d: reassembled %zu bytes, expected %u", source,
        partial.data.size(), partial.total_bytes);
  Message message{source, partial.handler, std::move(partial.data)};
  partial.data = {};
  std::lock_guard lock(inbox_mutex_);
  inbox_.push_back(std::move(message));
  inbox_size_.fetch_add(1, std::memory_order_release);
}

bool AmDispatcher::dispatch() {
  // Nothing in the inbox: one load instead of the locks (each poll asks). A message pushed after
  // this look is run by the thread that pushed it (it dispatches after it drains) or by the
  // progress thread it wakes, as below.
  if (!pending()) return false;
  bool ran = false;
  while (may_dispatch()) {
    std::unique_lock dispatching(dispatch_mutex_, std::try_to_lock);
    if (!dispatching.owns_lock()) return ran;
    for (;;) {
      Message message;
      {
        std::lock_guard lock(inbox_mutex_);
        if (inbox_.empty()) break;
        message = std::move(inbox_.front());
        inbox_.pop_front();
        inbox_size_.fetch_sub(1, std::memory_order_release);
      }
      if (message.handler >= handler_count()) {
        // Not registered here yet: hold it. Decided under the inbox lock, which
        // register_handler takes after publishing the new count, so none is stranded.
        std::lock_guard lock(inbox_mutex_);
        if (message.handler >= handler_count()) {
          unregistered_.push_back(std::move(message));
          continue;
        }
      }
      const Entry entry = handlers_[message.handler];
      running_handler = true;
      entry.handler(message.source, message.payload.data(), message.payload.size(), entry.context);
      running_handler = false;
      ran = true;
    }
    dispatching.unlock();
    // A message pushed while we held the lock may have found it taken: run it now.
    if (!pending()) break;
  }
  return ran;
}

}  // namespace remora::transport
