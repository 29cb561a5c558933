#include "skew/skew_method.hpp"

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "common/bench_common.hpp"

namespace skew {
namespace {

double cpu_us(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) * 1e-3;
}
double thread_cpu_us() {
  return cpu_us(CLOCK_THREAD_CPUTIME_ID);
}
double process_cpu_us() {
  return cpu_us(CLOCK_PROCESS_CPUTIME_ID);
}

// Busy-loops until this thread has used `us` microseconds of CPU time (so that a rank that is
// descheduled on an oversubscribed node still does the same amount of "work").
void busy_loop(double us) {
  if (us <= 0) return;
  const double start = thread_cpu_us();
  while (thread_cpu_us() - start < us) {
  }
}

class Experiment {
 public:
  Experiment(Backend& backend, const std::string& variant, const std::string& suffix, int batches,
             bench::Report* report)
      : backend_(backend),
        variant_(variant),
        suffix_(suffix),
        batches_(batches),
        report_(report),
        rank_(backend.rank()),
        ranks_(backend.size()),
        random_(12345u + 7919u * static_cast<unsigned>(backend.rank())) {}

  // Part 1: one (elements, max skew) point; adds cpu_us, call_cpu_us, sep_cpu_us.
  void skew_point(size_t elements, int max_skew_us, int iterations) {
    resize(elements);
    std::uniform_real_distribution<double> skew(0.0, static_cast<double>(max_skew_us));
    const double catchup_us = max_skew_us + 50.0;
    std::vector<double> cpu, call, sep, root_cpu, other_cpu;
    for (int batch = -1; batch < batches_; ++batch) {
      backend_.barrier();
      double sums[3] = {0, 0, 0};  // cpu, call, sep of this rank, summed over iterations
      for (int i = 0; i < iterations; ++i) {
        const double p0 = process_cpu_us();
        const double s0 = thread_cpu_us();
        busy_loop(skew(random_));
        const double s1 = thread_cpu_us();
        reduce();
        const double c1 = thread_cpu_us();
        busy_loop(catchup_us);
        const double k1 = thread_cpu_us();
        backend_.progress();
        const double p1 = process_cpu_us();
        sums[0] += (p1 - p0) - (s1 - s0) - (k1 - c1);
        sums[1] += c1 - s1;
        const double b0 = thread_cpu_us();
        backend_.barrier();
        sums[2] += thread_cpu_us() - b0;
        verify();
      }
      double totals[3] = {0, 0, 0};
      backend_.sum_at_root(sums, totals);
      if (batch < 0) continue;
      const double per = 1.0 / (static_cast<double>(iterations) * ranks_);
      cpu.push_back(totals[0] * per);
      if (rank_ == 0) {  // the root waits for the whole result; the others only contribute
        root_cpu.push_back(sums[0] / iterations);
        if (ranks_ > 1)
          other_cpu.push_back((totals[0] - sums[0]) /
                              (static_cast<double>(iterations) * (ranks_ - 1)));
      }
      call.push_back(totals[1] * per);
      sep.push_back(totals[2] * per);
    }
    const std::string name = variant_ + "/skew" + std::to_string(max_skew_us) + suffix_;
    const size_t bytes = elements * sizeof(double);
    report_->add("reduce_skew", name, ranks_, bytes, "cpu_us", bench::median(cpu));
    report_->add("reduce_skew", name, ranks_, bytes, "call_cpu_us", bench::median(call));
    report_->add("reduce_skew", name, ranks_, bytes, "sep_cpu_us", bench::median(sep));
    if (rank_ != 0) return;
    report_->add("reduce_skew", name, ranks_, bytes, "root_cpu_us", bench::median(root_cpu));
    if (!other_cpu.empty())
      report_->add("reduce_skew", name, ranks_, bytes, "other_cpu_us", bench::median(other_cpu));
  }

  // Part 2: latency without skew, as seen by the root.
  void latency_point(size_t elements, int iterations) {
    resize(elements);
    std::vector<double> per_reduce;
    for (int batch = -1; batch < batches_; ++batch) {
      double total = 0;
      for (int i = 0; i < iterations; ++i) {
        backend_.barrier();
        const double start = backend_.now_us();
        reduce();
        total += backend_.now_us() - start;
        verify();
      }
      if (batch >= 0) per_reduce.push_back(total / iterations);
    }
    report_->add_latency("reduce_skew", variant_ + suffix_, ranks_, elements * sizeof(double),
                         per_reduce);
  }

 private:
  void resize(size_t elements) {
    send_.assign(elements, static_cast<double>(rank_ + 1));
    recv_.assign(elements, 0.0);
  }
  void reduce() { backend_.reduce(send_.data(), recv_.data(), send_.size()); }
  // The root checks the sum 1 + 2 + ... + ranks (exact in doubles).
  void verify() {
    if (rank_ != 0) return;
    const double expected = 0.5 * ranks_ * (ranks_ + 1);
    for (double value : recv_) {
      if (value != expected) {
        std::fprintf(stderr, "reduce_skew: wrong result %g (expected %g)\n", value, expected);
        backend_.abort("reduce_skew: wrong result");
      }
    }
    std::fill(recv_.begin(), recv_.end(), 0.0);
  }

  Backend& backend_;
  std::string variant_, suffix_;
  int batches_;
  bench::Report* report_;
  int rank_;
  int ranks_;
  std::mt19937 random_;
  std::vector<double> send_, recv_;
};

}  // namespace

bool take_points(int* argc, char** argv, Points* points) {
  std::string skews, latency = "on";
  if (!bench::take_extra_options(argc, argv, {{"--skews", &skews}, {"--latency", &latency}})) {
    std::fprintf(stderr, "reduce_skew: --skews and --latency need a value\n");
    return false;
  }
  if (latency != "on" && latency != "off") {
    std::fprintf(stderr, "reduce_skew: --latency %s: expected on or off\n", latency.c_str());
    return false;
  }
  points->latency = latency == "on";
  if (skews.empty()) return true;
  points->skews.clear();
  if (skews == "none") return true;
  for (size_t start = 0; start <= skews.size();) {
    const size_t end = std::min(skews.find(',', start), skews.size());
    const std::string item = skews.substr(start, end - start);
    char* rest = nullptr;
    const long value = std::strtol(item.c_str(), &rest, 10);
    if (item.empty() || *rest != '\0' || value < 0 || value > 1000000) {
      std::fprintf(stderr, "reduce_skew: --skews %s: expected max skews in us, e.g. 0,1000\n",
                   skews.c_str());
      return false;
    }
    points->skews.push_back(static_cast<int>(value));
    start = end + 1;
  }
  return true;
}

void run(const std::vector<Variant>& variants, const std::string& suffix, int iterations,
         int batches, const Points& points, bench::Report* report) {
  std::vector<Experiment> experiments;
  for (const Variant& variant : variants)
    experiments.emplace_back(*variant.backend, variant.name, suffix, batches, report);
  for (size_t elements : {size_t{4}, size_t{32}, size_t{128}}) {
    for (int max_skew : points.skews) {
      const int per_batch = std::max(
          1, max_skew == 0 ? iterations : (max_skew <= 100 ? iterations / 4 : iterations / 12));
      for (Experiment& experiment : experiments)
        experiment.skew_point(elements, max_skew, per_batch);
    }
  }
  if (points.latency)
    for (size_t elements : {size_t{1}, size_t{4}, size_t{32}, size_t{128}})
      for (Experiment& experiment : experiments)
        experiment.latency_point(elements, std::max(1, iterations / 2));
  if (!variants.empty()) variants.front().backend->barrier();
}

}  // namespace skew
