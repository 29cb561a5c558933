// What a collective call looks like from the outside: its operation, algorithm and root,
// packed into 24 bits that travel in every message of the collective. A receiver whose own call
// of the same instance has another signature knows the ranks disagree (different roots,
// operations or algorithms), which would otherwise leave some of them waiting for messages that
// are never sent.
#pragma once

#include <cstdint>
#include <string>

#include "coll/algorithm.hpp"

namespace remora::coll {

// Collectives the library runs for itself (communicator creation).
inline constexpr uint32_t kInternalSignature = 0;
// Messages sent outside a schedule (the application-bypass reduce's forwarded results): not
// checked.
inline constexpr uint32_t kUncheckedSignature = 0xFFFFFF;

// The fields of a signature.
namespace signature_layout {
inline constexpr unsigned kAlgorithmShift = 5, kRootShift = 10;
inline constexpr uint32_t kFieldMask = 31, kRootMask = (1U << 14) - 1;
}  // namespace signature_layout

// Inline: every call of the small path computes one.
constexpr uint32_t signature(Operation operation, Algorithm algorithm, int root) {
  using signature_layout::kAlgorithmShift, signature_layout::kRootShift,
      signature_layout::kRootMask;
  // operation + 1: 0 is kInternalSignature. The root is kept modulo 2^14, enough to tell apart
  // the roots of any real disagreement.
  return (static_cast<uint32_t>(operation) + 1) |
         static_cast<uint32_t>(algorithm) << kAlgorithmShift |
         (static_cast<uint32_t>(root) & kRootMask) << kRootShift;
}
// "gather (algorithm binomial, root 1)".
std::string describe_signature(uint32_t signature);
// Whether a message with signature `arrived` may belong to a call with signature `mine`.
bool signatures_agree(uint32_t mine, uint32_t arrived);

}  // namespace remora::coll
