// remora._core: the runtime functions and the helpers shared by the other files.
#define REMORA_NUMPY_IMPORT
#include "common.h"

#include <climits>
#include <cstring>

namespace remora_py {

// ---- Element types ----

// numpy's kind character and item size -> Remora's element type.
static bool type_of_kind(char kind, size_t size, remora_datatype_t* out) {
  struct Entry {
    char kind;
    size_t size;
    remora_datatype_t type;
  };
  static constexpr Entry kTypes[] = {
      {'i', 1, REMORA_INT8},   {'i', 2, REMORA_INT16},         {'i', 4, REMORA_INT32},
      {'i', 8, REMORA_INT64},  {'u', 1, REMORA_UINT8},         {'u', 2, REMORA_UINT16},
      {'u', 4, REMORA_UINT32}, {'u', 8, REMORA_UINT64},        {'f', 4, REMORA_FLOAT},
      {'f', 8, REMORA_DOUBLE}, {'c', 8, REMORA_FLOAT_COMPLEX}, {'c', 16, REMORA_DOUBLE_COMPLEX},
  };
  for (const Entry& entry : kTypes)
    if (entry.kind == kind && entry.size == size) {
      *out = entry.type;
      return true;
    }
  return false;
}

std::string descr_name(PyArray_Descr* descr) {
  PyObject* s = PyObject_Str(reinterpret_cast<PyObject*>(descr));
  if (s == nullptr) {
    PyErr_Clear();
    return "?";
  }
  const char* c = PyUnicode_AsUTF8(s);
  std::string out = c ? c : "?";
  Py_DECREF(s);
  return out;
}

std::string dtype_name(int typenum) {
  PyArray_Descr* d = PyArray_DescrFromType(typenum);
  std::string s = descr_name(d);
  Py_DECREF(d);
  return s;
}

Type type_of_descr(PyArray_Descr* descr, const char* what) {
  Type t;
  size_t size = static_cast<size_t>(PyDataType_ELSIZE(descr));
  if (descr->byteorder == '>' || !type_of_kind(descr->kind, size, &t.remora))
    fail(kErrDatatype, std::string(what) + " = " + descr_name(descr) +
                           " is not an element type of Remora (signed and unsigned integers of "
                           "1, 2, 4 and 8 bytes, float32, float64, complex64, complex128)");
  t.typenum = descr->type_num;
  t.size = size;
  return t;
}

Type type_of_dtype(nb::handle dtype, const char* what) {
  PyArray_Descr* descr = nullptr;
  if (!PyArray_DescrConverter(dtype.ptr(), &descr)) throw nb::python_error();
  Type t;
  try {
    t = type_of_descr(descr, what);
  } catch (...) {
    Py_DECREF(descr);
    throw;
  }
  Py_DECREF(descr);
  return t;
}

nb::object dtype_object(const Type& type) {
  return nb::steal(reinterpret_cast<PyObject*>(PyArray_DescrFromType(type.typenum)));
}

static bool same_type(PyArray_Descr* d, const Type& t) {
  if (d->type_num == t.typenum) return true;
  remora_datatype_t r;
  return d->byteorder != '>' &&
         type_of_kind(d->kind, static_cast<size_t>(PyDataType_ELSIZE(d)), &r) && r == t.remora;
}

static void type_mismatch(PyArray_Descr* d, const Type& t, const char* what) {
  fail(kErrDatatype, std::string(what) + " has dtype " + descr_name(d) + ", expected " +
                         dtype_name(t.typenum) + " (no implicit conversion of arrays)");
}

Input as_input(nb::handle data, const Type& type, const char* what) {
  PyObject* o = data.ptr();
  if (PyArray_Check(o)) {
    auto* a = reinterpret_cast<PyArrayObject*>(o);
    if (!same_type(PyArray_DESCR(a), type)) [[unlikely]]
      type_mismatch(PyArray_DESCR(a), type, what);
    if (PyArray_ISCARRAY_RO(a)) [[likely]]
      return Input{nb::borrow(o)};
    PyObject* c = PyArray_NewCopy(a, NPY_CORDER);
    if (c == nullptr) throw nb::python_error();
    return Input{nb::steal(c)};
  }
  if (o == Py_None) fail(REMORA_ERR_ARG, std::string(what) + " = None: expected an array");
  PyArray_Descr* d = PyArray_DescrFromType(type.typenum);  // stolen by PyArray_FromAny
  PyObject* r = PyArray_FromAny(o, d, 0, 0, NPY_ARRAY_CARRAY_RO, nullptr);
  if (r == nullptr) throw nb::python_error();
  return Input{nb::steal(r)};
}

nb::object new_array(const Type& type, int ndim, const npy_intp* dims) {
  PyObject* r = PyArray_SimpleNew(ndim, const_cast<npy_intp*>(dims), type.typenum);
  if (r == nullptr) throw nb::python_error();
  return nb::steal(r);
}

PyArrayObject* as_output(nb::handle out, const Type& type, const char* what) {
  if (!PyArray_Check(out.ptr()))
    fail(REMORA_ERR_ARG,
         std::string(what) + " must be a numpy array, not " + nb::type_name(out.type()).c_str());
  auto* a = reinterpret_cast<PyArrayObject*>(out.ptr());
  if (!same_type(PyArray_DESCR(a), type)) type_mismatch(PyArray_DESCR(a), type, what);
  if (!PyArray_ISCARRAY(a))
    fail(REMORA_ERR_ARG,
         std::string(what) + " must be C-contiguous, aligned and writeable to receive data");
  return a;
}

void scalar_bytes(nb::handle value, const Type& type, void* out, const char* what) {
  PyObject* o = value.ptr();
  if (PyLong_CheckExact(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow == 0 && !(v == -1 && PyErr_Occurred())) {
      switch (type.remora) {
        case REMORA_INT64:
          std::memcpy(out, &v, 8);
          return;
        case REMORA_INT32:
          if (v >= INT32_MIN && v <= INT32_MAX) {
            int32_t x = static_cast<int32_t>(v);
            std::memcpy(out, &x, 4);
            return;
          }
          break;
        case REMORA_DOUBLE: {
          double x = static_cast<double>(v);
          std::memcpy(out, &x, 8);
          return;
        }
        default:
          break;
      }
    }
    PyErr_Clear();
  } else if (PyFloat_CheckExact(o) && type.remora == REMORA_DOUBLE) {
    double x = PyFloat_AS_DOUBLE(o);
    std::memcpy(out, &x, 8);
    return;
  }
  if (o == Py_None) fail(REMORA_ERR_ARG, std::string(what) + " = None: expected a number");
  PyArray_Descr* d = PyArray_DescrFromType(type.typenum);
  PyObject* r = PyArray_FromAny(o, d, 0, 0, NPY_ARRAY_CARRAY_RO | NPY_ARRAY_FORCECAST, nullptr);
  if (r == nullptr) throw nb::python_error();
  nb::object keep = nb::steal(r);
  auto* a = reinterpret_cast<PyArrayObject*>(r);
  if (PyArray_SIZE(a) != 1)
    fail(REMORA_ERR_ARG, std::string(what) + " must be one number, got " +
                             std::to_string(PyArray_SIZE(a)) + " elements");
  std::memcpy(out, PyArray_DATA(a), type.size);
}

nb::object scalar_object(const Type& type, const void* bytes) {
  PyArray_Descr* d = PyArray_DescrFromType(type.typenum);
  PyObject* r = PyArray_Scalar(const_cast<void*>(bytes), d, nullptr);
  Py_DECREF(d);
  if (r == nullptr) throw nb::python_error();
  return nb::steal(r);
}

remora_op_t parse_op(nb::handle op) {
  static const struct {
    const char* name;
    remora_op_t op;
  } ops[] = {{"sum", REMORA_OP_SUM},   {"prod", REMORA_OP_PROD},       {"min", REMORA_OP_MIN},
             {"max", REMORA_OP_MAX},   {"band", REMORA_OP_BAND},       {"bor", REMORA_OP_BOR},
             {"bxor", REMORA_OP_BXOR}, {"land", REMORA_OP_LAND},       {"lor", REMORA_OP_LOR},
             {"lxor", REMORA_OP_LXOR}, {"replace", REMORA_OP_REPLACE}, {"no_op", REMORA_OP_NO_OP}};
  if (PyUnicode_Check(op.ptr())) {
    for (const auto& o : ops)
      if (PyUnicode_CompareWithASCIIString(op.ptr(), o.name) == 0) return o.op;
  }
  std::string s = nb::str(nb::repr(op)).c_str();
  fail(REMORA_ERR_ARG, "op = " + s +
                           " is not an operator: sum, prod, min, max, band, bor, bxor, land, "
                           "lor, lxor, replace, no_op");
}

remora_coll_algorithm_t parse_algorithm(nb::handle algorithm) {
  if (algorithm.is_none()) return REMORA_COLL_AUTO;
  static const struct {
    const char* name;
    remora_coll_algorithm_t a;
  } algs[] = {{"auto", REMORA_COLL_AUTO},
              {"dissemination", REMORA_COLL_DISSEMINATION},
              {"binomial", REMORA_COLL_BINOMIAL},
              {"binary", REMORA_COLL_BINARY},
              {"flat", REMORA_COLL_FLAT},
              {"sequential", REMORA_COLL_SEQUENTIAL},
              {"scatter_allgather", REMORA_COLL_SCATTER_ALLGATHER},
              {"recursive_doubling", REMORA_COLL_RECURSIVE_DOUBLING},
              {"ring", REMORA_COLL_RING},
              {"rabenseifner", REMORA_COLL_RABENSEIFNER},
              {"bruck", REMORA_COLL_BRUCK},
              {"pairwise", REMORA_COLL_PAIRWISE},
              {"application_bypass", REMORA_COLL_APPLICATION_BYPASS},
              {"shm", REMORA_COLL_SHM},
              {"hierarchical", REMORA_COLL_HIERARCHICAL}};
  if (PyUnicode_Check(algorithm.ptr())) {
    for (const auto& a : algs)
      if (PyUnicode_CompareWithASCIIString(algorithm.ptr(), a.name) == 0) return a.a;
  }
  std::string s = nb::str(nb::repr(algorithm)).c_str();
  fail(REMORA_ERR_ARG, "algorithm = " + s +
                           " is not an algorithm: auto, dissemination, binomial, binary, flat, "
                           "sequential, scatter_allgather, recursive_doubling, ring, "
                           "rabenseifner, bruck, pairwise, application_bypass, shm");
}

// ---- Requests ----

nb::object Request::wait() {
  if (!done) {
    int rc = REMORA_NOGIL(remora_request_wait(&request));
    done = true;
    keep.clear();
    check(rc);
  }
  return result;
}

bool Request::test() {
  if (done) return true;
  int flag = 0;
  int rc = remora_request_test(&request, &flag);
  if (rc < 0) {
    done = true;
    keep.clear();
    fail_rc(rc);
  }
  if (flag) {
    done = true;
    keep.clear();
  }
  return flag != 0;
}

}  // namespace remora_py

