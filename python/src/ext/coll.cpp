// Communicators, groups and collectives on numpy arrays.
#include "common.h"

#include <cstring>

namespace remora_py {

Group::~Group() {
  if (group != REMORA_GROUP_NULL) remora_group_free(&group);
}

Comm::~Comm() {
  if (owned && comm != REMORA_COMM_NULL) remora_comm_free(&comm);
}

remora_comm_t comm_of(nb::handle comm) {
  if (comm.is_none()) {
    remora_comm_t world;
    check(remora_comm_world(&world));
    return world;
  }
  Comm& c = nb::cast<Comm&>(comm);
  if (c.comm == REMORA_COMM_NULL) fail(REMORA_ERR_STATE, "the communicator has been freed");
  return c.comm;
}

remora_group_t group_of(nb::handle group) {
  Group& g = nb::cast<Group&>(group);
  if (g.group == REMORA_GROUP_NULL) fail(REMORA_ERR_STATE, "the group has been freed");
  return g.group;
}

static std::vector<int> int_list(nb::handle seq) {
  std::vector<int> out;
  for (nb::handle h : seq) out.push_back(nb::cast<int>(h));
  return out;
}

static Group* new_group_from_world(nb::handle ranks) {
  remora_comm_t world;
  check(remora_comm_world(&world));
  remora_group_t all;
  check(remora_comm_group(world, &all));
  auto g = std::make_unique<Group>();
  std::vector<int> r = int_list(ranks);
  int rc = remora_group_incl(all, static_cast<int>(r.size()), r.data(), &g->group);
  remora_group_free(&all);
  check(rc);
  return g.release();
}

static size_t elements(PyArrayObject* a) {
  return static_cast<size_t>(PyArray_SIZE(a));
}

// The array that receives a reduction of in: out if given (checked), else a new one of in's
// shape.
static nb::object result_like(const Input& in, const Type& t, nb::handle out) {
  if (!out.is_none()) {
    PyArrayObject* o = as_output(out, t, "out");
    if (elements(o) != in.count())
      fail(REMORA_ERR_ARG, "out has " + std::to_string(elements(o)) + " elements, the data " +
                               std::to_string(in.count()));
    return nb::borrow(out);
  }
  return new_array(t, PyArray_NDIM(in.a()), PyArray_DIMS(in.a()));
}

static Type type_of_array(nb::handle a, const char* what) {
  if (!PyArray_Check(a.ptr()))
    fail(REMORA_ERR_ARG,
         std::string(what) + " must be a numpy array, not " + nb::type_name(a.type()).c_str());
  return type_of_descr(PyArray_DESCR(reinterpret_cast<PyArrayObject*>(a.ptr())), what);
}

// A copy of in: a nonblocking collective reads its input later, while the caller may change a.
static Input copy_of(const Input& in) {
  PyObject* c = PyArray_NewCopy(in.a(), NPY_CORDER);
  if (c == nullptr) throw nb::python_error();
  return Input{nb::steal(c)};
}

static void* data_of(const nb::object& a) {
  return PyArray_DATA(reinterpret_cast<PyArrayObject*>(a.ptr()));
}

// (size, shape of a...): the shape of a gather's result.
static std::vector<npy_intp> stacked(const Input& in, int n) {
  std::vector<npy_intp> dims{n};
  for (int d = 0; d < PyArray_NDIM(in.a()); ++d) dims.push_back(PyArray_DIMS(in.a())[d]);
  return dims;
}

// a of shape (size, ...): checked; returns the count of one block.
static size_t per_rank(nb::handle a, int n, const char* what) {
  auto* arr = reinterpret_cast<PyArrayObject*>(a.ptr());
  if (PyArray_NDIM(arr) < 1 || PyArray_DIMS(arr)[0] != n)
    fail(REMORA_ERR_ARG, std::string(what) + " must have the communicator's size (" +
                             std::to_string(n) + ") as its first extent");
  return static_cast<size_t>(PyArray_SIZE(arr)) / static_cast<size_t>(n);
}

// The status of starting r's operation: on failure nothing refers to the buffers any more.
static void started(Request& r, int rc) {
  if (rc < 0) {
    r.done = true;
    r.keep.clear();
    fail_rc(rc);
  }
}

static Request* request_for(std::initializer_list<nb::object> keep, nb::object result) {
  auto r = std::make_unique<Request>();
  for (const nb::object& o : keep) r->keep.push_back(o);
  r->result = std::move(result);
  return r.release();
}

void bind_coll(nb::module_& m) {
  nb::class_<Group>(m, "Group",
                    "A set of ranks (local object): Group(ranks) holds the given ranks of the "
                    "world, in that order.")
      .def(
          "__init__",
          [](Group* self, nb::handle ranks) {
            Group* g = new_group_from_world(ranks);
            new (self) Group();
            self->group = g->group;
            g->group = REMORA_GROUP_NULL;
            delete g;
          },
          nb::arg("ranks"))
      .def_prop_ro("size",
                   [](Group& g) {
                     int n;
                     if (g.group == REMORA_GROUP_NULL)
                       fail(REMORA_ERR_STATE, "the group has been freed");
                     check(remora_group_size(g.group, &n));
                     return n;
                   })
      .def_prop_ro(
          "rank",
          [](Group& g) {
            int r;
            check(remora_group_rank(g.group, &r));
            return r == REMORA_UNDEFINED ? nb::object(nb::none()) : nb::object(nb::int_(r));
          },
          "This rank's rank in the group, or None when it is not a member.")
      .def("free", [](Group& g) {
        if (g.group != REMORA_GROUP_NULL) check(remora_group_free(&g.group));
      });

  nb::class_<Comm>(m, "Comm", "A communicator: remora.COMM_WORLD, dup() and split() of one.")
      .def_prop_ro("rank",
                   [](nb::handle self) {
                     int r;
                     check(remora_comm_rank(comm_of(self), &r));
                     return r;
                   })
      .def_prop_ro("size",
                   [](nb::handle self) {
                     int n;
                     check(remora_comm_size(comm_of(self), &n));
                     return n;
                   })
      .def(
          "dup",
          [](nb::handle self) {
            auto c = std::make_unique<Comm>();
            check(remora_comm_dup(comm_of(self), &c->comm));
            c->owned = true;
            return c.release();
          },
          "A new communicator with the same ranks (collective).")
      .def(
          "split",
          [](nb::handle self, nb::handle color, int key) -> nb::object {
            int col = color.is_none() ? REMORA_UNDEFINED : nb::cast<int>(color);
            auto c = std::make_unique<Comm>();
            check(remora_comm_split(comm_of(self), col, key, &c->comm));
            if (c->comm == REMORA_COMM_NULL) return nb::none();
            c->owned = true;
            return nb::cast(c.release(), nb::rv_policy::take_ownership);
          },
          nb::arg("color"), nb::arg("key") = 0,
          "Collective: ranks of one colour form a communicator ordered by key; colour None "
          "joins none and returns None.")
      .def("group",
           [](nb::handle self) {
             auto g = std::make_unique<Group>();
             check(remora_comm_group(comm_of(self), &g->group));
             return g.release();
           })
      .def("free", [](Comm& c) {
        if (c.owned && c.comm != REMORA_COMM_NULL) check(remora_comm_free(&c.comm));
        c.comm = REMORA_COMM_NULL;
      });
  m.def("_world", []() {
    auto c = std::make_unique<Comm>();
    check(remora_comm_world(&c->comm));
    return c.release();
  });

  m.def(
      "barrier",
      [](nb::handle comm, nb::handle algorithm) {
        if (comm.is_none() && algorithm.is_none()) {
          check(REMORA_NOGIL(remora_barrier()));
          return;
        }
        remora_comm_t c = comm_of(comm);
        remora_coll_algorithm_t alg = parse_algorithm(algorithm);
        check(REMORA_NOGIL(remora_comm_barrier(c, alg)));
      },
      nb::arg("comm") = nb::none(), nb::arg("algorithm") = nb::none(),
      "Blocks until every rank (of comm) has entered the barrier.");

  m.def(
      "bcast",
      [](nb::handle a, int root, nb::handle comm, nb::handle algorithm) {
        Type t = type_of_array(a, "a");
        PyArrayObject* arr = as_output(a, t, "a");
        remora_comm_t c = comm_of(comm);
        remora_coll_algorithm_t alg = parse_algorithm(algorithm);
        void* buf = PyArray_DATA(arr);
        size_t n = elements(arr);
        check(REMORA_NOGIL(remora_bcast(buf, n, t.remora, root, c, alg)));
        return nb::borrow(a);
      },
      nb::arg("a"), nb::arg("root") = 0, nb::arg("comm") = nb::none(),
      nb::arg("algorithm") = nb::none(),
      "Broadcasts root's array a into every rank's a (in place; same shape and dtype "
      "everywhere); returns a.");

  m.def(
      "allreduce",
      [](nb::handle a, nb::handle op, nb::handle out, bool in_place, nb::handle comm,
         nb::handle algorithm) {
        Type t = type_of_array(a, "a");
        remora_op_t o = parse_op(op);
        if (in_place) {
          PyArrayObject* arr = as_output(a, t, "a (in place)");
          remora_comm_t c = comm_of(comm);
          remora_coll_algorithm_t alg = parse_algorithm(algorithm);
          void* buf = PyArray_DATA(arr);
          size_t n = elements(arr);
          check(REMORA_NOGIL(remora_allreduce(REMORA_IN_PLACE, buf, n, t.remora, o, c, alg)));
          return nb::borrow(a);
        }
        Input in = as_input(a, t, "a");
        nb::object r = result_like(in, t, out);
        auto* ra = reinterpret_cast<PyArrayObject*>(r.ptr());
        remora_comm_t c = comm_of(comm);
        remora_coll_algorithm_t alg = parse_algorithm(algorithm);
        const void* sb = in.data();
        void* rb = PyArray_DATA(ra);
        size_t n = in.count();
        check(REMORA_NOGIL(remora_allreduce(sb, rb, n, t.remora, o, c, alg)));
        return r;
      },
      nb::arg("a"), nb::arg("op") = "sum", nb::arg("out") = nb::none(), nb::arg("in_place") = false,
      nb::arg("comm") = nb::none(), nb::arg("algorithm") = nb::none(),
      "The element-wise reduction of every rank's a: a new array, or out, or a itself when "
      "in_place.");

  m.def(
      "iallreduce",
      [](nb::handle a, nb::handle op, nb::handle out, nb::handle comm, nb::handle algorithm) {
        Type t = type_of_array(a, "a");
        remora_op_t o = parse_op(op);
        Input in = as_input(a, t, "a");
        // The input is copied: the caller may change a while the reduction runs.
        PyObject* copy = PyArray_NewCopy(in.a(), NPY_CORDER);
        if (copy == nullptr) throw nb::python_error();
        Input c{nb::steal(copy)};
        nb::object r = result_like(c, t, out);
        auto req = std::make_unique<Request>();
        check(remora_iallreduce(c.data(), PyArray_DATA(reinterpret_cast<PyArrayObject*>(r.ptr())),
                                c.count(), t.remora, o, comm_of(comm), parse_algorithm(algorithm),
                                &req->request));
        req->keep.push_back(c.array);
        req->keep.push_back(r);
        req->result = r;
        return req.release();
      },
      nb::arg("a"), nb::arg("op") = "sum", nb::arg("out") = nb::none(),
      nb::arg("comm") = nb::none(), nb::arg("algorithm") = nb::none(),
      "Nonblocking allreduce: a Request whose wait() returns the result array.");

  m.def(
      "reduce",
      [](nb::handle a, nb::handle op, int root, nb::handle out, nb::handle comm,
         nb::handle algorithm) -> nb::object {
        Type t = type_of_array(a, "a");
        remora_op_t o = parse_op(op);
        remora_comm_t c = comm_of(comm);
        int me;
        check(remora_comm_rank(c, &me));
        Input in = as_input(a, t, "a");
        nb::object r = nb::none();
        void* rb = nullptr;
        if (me == root) {
          r = result_like(in, t, out);
          rb = PyArray_DATA(reinterpret_cast<PyArrayObject*>(r.ptr()));
        }
        remora_coll_algorithm_t alg = parse_algorithm(algorithm);
        const void* sb = in.data();
        size_t n = in.count();
        check(REMORA_NOGIL(remora_reduce(sb, rb, n, t.remora, o, root, c, alg)));
        return r;
      },
      nb::arg("a"), nb::arg("op") = "sum", nb::arg("root") = 0, nb::arg("out") = nb::none(),
      nb::arg("comm") = nb::none(), nb::arg("algorithm") = nb::none(),
      "The reduction of every rank's a: a new array (or out) at root, None elsewhere.");

  m.def(
      "allgather",
      [](nb::handle a, nb::handle comm, nb::handle algorithm) {
        Type t = type_of_array(a, "a");
        Input in = as_input(a, t, "a");
        remora_comm_t c = comm_of(comm);
        int n;
        check(remora_comm_size(c, &n));
        std::vector<npy_intp> dims{n};
        for (int d = 0; d < PyArray_NDIM(in.a()); ++d) dims.push_back(PyArray_DIMS(in.a())[d]);
        nb::object r = new_array(t, static_cast<int>(dims.size()), dims.data());
        remora_coll_algorithm_t alg = parse_algorithm(algorithm);
        const void* sb = in.data();
        void* rb = PyArray_DATA(reinterpret_cast<PyArrayObject*>(r.ptr()));
        size_t cnt = in.count();
        check(REMORA_NOGIL(remora_allgather(sb, rb, cnt, t.remora, c, alg)));
        return r;
      },
      nb::arg("a"), nb::arg("comm") = nb::none(), nb::arg("algorithm") = nb::none(),
      "Every rank's a (same shape everywhere), stacked along a new first axis in rank order.");

  m.def(
      "gather",
      [](nb::handle a, int root, nb::handle comm, nb::handle algorithm) -> nb::object {
        Type t = type_of_array(a, "a");
        Input in = as_input(a, t, "a");
        remora_comm_t c = comm_of(comm);
        int n, me;
        check(remora_comm_size(c, &n));
        check(remora_comm_rank(c, &me));
        nb::object r = nb::none();
        void* rb = nullptr;
        if (me == root) {
          std::vector<npy_intp> dims{n};
          for (int d = 0; d < PyArray_NDIM(in.a()); ++d) dims.push_back(PyArray_DIMS(in.a())[d]);
          r = new_array(t, static_cast<int>(dims.size()), dims.data());
          rb = PyArray_DATA(reinterpret_cast<PyArrayObject*>(r.ptr()));
        }
        remora_coll_algorithm_t alg = parse_algorithm(algorithm);
        const void* sb = in.data();
        size_t cnt = in.count();
        check(REMORA_NOGIL(remora_gather(sb, rb, cnt, t.remora, root, c, alg)));
        return r;
      },
      nb::arg("a"), nb::arg("root") = 0, nb::arg("comm") = nb::none(),
      nb::arg("algorithm") = nb::none(),
      "Every rank's a (same shape everywhere) stacked along a new first axis at root; None "
      "elsewhere.");

  m.def(
      "scatter",
      [](nb::handle a, int root, nb::handle comm, nb::handle algorithm) {
        remora_comm_t c = comm_of(comm);
        int n, me;
        check(remora_comm_size(c, &n));
        check(remora_comm_rank(c, &me));
        Type t = type_of_array(a, "a");
        auto* arr = reinterpret_cast<PyArrayObject*>(a.ptr());
        if (PyArray_NDIM(arr) < 1 || PyArray_DIMS(arr)[0] != n)
          fail(REMORA_ERR_ARG, "a must have the communicator's size (" + std::to_string(n) +
                                   ") as its first extent on every rank");
        Input in = as_input(a, t, "a");
        nb::object r = new_array(t, PyArray_NDIM(arr) - 1, PyArray_DIMS(arr) + 1);
        size_t cnt = in.count() / static_cast<size_t>(n);
        remora_coll_algorithm_t alg = parse_algorithm(algorithm);
        const void* sb = in.data();
        void* rb = PyArray_DATA(reinterpret_cast<PyArrayObject*>(r.ptr()));
        check(REMORA_NOGIL(remora_scatter(sb, rb, cnt, t.remora, root, c, alg)));
        return r;
      },
      nb::arg("a"), nb::arg("root") = 0, nb::arg("comm") = nb::none(),
      nb::arg("algorithm") = nb::none(),
      "Rank i receives root's a[i] (a of shape (size, ...) on every rank; only root's data "
      "is read).");

  m.def(
      "alltoall",
      [](nb::handle a, nb::handle comm, nb::handle algorithm) {
        remora_comm_t c = comm_of(comm);
        int n;
        check(remora_comm_size(c, &n));
        Type t = type_of_array(a, "a");
        auto* arr = reinterpret_cast<PyArrayObject*>(a.ptr());
        if (PyArray_NDIM(arr) < 1 || PyArray_DIMS(arr)[0] != n)
          fail(REMORA_ERR_ARG, "a must have the communicator's size (" + std::to_string(n) +
                                   ") as its first extent");
        Input in = as_input(a, t, "a");
        nb::object r = new_array(t, PyArray_NDIM(arr), PyArray_DIMS(arr));
        size_t cnt = in.count() / static_cast<size_t>(n);
        remora_coll_algorithm_t alg = parse_algorithm(algorithm);
        const void* sb = in.data();
        void* rb = PyArray_DATA(reinterpret_cast<PyArrayObject*>(r.ptr()));
        check(REMORA_NOGIL(remora_alltoall(sb, rb, cnt, t.remora, c, alg)));
        return r;
      },
      nb::arg("a"), nb::arg("comm") = nb::none(), nb::arg("algorithm") = nb::none(),
      "result[j] on rank i is rank j's a[i] (a of shape (size, ...)).");

  m.def(
      "scan",
      [](nb::handle a, nb::handle op, bool exclusive, nb::handle comm, nb::handle algorithm) {
        Type t = type_of_array(a, "a");
        remora_op_t o = parse_op(op);
        Input in = as_input(a, t, "a");
        nb::object r = new_array(t, PyArray_NDIM(in.a()), PyArray_DIMS(in.a()));
        void* rb = PyArray_DATA(reinterpret_cast<PyArrayObject*>(r.ptr()));
        if (exclusive) std::memset(rb, 0, in.count() * t.size);  // rank 0's result: zeros
        remora_comm_t c = comm_of(comm);
        remora_coll_algorithm_t alg = parse_algorithm(algorithm);
        const void* sb = in.data();
        size_t cnt = in.count();
        if (exclusive)
          check(REMORA_NOGIL(remora_exscan(sb, rb, cnt, t.remora, o, c, alg)));
        else
          check(REMORA_NOGIL(remora_scan(sb, rb, cnt, t.remora, o, c, alg)));
        return r;
      },
      nb::arg("a"), nb::arg("op") = "sum", nb::arg("exclusive") = false,
      nb::arg("comm") = nb::none(), nb::arg("algorithm") = nb::none(),
      "The reduction of ranks 0..rank's a (exclusive: 0..rank-1; zeros on rank 0).");

  // ---- Nonblocking collectives: a Request whose wait() returns the result ----
  m.def(
      "ibarrier",
      [](nb::handle comm, nb::handle algorithm) {
        auto r = std::make_unique<Request>();
        started(*r, remora_ibarrier(comm_of(comm), parse_algorithm(algorithm), &r->request));
        return r.release();
      },
      nb::arg("comm") = nb::none(), nb::arg("algorithm") = nb::none(),
      "Nonblocking barrier: wait() returns None once every rank has entered it.");

  m.def(
      "ibcast",
      [](nb::handle a, int root, nb::handle comm, nb::handle algorithm) {
        Type t = type_of_array(a, "a");
        PyArrayObject* arr = as_output(a, t, "a");
        remora_comm_t c = comm_of(comm);
        remora_coll_algorithm_t alg = parse_algorithm(algorithm);
        std::unique_ptr<Request> r(request_for({nb::borrow(a)}, nb::borrow(a)));
        started(*r, remora_ibcast(PyArray_DATA(arr), elements(arr), t.remora, root, c, alg,
                                  &r->request));
        return r.release();
      },
      nb::arg("a"), nb::arg("root") = 0, nb::arg("comm") = nb::none(),
      nb::arg("algorithm") = nb::none(),
      "Nonblocking bcast into a (in place; do not touch a before wait()); wait() returns a.");

  m.def(
      "ireduce",
      [](nb::handle a, nb::handle op, int root, nb::handle comm, nb::handle algorithm) {
        Type t = type_of_array(a, "a");
        remora_op_t o = parse_op(op);
        remora_comm_t c = comm_of(comm);
        remora_coll_algorithm_t alg = parse_algorithm(algorithm);
        int me;
        check(remora_comm_rank(c, &me));
        Input in = copy_of(as_input(a, t, "a"));
        nb::object res = nb::none();
        void* rb = nullptr;
        if (me == root) {
          res = new_array(t, PyArray_NDIM(in.a()), PyArray_DIMS(in.a()));
          rb = data_of(res);
        }
        std::unique_ptr<Request> r(request_for({in.array, res}, res));
        started(*r,
                remora_ireduce(in.data(), rb, in.count(), t.remora, o, root, c, alg, &r->request));
        return r.release();
      },
      nb::arg("a"), nb::arg("op") = "sum", nb::arg("root") = 0, nb::arg("comm") = nb::none(),
      nb::arg("algorithm") = nb::none(),
      "Nonblocking reduce: wait() returns the result at root, None elsewhere.");

  m.def(
      "iallgather",
      [](nb::handle a, nb::handle comm, nb::handle algorithm) {
        Type t = type_of_array(a, "a");
        remora_comm_t c = comm_of(comm);
        remora_coll_algorithm_t alg = parse_algorithm(algorithm);
        int n;
        check(remora_comm_size(c, &n));
        Input in = copy_of(as_input(a, t, "a"));
        std::vector<npy_intp> dims = stacked(in, n);
        nb::object res = new_array(t, static_cast<int>(dims.size()), dims.data());
        std::unique_ptr<Request> r(request_for({in.array, res}, res));
        started(*r, remora_iallgather(in.data(), data_of(res), in.count(), t.remora, c, alg,
                                      &r->request));
        return r.release();
      },
      nb::arg("a"), nb::arg("comm") = nb::none(), nb::arg("algorithm") = nb::none(),
      "Nonblocking allgather: wait() returns every rank's a stacked along a new first axis.");

  m.def(
      "igather",
      [](nb::handle a, int root, nb::handle comm, nb::handle algorithm) {
        Type t = type_of_array(a, "a");
        remora_comm_t c = comm_of(comm);
        remora_coll_algorithm_t alg = parse_algorithm(algorithm);
        int n, me;
        check(remora_comm_size(c, &n));
        check(remora_comm_rank(c, &me));
        Input in = copy_of(as_input(a, t, "a"));
        nb::object res = nb::none();
        void* rb = nullptr;
        if (me == root) {
          std::vector<npy_intp> dims = stacked(in, n);
          res = new_array(t, static_cast<int>(dims.size()), dims.data());
          rb = data_of(res);
        }
        std::unique_ptr<Request> r(request_for({in.array, res}, res));
        started(*r, remora_igather(in.data(), rb, in.count(), t.remora, root, c, alg, &r->request));
        return r.release();
      },
      nb::arg("a"), nb::arg("root") = 0, nb::arg("comm") = nb::none(),
      nb::arg("algorithm") = nb::none(),
      "Nonblocking gather: wait() returns the stacked arrays at root, None elsewhere.");

  m.def(
      "iscatter",
      [](nb::handle a, int root, nb::handle comm, nb::handle algorithm) {
        remora_comm_t c = comm_of(comm);
        remora_coll_algorithm_t alg = parse_algorithm(algorithm);
        int n;
        check(remora_comm_size(c, &n));
        Type t = type_of_array(a, "a");
        size_t cnt = per_rank(a, n, "a");
        auto* arr = reinterpret_cast<PyArrayObject*>(a.ptr());
        Input in = copy_of(as_input(a, t, "a"));
        nb::object res = new_array(t, PyArray_NDIM(arr) - 1, PyArray_DIMS(arr) + 1);
        std::unique_ptr<Request> r(request_for({in.array, res}, res));
        started(*r,
                remora_iscatter(in.data(), data_of(res), cnt, t.remora, root, c, alg, &r->request));
        return r.release();
      },
      nb::arg("a"), nb::arg("root") = 0, nb::arg("comm") = nb::none(),
      nb::arg("algorithm") = nb::none(), "Nonblocking scatter: wait() returns root's a[rank].");

  m.def(
      "ialltoall",
      [](nb::handle a, nb::handle comm, nb::handle algorithm) {
        remora_comm_t c = comm_of(comm);
        remora_coll_algorithm_t alg = parse_algorithm(algorithm);
        int n;
        check(remora_comm_size(c, &n));
        Type t = type_of_array(a, "a");
        size_t cnt = per_rank(a, n, "a");
        auto* arr = reinterpret_cast<PyArrayObject*>(a.ptr());
        Input in = copy_of(as_input(a, t, "a"));
        nb::object res = new_array(t, PyArray_NDIM(arr), PyArray_DIMS(arr));
        std::unique_ptr<Request> r(request_for({in.array, res}, res));
        started(*r, remora_ialltoall(in.data(), data_of(res), cnt, t.remora, c, alg, &r->request));
        return r.release();
      },
      nb::arg("a"), nb::arg("comm") = nb::none(), nb::arg("algorithm") = nb::none(),
      "Nonblocking alltoall: wait() returns the result of alltoall(a).");

  m.def(
      "iscan",
      [](nb::handle a, nb::handle op, bool exclusive, nb::handle comm, nb::handle algorithm) {
        Type t = type_of_array(a, "a");
        remora_op_t o = parse_op(op);
        remora_comm_t c = comm_of(comm);
        remora_coll_algorithm_t alg = parse_algorithm(algorithm);
        Input in = copy_of(as_input(a, t, "a"));
        nb::object res = new_array(t, PyArray_NDIM(in.a()), PyArray_DIMS(in.a()));
        if (exclusive) std::memset(data_of(res), 0, in.count() * t.size);
        std::unique_ptr<Request> r(request_for({in.array, res}, res));
        if (exclusive)
          started(*r, remora_iexscan(in.data(), data_of(res), in.count(), t.remora, o, c, alg,
                                     &r->request));
        else
          started(*r, remora_iscan(in.data(), data_of(res), in.count(), t.remora, o, c, alg,
                                   &r->request));
        return r.release();
      },
      nb::arg("a"), nb::arg("op") = "sum", nb::arg("exclusive") = false,
      nb::arg("comm") = nb::none(), nb::arg("algorithm") = nb::none(),
      "Nonblocking scan: wait() returns the result of scan(a, op, exclusive).");

  m.def(
      "reduce_scatter",
      [](nb::handle a, nb::handle op, nb::handle comm, nb::handle algorithm) {
        remora_comm_t c = comm_of(comm);
        int n;
        check(remora_comm_size(c, &n));
        Type t = type_of_array(a, "a");
        remora_op_t o = parse_op(op);
        size_t cnt = per_rank(a, n, "a");
        auto* arr = reinterpret_cast<PyArrayObject*>(a.ptr());
        remora_coll_algorithm_t alg = parse_algorithm(algorithm);
        Input in = as_input(a, t, "a");
        nb::object res = new_array(t, PyArray_NDIM(arr) - 1, PyArray_DIMS(arr) + 1);
        const void* sb = in.data();
        void* rb = data_of(res);
        check(REMORA_NOGIL(remora_reduce_scatter_block(sb, rb, cnt, t.remora, o, c, alg)));
        return res;
      },
      nb::arg("a"), nb::arg("op") = "sum", nb::arg("comm") = nb::none(),
      nb::arg("algorithm") = nb::none(),
      "a of shape (size, ...) on every rank: rank i receives the reduction of every rank's "
      "a[i].");

  m.def(
      "ireduce_scatter",
      [](nb::handle a, nb::handle op, nb::handle comm, nb::handle algorithm) {
        remora_comm_t c = comm_of(comm);
        int n;
        check(remora_comm_size(c, &n));
        Type t = type_of_array(a, "a");
        remora_op_t o = parse_op(op);
        size_t cnt = per_rank(a, n, "a");
        auto* arr = reinterpret_cast<PyArrayObject*>(a.ptr());
        remora_coll_algorithm_t alg = parse_algorithm(algorithm);
        Input in = copy_of(as_input(a, t, "a"));
        nb::object res = new_array(t, PyArray_NDIM(arr) - 1, PyArray_DIMS(arr) + 1);
        std::unique_ptr<Request> r(request_for({in.array, res}, res));
        started(*r, remora_ireduce_scatter_block(in.data(), data_of(res), cnt, t.remora, o, c, alg,
                                                 &r->request));
        return r.release();
      },
      nb::arg("a"), nb::arg("op") = "sum", nb::arg("comm") = nb::none(),
      nb::arg("algorithm") = nb::none(),
      "Nonblocking reduce_scatter: wait() returns this rank's block of the reduction.");

  m.def(
      "waitall",
      [](nb::handle requests) {
        nb::list results;
        for (nb::handle h : requests) results.append(h.attr("wait")());
        return results;
      },
      nb::arg("requests"),
      "Waits for every request (Request, ArrayRequest); returns their results in order.");
}

}  // namespace remora_py
