// The pieces of a large in-place accumulate: whole elements, covering the range exactly once,
// at most kMaxPieces, cut at piece boundaries that are multiples of the stripe granularity.
#include "rma/accumulate/acc_pieces.hpp"

#include <gtest/gtest.h>

#include <random>

namespace remora::rma {
namespace {

void expect_tiling(uint64_t offset, uint64_t bytes, uint64_t element, uint64_t granularity,
                   uint64_t min_piece) {
  const AccPieces pieces(offset, bytes, element, granularity, min_piece);
  ASSERT_GE(pieces.count(), 1u);
  ASSERT_LE(pieces.count(), AccPieces::kMaxPieces);
  EXPECT_EQ(pieces.piece_bytes() % granularity, 0u);
  EXPECT_GE(pieces.piece_bytes(), min_piece);
  EXPECT_EQ(pieces.begin(0), offset);
  EXPECT_EQ(pieces.end(pieces.count() - 1), offset + bytes);
  for (size_t i = 0; i < pieces.count(); ++i) {
    EXPECT_LE(pieces.begin(i), pieces.end(i)) << i;
    EXPECT_EQ((pieces.begin(i) - offset) % element, 0u) << i;  // whole elements
    if (i == 0) continue;
    EXPECT_EQ(pieces.begin(i), pieces.end(i - 1)) << i;  // no gap, no overlap
    if (pieces.begin(i) != offset + bytes) {
      // A piece starts at the first element boundary at or after its block's boundary.
      const uint64_t boundary = pieces.begin(i) / pieces.piece_bytes() * pieces.piece_bytes();
      EXPECT_LT(pieces.begin(i) - boundary, element) << i;
    }
  }
}

TEST(AccPieces, OnePieceUpToThePieceSize) {
  const uint64_t piece = AccPieces::kPieceBytes;
  const AccPieces small(4096, piece, 8, 4096);
  EXPECT_EQ(small.count(), 1u);
  EXPECT_EQ(small.begin(0), 4096u);
  EXPECT_EQ(small.end(0), 4096u + piece);
  EXPECT_EQ(AccPieces(0, 8, 8, 4096).count(), 1u);
  EXPECT_EQ(AccPieces(0, piece + 8, 8, 4096).count(), 2u);
}

// REMORA_ACC_PIECE_BYTES (configure_pieces) sets the least piece every range is cut with.
TEST(AccPieces, TheProcessLeastPieceIsTheDefault) {
  EXPECT_EQ(AccPieces::least_piece(), AccPieces::kPieceBytes);
  AccPieces::set_least_piece(4096);
  const AccPieces pieces(0, 32768, 8, 4096);
  EXPECT_EQ(pieces.count(), 8u);
  EXPECT_EQ(pieces.begin(1), 4096u);
  EXPECT_EQ(AccPieces(0, 4096, 8, 4096).count(), 1u);
  AccPieces::set_least_piece(16);  // below the granularity: pieces of one stripe
  EXPECT_EQ(AccPieces(0, 32768, 8, 4096).count(), 8u);
  AccPieces::set_least_piece(AccPieces::kPieceBytes);
  EXPECT_EQ(AccPieces(0, 32768, 8, 4096).count(), 1u);
  expect_tiling(8, 32768, 8, 4096, 16);
}

TEST(AccPieces, AlignedRangeInPiecesOfTheStripeMultiple) {
  const AccPieces pieces(0, 512 * 1024, 8, 4096, 16384);
  ASSERT_EQ(pieces.count(), 32u);
  EXPECT_EQ(pieces.begin(1), 16384u);
  EXPECT_EQ(pieces.end(31), 512u * 1024u);
  expect_tiling(0, 512 * 1024, 8, 4096, 16384);
}

TEST(AccPieces, ElementStraddlingABoundaryGoesToThePieceBefore) {
  // 12-byte elements from offset 8: the element at 16376..16388 straddles 16384.
  const AccPieces pieces(8, 40000 * 12, 12, 4096, 16384);
  EXPECT_EQ(pieces.begin(1), 8u + 1365u * 12u);  // 16388: the first element boundary after 16384
  expect_tiling(8, 40000 * 12, 12, 4096, 16384);
}

TEST(AccPieces, AtMostKMaxPieces) {
  const AccPieces pieces(8, uint64_t{64} << 20, 8, 4096, 16384);
  EXPECT_LE(pieces.count(), AccPieces::kMaxPieces);
  expect_tiling(8, uint64_t{64} << 20, 8, 4096, 16384);
}

TEST(AccPieces, RandomRangesTileExactly) {
  std::mt19937_64 rng(14);
  const uint64_t elements[] = {1, 2, 4, 8, 12, 16};
  const uint64_t granularities[] = {64, 256, 1000, 4096, 65536};
  for (int i = 0; i < 20000; ++i) {
    const uint64_t element = elements[rng() % 6];
    const uint64_t granularity = granularities[rng() % 5];
    const uint64_t offset = rng() % (uint64_t{1} << 22);
    const uint64_t bytes = element * (1 + rng() % ((uint64_t{4} << 20) / element));
    const uint64_t min_piece = uint64_t{1} << (rng() % 17);
    expect_tiling(offset, bytes, element, granularity, min_piece);
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace remora::rma
