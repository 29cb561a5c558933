// Error reporting for every layer: a status code plus a per-thread message that names the
// offending argument and its value.
#pragma once

#include <string>

#include "remora/status.h"

namespace remora {

// Records a formatted message for the calling thread and returns code, so callers can write
// `return fail(REMORA_ERR_ARG, "remora_put: bytes=%zu ...", bytes);`.
int fail(int code, const char* format, ...) __attribute__((format(printf, 2, 3)));

// Clears the calling thread's message (done at the start of each public call).
void clear_error();

const char* last_error();
// The code of the calling thread's last fail() (0 after clear_error).
int last_error_code();
const char* status_name(int code);

// Formats like printf into a std::string.
std::string format(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace remora
