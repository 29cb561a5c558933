// hf_proxy: tasks per second of the Hartree-Fock proxy (apps/hf_proxy, paper 003 Fig. 7) by
// variant (axpy_eom, axpy_nbc, rma_nb, rma_blocking), layout (block, element_cyclic) and
// number of tasks per phase (64, 256, ... --max-tasks). The progress mode and accumulate
// strategy are the job's (REMORA_PROGRESS, REMORA_ACC_STRATEGY) and label the variant:
// <layout>_<variant>_t<tasks>[_owner|_caller|_native][_progress_<mode>]. bytes = one tile
// (tile^2 doubles). Every run is verified; a wrong matrix aborts the benchmark.
#include <string>
#include <vector>

#include "common/bench_common.hpp"
#include "common/bench_limit.hpp"
#include "hf_proxy.h"
#include "remora.h"

namespace {

constexpr int64_t kOrder = 256, kTile = 16;

// The accumulate strategy as a variant suffix: empty for the default (auto).
std::string strategy_suffix() {
  const std::string strategy = bench::env_or("REMORA_ACC_STRATEGY", "auto");
  return strategy == "auto" ? "" : "_" + strategy;
}

constexpr char kUsage[] =
    "hf_proxy: Hartree-Fock proxy tasks/s by variant, layout and number of tasks "
    "(paper 003 Fig. 7)\n"
    "  --max-tasks N    largest number of tasks per phase (default 16384); "
    "64, 256, ... N\n"
    "  --batches B      measured runs per point (the median is reported)";

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  bench::Options options;
  int64_t max_tasks = 0;
  if (!bench::begin_with_limit(&argc, &argv, 1, kUsage, "--max-tasks", 16384, &max_tasks, &options,
                               &exit_code))
    return exit_code;
  const hf_array_api* api = hf_remora_api();
  const int ranks = remora_size();
  bench::Report report(options.csv);
  hf_counter counter = nullptr;
  bench::check(api->counter_create(2, &counter), "counter_create");
  for (int l = 0; l < HF_LAYOUT_COUNT; ++l) {
    const auto layout = static_cast<hf_layout>(l);
    hf_matrix matrix = nullptr;
    bench::check(api->create(layout, kOrder, &matrix), "create");
    for (int v = 0; v < HF_VARIANT_COUNT; ++v) {
      const auto variant = static_cast<hf_variant>(v);
      for (const size_t count : bench::sizes(64, static_cast<size_t>(max_tasks), 4)) {
        const auto tasks = static_cast<int64_t>(count);
        const hf_config config{kOrder, kTile, tasks, 0};
        std::vector<double> rates;
        for (int batch = -1; batch < options.batches; ++batch) {  // the first one warms up
          hf_result result{};
          bench::check(hf_run(api, matrix, counter, &config, variant, &result), "hf_run");
          if (result.mismatches != 0) remora_abort(3, "hf_proxy: a run did not verify");
          if (batch >= 0) rates.push_back(2.0 * static_cast<double>(tasks) / result.seconds);
        }
        const std::string name = std::string(hf_layout_name(layout)) + "_" +
                                 hf_variant_name(variant) + "_t" + std::to_string(tasks) +
                                 strategy_suffix();
        const size_t bytes = static_cast<size_t>(kTile * kTile) * sizeof(double);
        report.add("hf_proxy", bench::with_progress(name), ranks, bytes, "tasks_per_s",
                   bench::median(rates));
      }
    }
    bench::check(api->destroy(&matrix), "destroy");
  }
  bench::check(api->counter_destroy(&counter), "counter_destroy");
  report.print();
  return remora_finalize();
}
