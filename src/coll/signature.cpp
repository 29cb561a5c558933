#include "coll/signature.hpp"

#include "core/error.hpp"

namespace remora::coll {
using signature_layout::kAlgorithmShift;
using signature_layout::kFieldMask;
using signature_layout::kRootMask;
using signature_layout::kRootShift;

std::string describe_signature(uint32_t value) {
  if (value == kInternalSignature) return "a communicator creation";
  if ((value & kFieldMask) - 1 > static_cast<uint32_t>(Operation::Scan) ||
      ((value >> kAlgorithmShift & kFieldMask) != 0 &&
       find_algorithm(static_cast<int>(value >> kAlgorithmShift & kFieldMask)) == nullptr))
    return format("an unknown call (signature %#x)", value);
  const auto operation = static_cast<Operation>((value & kFieldMask) - 1);
  const auto algorithm = static_cast<Algorithm>(value >> kAlgorithmShift & kFieldMask);
  const unsigned root = value >> kRootShift & kRootMask;
  return format("%s (algorithm %s, root %u)", operation_name(operation), algorithm_name(algorithm),
                root);
}

bool signatures_agree(uint32_t mine, uint32_t arrived) {
  return mine == arrived || mine == kUncheckedSignature || arrived == kUncheckedSignature;
}

}  // namespace remora::coll
