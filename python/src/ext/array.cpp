// remora.Array: distributed arrays (remora/array.h) with numpy patches.
#include "common.h"

namespace remora_py {
void bind_array(nb::module_&) {}
} // namespace remora_py
