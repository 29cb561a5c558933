#include "rma/accumulate/owner_computes.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

#include "core/error.hpp"
#include "core/log.hpp"
#include "rma/accumulate/locked_update.hpp"
#include "rma/accumulate/owner_protocol.hpp"
#include "rma/reduce_op.hpp"
#include "rma/reply_wait.hpp"
#include "rma/window.hpp"

namespace remora::rma {
namespace {

constexpr size_t kMaxChunkBytes = 64 * 1024;  // per message: bounds the target's lock hold time

}  // namespace

int OwnerComputes::create(transport::Transport& transport, const transport::GhostDirectory& ghosts,
                          std::unique_ptr<OwnerComputes>* out) {
  std::unique_ptr<OwnerComputes> owner(new OwnerComputes(transport, ghosts));
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

// With ghost progress the ghost of the target's node serves the target, whichever node the
// origin is on (it applies the request by the same rule as the target would: the request says
// whether natively); otherwise the target's own progress engine does. The ghost cannot reach a
// rank's private memory, nor does it map a sub-communicator's segments: requests to those
// windows go to the target itself.
OwnerAgent OwnerComputes::agent_for(const Window& window, int target) const {
  const int ghost = window.ghost_serves() ? ghosts_.ghost_of(target) : -1;
  if (ghost >= 0) return {ghost, kGhostOwnerComputesHandler};
  return {target, request_handler_};
}

int OwnerComputes::send(Window& window, const AccArgs& args) {
  const size_t element = datatype_size(args.type);
  const bool compare_swap = args.compare != nullptr;
  const bool has_origin = compare_swap || args.op != REMORA_OP_NO_OP;
  const size_t limit = std::min(kMaxChunkBytes, transport_.am_max_bytes());
  if (limit < sizeof(OwnerRequest) + 2 * element)
    return fail(REMORA_ERR_CONFIG,
                "remora_win_accumulate: REMORA_AM_MAX_BYTES=%zu is too small for owner-computes "
                "accumulates (at least %zu)",
                transport_.am_max_bytes(), sizeof(OwnerRequest) + 2 * element);
  const size_t chunk_count = (limit - sizeof(OwnerRequest)) / element;
  const OwnerAgent agent = agent_for(window, args.target);

  ReplyWait wait;
  wait.result = static_cast<unsigned char*>(args.result);
  if (args.result != nullptr) wait.remaining = (args.count + chunk_count - 1) / chunk_count;

  OwnerRequest header{};
  header.window_id = window.id();
  header.data_segment = window.data_segment().id;
  header.sync_segment = window.sync_segment().id;
  header.target = args.target;
  header.reply_handler = reply_handler_;
  header.token = args.result != nullptr ? wait.token() : 0;
  header.type = args.type;
  header.op = args.op;
  header.compare_swap = compare_swap ? 1 : 0;
  header.has_alpha = args.alpha != nullptr ? 1 : 0;
  header.apply_native = window.owner_applies_native(args.type, args.offset) ? 1 : 0;
  if (args.alpha != nullptr) std::memcpy(header.alpha, args.alpha, element);

  window.owner_request_made();
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
            transport_.am_send(agent.endpoint, agent.handler, payload.data(), payload.size()))
      return status;
  }
  if (args.result == nullptr) return REMORA_SUCCESS;
  return wait.wait(transport_);
}

void OwnerComputes::on_request(int source, const void* payload, size_t bytes, void* context) {
  auto* self = static_cast<OwnerComputes*>(context);
  serve_owner_request(self->transport_, source, payload, bytes,
                      [self, source](const OwnerRequest& request, const AccArgs& args) {
                        Window* window = self->find(request.window_id);
                        if (window == nullptr) {
                          log(LogLevel::Error,
                              "owner-computes request from rank %d for unknown window %llu", source,
                              static_cast<unsigned long long>(request.window_id));
                          return false;
                        }
                        apply_owner_request(window->memory(), args,
                                            window->owner_applies_native(args.type, args.offset));
                        return true;
                      });
}

void OwnerComputes::on_reply(int, const void* payload, size_t bytes, void* context) {
  auto* self = static_cast<OwnerComputes*>(context);
  OwnerReply reply;
  if (bytes < sizeof reply) return;
  std::memcpy(&reply, payload, sizeof reply);
  self->requests_sent_.load(std::memory_order_acquire);
  if (Window* window = self->find(reply.window_id))
    window->owner_done(static_cast<int>(reply.target));
  if (reply.token == 0) return;
  ReplyWait::deliver(reply.token, reply.result_offset,
                     static_cast<const unsigned char*>(payload) + sizeof reply,
                     bytes - sizeof reply);
}

}  // namespace remora::rma
