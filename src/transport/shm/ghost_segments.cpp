#include "transport/shm/ghost_segments.hpp"

#include <fcntl.h>

#include <cstring>

#include "core/error.hpp"
#include "core/log.hpp"

namespace remora::shm {
namespace {

enum class Kind : uint64_t { Share = 1, Forget = 2 };

struct MessageHeader {
  Kind kind;
  uint64_t id;
  uint64_t nranks;  // Share: the per-rank sizes follow
};

constexpr unsigned kErrorBits = 16;

}  // namespace

std::vector<uint8_t> ghost_share_message(const ShmSegment& segment) {
  const MessageHeader header{Kind::Share, segment.id, segment.bytes.size()};
  std::vector<uint8_t> message(sizeof header + segment.bytes.size() * sizeof(uint64_t));
  std::memcpy(message.data(), &header, sizeof header);
  for (size_t r = 0; r < segment.bytes.size(); ++r) {
    const uint64_t size = segment.bytes[r];
    std::memcpy(message.data() + sizeof header + r * sizeof size, &size, sizeof size);
  }
  return message;
}

std::vector<uint8_t> ghost_forget_message(uint64_t id) {
  const MessageHeader header{Kind::Forget, id, 0};
  std::vector<uint8_t> message(sizeof header);
  std::memcpy(message.data(), &header, sizeof header);
  return message;
}

bool ghost_acknowledged(uint64_t exchange, uint64_t id) {
  return (exchange >> kErrorBits) == id + 1;
}

int ghost_error(uint64_t exchange) {
  return static_cast<int>(exchange & ((uint64_t{1} << kErrorBits) - 1));
}

void GhostSegmentTable::on_message(int, const void* payload, size_t bytes, void* context) {
  auto* self = static_cast<GhostSegmentTable*>(context);
  MessageHeader header;
  if (bytes < sizeof header) return;
  std::memcpy(&header, payload, sizeof header);
  if (header.kind == Kind::Forget) {
    self->segments_.erase(header.id);
    return;
  }
  if (header.kind != Kind::Share || bytes != sizeof header + header.nranks * sizeof(uint64_t))
    return;
  std::vector<uint64_t> sizes(header.nranks);
  std::memcpy(sizes.data(), static_cast<const uint8_t*>(payload) + sizeof header,
              sizes.size() * sizeof(uint64_t));
  auto segment = std::make_unique<ShmSegment>();
  segment->id = header.id;
  segment->lay_out(sizes);
  const int error = segment->map(segment_object_name(self->block_.job_id(), header.id), O_RDWR);
  if (error != 0)
    log(LogLevel::Error, "ghost: cannot map segment %llu: %s",
        static_cast<unsigned long long>(header.id), std::strerror(error));
  else
    self->segments_[header.id] = std::move(segment);
  const int ghost = self->block_.ghost();
  self->block_.rank(ghost).exchange.store(
      ((header.id + 1) << kErrorBits) | static_cast<uint64_t>(error & 0xffff),
      std::memory_order_release);
  // The node's rank 0 shares (ShmTransport::allocate_segment); source is its job rank, which
  // under MPI is not its index in the node's control block.
  self->block_.wake(0, WakeTarget::Both);
}

const transport::Segment* GhostSegmentTable::find(uint64_t id) const {
  const auto found = segments_.find(id);
  return found == segments_.end() ? nullptr : found->second.get();
}

}  // namespace remora::shm
