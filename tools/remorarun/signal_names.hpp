// Names for signals in messages: "SIGSEGV (Segmentation fault)".
#pragma once

#include <string>

namespace remorarun {

// "SIGSEGV", "SIGRTMIN+3", or "signal 99".
std::string signal_name(int signal_number);

// "SIGSEGV (Segmentation fault)".
std::string signal_description(int signal_number);

}  // namespace remorarun
