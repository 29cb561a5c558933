// A message laid out as header then data for one active-message send. Small ones are built on
// the stack: a heap allocation per message is a few more cold cache lines on every send, and
// a rank that only contributes to a reduce after a long computation pays for each of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace remora::coll {

class StagedMessage {
 public:
  StagedMessage(const void* header, size_t header_bytes, const void* data, size_t bytes)
      : size_(header_bytes + bytes) {
    if (size_ > kInlineBytes) {
      heap_.resize(size_);
      bytes_ = heap_.data();
    }
    std::memcpy(bytes_, header, header_bytes);
    if (bytes > 0) std::memcpy(bytes_ + header_bytes, data, bytes);
  }
  StagedMessage(const StagedMessage&) = delete;
  StagedMessage& operator=(const StagedMessage&) = delete;

  const uint8_t* data() const { return bytes_; }
  size_t size() const { return size_; }

 private:
  static constexpr size_t kInlineBytes = 2048;
  alignas(16) uint8_t inline_[kInlineBytes];
  uint8_t* bytes_ = inline_;
  std::vector<uint8_t> heap_;
  size_t size_;
};

}  // namespace remora::coll
