// array_patch: bandwidth of distributed-array patch put / get / acc from rank 0, with the patch
// coalesced into one strided transfer per owner ("patch"), split into one call per row ("rows",
// what a code without strided transfers does), and one call per element ("elements": scatter,
// gather, scatter_acc), on a block and an element-cyclic array (paper 003 Fig. 6: RMAInterface
// with and without derived datatypes). The other ranks wait in a barrier.
#include <functional>
#include <string>
#include <vector>

#include "common/bench_common.hpp"
#include "remora.h"

namespace {

constexpr int64_t kRows = 512, kColumns = 512;

struct Variant {
  std::string name;
  std::function<void(remora_array_t, int64_t n, double* buffer, const int64_t* subscripts)> run;
};

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  bench::Options options;
  if (!bench::begin(&argc, &argv, 2,
                    "array_patch: patch put/get/acc bandwidth, coalesced vs per row vs per "
                    "element (paper 003 Fig. 6)",
                    &options, &exit_code))
    return exit_code;
  const int rank = remora_rank(), ranks = remora_size();
  const int iterations = bench::iterations_or(options, 20);
  bench::Report report(options.csv);
  const double alpha = 1.0;
  // An n x n patch at the array's far corner (owned by the last ranks of a block array).
  auto corner = [](int64_t n, int64_t* lo, int64_t* hi) {
    lo[0] = kRows - n;
    lo[1] = kColumns - n;
    hi[0] = kRows - 1;
    hi[1] = kColumns - 1;
  };
  const std::vector<Variant> variants = {
      {"put_patch",
       [&](remora_array_t a, int64_t n, double* b, const int64_t*) {
         int64_t lo[2], hi[2];
         corner(n, lo, hi);
         bench::check(remora_array_put(a, lo, hi, b, &n), "put");
       }},
      {"put_rows",
       [&](remora_array_t a, int64_t n, double* b, const int64_t*) {
         int64_t lo[2], hi[2];
         corner(n, lo, hi);
         for (int64_t r = 0; r < n; ++r) {
           const int64_t rlo[2] = {lo[0] + r, lo[1]}, rhi[2] = {lo[0] + r, hi[1]};
           bench::check(remora_array_put(a, rlo, rhi, b + r * n, &n), "put");
         }
       }},
      {"put_elements",
       [&](remora_array_t a, int64_t n, double* b, const int64_t* s) {
         bench::check(remora_array_scatter(a, b, s, static_cast<size_t>(n * n)), "scatter");
       }},
      {"get_patch",
       [&](remora_array_t a, int64_t n, double* b, const int64_t*) {
         int64_t lo[2], hi[2];
         corner(n, lo, hi);
         bench::check(remora_array_get(a, lo, hi, b, &n), "get");
       }},
      {"get_rows",
       [&](remora_array_t a, int64_t n, double* b, const int64_t*) {
         int64_t lo[2], hi[2];
         corner(n, lo, hi);
         for (int64_t r = 0; r < n; ++r) {
           const int64_t rlo[2] = {lo[0] + r, lo[1]}, rhi[2] = {lo[0] + r, hi[1]};
           bench::check(remora_array_get(a, rlo, rhi, b + r * n, &n), "get");
         }
       }},
      {"get_elements",
       [&](remora_array_t a, int64_t n, double* b, const int64_t* s) {
         bench::check(remora_array_gather(a, b, s, static_cast<size_t>(n * n)), "gather");
       }},
      {"acc_patch",
       [&](remora_array_t a, int64_t n, double* b, const int64_t*) {
         int64_t lo[2], hi[2];
         corner(n, lo, hi);
         bench::check(remora_array_acc(a, lo, hi, b, &n, &alpha), "acc");
       }},
      {"acc_rows",
       [&](remora_array_t a, int64_t n, double* b, const int64_t*) {
         int64_t lo[2], hi[2];
         corner(n, lo, hi);
         for (int64_t r = 0; r < n; ++r) {
           const int64_t rlo[2] = {lo[0] + r, lo[1]}, rhi[2] = {lo[0] + r, hi[1]};
           bench::check(remora_array_acc(a, rlo, rhi, b + r * n, &n, &alpha), "acc");
         }
       }},
      {"acc_elements",
       [&](remora_array_t a, int64_t n, double* b, const int64_t* s) {
         bench::check(remora_array_scatter_acc(a, b, s, static_cast<size_t>(n * n), &alpha),
                      "scatter_acc");
       }},
  };
  const int64_t dims[2] = {kRows, kColumns};
  for (const char* layout : {"block", "element_cyclic"}) {
    remora_array_t a = nullptr;
    if (std::string(layout) == "block")
      bench::check(remora_array_create(REMORA_DOUBLE, 2, dims, "bench", &a), "create");
    else
      bench::check(remora_array_create_element_cyclic(REMORA_DOUBLE, dims, nullptr, "bench", &a),
                   "create");
    for (int64_t n : {4, 16, 64, 256}) {
      std::vector<double> buffer(static_cast<size_t>(n * n), 1.0);
      std::vector<int64_t> subscripts;
      int64_t lo[2], hi[2];
      corner(n, lo, hi);
      for (int64_t i = lo[0]; i <= hi[0]; ++i)
        for (int64_t j = lo[1]; j <= hi[1]; ++j) subscripts.insert(subscripts.end(), {i, j});
      const size_t bytes = static_cast<size_t>(n * n) * sizeof(double);
      for (const Variant& v : variants) {
        std::vector<double> us;
        if (rank == 0)
          us = bench::time_batches(
              options.batches, iterations, [] {},
              [&](int) { v.run(a, n, buffer.data(), subscripts.data()); });
        bench::check(remora_array_sync(), "sync");
        if (rank == 0)
          report.add("array_patch", bench::with_progress(std::string(layout) + "_" + v.name), ranks,
                     bytes, "MBps", static_cast<double>(bytes) / bench::median(us));
      }
    }
    bench::check(remora_array_destroy(&a), "destroy");
  }
  report.print();
  return remora_finalize();
}
