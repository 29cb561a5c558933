#include "signal_names.hpp"

#include <csignal>
#include <cstring>

namespace remorarun {

std::string signal_name(int signal_number) {
  // glibc >= 2.32; realtime signals have no abbreviation.
  if (const char* abbreviation = sigabbrev_np(signal_number); abbreviation != nullptr)
    return std::string("SIG") + abbreviation;
  if (signal_number >= SIGRTMIN && signal_number <= SIGRTMAX)
    return "SIGRTMIN+" + std::to_string(signal_number - SIGRTMIN);
  return "signal " + std::to_string(signal_number);
}

std::string signal_description(int signal_number) {
  const char* description = sigdescr_np(signal_number);
  if (description == nullptr) return signal_name(signal_number);
  return signal_name(signal_number) + " (" + description + ")";
}

}  // namespace remorarun
