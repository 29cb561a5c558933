// Segments of a group of ranks (windows on a sub-communicator): the same shared-memory object
// protocol as ShmTransport::allocate_segment, but the exchanges run over the members only (the
// caller's allgather), so ranks outside the group never take part.
#include <fcntl.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "core/error.hpp"
#include "transport/shm/shm_segment.hpp"
#include "transport/shm/shm_transport.hpp"

namespace remora::shm {
namespace {

// Group segments are numbered by their first member, apart from the world's segments (which
// count from 0 on every rank): top bit set, then the creator's rank, then its own counter.
constexpr uint64_t kGroupSegmentBit = uint64_t{1} << 63;

}  // namespace

int ShmTransport::allocate_group_segment(const std::vector<int>& members, size_t bytes,
                                         const GroupAllgather& allgather,
                                         transport::Segment** segment) {
  const bool creator = members.front() == rank_;
  std::vector<uint64_t> values;
  if (int status = allgather(bytes, &values)) return status;
  std::vector<uint64_t> sizes(static_cast<size_t>(size_), 0);
  for (size_t i = 0; i < members.size(); ++i) sizes[static_cast<size_t>(members[i])] = values[i];
  auto shm = std::make_unique<ShmSegment>();
  shm->lay_out(sizes);

  // The creator names and creates the object; the name travels with its error code.
  const uint64_t id =
      kGroupSegmentBit | static_cast<uint64_t>(rank_) << 32 | group_segments_allocated_;
  if (creator) ++group_segments_allocated_;
  const int created_error =
      creator ? shm->map(segment_object_name(block_.job_id(), id), O_CREAT | O_EXCL | O_RDWR) : 0;
  if (int status = allgather(creator ? id : 0, &values)) return status;
  shm->id = values[0];
  const std::string name = segment_object_name(block_.job_id(), shm->id);
  if (int status = allgather(static_cast<uint64_t>(created_error), &values)) return status;
  const bool created = values[0] == 0;
  // Always exchanged, so that every member makes the same calls (the MPI transport runs this
  // per node inside one allgather over all members).
  const uint64_t mapped = created && !creator ? static_cast<uint64_t>(shm->map(name, O_RDWR)) : 0;
  const std::vector<uint64_t> create_errors = values;
  int status = allgather(mapped, &values);
  if (!created) values = create_errors;
  if (creator && created_error == 0) shm_unlink(name.c_str());  // every member has mapped it
  if (status != REMORA_SUCCESS) return status;
  for (size_t i = 0; i < members.size(); ++i) {
    const auto error = static_cast<int>(values[i]);
    if (error == 0) continue;
    return fail(error == ENOMEM || error == ENOSPC ? REMORA_ERR_NOMEM : REMORA_ERR_SYSTEM,
                "remora_win_allocate_comm: rank %d could not map %zu bytes of shared memory "
                "(%s): %s",
                members[i], shm->mapped_bytes, name.c_str(),
                describe_map_error(error, shm->mapped_bytes).c_str());
  }
  *segment = shm.release();
  return REMORA_SUCCESS;
}

}  // namespace remora::shm
