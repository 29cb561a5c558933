// matmul: MFLOPS of the distributed matrix multiply C = op(A) op(B) (remora_array_gemm) by
// matrix order (128, 256, ... --max-n), transpose combination (NN, NT, TN, TT) and layout
// (block, element_cyclic): paper 003 Fig. 8. Variant <layout>_<op>; bytes = one matrix
// (n^2 doubles); MFLOPS = 2 n^3 / the median time over the batches. A and B are all ones, so
// every element of C must equal n: a few are checked after each point (apps/matmul verifies
// gemm on general data).
#include <string>
#include <vector>

#include "common/bench_common.hpp"
#include "common/bench_limit.hpp"
#include "remora.h"

namespace {

remora_array_t create(bool cyclic, int64_t n, const char* name) {
  const int64_t dims[2] = {n, n};
  remora_array_t m = nullptr;
  if (cyclic)
    bench::check(remora_array_create_element_cyclic(REMORA_DOUBLE, dims, nullptr, name, &m),
                 "create_element_cyclic");
  else
    bench::check(remora_array_create(REMORA_DOUBLE, 2, dims, name, &m), "create");
  return m;
}

// Corners and centre of C must hold n (the dot product of a row of ones and a column of ones).
void check_product(remora_array_t c, int64_t n) {
  for (const int64_t at : {int64_t{0}, n / 2, n - 1}) {
    const int64_t lo[2] = {at, n - 1 - at}, ld[1] = {1};
    double value = 0;
    bench::check(remora_array_get(c, lo, lo, &value, ld), "get");
    if (value != static_cast<double>(n)) remora_abort(3, "matmul: wrong product");
  }
}

constexpr char kUsage[] =
    "matmul: distributed gemm MFLOPS by order, transpose combination and layout "
    "(paper 003 Fig. 8)\n"
    "  --max-n N        largest matrix order (default 1024); 128, 256, ... N\n"
    "  --batches B      measured multiplications per point (median reported)";

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  bench::Options options;
  int64_t max_n = 0;
  if (!bench::begin_with_limit(&argc, &argv, 1, kUsage, "--max-n", 1024, &max_n, &options,
                               &exit_code))
    return exit_code;
  const int ranks = remora_size();
  bench::Report report(options.csv);
  const double one = 1.0, zero = 0.0;
  for (const bool cyclic : {false, true}) {
    for (const size_t order : bench::sizes(128, static_cast<size_t>(max_n), 2)) {
      const auto n = static_cast<int64_t>(order);
      remora_array_t a = create(cyclic, n, "A"), b = create(cyclic, n, "B"),
                     c = create(cyclic, n, "C");
      bench::check(remora_array_fill(a, &one), "fill");
      bench::check(remora_array_fill(b, &one), "fill");
      for (const char* op : {"NN", "NT", "TN", "TT"}) {
        const std::vector<double> us = bench::time_batches(
            options.batches, 1, [] { bench::check(remora_barrier(), "barrier"); },
            [&](int) {
              bench::check(remora_array_gemm(op[0], op[1], &one, a, b, &zero, c), "gemm");
            });
        check_product(c, n);
        const double flops =
            2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
        report.add("matmul", std::string(cyclic ? "element_cyclic_" : "block_") + op, ranks,
                   static_cast<size_t>(n * n) * sizeof(double), "MFLOPS",
                   flops / bench::median(us));
      }
      for (remora_array_t* m : {&a, &b, &c}) bench::check(remora_array_destroy(m), "destroy");
    }
  }
  report.print();
  return remora_finalize();
}
