// remora._Array: distributed arrays (remora/array.h); patches are numpy arrays. The Python
// class remora.Array (array.py) adds numpy-style indexing on top.
#include "common.h"

#include <cstring>

namespace remora_py {
namespace {

struct Array {
  remora_array_t a = nullptr;
  Type type{};
  int ndim = 0;
  std::vector<int64_t> dims;

  remora_array_t h() const {
    if (a == nullptr) [[unlikely]]
      fail(REMORA_ERR_STATE, "the array has been destroyed");
    return a;
  }
};

// Completes a nonblocking patch transfer; wait() returns the result (the get's array or None).
struct ArrayRequest {
  remora_array_request_t request = REMORA_ARRAY_REQUEST_NULL;
  std::vector<nb::object> keep;
  nb::object result = nb::none();
  bool done = false;
  ~ArrayRequest() {
    if (!done)
      for (auto& o : keep) o.release();
  }
  nb::object wait() {
    if (!done) {
      int rc = remora_array_wait(&request);
      done = true;
      keep.clear();
      check(rc);
    }
    return result;
  }
  bool test() {
    if (done) return true;
    int flag = 0;
    int rc = remora_array_test(&request, &flag);
    if (rc < 0 || flag) {
      done = true;
      keep.clear();
      check(rc);
    }
    return flag != 0;
  }
};

// A set of mutexes (remora_mutexes_create): collective create and destroy, one-sided lock.
struct Mutexes {
  remora_mutexes_t m = nullptr;
  int count = 0;
  remora_mutexes_t h() const {
    if (m == nullptr) [[unlikely]]
      fail(REMORA_ERR_STATE, "the mutex set has been destroyed");
    return m;
  }
};

// An AXPY batch on an array (remora_axpy_attach ... remora_axpy_detach): the buffers of the
// queued transfers stay referenced until detach.
struct AxpyBatch {
  remora_axpy_t b = nullptr;
  std::vector<nb::object> keep;
  remora_axpy_t h() const {
    if (b == nullptr) [[unlikely]]
      fail(REMORA_ERR_STATE, "the AXPY batch has been detached");
    return b;
  }
  ~AxpyBatch() {
    // Never detached: the owners may still write into GLOBAL_TO_LOCAL buffers.
    if (b != nullptr)
      for (auto& o : keep) o.release();
  }
};

std::vector<int64_t> index_list(nb::handle seq, size_t n, const char* what) {
  std::vector<int64_t> v;
  for (nb::handle h : seq) v.push_back(nb::cast<int64_t>(h));
  if (v.size() != n)
    fail(REMORA_ERR_ARG, std::string(what) + " has " + std::to_string(v.size()) +
                             " entries, the array has " + std::to_string(n) + " dimensions");
  return v;
}

struct Patch {
  std::vector<int64_t> lo, hi, ld;
  size_t count = 1;
};

Patch patch_of(const Array& A, nb::handle lo, nb::handle hi) {
  Patch p;
  p.lo = index_list(lo, A.ndim, "lo");
  p.hi = index_list(hi, A.ndim, "hi");
  for (int d = 0; d < A.ndim; ++d) {
    int64_t n = p.hi[d] - p.lo[d] + 1;
    p.count *= n > 0 ? static_cast<size_t>(n) : 0;
    if (d > 0) p.ld.push_back(n);
  }
  return p;
}

void check_count(const Patch& p, size_t count, const char* what) {
  if (count != p.count)
    fail(REMORA_ERR_ARG, std::string(what) + " has " + std::to_string(count) +
                             " elements, the patch " + std::to_string(p.count));
}

const void* alpha_of(const Array& A, nb::handle alpha, unsigned char* buf) {
  if (alpha.is_none()) {
    // one of the array's type
    if (A.type.remora == REMORA_INT32) {
      int32_t one = 1;
      std::memcpy(buf, &one, 4);
    } else {
      scalar_bytes(nb::int_(1), A.type, buf, "alpha");
    }
    return buf;
  }
  scalar_bytes(alpha, A.type, buf, "alpha");
  return buf;
}

// An element list: n subscripts of ndim int64 indices each, as a C-contiguous int64 array.
struct Subscripts {
  nb::object array;
  size_t n = 0;
  const int64_t* data() const {
    return static_cast<const int64_t*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(array.ptr())));
  }
};

