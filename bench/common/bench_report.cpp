// The parts of bench/common that use no library (options, statistics, the report), so that
// the MPI twins of the benchmarks (bench/*_mpi.cpp) can be built against any MPI without Remora.
#include "common/bench_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace bench {
namespace {

void print_usage(const char* program, const char* description) {
  std::fprintf(stderr,
               "%s\n"
               "usage: remorarun -n N %s [--csv] [--iterations K] [--batches B]\n"
               "  --csv           print CSV (bench,variant,ranks,bytes,metric,value)\n"
               "  --iterations K  operations per batch (default: per benchmark)\n"
               "  --batches B     measured batches, after one warm-up batch (default 5);\n"
               "                  figures are the median (and min) over the batches\n",
               description, program);
}

bool parse_positive(const char* text, int* out) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < 1 || value > 100000000) return false;
  *out = static_cast<int>(value);
  return true;
}

std::string human_bytes(size_t bytes) {
  if (bytes >= (size_t{1} << 20) && bytes % (size_t{1} << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " B";
}

std::string format_value(double value, bool csv) {
  char text[64];
  if (csv)
    std::snprintf(text, sizeof text, "%.6g", value);
  else if (std::fabs(value) >= 100)
    std::snprintf(text, sizeof text, "%.1f", value);
  else if (std::fabs(value) >= 1)
    std::snprintf(text, sizeof text, "%.3f", value);
  else
    std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

}  // namespace

bool parse_options(int argc, char** argv, const char* description, Options* options, int* exit_code,
                   bool talk) {
  const char* program = argc > 0 ? argv[0] : "bench";
  if (const char* slash = std::strrchr(program, '/')) program = slash + 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    int* target = nullptr;
    if (argument == "--csv") {
      options->csv = true;
      continue;
    }
    if (argument == "--help" || argument == "-h") {
      if (talk) print_usage(program, description);
      *exit_code = 0;
      return false;
    }
    if (argument == "--iterations") target = &options->iterations;
    if (argument == "--batches") target = &options->batches;
    if (target == nullptr || i + 1 >= argc || !parse_positive(argv[i + 1], target)) {
      if (talk) {
        std::fprintf(stderr, "%s: bad argument '%s'\n", program, argv[i]);
        print_usage(program, description);
      }
      *exit_code = 2;
      return false;
    }
    ++i;
  }
  return true;
}

bool take_extra_options(int* argc, char** argv, const std::vector<ExtraOption>& extras) {
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    auto extra = std::find_if(extras.begin(), extras.end(), [&](const ExtraOption& option) {
      return std::strcmp(argv[i], option.name) == 0;
    });
    if (extra == extras.end()) {
      argv[kept++] = argv[i];
      continue;
    }
    if (i + 1 >= *argc) return false;
    *extra->value = argv[++i];
  }
  *argc = kept;
  argv[kept] = nullptr;
  return true;
}

int iterations_or(const Options& options, int default_iterations) {
  return options.iterations > 0 ? options.iterations : default_iterations;
}

int iterations_by_volume(size_t bytes, int iterations, size_t bytes_per_batch, int minimum) {
  const size_t by_volume =
      std::max(bytes_per_batch / std::max<size_t>(bytes, 1), static_cast<size_t>(minimum));
  return static_cast<int>(std::min(static_cast<size_t>(iterations), by_volume));
}

std::string env_or(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && value[0] != '\0' ? value : fallback;
}

std::string progress_mode() {
  return env_or("REMORA_PROGRESS", "manual");
}

std::string with_progress(const std::string& variant) {
  const std::string mode = progress_mode();
  return mode == "manual" ? variant : variant + "_progress_" + mode;
}

