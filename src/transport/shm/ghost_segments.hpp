// How the node's ghost process (REMORA_PROGRESS=ghost) reaches every segment. Segment objects
// have a name only while they are allocated, so the ghost takes part in the allocation: rank
// 0, after creating the object and before unlinking it, sends the ghost a Share message; the
// ghost maps the object by name, records it by Segment::id and acknowledges in the exchange
// word of its control-block slot, which rank 0 waits for (a failure travels to every rank in
// the allocation's all-gather). After the collective free, rank 0 sends Forget and the ghost
// unmaps. Nothing here needs a name after allocation, so the launcher's sweep of
// /dev/shm/remora-<job>-* still covers every way a process can die.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "transport/ghost_directory.hpp"
#include "transport/shm/control_block.hpp"
#include "transport/shm/shm_segment.hpp"

namespace remora::shm {

// The transport's handler id on a ghost endpoint (registered before any service).
constexpr int kGhostSegmentHandler = 0;
static_assert(kGhostSegmentHandler < transport::kGhostFirstServiceHandler);

std::vector<uint8_t> ghost_share_message(const ShmSegment& segment);
std::vector<uint8_t> ghost_forget_message(uint64_t id);

// The acknowledgement in the ghost's exchange word: whether it is the one for segment id, and
// the errno value of the ghost's mapping (0: mapped).
bool ghost_acknowledged(uint64_t exchange, uint64_t id);
int ghost_error(uint64_t exchange);

// The ghost's side: the segments of the node's ranks, by id.
class GhostSegmentTable {
 public:
  explicit GhostSegmentTable(const ControlBlock& block) : block_(block) {}

  // The handler of Share and Forget messages; context is the table.
  static void on_message(int source, const void* payload, size_t bytes, void* context);
  const transport::Segment* find(uint64_t id) const;

 private:
  const ControlBlock& block_;
  std::unordered_map<uint64_t, std::unique_ptr<ShmSegment>> segments_;
};

}  // namespace remora::shm
