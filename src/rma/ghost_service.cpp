#include "rma/ghost_service.hpp"

#include <cstring>

#include "core/error.hpp"
#include "core/log.hpp"
#include "rma/accumulate/locked_update.hpp"
#include "rma/accumulate/owner_protocol.hpp"
#include "rma/window.hpp"

namespace remora::rma {

int GhostService::create(transport::Transport& transport, const transport::GhostDirectory& ghosts,
                         std::unique_ptr<GhostService>* out) {
  std::unique_ptr<GhostService> service(new GhostService(transport, ghosts));
  int id = -1;
  if (int status = transport.am_register(on_request, service.get(), &id)) return status;
  if (id != kGhostOwnerComputesHandler)
    return fail(REMORA_ERR_INTERNAL,
                "ghost: the owner-computes handler got id %d, the ranks address %d", id,
                kGhostOwnerComputesHandler);
  if (int status = transport.am_register(on_lock_request, service.get(), &id)) return status;
  if (id != kGhostLockHandler)
    return fail(REMORA_ERR_INTERNAL, "ghost: the lock handler got id %d, the ranks address %d", id,
                kGhostLockHandler);
  *out = std::move(service);
  return REMORA_SUCCESS;
}

void GhostService::on_request(int source, const void* payload, size_t bytes, void* context) {
  transport::Transport& transport = static_cast<GhostService*>(context)->transport_;
  const transport::GhostDirectory& ghosts = static_cast<GhostService*>(context)->ghosts_;
  serve_owner_request(
      transport, source, payload, bytes,
      [&transport, &ghosts, source](const OwnerRequest& request, const AccArgs& args) {
        const transport::Segment* data = ghosts.shared_segment(request.data_segment);
        const transport::Segment* sync = ghosts.shared_segment(request.sync_segment);
        if (data == nullptr || sync == nullptr) {
          log(LogLevel::Error,
              "ghost: owner-computes request from rank %d for window %llu, whose segments "
              "were never shared with the ghost",
              source, static_cast<unsigned long long>(request.window_id));
          return false;
        }
        // The target published its lock-table geometry in its sync part at creation.
        const SyncWord stripes(transport, *sync, request.target, SyncGeometry::kLockStripes);
        const SyncWord granularity(transport, *sync, request.target,
                                   SyncGeometry::kLockGranularity);
        SyncGeometry geometry{transport.size(), stripes.load()};
        geometry.node_local_table = true;  // no request comes for a caller-computes window
        geometry.ghosts = &ghosts;
        const WindowMemory memory{&transport,         data,    sync,    geometry,
                                  granularity.load(), nullptr, nullptr, true};
        apply_owner_request(memory, args, request.apply_native != 0);
        return true;
      });
}

void GhostService::on_lock_request(int source, const void* payload, size_t bytes, void* context) {
  auto* self = static_cast<GhostService*>(context);
  LockRequest request;
  if (bytes < sizeof request) return;  // not ours: only RemoteLocks builds requests
  std::memcpy(&request, payload, sizeof request);
  const transport::Segment* sync = self->ghosts_.shared_segment(request.sync_segment);
  if (sync == nullptr) {
    log(LogLevel::Error,
        "ghost: lock request from rank %d for window %llu, whose sync segment was never shared "
        "with the ghost",
        source, static_cast<unsigned long long>(request.window_id));
    return;
  }
  self->locks_.serve(source, request, *sync);
}

}  // namespace remora::rma