Subscripts subscripts_of(const Array& A, nb::handle subs) {
  PyArray_Descr* d = PyArray_DescrFromType(NPY_INT64);  // stolen
  PyObject* r =
      PyArray_FromAny(subs.ptr(), d, 0, 0, NPY_ARRAY_CARRAY_RO | NPY_ARRAY_FORCECAST, nullptr);
  if (r == nullptr) throw nb::python_error();
  Subscripts s{nb::steal(r)};
  auto* a = reinterpret_cast<PyArrayObject*>(r);
  int nd = PyArray_NDIM(a);
  bool ok = (nd == 2 && PyArray_DIMS(a)[1] == A.ndim) || (nd == 1 && A.ndim == 1) ||
            (nd == 1 && PyArray_DIMS(a)[0] == 0);
  if (!ok) {
    std::string shape = "(";
    for (int i = 0; i < nd; ++i) shape += (i ? ", " : "") + std::to_string(PyArray_DIMS(a)[i]);
    shape += nd == 1 ? ",)" : ")";
    fail(REMORA_ERR_ARG, "subscripts of shape " + shape + ": expected (n, " +
                             std::to_string(A.ndim) + "), one row of indices per element");
  }
  s.n = nd == 2 ? static_cast<size_t>(PyArray_DIMS(a)[0]) : static_cast<size_t>(PyArray_SIZE(a));
  return s;
}

Array& arr(nb::handle h) {
  return nb::cast<Array&>(h);
}

}  // namespace