std::vector<size_t> sizes(size_t first, size_t last, size_t factor) {
  std::vector<size_t> result;
  for (size_t size = first; size < last; size *= factor) result.push_back(size);
  result.push_back(last);
  return result;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

double minimum(const std::vector<double>& values) {
  return values.empty() ? 0 : *std::min_element(values.begin(), values.end());
}

double maximum(const std::vector<double>& values) {
  return values.empty() ? 0 : *std::max_element(values.begin(), values.end());
}

void Report::add(const std::string& bench, const std::string& variant, int ranks, size_t bytes,
                 const std::string& metric, double value) {
  rows_.push_back(Row{bench, variant, ranks, bytes, metric, value});
}

void Report::add_latency(const std::string& bench, const std::string& variant, int ranks,
                         size_t bytes, const std::vector<double>& us_per_op) {
  add(bench, variant, ranks, bytes, "us", median(us_per_op));
  add(bench, variant, ranks, bytes, "us_min", minimum(us_per_op));
}

void Report::print(bool leader) {
  if (!leader) {
    rows_.clear();
    return;
  }
  if (csv_) {
    std::printf("bench,variant,ranks,bytes,metric,value\n");
    for (const Row& row : rows_)
      std::printf("%s,%s,%d,%zu,%s,%s\n", row.bench.c_str(), row.variant.c_str(), row.ranks,
                  row.bytes, row.metric.c_str(), format_value(row.value, true).c_str());
    std::fflush(stdout);
    rows_.clear();
    return;
  }
  // Table: one line per (bench, variant, ranks, bytes), one column per metric, in the order
  // they first appear. Metrics ending in "us" are medians of per-operation microseconds
  // ("us_min" the minimum); the legend below says so.
  std::vector<std::string> metrics;
  struct Line {
    std::string bench, variant, ranks, bytes;
    std::vector<std::string> cells;
  };
  std::vector<Line> lines;
  for (const Row& row : rows_) {
    if (std::find(metrics.begin(), metrics.end(), row.metric) == metrics.end())
      metrics.push_back(row.metric);
  }
  for (const Row& row : rows_) {
    const std::string ranks = std::to_string(row.ranks);
    const std::string bytes = human_bytes(row.bytes);
    auto line = std::find_if(lines.begin(), lines.end(), [&](const Line& l) {
      return l.bench == row.bench && l.variant == row.variant && l.ranks == ranks &&
             l.bytes == bytes;
    });
    if (line == lines.end()) {
      lines.push_back(Line{row.bench, row.variant, ranks, bytes,
                           std::vector<std::string>(metrics.size(), "-")});
      line = lines.end() - 1;
    }
    const auto column = static_cast<size_t>(std::find(metrics.begin(), metrics.end(), row.metric) -
                                            metrics.begin());
    line->cells[column] = format_value(row.value, false);
  }
  std::vector<std::string> header = {"bench", "variant", "ranks", "bytes"};
  header.insert(header.end(), metrics.begin(), metrics.end());
  std::vector<std::vector<std::string>> table;
  table.push_back(header);
  for (const Line& line : lines) {
    std::vector<std::string> cells = {line.bench, line.variant, line.ranks, line.bytes};
    cells.insert(cells.end(), line.cells.begin(), line.cells.end());
    table.push_back(cells);
  }
  std::vector<size_t> widths(header.size(), 0);
  for (const auto& cells : table)
    for (size_t c = 0; c < cells.size(); ++c) widths[c] = std::max(widths[c], cells[c].size());
  for (const auto& cells : table) {
    std::string text;
    for (size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(widths[c] - cells[c].size(), ' ');
      text += c < 2 ? cells[c] + pad : pad + cells[c];  // names left, numbers right
      if (c + 1 < cells.size()) text += "  ";
    }
    std::printf("%s\n", text.c_str());
  }
  std::printf(
      "(us = median microseconds per operation over the batches, us_min = fastest batch;\n"
      " MBps = 10^6 bytes per second; ratio = quotient of two medians)\n");
  std::fflush(stdout);
  rows_.clear();
}

}  // namespace bench
