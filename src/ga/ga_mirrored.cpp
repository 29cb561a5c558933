// Mirrored arrays (GA_Is_mirrored, GA_Merge_mirrored, NGA_Merge_distr_patch). Remora has no
// mirrored arrays (one copy per node): GA_Pgroup_get_mirror's group 0 is never a live group, so
// every array is distributed, and these calls do what GA 5.8 does for a distributed array:
// GA_Is_mirrored is 0, GA_Merge_mirrored synchronises (GA syncs before it finds there is
// nothing to merge), and NGA_Merge_distr_patch copies the patch on one node and ends the job
// across nodes ("Handle to a non-mirrored array passed" in GA). docs/global-arrays.md,
// "Mirrored arrays".
#include "ga/ga_registry.hpp"

namespace remora::ga {
namespace {

int is_mirrored(const char* fn, int g_a) {
  lookup_allocated(fn, g_a, Types::Any);
  return 0;
}

void merge_mirrored(const char* fn, int g_a) {
  is_mirrored(fn, g_a);
  GA_Sync();
}

template <typename Index>
void merge_distr_patch(const char* fn, int g_a, Index* alo, Index* ahi, int g_b, Index* blo,
                       Index* bhi, void (*copy)(char, int, Index*, Index*, int, Index*, Index*)) {
  GA_Sync();
  is_mirrored(fn, g_a);
  lookup_allocated(fn, g_b);
  if (GA_Cluster_nnodes() > 1)
    ga_fail(fn,
            "g_a=%d is not a mirrored array (Remora has none) and the job spans %d nodes: GA "
            "merges only a mirrored array's copies",
            g_a, GA_Cluster_nnodes());
  copy('N', g_a, alo, ahi, g_b, blo, bhi);  // one node: the one copy is the patch
}

}  // namespace
}  // namespace remora::ga

using namespace remora::ga;

extern "C" {

int GA_Is_mirrored(int g_a) {
  return is_mirrored("GA_Is_mirrored", g_a);
}
int NGA_Is_mirrored(int g_a) {
  return is_mirrored("NGA_Is_mirrored", g_a);
}
void GA_Merge_mirrored(int g_a) {
  merge_mirrored("GA_Merge_mirrored", g_a);
}
void NGA_Merge_mirrored(int g_a) {
  merge_mirrored("NGA_Merge_mirrored", g_a);
}
void NGA_Merge_distr_patch(int g_a, int alo[], int ahi[], int g_b, int blo[], int bhi[]) {
  merge_distr_patch("NGA_Merge_distr_patch", g_a, alo, ahi, g_b, blo, bhi, NGA_Copy_patch);
}
void NGA_Merge_distr_patch64(int g_a, int64_t alo[], int64_t ahi[], int g_b, int64_t blo[],
                             int64_t bhi[]) {
  merge_distr_patch("NGA_Merge_distr_patch64", g_a, alo, ahi, g_b, blo, bhi, NGA_Copy_patch64);
}

}  // extern "C"
