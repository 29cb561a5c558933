/* NGA_Rand: numbers in [0, 1), spread evenly (a histogram of 10 bins, summed over the ranks
 * with GA_Igop, each bin within 5 standard deviations of its share), the same sequence again
 * after reseeding with the same seed, another one for another seed, and different streams on
 * ranks seeded differently. */
#include <mpi.h>
#include <string.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

enum { BINS = 10, DRAWS = 200000, SEQUENCE = 16 };

static void draw_sequence(int seed, double* out) {
  out[0] = NGA_Rand(seed);
  for (int i = 1; i < SEQUENCE; ++i) out[i] = NGA_Rand(0);
}

int main(int argc, char** argv) {
  int me, nprocs;
  ga_test_begin(&argc, &argv, &me, &nprocs);

  double first[SEQUENCE], again[SEQUENCE], other[SEQUENCE];
  draw_sequence(4711, first);
  draw_sequence(4711, again);
  draw_sequence(4712, other);
  int same = 1, differs = 0, distinct = 0;
  for (int i = 0; i < SEQUENCE; ++i) {
    same &= first[i] == again[i];
    differs |= first[i] != other[i];
    for (int j = 0; j < i; ++j) distinct += first[i] != first[j];
  }
  CHECK(same);
  CHECK(differs);
  CHECK(distinct == SEQUENCE * (SEQUENCE - 1) / 2);

  int bins[BINS];
  memset(bins, 0, sizeof bins);
  (void)NGA_Rand(332457 + me);
  for (int i = 0; i < DRAWS; ++i) {
    const double x = NGA_Rand(0);
    CHECK(x >= 0.0 && x < 1.0);
    ++bins[(int)(x * BINS)];
  }
  /* Ranks seeded differently draw different streams: rank 0's first bin count is compared
   * with every rank's (equal counts on all ranks would be a sign of one shared seed). */
  int first_bins[64] = {0};
  if (nprocs <= 64) {
    first_bins[me] = bins[0];
    GA_Igop(first_bins, nprocs, "+");
    int all_equal = 1;
    for (int r = 1; r < nprocs; ++r) all_equal &= first_bins[r] == first_bins[0];
    CHECK(nprocs == 1 || !all_equal);
  }
  GA_Igop(bins, BINS, "+");
  /* Each bin's count is binomial: n draws of probability 1/BINS, variance n (1/BINS)(1 - 1/BINS).
   */
  const double n = (double)DRAWS * nprocs, p = 1.0 / BINS;
  const double expected = n * p, variance = n * p * (1.0 - p);
  long total = 0;
  for (int b = 0; b < BINS; ++b) {
    total += bins[b];
    const double deviation = bins[b] - expected;
    CHECK(deviation * deviation <= 25.0 * variance); /* within 5 standard deviations */
  }
  CHECK(total == (long)DRAWS * nprocs);
  return ga_test_end("ga_rand", me, nprocs);
}
