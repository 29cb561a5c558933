#include "rma/accumulate/acc_pieces.hpp"

#include <algorithm>

#include "core/config.hpp"

namespace remora::rma {

AccPieces::AccPieces(uint64_t offset, uint64_t bytes, uint64_t element_bytes, uint64_t granularity,
                     uint64_t min_piece)
    : offset_(offset), bytes_(bytes), element_(element_bytes) {
  // A range of n pieces' bytes spans at most n + 1 blocks of piece_ bytes: kMaxPieces - 1.
  const uint64_t wanted =
      std::max<uint64_t>({min_piece, (bytes + kMaxPieces - 2) / (kMaxPieces - 1), granularity, 1});
  piece_ = (wanted + granularity - 1) / granularity * granularity;
  if (bytes <= piece_) return;
  first_block_ = offset / piece_;
  count_ = static_cast<size_t>((offset + bytes - 1) / piece_ - first_block_ + 1);
}

void configure_pieces(const Config& config) {
  AccPieces::set_least_piece(config.acc_piece_bytes);
}

}  // namespace remora::rma
