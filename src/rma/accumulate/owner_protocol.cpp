#include "rma/accumulate/owner_protocol.hpp"

#include <cstring>
#include <vector>

#include "rma/accumulate/locked_update.hpp"
#include "rma/accumulate/native_atomics.hpp"
#include "rma/reduce_op.hpp"
#include "rma/window.hpp"

namespace remora::rma {

int apply_owner_request(const WindowMemory& memory, const AccArgs& args, bool native) {
  if (!native) return apply_locked(memory, args);
  // The handler may run on the progress thread: an edge with the application thread's accesses
  // of its own memory (apply_locked touches it itself).
  if (memory.local_edge != nullptr) memory.local_edge->fetch_add(1, std::memory_order_acq_rel);
  apply_native_at(memory.transport->address(*memory.data, args.target), args);
  if (memory.local_edge != nullptr) memory.local_edge->fetch_add(1, std::memory_order_acq_rel);
  return REMORA_SUCCESS;
}

void serve_owner_request(transport::Transport& transport, int source, const void* payload,
                         size_t bytes, const ApplyRequest& apply) {
  OwnerRequest request;
  if (bytes < sizeof request) return;  // not ours: only OwnerComputes::send builds requests
  std::memcpy(&request, payload, sizeof request);
  const size_t element = datatype_size(request.type);
  const auto* data = static_cast<const unsigned char*>(payload) + sizeof request;
  std::vector<unsigned char> result(request.token != 0 ? request.count * element : 0);
  AccArgs args;
  args.target = request.target;
  args.offset = request.offset;
  args.origin = data;
  args.compare = request.compare_swap != 0 ? data + element : nullptr;
  args.result = request.token != 0 ? result.data() : nullptr;
  args.count = request.count;
  args.type = request.type;
  args.op = request.op;
  args.alpha = request.has_alpha != 0 ? request.alpha : nullptr;
  if (!apply(request, args)) return;

  const OwnerReply reply{request.window_id, request.token, request.result_offset, request.target};
  std::vector<unsigned char> message(sizeof reply + result.size());
  std::memcpy(message.data(), &reply, sizeof reply);
  if (!result.empty()) std::memcpy(message.data() + sizeof reply, result.data(), result.size());
  transport.am_send(source, request.reply_handler, message.data(), message.size());
}

}  // namespace remora::rma