void bind_array(nb::module_& m) {
  nb::class_<ArrayRequest>(m, "ArrayRequest",
                           "A nonblocking patch transfer: wait() completes it and returns the "
                           "patch (iget) or None.")
      .def("wait", &ArrayRequest::wait)
      .def("test", &ArrayRequest::test);

  nb::class_<Array>(m, "_Array")
      .def(
          "__init__",
          [](Array* self, nb::handle shape, nb::handle dtype, const std::string& layout,
             nb::handle block, nb::handle grid, nb::handle map, nb::handle name,
             nb::handle source) {
            new (self) Array();
            if (!source.is_none()) {
              // A duplicate of source: same shape, type and distribution, zero elements.
              Array& src = nb::cast<Array&>(source);
              std::string nm = name.is_none() ? std::string() : nb::cast<std::string>(name);
              check(remora_array_duplicate(src.h(), name.is_none() ? nullptr : nm.c_str(),
                                           &self->a));
              self->type = src.type;
              self->ndim = src.ndim;
              self->dims = src.dims;
              return;
            }
            self->type = type_of_dtype(dtype, "dtype");
            std::vector<npy_intp> s = shape_of(shape, "shape");
            self->ndim = static_cast<int>(s.size());
            for (npy_intp d : s) self->dims.push_back(d);
            std::string nm = name.is_none() ? std::string() : nb::cast<std::string>(name);
            const char* np = name.is_none() ? nullptr : nm.c_str();
            std::vector<int> g;
            if (!grid.is_none())
              for (nb::handle h : grid) g.push_back(nb::cast<int>(h));
            if (!grid.is_none() && g.size() != 2)
              fail(REMORA_ERR_ARG, "grid must have 2 entries (rows, columns of ranks)");
            if (layout == "block") {
              check(remora_array_create(self->type.remora, self->ndim, self->dims.data(), np,
                                        &self->a));
            } else if (layout == "irregular") {
              if (map.is_none())
                fail(REMORA_ERR_ARG,
                     "layout 'irregular' needs map: the block starts of "
                     "each dimension, e.g. map=[[0, 10], [0, 5, 20]]");
              std::vector<int> nblock;
              std::vector<int64_t> flat;
              for (nb::handle dim : map) {
                int k = 0;
                for (nb::handle h : dim) {
                  flat.push_back(nb::cast<int64_t>(h));
                  ++k;
                }
                nblock.push_back(k);
              }
              if (static_cast<int>(nblock.size()) != self->ndim)
                fail(REMORA_ERR_ARG, "map has " + std::to_string(nblock.size()) +
                                         " dimensions, shape " + std::to_string(self->ndim));
              check(remora_array_create_irregular(self->type.remora, self->ndim, self->dims.data(),
                                                  nblock.data(), flat.data(), np, &self->a));
            } else if (layout == "block_cyclic") {
              if (block.is_none())
                fail(REMORA_ERR_ARG, "layout 'block_cyclic' needs block=(rows, columns)");
              std::vector<int64_t> b = index_list(block, 2, "block");
              if (self->ndim != 2)
                fail(REMORA_ERR_ARG, "layout 'block_cyclic' is for 2-D arrays, shape has " +
                                         std::to_string(self->ndim) + " dimensions");
              check(remora_array_create_block_cyclic(self->type.remora, self->dims.data(), b.data(),
                                                     g.empty() ? nullptr : g.data(), np, &self->a));
            } else if (layout == "element_cyclic") {
              if (self->ndim != 2)
                fail(REMORA_ERR_ARG, "layout 'element_cyclic' is for 2-D arrays, shape has " +
                                         std::to_string(self->ndim) + " dimensions");
              check(remora_array_create_element_cyclic(self->type.remora, self->dims.data(),
                                                       g.empty() ? nullptr : g.data(), np,
                                                       &self->a));
            } else {
              fail(REMORA_ERR_ARG, "layout = '" + layout +
                                       "' is not a layout: block, irregular, block_cyclic, "
                                       "element_cyclic");
            }
          },
          nb::arg("shape").none(), nb::arg("dtype").none(), nb::arg("layout") = "block",
          nb::arg("block") = nb::none(), nb::arg("grid") = nb::none(), nb::arg("map") = nb::none(),
          nb::arg("name") = nb::none(), nb::arg("source") = nb::none())
      .def_prop_ro("shape",
                   [](Array& A) {
                     nb::list l;
                     for (int64_t d : A.dims) l.append(d);
                     return nb::tuple(l);
                   })
      .def_prop_ro("dtype", [](Array& A) { return dtype_object(A.type); })
      .def_prop_ro("ndim", [](Array& A) { return A.ndim; })
      .def_prop_ro("layout",
                   [](Array& A) {
                     remora_distribution_kind_t k;
                     check(remora_array_kind(A.h(), &k));
                     switch (k) {
                       case REMORA_DIST_BLOCK:
                         return "block";
                       case REMORA_DIST_IRREGULAR:
                         return "irregular";
                       case REMORA_DIST_BLOCK_CYCLIC:
                         return "block_cyclic";
                       default:
                         return "element_cyclic";
                     }
                   })
      .def_prop_ro("destroyed", [](Array& A) { return A.a == nullptr; })
      .def(
          "_distribution",
          [](Array& A, int rank) {
            std::vector<int64_t> lo(A.ndim), hi(A.ndim);
            check(remora_array_distribution(A.h(), rank, lo.data(), hi.data()));
            nb::list l, h;
            for (int d = 0; d < A.ndim; ++d) {
              l.append(lo[d]);
              h.append(hi[d]);
            }
            return nb::make_tuple(nb::tuple(l), nb::tuple(h));
          },
          nb::arg("rank"))
      .def("_get",
           [](Array& A, nb::handle lo, nb::handle hi, nb::handle out) {
             Patch p = patch_of(A, lo, hi);
             PyArrayObject* o = as_output(out, A.type, "out");
             check_count(p, static_cast<size_t>(PyArray_SIZE(o)), "out");
             check(remora_array_get(A.h(), p.lo.data(), p.hi.data(), PyArray_DATA(o), p.ld.data()));
             return nb::borrow(out);
           })
      .def("_iget",
           [](Array& A, nb::handle lo, nb::handle hi, nb::handle out) {
             Patch p = patch_of(A, lo, hi);
             PyArrayObject* o = as_output(out, A.type, "out");
             check_count(p, static_cast<size_t>(PyArray_SIZE(o)), "out");
             auto r = std::make_unique<ArrayRequest>();
             check(remora_array_nbget(A.h(), p.lo.data(), p.hi.data(), PyArray_DATA(o), p.ld.data(),
                                      &r->request));
             r->keep.push_back(nb::borrow(out));
             r->result = nb::borrow(out);
             return r.release();
           })
      .def("_put",
           [](Array& A, nb::handle lo, nb::handle hi, nb::handle data) {
             Patch p = patch_of(A, lo, hi);
             Input in = as_input(data, A.type, "data");
             check_count(p, in.count(), "data");
             check(remora_array_put(A.h(), p.lo.data(), p.hi.data(), in.data(), p.ld.data()));
           })
      .def("_iput",
           [](Array& A, nb::handle lo, nb::handle hi, nb::handle data) {
             Patch p = patch_of(A, lo, hi);
             Input in = as_input(data, A.type, "data");
             check_count(p, in.count(), "data");
             auto r = std::make_unique<ArrayRequest>();
             check(remora_array_nbput(A.h(), p.lo.data(), p.hi.data(), in.data(), p.ld.data(),
                                      &r->request));
             r->keep.push_back(in.array);
             return r.release();
           })
      .def("_acc",
           [](Array& A, nb::handle lo, nb::handle hi, nb::handle data, nb::handle alpha) {
             Patch p = patch_of(A, lo, hi);
             Input in = as_input(data, A.type, "data");
             check_count(p, in.count(), "data");
             alignas(16) unsigned char ab[16];
             const void* ap = alpha_of(A, alpha, ab);
             check(remora_array_acc(A.h(), p.lo.data(), p.hi.data(), in.data(), p.ld.data(), ap));
           })
      .def(
          "read_inc",
          [](Array& A, nb::handle subscript, int64_t inc) {
            std::vector<int64_t> s;
            if (PyIndex_Check(subscript.ptr()))
              s.push_back(nb::cast<int64_t>(subscript));
            else
              s = index_list(subscript, A.ndim, "subscript");
            if (static_cast<int>(s.size()) != A.ndim)
              fail(REMORA_ERR_ARG, "subscript has 1 entry, the array has " +
                                       std::to_string(A.ndim) + " dimensions");
            int64_t old = 0;
            check(remora_array_read_inc(A.h(), s.data(), inc, &old));
            return old;
          },
          nb::arg("subscript"), nb::arg("inc") = 1,
          "Atomically adds inc to one element (int32 or int64 arrays); returns its previous "
          "value (a distributed counter).")
      .def(
          "local",
          [](nb::handle self) -> nb::object {
            Array& A = arr(self);
            int me = 0;
            check(remora_array_ranks(A.h(), nullptr, &me));
            std::vector<int64_t> lo(A.ndim), hi(A.ndim);
            check(remora_array_distribution(A.h(), me, lo.data(), hi.data()));
            std::vector<npy_intp> shape(A.ndim);
            bool empty = false;
            for (int d = 0; d < A.ndim; ++d) {
              shape[d] = hi[d] >= lo[d] ? static_cast<npy_intp>(hi[d] - lo[d] + 1) : 0;
              empty = empty || shape[d] == 0;
            }
            if (empty) return new_array(A.type, A.ndim, shape.data());
            void* ptr = nullptr;
            std::vector<int64_t> ld(A.ndim > 1 ? A.ndim - 1 : 1);
            check(remora_array_access(A.h(), lo.data(), hi.data(), &ptr, ld.data()));
            // The own block is mapped directly: the pointer stays valid until destroy.
            check(remora_array_release(A.h(), ptr));
            std::vector<npy_intp> strides(A.ndim);
            npy_intp st = static_cast<npy_intp>(A.type.size);
            for (int d = A.ndim - 1; d >= 0; --d) {
              strides[d] = st;
              if (d > 0) st *= static_cast<npy_intp>(ld[d - 1]);
            }
            PyArray_Descr* descr = PyArray_DescrFromType(A.type.typenum);
            PyObject* a =
                PyArray_NewFromDescr(&PyArray_Type, descr, A.ndim, shape.data(), strides.data(),
                                     ptr, NPY_ARRAY_ALIGNED | NPY_ARRAY_WRITEABLE, nullptr);
            if (a == nullptr) throw nb::python_error();
            Py_INCREF(self.ptr());
            if (PyArray_SetBaseObject(reinterpret_cast<PyArrayObject*>(a), self.ptr()) < 0) {
              Py_DECREF(a);
              throw nb::python_error();
            }
            PyArray_UpdateFlags(reinterpret_cast<PyArrayObject*>(a), NPY_ARRAY_UPDATE_ALL);
            return nb::steal(a);
          },
          "This rank's block as a numpy array (no copy; block and irregular layouts). Stores "
          "become visible to other ranks after sync().")
      .def("flush", [](Array& A) { check(remora_array_flush(A.h())); })
      .def("zero", [](Array& A) { check(remora_array_zero(A.h())); })
      .def(
          "fill",
          [](Array& A, nb::handle value) {
            alignas(16) unsigned char v[16];
            scalar_bytes(value, A.type, v, "value");
            check(remora_array_fill(A.h(), v));
          },
          nb::arg("value"), "Collective: every element = value.")
      .def(
          "scale",
          [](Array& A, nb::handle alpha) {
            alignas(16) unsigned char v[16];
            scalar_bytes(alpha, A.type, v, "alpha");
            check(remora_array_scale(A.h(), v));
          },
          nb::arg("alpha"), "Collective: every element *= alpha.")
      .def(
          "add_constant",
          [](Array& A, nb::handle value) {
            alignas(16) unsigned char v[16];
            scalar_bytes(value, A.type, v, "value");
            check(remora_array_add_constant(A.h(), v));
          },
          nb::arg("value"))
      .def(
          "dot",
          [](Array& A, Array& B) {
            alignas(16) unsigned char r[16];
            check(remora_array_dot(A.h(), B.h(), r));
            return scalar_object(A.type, r);
          },
          nb::arg("other"), "Collective: the sum of self[i] * other[i] (no conjugation).")
      .def(
          "norm",
          [](Array& A) {
            double r;
            check(remora_array_norm(A.h(), &r));
            return r;
          },
          "Collective: the Frobenius norm.")
      .def("_copy_to", [](Array& A, Array& B) { check(remora_array_copy(A.h(), B.h())); })
      .def("_add",
           [](Array& C, nb::handle alpha, Array& A, nb::handle beta, Array& B) {
             alignas(16) unsigned char al[16], be[16];
             scalar_bytes(alpha, C.type, al, "alpha");
             scalar_bytes(beta, C.type, be, "beta");
             check(remora_array_add(al, A.h(), be, B.h(), C.h()));
           })
      .def("_transpose_to", [](Array& A, Array& B) { check(remora_array_transpose(A.h(), B.h())); })
      .def("_gemm",
           [](Array& C, bool ta, bool tb, nb::handle alpha, Array& A, Array& B, nb::handle beta) {
             alignas(16) unsigned char al[16], be[16];
             scalar_bytes(alpha, C.type, al, "alpha");
             scalar_bytes(beta, C.type, be, "beta");
             check(remora_array_gemm(ta ? 'T' : 'N', tb ? 'T' : 'N', al, A.h(), B.h(), be, C.h()));
           })
      .def("_nbacc",
           [](Array& A, nb::handle lo, nb::handle hi, nb::handle data, nb::handle alpha) {
             Patch p = patch_of(A, lo, hi);
             Input in = as_input(data, A.type, "x");
             check_count(p, in.count(), "x");
             alignas(16) unsigned char ab[16];
             const void* ap = alpha_of(A, alpha, ab);
             auto r = std::make_unique<ArrayRequest>();
             check(remora_array_nbacc(A.h(), p.lo.data(), p.hi.data(), in.data(), p.ld.data(), ap,
                                      &r->request));
             r->keep.push_back(in.array);
             return r.release();
           })
      .def(
          "pending",
          [](Array& A) {
            int64_t n = 0;
            check(remora_array_pending(A.h(), &n));
            return n;
          },
          "The number of this rank's nonblocking operations on the array not yet waited for.")
      .def("flush_local", [](Array& A) { check(remora_array_flush_local(A.h())); })
      .def_prop_ro("grid",
                   [](Array& A) {
                     std::vector<int> g(A.ndim);
                     check(remora_array_proc_grid(A.h(), g.data()));
                     nb::list l;
                     for (int x : g) l.append(x);
                     return nb::tuple(l);
                   })
      .def(
          "local_shape",
          [](Array& A, nb::handle rank) {
            int r = 0;
            if (rank.is_none())
              check(remora_array_ranks(A.h(), nullptr, &r));
            else
              r = nb::cast<int>(rank);
            std::vector<int64_t> e(A.ndim);
            check(remora_array_local_shape(A.h(), r, e.data()));
            nb::list l;
            for (int64_t x : e) l.append(x);
            return nb::tuple(l);
          },
          nb::arg("rank") = nb::none(),
          "The extents of rank's (default: this rank's) local storage; for cyclic layouts "
          "its local matrix.")
      .def("_locate",
           [](Array& A, nb::handle lo, nb::handle hi) {
             Patch p = patch_of(A, lo, hi);
             int size = 0;
             check(remora_array_ranks(A.h(), &size, nullptr));
             std::vector<int> owners(static_cast<size_t>(size));
             std::vector<int64_t> olo(static_cast<size_t>(size) * A.ndim),
                 ohi(static_cast<size_t>(size) * A.ndim);
             int count = 0;
             check(remora_array_locate_region(A.h(), p.lo.data(), p.hi.data(), size, owners.data(),
                                              olo.data(), ohi.data(), &count));
             nb::list out;
             for (int k = 0; k < count; ++k) {
               nb::list sl;
               for (int d = 0; d < A.ndim; ++d)
                 sl.append(nb::slice(nb::int_(olo[k * A.ndim + d]),
                                     nb::int_(ohi[k * A.ndim + d] + 1), nb::none()));
               out.append(nb::make_tuple(owners[k], nb::tuple(sl)));
             }
             return out;
           })
      // ---- element lists ----
      .def("_gather",
           [](Array& A, nb::handle subs) {
             Subscripts s = subscripts_of(A, subs);
             npy_intp n = static_cast<npy_intp>(s.n);
             nb::object r = new_array(A.type, 1, &n);
             check(remora_array_gather(A.h(), PyArray_DATA(reinterpret_cast<PyArrayObject*>(r.ptr())),
                                       s.data(), s.n));
             return r;
           })
      .def("_scatter",
           [](Array& A, nb::handle subs, nb::handle values, nb::handle alpha, bool acc) {
             Subscripts s = subscripts_of(A, subs);
             Input in = as_input(values, A.type, "values");
             if (in.count() != s.n)
               fail(REMORA_ERR_ARG, "values has " + std::to_string(in.count()) +
                                        " elements, subscripts name " + std::to_string(s.n));
             if (acc) {
               alignas(16) unsigned char ab[16];
               const void* ap = alpha_of(A, alpha, ab);
               check(remora_array_scatter_acc(A.h(), in.data(), s.data(), s.n, ap));
             } else {
               check(remora_array_scatter(A.h(), in.data(), s.data(), s.n));
             }
           })
      // ---- patch forms of the collective operations ----
      .def("_zero_patch",
           [](Array& A, nb::handle lo, nb::handle hi) {
             Patch p = patch_of(A, lo, hi);
             check(REMORA_NOGIL(remora_array_zero_patch(A.h(), p.lo.data(), p.hi.data())));
           })
      .def("_fill_patch",
           [](Array& A, nb::handle lo, nb::handle hi, nb::handle value) {
             Patch p = patch_of(A, lo, hi);
             alignas(16) unsigned char v[16];
             scalar_bytes(value, A.type, v, "value");
             check(remora_array_fill_patch(A.h(), p.lo.data(), p.hi.data(), v));
           })
      .def("_scale_patch",
           [](Array& A, nb::handle lo, nb::handle hi, nb::handle value) {
             Patch p = patch_of(A, lo, hi);
             alignas(16) unsigned char v[16];
             scalar_bytes(value, A.type, v, "alpha");
             check(remora_array_scale_patch(A.h(), p.lo.data(), p.hi.data(), v));
           })
      .def("_add_constant_patch",
           [](Array& A, nb::handle lo, nb::handle hi, nb::handle value) {
             Patch p = patch_of(A, lo, hi);
             alignas(16) unsigned char v[16];
             scalar_bytes(value, A.type, v, "value");
             check(remora_array_add_constant_patch(A.h(), p.lo.data(), p.hi.data(), v));
           })
      .def("_abs_patch",
           [](Array& A, nb::handle lo, nb::handle hi) {
             Patch p = patch_of(A, lo, hi);
             check(remora_array_abs_value_patch(A.h(), p.lo.data(), p.hi.data()));
           })
      .def("_recip_patch",
           [](Array& A, nb::handle lo, nb::handle hi) {
             Patch p = patch_of(A, lo, hi);
             check(remora_array_recip_patch(A.h(), p.lo.data(), p.hi.data()));
           })
      .def("_enum",
           [](Array& A, int64_t lo, int64_t hi, nb::handle start, nb::handle inc) {
             alignas(16) unsigned char s[16], i[16];
             scalar_bytes(start, A.type, s, "start");
             scalar_bytes(inc, A.type, i, "inc");
             check(remora_array_patch_enum(A.h(), lo, hi, s, i));
           })
      .def("_copy_patch",
           [](Array& A, bool trans, nb::handle alo, nb::handle ahi, Array& B, nb::handle blo,
              nb::handle bhi) {
             Patch pa = patch_of(A, alo, ahi), pb = patch_of(B, blo, bhi);
             check(remora_array_copy_patch(trans ? 'T' : 'N', A.h(), pa.lo.data(), pa.hi.data(),
                                           B.h(), pb.lo.data(), pb.hi.data()));
           })
      .def("_add_patch",
           [](Array& C, nb::handle clo, nb::handle chi, nb::handle alpha, Array& A,
              nb::handle alo, nb::handle ahi, nb::handle beta, Array& B, nb::handle blo,
              nb::handle bhi) {
             Patch pa = patch_of(A, alo, ahi), pb = patch_of(B, blo, bhi),
                   pc = patch_of(C, clo, chi);
             alignas(16) unsigned char al[16], be[16];
             scalar_bytes(alpha, C.type, al, "alpha");
             scalar_bytes(beta, C.type, be, "beta");
             check(remora_array_add_patch(al, A.h(), pa.lo.data(), pa.hi.data(), be, B.h(),
                                          pb.lo.data(), pb.hi.data(), C.h(), pc.lo.data(),
                                          pc.hi.data()));
           })
      .def("_dot_patch",
           [](Array& A, bool ta, nb::handle alo, nb::handle ahi, Array& B, bool tb,
              nb::handle blo, nb::handle bhi) {
             Patch pa = patch_of(A, alo, ahi), pb = patch_of(B, blo, bhi);
             alignas(16) unsigned char r[16];
             check(remora_array_dot_patch(A.h(), ta ? 'T' : 'N', pa.lo.data(), pa.hi.data(), B.h(),
                                          tb ? 'T' : 'N', pb.lo.data(), pb.hi.data(), r));
             return scalar_object(A.type, r);
           })
      .def("_gemm_patch",
           [](Array& C, nb::handle clo, nb::handle chi, bool ta, bool tb, nb::handle alpha,
              nb::handle beta, Array& A, nb::handle alo, nb::handle ahi, Array& B,
              nb::handle blo, nb::handle bhi) {
             Patch pa = patch_of(A, alo, ahi), pb = patch_of(B, blo, bhi),
                   pc = patch_of(C, clo, chi);
             alignas(16) unsigned char al[16], be[16];
             scalar_bytes(alpha, C.type, al, "alpha");
             scalar_bytes(beta, C.type, be, "beta");
             check(remora_array_gemm_patch(ta ? 'T' : 'N', tb ? 'T' : 'N', al, be, A.h(),
                                           pa.lo.data(), pa.hi.data(), B.h(), pb.lo.data(),
                                           pb.hi.data(), C.h(), pc.lo.data(), pc.hi.data()));
           })
      .def("_elem_patch",
           [](Array& C, nb::handle clo, nb::handle chi, const std::string& op, Array& A,
              nb::handle alo, nb::handle ahi, Array& B, nb::handle blo, nb::handle bhi) {
             remora_elem_op_t o;
             if (op == "multiply")
               o = REMORA_ELEM_MULTIPLY;
             else if (op == "divide")
               o = REMORA_ELEM_DIVIDE;
             else if (op == "maximum")
               o = REMORA_ELEM_MAXIMUM;
             else if (op == "minimum")
               o = REMORA_ELEM_MINIMUM;
             else
               fail(REMORA_ERR_ARG, "op = '" + op +
                                        "' is not an element-wise operation: multiply, divide, "
                                        "maximum, minimum");
             Patch pa = patch_of(A, alo, ahi), pb = patch_of(B, blo, bhi),
                   pc = patch_of(C, clo, chi);
             check(remora_array_elem_patch(o, A.h(), pa.lo.data(), pa.hi.data(), B.h(),
                                           pb.lo.data(), pb.hi.data(), C.h(), pc.lo.data(),
                                           pc.hi.data()));
           })
      .def(
          "norm1",
          [](Array& A) {
            double r;
            check(remora_array_norm1(A.h(), &r));
            return r;
          },
          "Collective (1-D or 2-D): the largest column sum of absolute values.")
      .def(
          "norm_inf",
          [](Array& A) {
            double r;
            check(remora_array_norm_infinity(A.h(), &r));
            return r;
          },
          "Collective (1-D or 2-D): the largest row sum of absolute values.")
      .def(
          "symmetrize", [](Array& A) { check(remora_array_symmetrize(A.h())); },
          "Collective: A = (A + A.T) / 2 (square 2-D, not an integer type).")
      .def(
          "destroy",
          [](Array& A) {
            if (A.a != nullptr) check(remora_array_destroy(&A.a));
          },
          "Collective: frees the array; views from local() must not be used afterwards.");

  nb::class_<Mutexes>(m, "Mutexes",
                      "Mutexes(count): a set of count mutexes over the job (collective). "
                      "lock(i) / unlock(i) are one-sided; with m.hold(i): locks for a block.")
      .def(
          "__init__",
          [](Mutexes* self, int count) {
            new (self) Mutexes();
            check(REMORA_NOGIL(remora_mutexes_create(count, &self->m)));
            self->count = count;
          },
          nb::arg("count"))
      .def_prop_ro("count", [](Mutexes& M) { return M.count; })
      .def(
          "lock",
          [](Mutexes& M, int index) {
            remora_mutexes_t h = M.h();
            check(REMORA_NOGIL(remora_mutex_lock(h, index)));
          },
          nb::arg("index"), "Waits until this rank holds mutex index.")
      .def(
          "unlock", [](Mutexes& M, int index) { check(remora_mutex_unlock(M.h(), index)); },
          nb::arg("index"))
      .def("destroy", [](Mutexes& M) {
        if (M.m != nullptr) check(REMORA_NOGIL(remora_mutexes_destroy(&M.m)));
      });

  nb::class_<AxpyBatch>(m, "_AxpyBatch")
      .def(
          "__init__",
          [](AxpyBatch* self, Array& A, const std::string& detach) {
            remora_axpy_detach_t d;
            if (detach == "nbx")
              d = REMORA_AXPY_DETACH_NBX;
            else if (detach == "eom")
              d = REMORA_AXPY_DETACH_EOM;
            else
              fail(REMORA_ERR_ARG, "detach = '" + detach + "' is not a detach method: nbx, eom");
            new (self) AxpyBatch();
            remora_array_t a = A.h();
            check(REMORA_NOGIL(remora_axpy_attach(a, d, &self->b)));
          },
          nb::arg("array"), nb::arg("detach") = "nbx")
      .def("_axpy",
           [](AxpyBatch& B, Array& A, bool to_global, nb::handle lo, nb::handle hi,
              nb::handle buffer, nb::handle alpha) {
             Patch p = patch_of(A, lo, hi);
             alignas(16) unsigned char ab[16];
             const void* ap = alpha_of(A, alpha, ab);
             void* data;
             nb::object keep;
             if (to_global) {
               Input in = as_input(buffer, A.type, "x");
               check_count(p, in.count(), "x");
               data = const_cast<void*>(in.data());
               keep = in.array;
             } else {
               PyArrayObject* o = as_output(buffer, A.type, "out");
               check_count(p, static_cast<size_t>(PyArray_SIZE(o)), "out");
               data = PyArray_DATA(o);
               keep = nb::borrow(buffer);
             }
             check(remora_axpy(
                 B.h(), to_global ? REMORA_AXPY_LOCAL_TO_GLOBAL : REMORA_AXPY_GLOBAL_TO_LOCAL, ap,
                 data, p.ld.data(), p.lo.data(), p.hi.data()));
             B.keep.push_back(std::move(keep));
           })
      .def_prop_ro("detached", [](AxpyBatch& B) { return B.b == nullptr; })
      .def("detach", [](AxpyBatch& B) {
        if (B.b == nullptr) return;
        int rc = REMORA_NOGIL(remora_axpy_detach(&B.b));
        B.b = nullptr;
        B.keep.clear();
        check(rc);
      });

  m.def(
      "_set_array_comm",
      [](nb::handle comm) {
        check(remora_array_set_create_comm(comm.is_none() ? REMORA_COMM_NULL : comm_of(comm)));
      },
      nb::arg("comm").none());
  m.def(
      "sync",
      [](nb::handle comm) {
        if (comm.is_none()) {
          check(REMORA_NOGIL(remora_array_sync()));
        } else {
          remora_comm_t c = comm_of(comm);
          check(REMORA_NOGIL(remora_array_sync_comm(c)));
        }
      },
      nb::arg("comm") = nb::none(),
      "Collective: completes every rank's operations on every array, then synchronises "
      "(with comm: over comm's ranks, which completes every operation of those ranks).");
}

}  // namespace remora_py
