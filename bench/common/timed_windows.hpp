// Fixed-duration throughput of an operation that every rank issues at once (the contended
// accumulate of bench/acc_bandwidth and of its MPI twin bench/peers/rma_peers_mpi.cpp).
// Header only and without Remora, so that both programs measure the same way.
//
// Why not time K operations per rank: with more ranks than CPUs, a rank descheduled inside its
// batch stretches the slowest rank's time by a scheduler slice and the run reads ~10x slower
// (docs/benchmarks-log.md, "Contended accumulate rows are bimodal"). Here every rank repeats the
// operation until a deadline shared by all ranks and counts what it completed; CPU time that a
// descheduled rank loses goes to the others and still counts.
//
// One window: the ranks agree on a start (the latest rank's clock on entering an allreduce, so
// nobody starts before it), run chunks of operations until start + window, complete them (the
// flush) and read the clock again. The figure of a window: every rank's completed bytes /
// (the last rank's end - the first rank's begin), in MB/s: the time from the agreed start to
// the first rank leaving the allreduce is the collective's (each library's own), not work. Not the
// sum of the ranks' own rates (own bytes / own end - own begin): a rank that leaves the start's
// allreduce late runs a short while, alone at the end, and its rate inflated that sum 10x in a
// loaded run (613 against 48 MB/s). The clock is steady_clock (CLOCK_MONOTONIC), one clock for
// every process of a node.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <vector>

namespace bench::timed {

inline double steady_us() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Operations between two clock reads: about 4 KiB of payload (a clock read costs about one
// 8-byte accumulate, so this keeps it under 1 %), at least one. A rank overshoots the deadline
// by at most one chunk and its completion; the aggregate's denominator includes the overshoot.
inline int chunk_for(size_t bytes) {
  return static_cast<int>(std::max<size_t>(1, 4096 / std::max<size_t>(bytes, 1)));
}

struct Figures {
  std::vector<double> aggregate_mbps;  // one per measured window
  double operations = 0;  // completed by every rank in every window, the warm-up included
};

// Collective: every rank calls it with the same bytes, windows and window_us. One unmeasured
// warm-up window, then `windows` measured ones. Hooks:
//   op()                               one operation (counted when the loop completes a chunk)
//   complete()                         completes the rank's operations (a flush)
//   allreduce(double* v, int n, bool max)  in place over all ranks: MAX if max, else SUM
template <typename Op, typename Complete, typename Allreduce>
Figures measure(size_t bytes, int windows, double window_us, Op&& op, Complete&& complete,
                Allreduce&& allreduce) {
  Figures figures;
  const int chunk = chunk_for(bytes);
  const double size = static_cast<double>(bytes);
  for (int window = -1; window < windows; ++window) {
    double start = steady_us();
    allreduce(&start, 1, true);
    const double deadline = start + window_us;
    const double begin = steady_us();
    double done = 0;
    do {
      for (int i = 0; i < chunk; ++i) op();
      done += chunk;
    } while (steady_us() < deadline);
    complete();
    const double end = steady_us();
    double span[2] = {end, -begin};  // MAX: the last end and the first begin
    allreduce(&done, 1, false);
    allreduce(span, 2, true);
    figures.operations += done;
    if (window < 0) continue;
    figures.aggregate_mbps.push_back(done * size / (span[0] + span[1]));
  }
  return figures;
}

// The q-quantile (0..1) of per-window figures, interpolated between neighbours.
inline double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double position = q * static_cast<double>(values.size() - 1);
  const size_t below = static_cast<size_t>(position);
  const size_t above = std::min(below + 1, values.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return values[below] + (values[above] - values[below]) * fraction;
}

// The target's check: an element that every operation adds 1.0 to moved from `before` to
// `after`; true when it moved by exactly the operations counted (integers below 2^53 are exact
// in a double, so any lost, torn or miscounted update shows).
inline bool moved_by(double before, double after, double operations) {
  return after - before == operations && std::isfinite(after);
}

}  // namespace bench::timed
