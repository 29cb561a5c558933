#include "rma/agent_rdma.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/error.hpp"
#include "core/log.hpp"
#include "rma/accumulate/owner_computes.hpp"
#include "rma/reply_wait.hpp"
#include "rma/user_memory.hpp"
#include "rma/window.hpp"

namespace remora::rma {
namespace {

constexpr size_t kMaxChunkBytes = 64 * 1024;  // per message, as for owner-computes

enum class AgentKind : int32_t { Put, Get };

struct AgentRequest {
  uint64_t window_id;
  uint64_t offset;  // bytes, in the target's memory
  uint64_t bytes;
  uint64_t token;          // a get's reply state at the origin
  uint64_t result_offset;  // bytes into the get's result buffer
  int32_t reply_handler;
  AgentKind kind;  // a put's data follows the header
};

struct AgentReply {
  uint64_t window_id;
  uint64_t token;  // 0 for a put's acknowledgement
  uint64_t result_offset;
  int64_t target;
};

}  // namespace

int AgentRdma::create(transport::Transport& transport, OwnerComputes& windows,
                      std::unique_ptr<AgentRdma>* out) {
  std::unique_ptr<AgentRdma> agent(new AgentRdma(transport, windows));
  if (int status = transport.am_register(on_request, agent.get(), &agent->request_handler_))
    return status;
  if (int status = transport.am_register(on_reply, agent.get(), &agent->reply_handler_))
    return status;
  *out = std::move(agent);
  return REMORA_SUCCESS;
}

size_t AgentRdma::chunk_bytes() const {
  const size_t limit = std::min(kMaxChunkBytes, transport_.am_max_bytes());
  return limit > sizeof(AgentRequest) ? limit - sizeof(AgentRequest) : 0;
}

int AgentRdma::put(Window& window, int target, uint64_t offset, const void* origin, size_t bytes) {
  const size_t chunk = chunk_bytes();
  if (chunk == 0)
    return fail(REMORA_ERR_CONFIG, "remora_win_put: REMORA_AM_MAX_BYTES=%zu is too small",
                transport_.am_max_bytes());
  AgentRequest header{window.id(), 0, 0, 0, 0, reply_handler_, AgentKind::Put};
  std::vector<unsigned char> payload;
  for (size_t first = 0; first < bytes; first += chunk) {
    header.offset = offset + first;
    header.bytes = std::min(chunk, bytes - first);
    payload.resize(sizeof header + header.bytes);
    std::memcpy(payload.data(), &header, sizeof header);
    std::memcpy(payload.data() + sizeof header, static_cast<const unsigned char*>(origin) + first,
                header.bytes);
    window.owner_sent(target);  // completed by the acknowledgement (flush, unlock, fence)
    requests_sent_.fetch_add(1, std::memory_order_release);
    if (int status = transport_.am_send(target, request_handler_, payload.data(), payload.size()))
      return status;
  }
  return REMORA_SUCCESS;
}

int AgentRdma::get(Window& window, int target, uint64_t offset, void* result, size_t bytes) {
  const size_t chunk = chunk_bytes();
  if (chunk == 0)
    return fail(REMORA_ERR_CONFIG, "remora_win_get: REMORA_AM_MAX_BYTES=%zu is too small",
                transport_.am_max_bytes());
  if (bytes == 0) return REMORA_SUCCESS;
  ReplyWait wait;
  wait.result = static_cast<unsigned char*>(result);
  wait.remaining = (bytes + chunk - 1) / chunk;
  AgentRequest header{window.id(),   0, 0, reinterpret_cast<uintptr_t>(&wait), 0, reply_handler_,
                      AgentKind::Get};
  for (size_t first = 0; first < bytes; first += chunk) {
    header.offset = offset + first;
    header.bytes = std::min(chunk, bytes - first);
    header.result_offset = first;
    requests_sent_.fetch_add(1, std::memory_order_release);
    if (int status = transport_.am_send(target, request_handler_, &header, sizeof header)) {
      // Chunks already sent will still answer into wait: let them arrive first.
      const uint64_t unsent = (bytes - first + chunk - 1) / chunk;
      wait.remaining.fetch_sub(unsent);
      wait.wait(transport_);
      return status;
    }
  }
  return wait.wait(transport_);
}

void AgentRdma::on_request(int source, const void* payload, size_t bytes, void* context) {
  auto* self = static_cast<AgentRdma*>(context);
  AgentRequest request;
  if (bytes < sizeof request) return;
  std::memcpy(&request, payload, sizeof request);
  Window* window = self->windows_.find(request.window_id);
  UserMemory* memory = window != nullptr ? window->user_memory() : nullptr;
  const int me = self->transport_.rank();
  if (memory == nullptr || request.offset + request.bytes > memory->size(me)) {
    log(LogLevel::Error, "agent put/get from rank %d for unknown window %llu or outside it", source,
        static_cast<unsigned long long>(request.window_id));
    return;
  }
  const AgentReply reply{request.window_id, request.token, request.result_offset, me};
  std::vector<unsigned char> message(sizeof reply);
  std::memcpy(message.data(), &reply, sizeof reply);
  const auto* data = static_cast<const unsigned char*>(payload) + sizeof request;
  if (request.kind == AgentKind::Put) {
    memory->write(me, request.offset, data, request.bytes);
  } else {
    message.resize(sizeof reply + request.bytes);
    memory->read(me, request.offset, message.data() + sizeof reply, request.bytes);
  }
  self->transport_.am_send(source, request.reply_handler, message.data(), message.size());
}

void AgentRdma::on_reply(int, const void* payload, size_t bytes, void* context) {
  auto* self = static_cast<AgentRdma*>(context);
  AgentReply reply;
  if (bytes < sizeof reply) return;
  std::memcpy(&reply, payload, sizeof reply);
  self->requests_sent_.load(std::memory_order_acquire);
  if (reply.token == 0) {
    if (Window* window = self->windows_.find(reply.window_id))
      window->owner_done(static_cast<int>(reply.target));
    return;
  }
  ReplyWait::deliver(reply.token, reply.result_offset,
                     static_cast<const unsigned char*>(payload) + sizeof reply,
                     bytes - sizeof reply);
}

}  // namespace remora::rma
