// A segment of the shared-memory transport: one POSIX shared-memory object that holds every
// rank's part, each page-aligned (no two ranks share a page), mapped whole by each process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "transport/transport.hpp"

namespace remora::shm {

struct ShmSegment final : transport::Segment {
  uint8_t* base = nullptr;
  size_t mapped_bytes = 0;
  std::vector<size_t> offsets;  // offsets[r]: where rank r's part begins
  ~ShmSegment() override;

  // Lays out the parts for the given per-rank sizes (fills bytes, offsets, mapped_bytes).
  void lay_out(const std::vector<uint64_t>& sizes);
  // Opens the object `name` with shm_open flags (O_CREAT also sizes it and reserves its pages,
  // removing it again if that fails) and maps it whole; returns 0 or an errno value. The
  // descriptor is closed: the mapping keeps the memory.
  int map(const std::string& name, int flags);
};

// strerror(error), and for a full /dev/shm its free space, the `bytes` asked for and the fix.
std::string describe_map_error(int error, size_t bytes);

// The object name of segment `id` of job `job_id`.
std::string segment_object_name(const std::string& job_id, uint64_t id);

}  // namespace remora::shm
