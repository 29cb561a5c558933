#include "transport/shm/shm_segment.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

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
  if (flags & O_CREAT) {
    // Reserve every page now: a tmpfs that is too small (Docker's 64 MiB /dev/shm) fails here
    // with ENOSPC instead of killing the first rank to touch a page with SIGBUS.
    int error = ftruncate(fd, static_cast<off_t>(mapped_bytes)) != 0 ? errno : 0;
    if (error == 0) error = posix_fallocate(fd, 0, static_cast<off_t>(mapped_bytes));
    if (error != 0) {
      close(fd);
      shm_unlink(name.c_str());
      return error;
    }
  }
  void* memory = mmap(nullptr, mapped_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int error = errno;
  close(fd);
  if (memory == MAP_FAILED) return error;
  base = static_cast<uint8_t*>(memory);
  return 0;
}

std::string describe_map_error(int error, size_t bytes) {
  std::string text = std::strerror(error);
  struct statvfs shm {};
  if ((error == ENOSPC || error == ENOMEM) && statvfs("/dev/shm", &shm) == 0) {
    constexpr double kMiB = 1024.0 * 1024.0;
    const double free_bytes = static_cast<double>(shm.f_bavail) * static_cast<double>(shm.f_frsize);
    const double total_bytes =
        static_cast<double>(shm.f_blocks) * static_cast<double>(shm.f_frsize);
    text += format(
        "; /dev/shm has %.1f MiB free of %.1f MiB and this segment needs %.1f MiB on this node: "
        "enlarge /dev/shm (docker run --shm-size=..., or mount -o remount,size=... /dev/shm) or "
        "allocate less",
        free_bytes / kMiB, total_bytes / kMiB, static_cast<double>(bytes) / kMiB);
  }
  return text;
}

std::string segment_object_name(const std::string& job_id, uint64_t id) {
  return format("/remora-%s-s%llu", job_id.c_str(), static_cast<unsigned long long>(id));
}

}  // namespace remora::shm
