// Every algorithm of every collective that has a choice, by message size: the data behind the
// automatic choice in src/coll/algorithm.cpp (docs/collectives.md, "Measured defaults").
// Each point: a barrier, then K back-to-back blocking calls (K chosen so that a batch lasts
// about 20 ms, the same K on every rank); us = mean time per call of the slowest rank of a
// batch, median over the batches (us_min: fastest batch). Back-to-back calls may overlap
// (a root's eager sends complete at once), so this is time per call in a stream of calls.
// Variants: <operation>/<algorithm>, with "_progress_thread" under REMORA_PROGRESS=thread and
// "/rndv<value>" when REMORA_RNDV_BYTES is set (the eager/rendezvous crossover runs).
// bytes: the whole buffer (bcast, allreduce: doubles, SUM) or one rank's block (gather,
// scatter, alltoall).
// Usage: remorarun -n N ./coll_algorithms [--csv] [--batches B] [--ops bcast,allreduce,...]
//        [--max-bytes N]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "common/bench_common.hpp"
#include "remora.h"

namespace {

struct Algorithm {
  const char* name;
  remora_coll_algorithm_t value;
};
struct Operation {
  const char* name;
  std::vector<Algorithm> algorithms;
};

// The operations this benchmark calls, each with every algorithm the library lists for it
// (remora_coll_algorithms: the list in src/coll/algorithms/list.def).
std::vector<Operation> operations() {
  std::vector<Operation> all;
  for (const char* name : {"bcast", "allreduce", "gather", "scatter", "alltoall"}) {
    int count = 0;
    bench::check(remora_coll_algorithms(name, 0, nullptr, nullptr, &count),
                 "remora_coll_algorithms");
    std::vector<remora_coll_algorithm_t> values(static_cast<size_t>(count));
    std::vector<const char*> names(static_cast<size_t>(count));
    bench::check(remora_coll_algorithms(name, count, values.data(), names.data(), &count),
                 "remora_coll_algorithms");
    Operation operation{name, {}};
    for (size_t index = 0; index < values.size(); ++index)
      operation.algorithms.push_back({names[index], values[index]});
    all.push_back(std::move(operation));
  }
  return all;
}

class Bench {
 public:
  explicit Bench(remora_comm_t world) : world_(world), ranks_(remora_size()) {}

  void prepare(const std::string& operation, size_t bytes) {
    const auto ranks = static_cast<size_t>(ranks_);
    const bool per_block =
        operation == "gather" || operation == "scatter" || operation == "alltoall";
    const size_t doubles =
        ((per_block ? bytes * ranks : bytes) + sizeof(double) - 1) / sizeof(double);
    send_.assign(doubles, 1);
    recv_.assign(doubles, 0);
  }

  void call(const std::string& operation, remora_coll_algorithm_t algorithm, size_t bytes) {
    if (operation == "bcast")
      return bench::check(remora_bcast(send_.data(), bytes, REMORA_UINT8, 0, world_, algorithm),
                          "remora_bcast");
    if (operation == "allreduce")
      return bench::check(remora_allreduce(send_.data(), recv_.data(), bytes / sizeof(double),
                                           REMORA_DOUBLE, REMORA_OP_SUM, world_, algorithm),
                          "remora_allreduce");
    if (operation == "gather")
      return bench::check(
          remora_gather(send_.data(), recv_.data(), bytes, REMORA_UINT8, 0, world_, algorithm),
          "remora_gather");
    if (operation == "scatter")
      return bench::check(
          remora_scatter(send_.data(), recv_.data(), bytes, REMORA_UINT8, 0, world_, algorithm),
          "remora_scatter");
    bench::check(
        remora_alltoall(send_.data(), recv_.data(), bytes, REMORA_UINT8, world_, algorithm),
        "remora_alltoall");
  }

