// Self-describing blocks in one message: (index, bytes, data) records. Tree gathers and
// scatters and Bruck's alltoall move other ranks' blocks whose sizes the ranks in between do
// not know (the v-variants give counts to the root or the owner only), so blocks carry them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace remora::coll {

struct RecordHeader {
  uint64_t index;
  uint64_t bytes;
};

void append_record(std::vector<uint8_t>* out, size_t index, const void* data, size_t bytes);

// Calls visit(index, data, bytes) for each record; false if the buffer is malformed.
template <typename Visit>
bool for_each_record(const std::vector<uint8_t>& buffer, Visit&& visit) {
  size_t at = 0;
  while (at < buffer.size()) {
    RecordHeader header;
    if (buffer.size() - at < sizeof header) return false;
    std::memcpy(&header, buffer.data() + at, sizeof header);
    at += sizeof header;
    if (header.bytes > buffer.size() - at) return false;
    visit(static_cast<size_t>(header.index), buffer.data() + at, static_cast<size_t>(header.bytes));
    at += static_cast<size_t>(header.bytes);
  }
  return true;
}

}  // namespace remora::coll
