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

uint32_t signature(Operation operation, Algorithm algorithm, int root);
// "gather (algorithm binomial, root 1)".
std::string describe_signature(uint32_t signature);
// Whether a message with signature `arrived` may belong to a call with signature `mine`.
bool signatures_agree(uint32_t mine, uint32_t arrived);

}  // namespace remora::coll
