// Collective operations on whole arrays. Each begins and ends with a sync. Where the arrays
// involved share one layout the work is local; otherwise each rank handles a slab of rows
// (dimension 0 split evenly over the ranks): it gets the slab of every input, computes, and
// puts the slab of the output, so any pair of distributions works.
#pragma once

#include <cstdio>

#include "arrays/array.hpp"

namespace remora::arrays {

// Collective: completes every rank's operations on every array, then a world barrier.
int sync_all(const Context& context);

int fill(Array& a, const void* value);  // value nullptr: zero
int scale(Array& a, const void* alpha);
int copy(Array& a, Array& b);
int add(const void* alpha, Array& a, const void* beta, Array& b, Array& c);
int dot(Array& a, Array& b, void* result);
int norm(Array& a, double* result);
int transpose(Array& a, Array& b);
int symmetrize(Array& a);
int print_patch(Array& a, const int64_t* lo, const int64_t* hi, FILE* stream);
int gemm(bool trans_a, bool trans_b, const void* alpha, Array& a, Array& b, const void* beta,
         Array& c);

}  // namespace remora::arrays
