// Argument checks shared by the array and AXPY entry points.
#pragma once

#include <cstdint>

#include "arrays/array.hpp"

namespace remora::api {
struct Runtime;
}  // namespace remora::api

namespace remora::api {

// lo..hi is a non-empty patch inside a (each message names function and the argument).
int check_patch(const char* function, const remora::arrays::Array& a, const int64_t* lo,
                const int64_t* hi);
// ...and buffer is not NULL, ld (ndim-1 entries) covers the patch.
int check_transfer(const char* function, const remora::arrays::Array& a, const int64_t* lo,
                   const int64_t* hi, const void* buffer, const int64_t* ld);

}  // namespace remora::api

namespace remora::api {

// What an entry point does with an array: compute on its elements (byte arrays refused) or
// only move, query, duplicate or destroy it (any array).
enum class ArrayUse { Compute, Move };
// handle is a live array (message names function and the argument name) that use allows.
int find_array(const char* function, const char* name, remora_array_t handle,
               remora::arrays::Array** array, ArrayUse use = ArrayUse::Compute);
// a has two dimensions.
int check_2d(const char* function, const char* name, const remora::arrays::Array& a);
// trans is 'N'/'n' (*transposed = false) or 'T'/'t' (true).
int check_trans(const char* function, const char* name, char trans, bool* transposed);
// b lives on the same ranks as a (arrays of one collective operation must).
int check_same_ranks(const char* function, const char* name, const remora::arrays::Array& a,
                     const remora::arrays::Array& b);
// alpha is not NULL.
int check_alpha(const char* function, const void* alpha);
// A collective entry: Remora is initialized and this is not an active-message handler.
int enter_collective(const char* function, Runtime** runtime);
// "DOUBLE" for REMORA_DOUBLE, as messages name types.
const char* type_name(int type);
// The AXPY batches attached to a and not yet detached on this rank (axpy_api.cpp).
int attached_batches(const Runtime& runtime, const remora::arrays::Array* a);

}  // namespace remora::api
