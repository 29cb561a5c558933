#include "nbc/nbc_method.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "common/bench_common.hpp"

namespace nbc {
namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

// Work units with a test every test_every units (0: never).
void compute(Backend& backend, long units, long test_every) {
  if (test_every <= 0) return work_units(units);
  for (long done = 0; done < units; done += test_every) {
    work_units(std::min(test_every, units - done));
    backend.test();
  }
}

template <typename F>
double time_us(Backend& backend, F&& body) {
  backend.barrier();
  const double start = backend.now_us();
  body();
  return backend.now_us() - start;
}

bool parse_count(const char* text, long* value) {
  char* end = nullptr;
  const long parsed = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || parsed < 1) return false;
  *value = parsed;
  return true;
}

}  // namespace

// Each unit's result goes here, so that the compiler cannot drop the arithmetic.
volatile double work_sink = 0;

void work_units(long units) {
  // A dependent chain the compiler cannot fold away.
  for (long unit = 0; unit < units; ++unit) {
    double x = 1.0 + static_cast<double>(unit & 7) * 1e-9;
    for (int i = 0; i < 256; ++i) x = x * 1.0000001 + 1e-12;
    work_sink = x;
  }
}

double calibrate(Backend& backend) {
  // Many short runs, the fastest counts: a run shorter than a scheduler time slice measures
  // the CPU's speed rather than how the ranks that share the cores were scheduled.
  constexpr long kUnits = 50;
  double best = 1e300;
  backend.barrier();
  for (int run = 0; run < 400; ++run) {
    const double start = backend.now_us();
    work_units(kUnits);
    best = std::min(best, backend.now_us() - start);
  }
  return backend.max_over_ranks(static_cast<double>(kUnits) / std::max(best, 1e-3));
}

Result measure(Backend& backend, const Point& point) {
  backend.run_blocking();  // warm-up (connections, scratch allocation)
  std::vector<double> blocking, alone;
  for (int rep = 0; rep < point.repetitions; ++rep)
    blocking.push_back(time_us(backend, [&] { backend.run_blocking(); }));
  Result result;
  result.blocking_us = backend.max_over_ranks(median(blocking));
  const auto units = static_cast<long>(result.blocking_us * point.units_per_us + 0.5);
  // Computation alone and overlapped alternate, so that both see the same machine load.
  std::vector<std::vector<double>> total(point.test_every.size());
  for (int rep = 0; rep < point.repetitions; ++rep) {
    alone.push_back(time_us(backend, [&] { work_units(units); }));
    for (size_t k = 0; k < point.test_every.size(); ++k)
      total[k].push_back(time_us(backend, [&] {
        backend.start();
        compute(backend, units, point.test_every[k]);
        backend.wait();
      }));
  }
  const double compute_us = median(alone);
  result.compute_us = backend.max_over_ranks(compute_us);
  for (const auto& times : total)
    result.overhead_us.push_back(backend.max_over_ranks(median(times) - compute_us));
  return result;
}

const char* operation_name(Operation operation) {
  switch (operation) {
    case Operation::Barrier:
      return "ibarrier";
    case Operation::Bcast:
      return "ibcast";
    case Operation::Allreduce:
      return "iallreduce";
    case Operation::Reduce:
      return "ireduce";
    case Operation::Gather:
      return "igather";
    case Operation::Alltoall:
      return "ialltoall";
  }
  return "?";
}

void Buffers::resize(Operation operation, size_t bytes, int ranks) {
  const size_t blocks = static_cast<size_t>(ranks);
  send.assign(operation == Operation::Alltoall ? bytes * blocks : bytes, 1);
  const bool gathers = operation == Operation::Gather || operation == Operation::Alltoall;
  recv.assign(gathers ? bytes * blocks : bytes, 0);
}