using namespace remora_py;

static int initialized() {
  int flag = 0;
  remora_initialized(&flag);
  return flag;
}

NB_MODULE(_core, m) {
  if (_import_array() < 0) throw nb::python_error();
  register_errors(m);

  m.def(
      "init",
      []() {
        if (!initialized()) check(remora_init(nullptr, nullptr));
      },
      "Starts Remora (collective); called when remora is imported.");
  m.def(
      "finalize",
      []() {
        if (initialized()) check(remora_finalize());
      },
      "Ends Remora (collective); called at interpreter exit.");
  m.def(
      "_init_mpi_comm",
      [](uintptr_t address) {
        // address: of an MPI_Comm (mpi4py's MPI._addressof(comm)), read during the call.
        const void* comm = reinterpret_cast<const void*>(address);
        check(REMORA_NOGIL(remora_init_mpi_comm(nullptr, nullptr, comm)));
      },
      nb::arg("address"),
      "Starts Remora on the MPI communicator at address (collective over its ranks).");
  m.def("initialized", []() { return initialized() != 0; });
  m.def(
      "rank", []() { return check(remora_rank()); }, "This process's rank in [0, size).");
  m.def(
      "size", []() { return check(remora_size()); }, "The number of ranks in the job.");
  m.def("local_rank", []() { return check(remora_local_rank()); });
  m.def("local_size", []() { return check(remora_local_size()); });
  m.def("node", []() { return check(remora_node()); });
  m.def("wtime", []() { return remora_wtime(); });
  m.def("progress", []() { check(remora_progress()); });
  m.def(
      "abort", [](int code, const std::string& message) { remora_abort(code, message.c_str()); },
      nb::arg("code") = 1, nb::arg("message") = "");
  m.def("strerror", [](int code) { return std::string(remora_strerror(code)); });

  nb::class_<Request>(m, "Request",
                      "A nonblocking operation: wait() completes it and returns its result "
                      "(an array, or None); test() says whether it has completed.")
      .def("wait", &Request::wait)
      .def("test", &Request::test);

  bind_coll(m);
  bind_window(m);
  bind_array(m);
}
