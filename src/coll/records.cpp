#include "coll/records.hpp"

namespace remora::coll {

void append_record(std::vector<uint8_t>* out, size_t index, const void* data, size_t bytes) {
  const RecordHeader header{index, bytes};
  const size_t at = out->size();
  out->resize(at + sizeof header + bytes);
  std::memcpy(out->data() + at, &header, sizeof header);
  if (bytes > 0) std::memcpy(out->data() + at + sizeof header, data, bytes);
}

}  // namespace remora::coll
