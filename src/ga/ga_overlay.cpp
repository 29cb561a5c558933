// GA_Overlay / NGA_Overlay: allocates a handle made by GA_Create_handle (and GA_Set_*) on the
// memory of an allocated array instead of memory of its own, as GA does: each rank's block
// starts where its block of the parent does, so the two arrays show the same bytes. Remora's
// arrays layer shares the parent's memory (remora_array_set_create_memory) and keeps it until
// both are destroyed, in either order.
#include "ga/ga_registry.hpp"

namespace remora::ga {
namespace {

// Collective over the arrays' group. 1 on success; 0 when g_a's block on some rank is larger
// than g_p's memory there, and then g_a is destroyed, as in GA.
int overlay(const char* fn, int g_a, int g_p) {
  require_initialized(fn);
  GaArray& a = lookup(fn, g_a);
  if (!handle_exists(g_p))
    ga_fail(fn, "g_p=%d is not a valid array handle (never created, or destroyed)", g_p);
  const GaArray& parent = lookup(fn, g_p);
  if (parent.array == nullptr)
    ga_fail(fn, "g_p=%d ('%s') is not allocated: an overlay takes an allocated array's memory", g_p,
            parent.name.c_str());
  if (a.array != nullptr) ga_fail(fn, "g_a=%d ('%s') is already allocated", g_a, a.name.c_str());
  if (a.ndim < 1)
    ga_fail(fn, "g_a=%d ('%s') has no shape (GA_Set_data first)", g_a, a.name.c_str());
  if (a.pgroup != parent.pgroup)
    ga_fail(fn,
            "g_a=%d is on process group %d and g_p=%d on process group %d: an overlay lives on "
            "its parent's group",
            g_a, a.pgroup, g_p, parent.pgroup);
  const GaArray* both[2] = {&a, &parent};
  for (const GaArray* array : both)
    if (!array->ghost_width.empty())
      ga_fail(fn,
              "%s=%d has ghost cells, which Remora keeps in a copy of their own: overlays of "
              "arrays with ghost cells are not provided",
              array == &a ? "g_a" : "g_p", array == &a ? g_a : g_p);
  if (allocate(fn, a, parent.array) == 0) {
    free_handle(g_a);
    return 0;
  }
  return 1;
}

}  // namespace
}  // namespace remora::ga

using namespace remora::ga;

extern "C" {

int GA_Overlay(int g_a, int g_p) {
  return overlay("GA_Overlay", g_a, g_p);
}
int NGA_Overlay(int g_a, int g_p) {
  return overlay("NGA_Overlay", g_a, g_p);
}

}  // extern "C"
