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
             nb::handle block, nb::handle grid, nb::handle map, nb::handle name) {
            new (self) Array();
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
          nb::arg("shape"), nb::arg("dtype"), nb::arg("layout") = "block",
          nb::arg("block") = nb::none(), nb::arg("grid") = nb::none(), nb::arg("map") = nb::none(),
          nb::arg("name") = nb::none())
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
      .def(
          "destroy",
          [](Array& A) {
            if (A.a != nullptr) check(remora_array_destroy(&A.a));
          },
          "Collective: frees the array; views from local() must not be used afterwards.");

  m.def(
      "sync", []() { check(REMORA_NOGIL(remora_array_sync())); },
      "Collective: completes every rank's operations on every array, then synchronises.");
}

}  // namespace remora_py
