// The pieces of a large accumulate updated in place (locked_update.cpp): MPI makes an
// accumulate atomic per basic element, not as a whole, so a range of many stripes need not hold
// them all at once. Taken all together, every origin contending for the same range holds the
// whole of it in turn (one lock per target, as osc/sm); piece by piece, holding one piece at a
// time, origins update different pieces at once. Pieces are whole elements, cut at the first
// element boundary at or after each multiple of `piece` bytes of window offset (multiples of the
// stripe granularity, so two origins' pieces of the same bytes map to the same stripes).
#pragma once

#include <cstddef>
#include <cstdint>

namespace remora {
struct Config;
}

namespace remora::rma {

class AccPieces {
 public:
  // At most this many pieces (a bit mask of the pieces left fits a word).
  static constexpr size_t kMaxPieces = 64;
  // The default least piece (16 stripes of the default 4 KiB; REMORA_ACC_PIECE_BYTES): each
  // piece handed from one origin to another moves its cache lines between cores, and under load
  // 16 KiB pieces lost 30-35% at 128-512 KiB with two ranks where 64 KiB ones were even with
  // taking the whole range (docs/benchmarks-log.md, "Contended accumulate of large ranges piece
  // by piece").
  static constexpr uint64_t kPieceBytes = 65536;
  // The process's least piece: kPieceBytes until configure_pieces. Per process, not per window:
  // any cut into whole elements keeps every element's update atomic (each piece takes the
  // stripes of its bytes), so ranks need not agree on it.
  static uint64_t least_piece() { return least_piece_; }
  static void set_least_piece(uint64_t bytes) { least_piece_ = bytes; }

  // [offset, offset + bytes) of elements of element_bytes, on a table of `granularity`-byte
  // stripes, in pieces of at least min_piece bytes. One piece (the whole range) when it is at
  // most one piece long.
  AccPieces(uint64_t offset, uint64_t bytes, uint64_t element_bytes, uint64_t granularity,
            uint64_t min_piece = least_piece());

  size_t count() const { return count_; }
  // Piece i's byte offsets in the window, [begin, end); empty when an element straddling the
  // piece boundary already went to the piece before.
  uint64_t begin(size_t i) const { return i == 0 ? offset_ : cut(first_block_ + i); }
  uint64_t end(size_t i) const {
    return i + 1 == count_ ? offset_ + bytes_ : cut(first_block_ + i + 1);
  }
  uint64_t piece_bytes() const { return piece_; }

 private:
  // The first element boundary of the range at or after block boundary block * piece_.
  uint64_t cut(uint64_t block) const {
    const uint64_t at = block * piece_;
    const uint64_t elements = (at - offset_ + element_ - 1) / element_;
    const uint64_t cut_at = offset_ + elements * element_;
    return cut_at < offset_ + bytes_ ? cut_at : offset_ + bytes_;
  }

  static inline uint64_t least_piece_ = kPieceBytes;

  uint64_t offset_, bytes_, element_;
  uint64_t piece_ = 0;
  uint64_t first_block_ = 0;
  size_t count_ = 1;
};

// AccPieces::set_least_piece from REMORA_ACC_PIECE_BYTES (its range is checked by the config).
void configure_pieces(const Config& config);

}  // namespace remora::rma
