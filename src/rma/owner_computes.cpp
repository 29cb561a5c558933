#include "rma/owner_computes.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

#include "core/error.hpp"
#include "core/log.hpp"
#include "rma/reduce_op.hpp"
#include "rma/window.hpp"

namespace remora::rma {
namespace {

constexpr size_t kMaxChunkBytes = 64 * 1024;  // per message: bounds the target's lock hold time
constexpr size_t kMaxElementBytes = 16;

struct RequestHeader {
  uint64_t window_id;
  uint64_t offset;  // bytes, at the target
  uint64_t count;
  uint64_t token;          // the origin's ReplyWait, or 0 when no result is wanted
  uint64_t result_offset;  // bytes into the origin's result buffer
  int32_t type;
  int32_t op;
  int32_t compare_swap;  // payload: origin element, then compare element
  int32_t has_alpha;
  unsigned char alpha[kMaxElementBytes];
};

struct ReplyHeader {
  uint64_t window_id;
  uint64_t token;
  uint64_t result_offset;
};

// Lives on the origin's stack while it waits for the results of one operation.
struct ReplyWait {
  std::atomic<uint64_t> remaining{0};
  unsigned char* result = nullptr;
};

template <typename T>
T read_header(const void* payload) {
  T header;
  std::memcpy(&header, payload, sizeof header);
  return header;
}

}  // namespace

int OwnerComputes::create(transport::Transport& transport, std::unique_ptr<OwnerComputes>* out) {
  std::unique_ptr<OwnerComputes> owner(new OwnerComputes(transport));
  if (int status = transport.am_register(on_request, owner.get(), &owner->request_handler_))
    return status;
  if (int status = transport.am_register(on_reply, owner.get(), &owner->reply_handler_))
    return status;
  *out = std::move(owner);
  return REMORA_SUCCESS;
}

void OwnerComputes::attach(Window* window) {
  std::lock_guard guard(mutex_);
  windows_[window->id()] = window;
}

void OwnerComputes::detach(Window* window) {
  std::lock_guard guard(mutex_);
  windows_.erase(window->id());
}

Window* OwnerComputes::find(uint64_t id) {
  std::lock_guard guard(mutex_);
  auto found = windows_.find(id);
  return found == windows_.end() ? nullptr : found->second;
}

int OwnerComputes::send(Window& window, const AccArgs& args) {
  const size_t element = datatype_size(args.type);
  const bool compare_swap = args.compare != nullptr;
  const bool has_origin = compare_swap || args.op != REMORA_OP_NO_OP;
  const size_t limit = std::min(kMaxChunkBytes, transport_.am_max_bytes());
  if (limit < sizeof(RequestHeader) + 2 * element)
    return fail(REMORA_ERR_CONFIG,
                "remora_win_accumulate: REMORA_AM_MAX_BYTES=%zu is too small for owner-computes "
                "accumulates (at least %zu)",
                transport_.am_max_bytes(), sizeof(RequestHeader) + 2 * element);
  const size_t chunk_count = (limit - sizeof(RequestHeader)) / element;

  ReplyWait wait;
  wait.result = static_cast<unsigned char*>(args.result);
  if (args.result != nullptr) wait.remaining = (args.count + chunk_count - 1) / chunk_count;

  RequestHeader header{};
  header.window_id = window.id();
  header.token = args.result != nullptr ? reinterpret_cast<uintptr_t>(&wait) : 0;
  header.type = args.type;
  header.op = args.op;
  header.compare_swap = compare_swap ? 1 : 0;
  header.has_alpha = args.alpha != nullptr ? 1 : 0;
  if (args.alpha != nullptr) std::memcpy(header.alpha, args.alpha, element);

  std::vector<unsigned char> payload;
  for (size_t first = 0; first < args.count; first += chunk_count) {
    const size_t count = std::min(chunk_count, args.count - first);
    header.offset = args.offset + first * element;
    header.count = count;
    header.result_offset = first * element;
    const size_t data_bytes = has_origin ? (compare_swap ? 2 : count) * element : 0;
    payload.resize(sizeof header + data_bytes);
    std::memcpy(payload.data(), &header, sizeof header);
    if (has_origin)
      std::memcpy(payload.data() + sizeof header,
                  static_cast<const unsigned char*>(args.origin) + first * element,
                  count * element);
    if (compare_swap) std::memcpy(payload.data() + sizeof header + element, args.compare, element);
    window.owner_sent(args.target);
    requests_sent_.fetch_add(1, std::memory_order_release);
    if (int status =
            transport_.am_send(args.target, request_handler_, payload.data(), payload.size()))
      return status;
  }
  if (args.result == nullptr) return REMORA_SUCCESS;
  return transport_.wait_until(
      [&wait] { return wait.remaining.load(std::memory_order_acquire) == 0; });
}

void OwnerComputes::on_request(int source, const void* payload, size_t bytes, void* context) {
  auto* self = static_cast<OwnerComputes*>(context);
  if (bytes < sizeof(RequestHeader)) return;  // not ours: only send() builds requests
  const auto header = read_header<RequestHeader>(payload);
  Window* window = self->find(header.window_id);
  if (window == nullptr) {
    log(LogLevel::Error, "owner-computes request from rank %d for unknown window %llu", source,
        static_cast<unsigned long long>(header.window_id));
    return;
  }
  const size_t element = datatype_size(header.type);
  const auto* data = static_cast<const unsigned char*>(payload) + sizeof header;
  std::vector<unsigned char> result(header.token != 0 ? header.count * element : 0);
  AccArgs args;
  args.target = window->rank();
  args.offset = header.offset;
  args.origin = data;
  args.compare = header.compare_swap != 0 ? data + element : nullptr;
  args.result = header.token != 0 ? result.data() : nullptr;
  args.count = header.count;
  args.type = header.type;
  args.op = header.op;
  args.alpha = header.has_alpha != 0 ? header.alpha : nullptr;
  window->apply_locked(args);

  const ReplyHeader reply{header.window_id, header.token, header.result_offset};
  std::vector<unsigned char> message(sizeof reply + result.size());
  std::memcpy(message.data(), &reply, sizeof reply);
  if (!result.empty()) std::memcpy(message.data() + sizeof reply, result.data(), result.size());
  self->transport_.am_send(source, self->reply_handler_, message.data(), message.size());
}

void OwnerComputes::on_reply(int source, const void* payload, size_t bytes, void* context) {
  auto* self = static_cast<OwnerComputes*>(context);
  if (bytes < sizeof(ReplyHeader)) return;
  const auto reply = read_header<ReplyHeader>(payload);
  self->requests_sent_.load(std::memory_order_acquire);
  if (Window* window = self->find(reply.window_id)) window->owner_done(source);
  if (reply.token == 0) return;
  auto* wait = reinterpret_cast<ReplyWait*>(static_cast<uintptr_t>(reply.token));
  std::memcpy(wait->result + reply.result_offset,
              static_cast<const unsigned char*>(payload) + sizeof reply, bytes - sizeof reply);
  wait->remaining.fetch_sub(1, std::memory_order_release);  // last touch: the waiter may return
}

}  // namespace remora::rma
