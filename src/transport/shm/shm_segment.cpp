#include "transport/shm/shm_segment.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "core/error.hpp"

namespace remora::shm {
namespace {

constexpr size_t kPageBytes = 4096;

size_t round_up(size_t value, size_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

}  // namespace

ShmSegment::~ShmSegment() {
  if (base != nullptr) munmap(base, mapped_bytes);
}

void ShmSegment::lay_out(const std::vector<uint64_t>& sizes) {
  size_t total = 0;
  bytes.clear();
  offsets.clear();
  for (uint64_t s : sizes) {
    bytes.push_back(static_cast<size_t>(s));
    offsets.push_back(total);
    total += round_up(static_cast<size_t>(s), kPageBytes);  // no two ranks share a page
  }
  mapped_bytes = std::max(total, kPageBytes);
}

int ShmSegment::map(const std::string& name, int flags) {
  const int fd = shm_open(name.c_str(), flags, 0600);
  if (fd < 0) return errno;
  if ((flags & O_CREAT) && ftruncate(fd, static_cast<off_t>(mapped_bytes)) != 0) {
    const int error = errno;
    close(fd);
    return error;
  }
  void* memory = mmap(nullptr, mapped_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int error = errno;
  close(fd);
  if (memory == MAP_FAILED) return error;
  base = static_cast<uint8_t*>(memory);
  return 0;
}

std::string segment_object_name(const std::string& job_id, uint64_t id) {
  return format("/remora-%s-s%llu", job_id.c_str(), static_cast<unsigned long long>(id));
}

}  // namespace remora::shm
