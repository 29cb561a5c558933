// What the rest of the GA layer needs of the sparse arrays (NGA_Sprs_array_*,
// ga_sparse_array.cpp).
#pragma once

namespace remora::ga {

// GA_Terminate: every sparse handle becomes invalid (their GA arrays are destroyed with the
// others), so a handle kept across GA_Terminate and GA_Initialize fails like a destroyed one.
void forget_sparse_arrays();

}  // namespace remora::ga