void run_sizes(Backend& backend, Operation operation, const std::string& prefix, int ranks,
               int repetitions, double units_per_us, const MethodOptions& options,
               bench::Report* report) {
  const Point point{repetitions, options.test_every, units_per_us};
  std::vector<size_t> sizes =
      options.sizes.empty() ? message_sizes(options.max_bytes) : options.sizes;
  if (operation == Operation::Barrier) sizes.assign(1, 0);
  for (size_t bytes : sizes) {
    backend.prepare(bytes);
    const Result result = measure(backend, point);
    for (size_t k = 0; k < options.test_every.size(); ++k) {
      const std::string variant = prefix + "/" + test_every_label(options.test_every[k]);
      report->add("nbc_overhead", variant, ranks, bytes, "blocking_us", result.blocking_us);
      report->add("nbc_overhead", variant, ranks, bytes, "compute_us", result.compute_us);
      report->add("nbc_overhead", variant, ranks, bytes, "overhead_us", result.overhead_us[k]);
    }
  }
}

bool parse_test_every(const std::string& list, std::vector<long>* values) {
  values->clear();
  std::stringstream stream(list);
  std::string item;
  while (std::getline(stream, item, ',')) {
    long value = 0;
    if (item == "never")
      values->push_back(0);
    else if (parse_count(item.c_str(), &value))
      values->push_back(value);
    else
      return false;
  }
  return !values->empty();
}

std::string test_every_label(long test_every) {
  if (test_every <= 0) return "knever";
  std::string label = "k";  // appended: "k" + std::to_string trips GCC 12's -Wrestrict at -O3
  label += std::to_string(test_every);
  return label;
}

std::vector<size_t> message_sizes(size_t max_bytes) {
  std::vector<size_t> sizes;
  for (size_t bytes = 1; bytes <= max_bytes; bytes *= 4) sizes.push_back(bytes);
  return sizes;
}

bool take_options(int* argc, char** argv, MethodOptions* options, std::string* error) {
  std::string test_every, max_bytes, sizes, operations;
  if (!bench::take_extra_options(argc, argv,
                                 {{"--test-every", &test_every},
                                  {"--max-bytes", &max_bytes},
                                  {"--sizes", &sizes},
                                  {"--operations", &operations}})) {
    *error = "an option lacks its value";
    return false;
  }
  if (!test_every.empty() && !parse_test_every(test_every, &options->test_every)) {
    *error = "bad value for --test-every: " + test_every;
    return false;
  }
  long value = 0;
  if (!max_bytes.empty()) {
    if (!parse_count(max_bytes.c_str(), &value)) {
      *error = "bad value for --max-bytes: " + max_bytes;
      return false;
    }
    options->max_bytes = static_cast<size_t>(value);
  }
  std::stringstream size_list(sizes);
  for (std::string item; std::getline(size_list, item, ',');) {
    if (!parse_count(item.c_str(), &value)) {
      *error = "bad value for --sizes: " + sizes;
      return false;
    }
    options->sizes.push_back(static_cast<size_t>(value));
  }
  if (!operations.empty()) {
    options->operations.clear();
    std::stringstream list(operations);
    for (std::string item; std::getline(list, item, ',');) {
      const auto* found = std::find_if(std::begin(kOperations), std::end(kOperations),
                                       [&item](Operation o) { return item == operation_name(o); });
      if (found == std::end(kOperations)) {
        *error = "bad value for --operations: " + item;
        return false;
      }
      options->operations.push_back(*found);
    }
  }
  return true;
}

const char* method_usage() {
  return "  --test-every L   comma list of k: test the collective every k work units while\n"
         "                   computing, or `never` (default never,10)\n"
         "  --max-bytes N    largest message size (default 1048576); sizes 1, 4, 16, ... N\n"
         "  --sizes L        comma list of message sizes in bytes instead (8,1024,65536)\n"
         "  --operations L   comma list of ibarrier, ibcast, iallreduce, ireduce, igather,\n"
         "                   ialltoall (default all, in that order)\n"
         "  --iterations R   repetitions per point (default 5); --batches is ignored\n";
}

}  // namespace nbc
