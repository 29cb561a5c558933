// GA_Print, GA_Print_file, GA_Print_patch and NGA_Print_patch: collective; rank 0 fetches the
// patch and writes it. The layout follows GA's (a header naming the array, its patch and handle;
// pretty: blocks of columns under index headers, one line per row), with the C API's 0-based
// indices; it is meant for people, not byte-for-byte equal to GA's output.
#include <algorithm>
#include <cinttypes>
#include <complex>
#include <cstdio>
#include <vector>

#include "ga/ga_registry.hpp"

using remora::ga::array_rank;
using remora::ga::check;
using remora::ga::GaArray;
using remora::ga::Indices;
using remora::ga::lookup_allocated;
using remora::ga::pgroup_comm;

namespace {

// Values per line block in pretty mode (complex values take two columns).
int block_width(remora_datatype_t type) {
  return type == REMORA_FLOAT_COMPLEX || type == REMORA_DOUBLE_COMPLEX ? 3 : 6;
}

void print_value(FILE* file, remora_datatype_t type, const char* element) {
  switch (type) {
    case REMORA_INT32:
      std::fprintf(file, " %11d", *reinterpret_cast<const int32_t*>(element));
      break;
    case REMORA_INT64:
      std::fprintf(file, " %11" PRId64, *reinterpret_cast<const int64_t*>(element));
      break;
    case REMORA_FLOAT:
      std::fprintf(file, " %11.5f", static_cast<double>(*reinterpret_cast<const float*>(element)));
      break;
    case REMORA_DOUBLE:
      std::fprintf(file, " %11.5f", *reinterpret_cast<const double*>(element));
      break;
    case REMORA_FLOAT_COMPLEX: {
      const auto* z = reinterpret_cast<const std::complex<float>*>(element);
      std::fprintf(file, " %11.5f,%11.5f", static_cast<double>(z->real()),
                   static_cast<double>(z->imag()));
      break;
    }
    default: {
      const auto* z = reinterpret_cast<const std::complex<double>*>(element);
      std::fprintf(file, " %11.5f,%11.5f", z->real(), z->imag());
      break;
    }
  }
}

// Rank 0's part: the patch (dense, row-major) printed as rows of its last dimension.
void write_patch(FILE* file, int g_a, const GaArray& a, const int64_t* lo, const int64_t* hi,
                 const std::vector<char>& data, size_t element, bool pretty) {
  const int ndim = a.ndim;
  std::fprintf(file, "\n global array: %s[", a.name.c_str());
  for (int d = 0; d < ndim; ++d)
    std::fprintf(file, "%s%" PRId64 ":%" PRId64, d == 0 ? "" : ",", lo[d], hi[d]);
  std::fprintf(file, "],  handle: %d \n", g_a);
  const int64_t row = hi[ndim - 1] - lo[ndim - 1] + 1;
  const int64_t rows = static_cast<int64_t>(data.size() / element) / row;
  const int64_t width = pretty ? block_width(a.datatype) : row;
  for (int64_t j0 = 0; j0 < row; j0 += width) {
    const int64_t j1 = std::min(row, j0 + width);
    if (pretty) {  // column headers
      std::fprintf(file, "\n%*s", 14, "");
      for (int64_t j = j0; j < j1; ++j)
        std::fprintf(file,
                     a.datatype == REMORA_FLOAT_COMPLEX || a.datatype == REMORA_DOUBLE_COMPLEX
                         ? " %23" PRId64
                         : " %11" PRId64,
                     lo[ndim - 1] + j);
      std::fprintf(file, "\n");
    }
    for (int64_t r = 0; r < rows; ++r) {
      // The row's index in every dimension but the last.
      int64_t rest = r, index[GA_MAX_DIM] = {};
      for (int d = ndim - 2; d >= 0; --d) {
        const int64_t extent = hi[d] - lo[d] + 1;
        index[d] = lo[d] + rest % extent;
        rest /= extent;
      }
      if (pretty) {
        char label[96] = "";
        int used = 0;
        for (int d = 0; d + 1 < ndim; ++d)
          used += std::snprintf(label + used, sizeof label - static_cast<size_t>(used),
                                "%s%" PRId64, d == 0 ? "" : ",", index[d]);
        std::fprintf(file, "%13s.", label);
      }
      for (int64_t j = j0; j < j1; ++j)
        print_value(file, a.datatype, data.data() + static_cast<size_t>(r * row + j) * element);
      std::fprintf(file, "\n");
    }
  }
  std::fflush(file);
}

void print_patch(const char* fn, FILE* file, int g_a, const int64_t* lo, const int64_t* hi,
                 bool pretty) {
  const GaArray& a = lookup_allocated(fn, g_a);
  if (lo == nullptr || hi == nullptr) remora::ga::ga_fail(fn, "%s is NULL", lo ? "hi" : "lo");
  // Over the array's group: the other groups need not take part.
  const remora_comm_t group = pgroup_comm(fn, a.pgroup);
  check(fn, remora_array_sync_comm(group));
  if (array_rank(a) == 0) {
    size_t element = 0;
    check(fn, remora_datatype_size(a.datatype, &element));
    int64_t elements = 1, ld[GA_MAX_DIM] = {};
    for (int d = 0; d < a.ndim; ++d) {
      elements *= hi[d] >= lo[d] ? hi[d] - lo[d] + 1 : 0;
      if (d > 0) ld[d - 1] = hi[d] - lo[d] + 1;
    }
    std::vector<char> data(static_cast<size_t>(elements) * element);
    check(fn, remora_array_get(a.array, lo, hi, data.data(), ld));
    write_patch(file, g_a, a, lo, hi, data, element, pretty);
  }
  check(fn, remora_array_sync_comm(group));
}

void print_whole(const char* fn, FILE* file, int g_a) {
  const GaArray& a = lookup_allocated(fn, g_a);
  int64_t lo[GA_MAX_DIM] = {}, hi[GA_MAX_DIM] = {};
  for (int d = 0; d < a.ndim; ++d) hi[d] = a.dims[d] - 1;
  print_patch(fn, file, g_a, lo, hi, true);
}

template <typename Index>
void nga_print_patch(const char* fn, int g_a, const Index* lo, const Index* hi, int pretty) {
  const GaArray& a = lookup_allocated(fn, g_a);
  const Indices l(lo, a.ndim), h(hi, a.ndim);
  print_patch(fn, stdout, g_a, l.data, h.data, pretty != 0);
}

}  // namespace

extern "C" {

void GA_Print(int g_a) {
  print_whole("GA_Print", stdout, g_a);
}

void GA_Print_file(FILE* file, int g_a) {
  if (file == nullptr) remora::ga::ga_fail("GA_Print_file", "file is NULL");
  print_whole("GA_Print_file", file, g_a);
}

void NGA_Print_patch(int g_a, int lo[], int hi[], int pretty) {
  nga_print_patch("NGA_Print_patch", g_a, lo, hi, pretty);
}

void NGA_Print_patch64(int g_a, int64_t lo[], int64_t hi[], int pretty) {
  nga_print_patch("NGA_Print_patch64", g_a, lo, hi, pretty);
}

void GA_Print_patch(int g_a, int ilo, int ihi, int jlo, int jhi, int pretty) {
  const GaArray& a = lookup_allocated("GA_Print_patch", g_a);
  if (a.ndim != 2)
    remora::ga::ga_fail("GA_Print_patch", "g_a=%d ('%s') has %d dimensions; 2 are needed", g_a,
                        a.name.c_str(), a.ndim);
  const int lo[2] = {ilo, jlo}, hi[2] = {ihi, jhi};
  nga_print_patch("GA_Print_patch", g_a, lo, hi, pretty);
}

}  // extern "C"
