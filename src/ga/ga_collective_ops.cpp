// GA's collective array operations on whole arrays and patches (zero, fill, scale,
// add_constant, copy, add, patch_enum, transpose, symmetrize, norms), mapped onto Remora's
// distributed-array operations (remora/array.h), which validate the arguments; a failure ends
// the job as GA_Error does, with Remora's message naming the argument.
#include "ga/ga_registry.hpp"

using remora::ga::check;
using remora::ga::GaArray;
using remora::ga::Indices;
using remora::ga::lookup_allocated;
using remora::ga::writable;

namespace {

remora_array_t array_of(const char* fn, int g_a) {
  return lookup_allocated(fn, g_a).array;
}

// A GA patch of an allocated array, widened to int64_t.
struct Patch {
  remora_array_t array;
  Indices lo, hi;
  template <typename Index>
  Patch(const char* fn, int g_a, const Index* lo_in, const Index* hi_in)
      : Patch(lookup_allocated(fn, g_a), lo_in, hi_in) {}
  template <typename Index>
  Patch(const GaArray& a, const Index* lo_in, const Index* hi_in)
      : array(a.array), lo(lo_in, a.ndim), hi(hi_in, a.ndim) {}
};

// Zero (value NULL), fill or scale a patch.
enum class PatchUpdate { Zero, Fill, Scale, AddConstant };
template <typename Index>
void update_patch(const char* fn, PatchUpdate what, int g_a, const Index* lo, const Index* hi,
                  void* value) {
  const Patch p(writable(fn, g_a), lo, hi);
  switch (what) {
    case PatchUpdate::Zero:
      check(fn, remora_array_zero_patch(p.array, p.lo.data, p.hi.data));
      break;
    case PatchUpdate::Fill:
      check(fn, remora_array_fill_patch(p.array, p.lo.data, p.hi.data, value));
      break;
    case PatchUpdate::Scale:
      check(fn, remora_array_scale_patch(p.array, p.lo.data, p.hi.data, value));
      break;
    case PatchUpdate::AddConstant:
      check(fn, remora_array_add_constant_patch(p.array, p.lo.data, p.hi.data, value));
      break;
  }
}

template <typename Index>
void copy_patch(const char* fn, char trans, int g_a, const Index* alo, const Index* ahi, int g_b,
                const Index* blo, const Index* bhi) {
  const Patch a(fn, g_a, alo, ahi), b(writable(fn, g_b), blo, bhi);
  check(fn, remora_array_copy_patch(trans, a.array, a.lo.data, a.hi.data, b.array, b.lo.data,
                                    b.hi.data));
}

template <typename Index>
void add_patch(const char* fn, void* alpha, int g_a, const Index* alo, const Index* ahi, void* beta,
               int g_b, const Index* blo, const Index* bhi, int g_c, const Index* clo,
               const Index* chi) {
  const Patch a(fn, g_a, alo, ahi), b(fn, g_b, blo, bhi), c(writable(fn, g_c), clo, chi);
  check(fn, remora_array_add_patch(alpha, a.array, a.lo.data, a.hi.data, beta, b.array, b.lo.data,
                                   b.hi.data, c.array, c.lo.data, c.hi.data));
}

void patch_enum(const char* fn, int g_a, int64_t lo, int64_t hi, void* start, void* inc) {
  check(fn, remora_array_patch_enum(writable(fn, g_a).array, lo, hi, start, inc));
}

// GA computes the norms in its column-major (Fortran) view, where a C array's rows are
// columns: for 2-D arrays GA_Norm1 is the C view's largest row sum and GA_Norm_infinity the
// largest column sum.
void norm(const char* fn, int g_a, double* nm, bool ga_norm1) {
  const GaArray& a = lookup_allocated(fn, g_a);
  const bool rows = a.ndim == 2 ? ga_norm1 : !ga_norm1;
  check(fn, rows ? remora_array_norm_infinity(a.array, nm) : remora_array_norm1(a.array, nm));
}

}  // namespace