  // Calls per batch so that a batch lasts about target_us, agreed by every rank.
  int iterations_for(const std::string& operation, remora_coll_algorithm_t algorithm,
                     size_t bytes) {
    constexpr double kTargetUs = 20000;
    call(operation, algorithm, bytes);  // warm-up
    barrier();
    const double start = bench::now_us();
    call(operation, algorithm, bytes);
    double elapsed = bench::now_us() - start, slowest = 0;
    bench::check(remora_allreduce(&elapsed, &slowest, 1, REMORA_DOUBLE, REMORA_OP_MAX, world_,
                                  REMORA_COLL_AUTO),
                 "remora_allreduce");
    return static_cast<int>(std::clamp(kTargetUs / std::max(slowest, 1.0), 2.0, 2000.0));
  }

  void barrier() { bench::check(remora_barrier(), "remora_barrier"); }

  // Per batch, the slowest rank's figure: a root that only sends returns long before the
  // others have their data, so its own time would flatter the rooted algorithms.
  std::vector<double> slowest(const std::vector<double>& mine) {
    std::vector<double> result(mine.size());
    bench::check(remora_allreduce(mine.data(), result.data(), mine.size(), REMORA_DOUBLE,
                                  REMORA_OP_MAX, world_, REMORA_COLL_AUTO),
                 "remora_allreduce");
    return result;
  }

 private:
  remora_comm_t world_;
  int ranks_;
  std::vector<double> send_, recv_;  // doubles: aligned for the allreduce
};

bool wanted(const std::string& list, const char* operation) {
  if (list.empty()) return true;
  // Appended piecewise: `"," + std::string(...)` trips a GCC 12 -Wrestrict false positive at -O3.
  std::string padded = ",", wanted_item = ",";
  padded += list;
  padded += ',';
  wanted_item += operation;
  wanted_item += ',';
  return padded.find(wanted_item) != std::string::npos;
}

bool parse_max_bytes(const std::string& text, size_t* max_bytes) {
  if (text.empty()) return true;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (*end != '\0' || value < 8) return false;
  *max_bytes = static_cast<size_t>(value);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string ops, max_text;
  size_t max_bytes = size_t{1} << 20;
  const bool ours_ok =
      bench::take_extra_options(&argc, argv, {{"--ops", &ops}, {"--max-bytes", &max_text}}) &&
      parse_max_bytes(max_text, &max_bytes);
  int exit_code = 0;
  bench::Options options;
  if (!bench::begin(&argc, &argv, 1,
                    "coll_algorithms: every algorithm of bcast, allreduce, gather, scatter and "
                    "alltoall by message size\n"
                    "  --ops LIST       comma list of operations (default: all)\n"
                    "  --max-bytes N    largest size (default 1048576); sizes 8, 32, ... N",
                    &options, &exit_code))
    return exit_code;
  if (!ours_ok) {
    if (remora_rank() == 0) std::fprintf(stderr, "coll_algorithms: bad --ops or --max-bytes\n");
    remora_finalize();
    return 2;
  }
  remora_comm_t world = REMORA_COMM_NULL;
  bench::check(remora_comm_world(&world), "remora_comm_world");
  const int ranks = remora_size();
  const char* rndv = std::getenv("REMORA_RNDV_BYTES");
  const std::string suffix = rndv != nullptr && rndv[0] != '\0' ? std::string("/rndv") + rndv : "";
  bench::Report report(options.csv);
  Bench run(world);
  for (const Operation& operation : operations()) {
    if (!wanted(ops, operation.name)) continue;
    for (const Algorithm& algorithm : operation.algorithms) {
      for (size_t bytes = 8; bytes <= max_bytes; bytes *= 4) {
        run.prepare(operation.name, bytes);
        const int iterations = run.iterations_for(operation.name, algorithm.value, bytes);
        const auto us = run.slowest(bench::time_batches(
            options.batches, iterations, [&] { run.barrier(); },
            [&](int) { run.call(operation.name, algorithm.value, bytes); }));
        report.add_latency(
            "coll_algorithms",
            bench::with_progress(std::string(operation.name) + "/" + algorithm.name) + suffix,
            ranks, bytes, us);
      }
    }
  }
  report.print();
  remora_finalize();
  return 0;
}
