// remora.Window: RMA windows whose memory is a numpy array on every rank.
#include "common.h"

#include <cstring>

namespace remora_py {

std::vector<npy_intp> shape_of(nb::handle shape, const char* what) {
  std::vector<npy_intp> dims;
  auto one = [&](nb::handle h) {
    if (!PyIndex_Check(h.ptr()))
      fail(REMORA_ERR_ARG,
           std::string(what) + " must hold integers, not " + nb::type_name(h.type()).c_str());
    long long v = nb::cast<long long>(nb::int_(h));
    if (v < 0)
      fail(REMORA_ERR_ARG, std::string(what) + " has a negative extent " + std::to_string(v));
    dims.push_back(static_cast<npy_intp>(v));
  };
  if (PyIndex_Check(shape.ptr()))
    one(shape);
  else
    for (nb::handle h : shape) one(h);
  return dims;
}

namespace {

struct Window {
  remora_win_t win = nullptr;
  Type type{};
  std::vector<npy_intp> shape;
  size_t count = 0;  // this rank's elements
  void* base = nullptr;
  bool hold = false;                // deferred fence or lock: origin buffers are queued
  std::vector<nb::object> pending;  // origin buffers until the next synchronisation
  nb::object user;                  // the caller's array of a window made by create, or None

  remora_win_t w() const {
    if (win == nullptr) [[unlikely]]
      fail(REMORA_ERR_STATE, "the window has been freed");
    return win;
  }
  void keep(Input& in) {
    if (hold) pending.push_back(std::move(in.array));
  }
  size_t elements_of(int target) const {
    size_t bytes;
    check(remora_win_size(w(), target, &bytes));
    return bytes / type.size;
  }
};

size_t checked_disp(long long disp) {
  if (disp < 0) fail(REMORA_ERR_RANGE, "disp = " + std::to_string(disp) + " is negative");
  return static_cast<size_t>(disp);
}

// alpha (not None) makes a sum a scaled sum, target += alpha * data.
remora_op_t op_with_alpha(nb::handle op, nb::handle alpha, const Type& t, void* alpha_bytes,
                          const void** alpha_ptr) {
  remora_op_t o = parse_op(op);
  *alpha_ptr = nullptr;
  if (!alpha.is_none()) {
    if (o != REMORA_OP_SUM)
      fail(REMORA_ERR_ARG, "alpha is only for op = 'sum' (target += alpha * data)");
    scalar_bytes(alpha, t, alpha_bytes, "alpha");
    *alpha_ptr = alpha_bytes;
    o = REMORA_OP_SCALED_SUM;
  }
  return o;
}

nb::object result_for(const Type& t, const Input& in, nb::handle out) {
  if (out.is_none()) return new_array(t, PyArray_NDIM(in.a()), PyArray_DIMS(in.a()));
  PyArrayObject* o = as_output(out, t, "out");
  if (static_cast<size_t>(PyArray_SIZE(o)) != in.count())
    fail(REMORA_ERR_ARG, "out has " + std::to_string(PyArray_SIZE(o)) + " elements, data " +
                             std::to_string(in.count()));
  return nb::borrow(out);
}

// A layout (remora/layout.h): which elements of a buffer an operation touches. Local object.
struct Layout {
  remora_layout_t l = nullptr;
  ~Layout() {
    if (l != nullptr) remora_layout_free(&l);
  }
  size_t elements() const {
    size_t n;
    check(remora_layout_elements(l, &n));
    return n;
  }
  size_t extent() const {
    size_t n;
    check(remora_layout_extent(l, &n));
    return n;
  }
};

std::vector<size_t> size_list(nb::handle seq, const char* what) {
  std::vector<size_t> v;
  for (nb::handle h : seq) {
    long long x = nb::cast<long long>(h);
    if (x < 0)
      fail(REMORA_ERR_ARG, std::string(what) + " has a negative entry " + std::to_string(x));
    v.push_back(static_cast<size_t>(x));
  }
  return v;
}

// The origin side of a layout operation: the given layout, or count consecutive elements.
struct OriginLayout {
  Layout own;
  remora_layout_t l = nullptr;
};
void origin_layout(nb::handle given, size_t count, OriginLayout* o) {
  if (!given.is_none()) {
    o->l = nb::cast<Layout&>(given).l;
    return;
  }
  check(remora_layout_contiguous(count, &o->own.l));
  o->l = o->own.l;
}
// data must cover the origin layout's extent.
void check_extent(remora_layout_t l, size_t have, const char* what) {
  size_t extent;
  check(remora_layout_extent(l, &extent));
  if (have < extent)
    fail(REMORA_ERR_ARG, std::string(what) + " has " + std::to_string(have) +
                             " elements, its layout reaches element " + std::to_string(extent));
}
}  // namespace

void bind_window(nb::module_& m) {
  nb::class_<Layout>(m, "Layout",
                     "Which elements of a buffer a layout operation touches (remora/layout.h): "
                     "Layout.contiguous(count), Layout.vector(count, blocklen, stride), "
                     "Layout.subarray(sizes, subsizes, starts, order='C').")
      .def_static(
          "contiguous",
          [](long long count) {
            if (count < 0)
              fail(REMORA_ERR_ARG, "count = " + std::to_string(count) + " is negative");
            auto L = std::make_unique<Layout>();
            check(remora_layout_contiguous(static_cast<size_t>(count), &L->l));
            return L.release();
          },
          nb::arg("count"), "count consecutive elements.")
      .def_static(
          "vector",
          [](long long count, long long blocklen, long long stride) {
            if (count < 0 || blocklen < 0 || stride < 0)
              fail(REMORA_ERR_ARG,
                   "count = " + std::to_string(count) + ", blocklen = " + std::to_string(blocklen) +
                       ", stride = " + std::to_string(stride) + ": none may be negative");
            auto L = std::make_unique<Layout>();
            check(remora_layout_vector(static_cast<size_t>(count), static_cast<size_t>(blocklen),
                                       static_cast<size_t>(stride), &L->l));
            return L.release();
          },
          nb::arg("count"), nb::arg("blocklen"), nb::arg("stride"),
          "count blocks of blocklen elements, block i starting at element i * stride.")
      .def_static(
          "subarray",
          [](nb::handle sizes, nb::handle subsizes, nb::handle starts, const std::string& order) {
            std::vector<size_t> sz = size_list(sizes, "sizes"),
                                sub = size_list(subsizes, "subsizes"),
                                st = size_list(starts, "starts");
            if (sub.size() != sz.size() || st.size() != sz.size())
              fail(REMORA_ERR_ARG, "sizes, subsizes and starts have " + std::to_string(sz.size()) +
                                       ", " + std::to_string(sub.size()) + " and " +
                                       std::to_string(st.size()) + " entries: they must agree");
            int ord;
            if (order == "C")
              ord = REMORA_ORDER_C;
            else if (order == "F")
              ord = REMORA_ORDER_FORTRAN;
            else
              fail(REMORA_ERR_ARG, "order = '" + order + "' is neither 'C' nor 'F'");
            auto L = std::make_unique<Layout>();
            check(remora_layout_subarray(static_cast<int>(sz.size()), sz.data(), sub.data(),
                                         st.data(), ord, &L->l));
            return L.release();
          },
          nb::arg("sizes"), nb::arg("subsizes"), nb::arg("starts"), nb::arg("order") = "C",
          "The box of subsizes elements from starts in an array of sizes (element 0 is the "
          "array's first).")
      .def_prop_ro("elements", &Layout::elements, "The number of elements touched.")
      .def_prop_ro("extent", &Layout::extent,
                   "Elements from element 0 to one past the last touched: what a buffer must "
                   "hold.");
  nb::class_<Window>(m, "_Window")
      .def(
          "__init__",
          [](Window* self, nb::handle shape, nb::handle dtype, nb::handle info, nb::handle comm,
             nb::handle array) {
            new (self) Window();
            if (!array.is_none()) {
              // remora_win_create over the caller's array, which the window keeps alive.
              if (!comm.is_none())
                fail(REMORA_ERR_ARG,
                     "Window.create spans every rank: comm must be None (remora_win_create has "
                     "no communicator form)");
              if (!PyArray_Check(array.ptr()))
                fail(REMORA_ERR_ARG, std::string("array must be a numpy array, not ") +
                                         nb::type_name(array.type()).c_str());
              auto* a = reinterpret_cast<PyArrayObject*>(array.ptr());
              self->type = type_of_descr(PyArray_DESCR(a), "array's dtype");
              if (!PyArray_ISCARRAY(a))
                fail(REMORA_ERR_ARG,
                     "array must be C-contiguous, aligned and writeable to be window memory");
              for (int d = 0; d < PyArray_NDIM(a); ++d) self->shape.push_back(PyArray_DIMS(a)[d]);
              self->count = static_cast<size_t>(PyArray_SIZE(a));
              self->base = self->count ? PyArray_DATA(a) : nullptr;
              std::string info_s = info.is_none() ? std::string() : nb::cast<std::string>(info);
              check(REMORA_NOGIL(
                  remora_win_create(self->base, self->count * self->type.size, self->type.size,
                                    info_s.empty() ? nullptr : info_s.c_str(), &self->win)));
              self->user = nb::borrow(array);
              remora_sync_impl_t fence, lock;
              check(remora_win_sync_impl(self->win, &fence, &lock));
              self->hold = fence == REMORA_SYNC_DEFERRED || lock == REMORA_SYNC_DEFERRED;
              return;
            }
            self->type = type_of_dtype(dtype, "dtype");
            self->shape = shape_of(shape, "shape");
            size_t n = 1;
            for (npy_intp d : self->shape) n *= static_cast<size_t>(d);
            self->count = n;
            std::string info_s = info.is_none() ? std::string() : nb::cast<std::string>(info);
            check(remora_win_allocate_comm(comm_of(comm), n * self->type.size, self->type.size,
                                           info_s.empty() ? nullptr : info_s.c_str(), &self->base,
                                           &self->win));
            remora_sync_impl_t fence, lock;
            check(remora_win_sync_impl(self->win, &fence, &lock));
            self->hold = fence == REMORA_SYNC_DEFERRED || lock == REMORA_SYNC_DEFERRED;
          },
          nb::arg("shape").none(), nb::arg("dtype").none(), nb::arg("info") = nb::none(),
          nb::arg("comm") = nb::none(), nb::arg("array") = nb::none())
      .def_prop_ro(
          "local",
          [](nb::handle self) {
            Window& w = nb::cast<Window&>(self);
            w.w();
            PyArray_Descr* d = PyArray_DescrFromType(w.type.typenum);
            void* data = w.count ? w.base : nullptr;
            PyObject* a = PyArray_NewFromDescr(&PyArray_Type, d, static_cast<int>(w.shape.size()),
                                               w.shape.data(), nullptr, data,
                                               data ? NPY_ARRAY_CARRAY : 0, nullptr);
            if (a == nullptr) throw nb::python_error();
            if (data) {
              Py_INCREF(self.ptr());
              if (PyArray_SetBaseObject(reinterpret_cast<PyArrayObject*>(a), self.ptr()) < 0) {
                Py_DECREF(a);
                throw nb::python_error();
              }
            }
            return nb::steal(a);
          },
          "This rank's window memory as a numpy array of the window's shape and "
          "dtype (no copy). Valid until free().")
      .def_prop_ro("shape",
                   [](Window& w) {
                     nb::list l;
                     for (npy_intp d : w.shape) l.append(d);
                     return nb::tuple(l);
                   })
      .def_prop_ro("dtype", [](Window& w) { return dtype_object(w.type); })
      .def_prop_ro("comm_rank",
                   [](Window& w) {
                     int r;
                     check(remora_win_comm_rank(w.w(), &r));
                     return r;
                   })
      .def_prop_ro("comm_size",
                   [](Window& w) {
                     int n;
                     check(remora_win_comm_size(w.w(), &n));
                     return n;
                   })
      .def_prop_ro("acc_strategy",
                   [](Window& w) {
                     remora_acc_strategy_t s;
                     check(remora_win_acc_strategy(w.w(), &s));
                     static const char* names[] = {"auto", "native", "caller", "owner"};
                     return std::string(names[static_cast<int>(s) & 3]);
                   })
      .def(
          "path",
          [](Window& w, int target) {
            remora_win_path_t p;
            check(remora_win_path(w.w(), target, &p));
            static const char* names[] = {"shared", "transport", "local", "single_copy", "agent"};
            int i = static_cast<int>(p);
            return std::string(i >= 0 && i < 5 ? names[i] : "unknown");
          },
          nb::arg("target"),
          "How this rank's operations reach target's memory: shared, transport, local, "
          "single_copy or agent.")
      .def(
          "target_size", [](Window& w, int target) { return w.elements_of(target); },
          nb::arg("target"), "The number of elements in target's window memory.")
      .def(
          "free",
          [](Window& w) {
            if (w.win != nullptr) {
              {
                remora_win_t h = w.w();
                (void)h;
                check(REMORA_NOGIL(remora_win_free(&w.win)));
              }
              w.pending.clear();
              w.user = nb::object();
            }
          },
          "Collective: frees the window (fails while a lock or a fence epoch with "
          "operations is open). Arrays from .local must not be used afterwards.")
      .def_prop_ro("freed", [](Window& w) { return w.win == nullptr; })
      // ---- Operations ----
      .def(
          "put",
          [](Window& w, nb::handle data, int target, long long disp) {
            Input in = as_input(data, w.type, "data");
            check(remora_win_put(w.w(), target, checked_disp(disp), in.data(), in.count(),
                                 w.type.remora));
            w.keep(in);
          },
          nb::arg("data"), nb::arg("target"), nb::arg("disp") = 0,
          "Writes data (an array of the window's dtype; lists and scalars are converted) to "
          "target's memory from element disp.")
      .def(
          "get",
          [](Window& w, int target, long long disp, nb::handle count, nb::handle out) {
            size_t d = checked_disp(disp);
            nb::object r;
            size_t n;
            if (!out.is_none()) {
              PyArrayObject* o = as_output(out, w.type, "out");
              n = static_cast<size_t>(PyArray_SIZE(o));
              if (!count.is_none() && nb::cast<long long>(count) != static_cast<long long>(n))
                fail(REMORA_ERR_ARG, std::string("count = ") + nb::str(count).c_str() +
                                         std::string(" but out has ") + std::to_string(n) +
                                         " elements");
              r = nb::borrow(out);
            } else if (!count.is_none()) {
              long long c = nb::cast<long long>(count);
              if (c < 0) fail(REMORA_ERR_ARG, "count = " + std::to_string(c) + " is negative");
              npy_intp dim = static_cast<npy_intp>(c);
              n = static_cast<size_t>(c);
              r = new_array(w.type, 1, &dim);
            } else {
              size_t total = w.elements_of(target);
              if (d > total)
                fail(REMORA_ERR_RANGE, "disp = " + std::to_string(d) + " is beyond rank " +
                                           std::to_string(target) + "'s " + std::to_string(total) +
                                           " elements");
              n = total - d;
              if (d == 0 && n == w.count) {
                r = new_array(w.type, static_cast<int>(w.shape.size()), w.shape.data());
              } else {
                npy_intp dim = static_cast<npy_intp>(n);
                r = new_array(w.type, 1, &dim);
              }
            }
            check(remora_win_get(w.w(), target, d,
                                 PyArray_DATA(reinterpret_cast<PyArrayObject*>(r.ptr())), n,
                                 w.type.remora));
            return r;
          },
          nb::arg("target"), nb::arg("disp") = 0, nb::arg("count") = nb::none(),
          nb::arg("out") = nb::none(),
          "Reads count elements (default: the rest of target's memory) from element disp "
          "into a new array, or into out.")
      .def(
          "accumulate",
          [](Window& w, nb::handle data, int target, long long disp, nb::handle op,
             nb::handle alpha) {
            alignas(16) unsigned char ab[16];
            const void* ap;
            remora_op_t o = op_with_alpha(op, alpha, w.type, ab, &ap);
            Input in = as_input(data, w.type, "data");
            check(remora_win_accumulate(w.w(), target, checked_disp(disp), in.data(), in.count(),
                                        w.type.remora, o, ap));
            w.keep(in);
          },
          nb::arg("data"), nb::arg("target"), nb::arg("disp") = 0, nb::arg("op") = "sum",
          nb::arg("alpha") = nb::none(),
          "target[i] = target[i] op data[i], atomically per element; with alpha, "
          "target[i] += alpha * data[i].")
      .def(
          "get_accumulate",
          [](Window& w, nb::handle data, int target, long long disp, nb::handle op,
             nb::handle count, nb::handle out) {
            remora_op_t o = parse_op(op);
            size_t d = checked_disp(disp);
            if (o == REMORA_OP_NO_OP && data.is_none()) {
              if (count.is_none()) fail(REMORA_ERR_ARG, "op = 'no_op' without data needs count");
              npy_intp c = static_cast<npy_intp>(nb::cast<long long>(count));
              nb::object r = new_array(w.type, 1, &c);
              check(
                  remora_win_get_accumulate(w.w(), target, d, nullptr,
                                            PyArray_DATA(reinterpret_cast<PyArrayObject*>(r.ptr())),
                                            static_cast<size_t>(c), w.type.remora, o, nullptr));
              return r;
            }
            Input in = as_input(data, w.type, "data");
            nb::object r = result_for(w.type, in, out);
            check(remora_win_get_accumulate(w.w(), target, d, in.data(),
                                            PyArray_DATA(reinterpret_cast<PyArrayObject*>(r.ptr())),
                                            in.count(), w.type.remora, o, nullptr));
            w.keep(in);
            return r;
          },
          nb::arg("data").none(), nb::arg("target"), nb::arg("disp") = 0, nb::arg("op") = "sum",
          nb::arg("count") = nb::none(), nb::arg("out") = nb::none(),
          "As accumulate, returning target's elements before the update.")
      .def(
          "fetch_and_op",
          [](Window& w, nb::handle value, int target, long long disp, nb::handle op) {
            remora_op_t o = parse_op(op);
            alignas(16) unsigned char v[16], r[16];
            if (!(o == REMORA_OP_NO_OP && value.is_none())) scalar_bytes(value, w.type, v, "value");
            check(
                remora_win_fetch_and_op(w.w(), target, checked_disp(disp), v, r, w.type.remora, o));
            return scalar_object(w.type, r);
          },
          nb::arg("value").none(), nb::arg("target"), nb::arg("disp") = 0, nb::arg("op") = "sum",
          "Applies op with value to one element atomically; returns its previous value.")
      .def(
          "compare_and_swap",
          [](Window& w, nb::handle value, nb::handle compare, int target, long long disp) {
            alignas(16) unsigned char v[16], c[16], r[16];
            scalar_bytes(value, w.type, v, "value");
            scalar_bytes(compare, w.type, c, "compare");
            check(remora_win_compare_and_swap(w.w(), target, checked_disp(disp), v, c, r,
                                              w.type.remora));
            return scalar_object(w.type, r);
          },
          nb::arg("value"), nb::arg("compare"), nb::arg("target"), nb::arg("disp") = 0,
          "Stores value in one element if it equals compare; returns its previous value.")
      // ---- Request forms (passive-target epochs only) ----
      .def(
          "rput",
          [](Window& w, nb::handle data, int target, long long disp) {
            Input in = as_input(data, w.type, "data");
            auto req = std::make_unique<Request>();
            check(remora_win_rput(w.w(), target, checked_disp(disp), in.data(), in.count(),
                                  w.type.remora, &req->request));
            req->keep.push_back(in.array);
            w.keep(in);
            return req.release();
          },
          nb::arg("data"), nb::arg("target"), nb::arg("disp") = 0)
      .def(
          "rget",
          [](Window& w, int target, long long disp, long long count) {
            if (count < 0)
              fail(REMORA_ERR_ARG, "count = " + std::to_string(count) + " is negative");
            npy_intp c = static_cast<npy_intp>(count);
            nb::object r = new_array(w.type, 1, &c);
            auto req = std::make_unique<Request>();
            check(remora_win_rget(w.w(), target, checked_disp(disp),
                                  PyArray_DATA(reinterpret_cast<PyArrayObject*>(r.ptr())),
                                  static_cast<size_t>(count), w.type.remora, &req->request));
            req->keep.push_back(r);
            req->result = r;
            return req.release();
          },
          nb::arg("target"), nb::arg("disp") = 0, nb::arg("count") = 1)
      .def(
          "raccumulate",
          [](Window& w, nb::handle data, int target, long long disp, nb::handle op,
             nb::handle alpha) {
            alignas(16) unsigned char ab[16];
            const void* ap;
            remora_op_t o = op_with_alpha(op, alpha, w.type, ab, &ap);
            Input in = as_input(data, w.type, "data");
            auto req = std::make_unique<Request>();
            check(remora_win_raccumulate(w.w(), target, checked_disp(disp), in.data(), in.count(),
                                         w.type.remora, o, ap, &req->request));
            req->keep.push_back(in.array);
            w.keep(in);
            return req.release();
          },
          nb::arg("data"), nb::arg("target"), nb::arg("disp") = 0, nb::arg("op") = "sum",
          nb::arg("alpha") = nb::none())
      .def(
          "rget_accumulate",
          [](Window& w, nb::handle data, int target, long long disp, nb::handle op) {
            remora_op_t o = parse_op(op);
            Input in = as_input(data, w.type, "data");
            nb::object r = new_array(w.type, PyArray_NDIM(in.a()), PyArray_DIMS(in.a()));
            auto req = std::make_unique<Request>();
            check(
                remora_win_rget_accumulate(w.w(), target, checked_disp(disp), in.data(),
                                           PyArray_DATA(reinterpret_cast<PyArrayObject*>(r.ptr())),
                                           in.count(), w.type.remora, o, nullptr, &req->request));
            req->keep.push_back(in.array);
            req->keep.push_back(r);
            req->result = r;
            w.keep(in);
            return req.release();
          },
          nb::arg("data"), nb::arg("target"), nb::arg("disp") = 0, nb::arg("op") = "sum")
      // ---- Layout operations (non-contiguous on either side) ----
      .def(
          "put_layout",
          [](Window& w, nb::handle data, int target, Layout& target_layout, long long disp,
             nb::handle origin) {
            Input in = as_input(data, w.type, "data");
            OriginLayout o;
            origin_layout(origin, in.count(), &o);
            check_extent(o.l, in.count(), "data");
            check(remora_win_put_layout(w.w(), target, checked_disp(disp), in.data(), o.l,
                                        target_layout.l, w.type.remora));
            w.keep(in);
          },
          nb::arg("data"), nb::arg("target"), nb::arg("layout"), nb::arg("disp") = 0,
          nb::arg("origin_layout") = nb::none(),
          "Writes the elements of data that origin_layout picks (default: all, in order) to "
          "the elements of target's memory that layout picks, counted from element disp.")
      .def(
          "get_layout",
          [](Window& w, int target, Layout& target_layout, long long disp, nb::handle out,
             nb::handle result) {
            nb::object r;
            OriginLayout o;
            if (out.is_none()) {
              size_t n =
                  result.is_none() ? target_layout.elements() : nb::cast<Layout&>(result).extent();
              npy_intp dim = static_cast<npy_intp>(n);
              r = new_array(w.type, 1, &dim);
              std::memset(PyArray_DATA(reinterpret_cast<PyArrayObject*>(r.ptr())), 0,
                          n * w.type.size);
            } else {
              as_output(out, w.type, "out");
              r = nb::borrow(out);
            }
            auto* ra = reinterpret_cast<PyArrayObject*>(r.ptr());
            size_t have = static_cast<size_t>(PyArray_SIZE(ra));
            origin_layout(result, result.is_none() ? target_layout.elements() : 0, &o);
            check_extent(o.l, have, "out");
            check(remora_win_get_layout(w.w(), target, checked_disp(disp), PyArray_DATA(ra), o.l,
                                        target_layout.l, w.type.remora));
            return r;
          },
          nb::arg("target"), nb::arg("layout"), nb::arg("disp") = 0, nb::arg("out") = nb::none(),
          nb::arg("result_layout") = nb::none(),
          "Reads the elements of target's memory that layout picks (from element disp) into a "
          "new 1-D array, or into the elements of out that result_layout picks.")
      .def(
          "accumulate_layout",
          [](Window& w, nb::handle data, int target, Layout& target_layout, long long disp,
             nb::handle op, nb::handle alpha, nb::handle origin) {
            alignas(16) unsigned char ab[16];
            const void* ap;
            remora_op_t opv = op_with_alpha(op, alpha, w.type, ab, &ap);
            Input in = as_input(data, w.type, "data");
            OriginLayout o;
            origin_layout(origin, in.count(), &o);
            check_extent(o.l, in.count(), "data");
            check(remora_win_accumulate_layout(w.w(), target, checked_disp(disp), in.data(), o.l,
                                               target_layout.l, w.type.remora, opv, ap));
            w.keep(in);
          },
          nb::arg("data"), nb::arg("target"), nb::arg("layout"), nb::arg("disp") = 0,
          nb::arg("op") = "sum", nb::arg("alpha") = nb::none(),
          nb::arg("origin_layout") = nb::none(),
          "As accumulate, on the elements the layouts pick (atomic per element).")
      // ---- Synchronisation ----
      .def(
          "fence",
          [](Window& w, int assert_flags) {
            {
              remora_win_t h = w.w();
              (void)h;
              check(REMORA_NOGIL(remora_win_fence(h, assert_flags)));
            }
            w.pending.clear();
          },
          nb::arg("assert_flags") = 0,
          "Collective: completes the operations of the epoch and opens the next one.")
      .def(
          "_lock",
          [](Window& w, int target, bool exclusive, bool nocheck) {
            remora_win_t h = w.w();
            int type = exclusive ? REMORA_LOCK_EXCLUSIVE : REMORA_LOCK_SHARED;
            int mode = nocheck ? REMORA_MODE_NOCHECK : 0;
            check(REMORA_NOGIL(remora_win_lock(h, type, target, mode)));
          },
          nb::arg("target"), nb::arg("exclusive") = true, nb::arg("nocheck") = false)
      .def(
          "unlock",
          [](Window& w, int target) {
            {
              remora_win_t h = w.w();
              (void)h;
              check(REMORA_NOGIL(remora_win_unlock(h, target)));
            }
            w.pending.clear();
          },
          nb::arg("target"))
      .def(
          "_lock_all",
          [](Window& w, bool nocheck) {
            remora_win_t h = w.w();
            int mode = nocheck ? REMORA_MODE_NOCHECK : 0;
            check(REMORA_NOGIL(remora_win_lock_all(h, mode)));
          },
          nb::arg("nocheck") = false)
      .def("unlock_all",
           [](Window& w) {
             {
               remora_win_t h = w.w();
               (void)h;
               check(REMORA_NOGIL(remora_win_unlock_all(h)));
             }
             w.pending.clear();
           })
      .def(
          "flush",
          [](Window& w, nb::handle target) {
            if (target.is_none()) {
              remora_win_t h = w.w();
              (void)h;
              check(REMORA_NOGIL(remora_win_flush_all(h)));
            } else {
              int t = nb::cast<int>(target);
              remora_win_t h = w.w();
              check(REMORA_NOGIL(remora_win_flush(h, t)));
            }
            w.pending.clear();
          },
          nb::arg("target") = nb::none(),
          "Completes the operations to target (None: to every target) at the target.")
      .def(
          "flush_local",
          [](Window& w, nb::handle target) {
            if (target.is_none())
              check(remora_win_flush_local_all(w.w()));
            else
              check(remora_win_flush_local(w.w(), nb::cast<int>(target)));
            w.pending.clear();
          },
          nb::arg("target") = nb::none())
      .def("sync", [](Window& w) { check(remora_win_sync(w.w())); })
      .def(
          "_post",
          [](Window& w, nb::handle group, int assert_flags) {
            check(remora_win_post(group_of(group), assert_flags, w.w()));
          },
          nb::arg("group"), nb::arg("assert_flags") = 0)
      .def(
          "_start",
          [](Window& w, nb::handle group, int assert_flags) {
            check(remora_win_start(group_of(group), assert_flags, w.w()));
          },
          nb::arg("group"), nb::arg("assert_flags") = 0)
      .def("complete",
           [](Window& w) {
             {
               remora_win_t h = w.w();
               (void)h;
               check(REMORA_NOGIL(remora_win_complete(h)));
             }
             w.pending.clear();
           })
      .def("wait",
           [](Window& w) {
             {
               remora_win_t h = w.w();
               (void)h;
               check(REMORA_NOGIL(remora_win_wait(h)));
             }
           })
      .def("test", [](Window& w) {
        int flag;
        check(remora_win_test(w.w(), &flag));
        return flag != 0;
      });
}

}  // namespace remora_py