extern "C" {

void GA_Zero(int g_a) {
  check("GA_Zero", remora_array_zero(writable("GA_Zero", g_a).array));
}

void GA_Fill(int g_a, void* value) {
  check("GA_Fill", remora_array_fill(writable("GA_Fill", g_a).array, value));
}

void GA_Scale(int g_a, void* value) {
  check("GA_Scale", remora_array_scale(writable("GA_Scale", g_a).array, value));
}

void GA_Add_constant(int g_a, void* alpha) {
  check("GA_Add_constant",
        remora_array_add_constant(writable("GA_Add_constant", g_a).array, alpha));
}

void GA_Add_constant_patch(int g_a, int* lo, int* hi, void* alpha) {
  update_patch("GA_Add_constant_patch", PatchUpdate::AddConstant, g_a, lo, hi, alpha);
}

void GA_Add_constant_patch64(int g_a, int64_t* lo, int64_t* hi, void* alpha) {
  update_patch("GA_Add_constant_patch64", PatchUpdate::AddConstant, g_a, lo, hi, alpha);
}

void GA_Copy(int g_a, int g_b) {
  check("GA_Copy", remora_array_copy(array_of("GA_Copy", g_a), writable("GA_Copy", g_b).array));
}

void NGA_Copy_patch(char trans, int g_a, int alo[], int ahi[], int g_b, int blo[], int bhi[]) {
  copy_patch("NGA_Copy_patch", trans, g_a, alo, ahi, g_b, blo, bhi);
}

void NGA_Copy_patch64(char trans, int g_a, int64_t alo[], int64_t ahi[], int g_b, int64_t blo[],
                      int64_t bhi[]) {
  copy_patch("NGA_Copy_patch64", trans, g_a, alo, ahi, g_b, blo, bhi);
}

void GA_Add(void* alpha, int g_a, void* beta, int g_b, int g_c) {
  check("GA_Add", remora_array_add(alpha, array_of("GA_Add", g_a), beta, array_of("GA_Add", g_b),
                                   writable("GA_Add", g_c).array));
}

void NGA_Add_patch(void* alpha, int g_a, int alo[], int ahi[], void* beta, int g_b, int blo[],
                   int bhi[], int g_c, int clo[], int chi[]) {
  add_patch("NGA_Add_patch", alpha, g_a, alo, ahi, beta, g_b, blo, bhi, g_c, clo, chi);
}

void NGA_Add_patch64(void* alpha, int g_a, int64_t alo[], int64_t ahi[], void* beta, int g_b,
                     int64_t blo[], int64_t bhi[], int g_c, int64_t clo[], int64_t chi[]) {
  add_patch("NGA_Add_patch64", alpha, g_a, alo, ahi, beta, g_b, blo, bhi, g_c, clo, chi);
}

void NGA_Zero_patch(int g_a, int lo[], int hi[]) {
  update_patch("NGA_Zero_patch", PatchUpdate::Zero, g_a, lo, hi, nullptr);
}

void NGA_Zero_patch64(int g_a, int64_t lo[], int64_t hi[]) {
  update_patch("NGA_Zero_patch64", PatchUpdate::Zero, g_a, lo, hi, nullptr);
}

void NGA_Fill_patch(int g_a, int lo[], int hi[], void* val) {
  update_patch("NGA_Fill_patch", PatchUpdate::Fill, g_a, lo, hi, val);
}

void NGA_Fill_patch64(int g_a, int64_t lo[], int64_t hi[], void* val) {
  update_patch("NGA_Fill_patch64", PatchUpdate::Fill, g_a, lo, hi, val);
}

void NGA_Scale_patch(int g_a, int lo[], int hi[], void* alpha) {
  update_patch("NGA_Scale_patch", PatchUpdate::Scale, g_a, lo, hi, alpha);
}

void NGA_Scale_patch64(int g_a, int64_t lo[], int64_t hi[], void* alpha) {
  update_patch("NGA_Scale_patch64", PatchUpdate::Scale, g_a, lo, hi, alpha);
}

void GA_Patch_enum(int g_a, int lo, int hi, void* start, void* inc) {
  patch_enum("GA_Patch_enum", g_a, lo, hi, start, inc);
}

void GA_Patch_enum64(int g_a, int64_t lo, int64_t hi, void* start, void* inc) {
  patch_enum("GA_Patch_enum64", g_a, lo, hi, start, inc);
}

void GA_Transpose(int g_a, int g_b) {
  check("GA_Transpose",
        remora_array_transpose(array_of("GA_Transpose", g_a), writable("GA_Transpose", g_b).array));
}

void GA_Symmetrize(int g_a) {
  check("GA_Symmetrize", remora_array_symmetrize(writable("GA_Symmetrize", g_a).array));
}

void GA_Norm1(int g_a, double* nm) {
  norm("GA_Norm1", g_a, nm, true);
}

void GA_Norm_infinity(int g_a, double* nm) {
  norm("GA_Norm_infinity", g_a, nm, false);
}

}  // extern "C"
