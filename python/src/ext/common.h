// Shared helpers of the extension module remora._core: error translation, element types,
// numpy conversions. Every translation unit that uses numpy's C API includes this header.
#pragma once

#define PY_ARRAY_UNIQUE_SYMBOL remora_numpy_api
#ifndef REMORA_NUMPY_IMPORT
#define NO_IMPORT_ARRAY
#endif

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <numpy/arrayobject.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <remora.h>

namespace nb = nanobind;

namespace remora_py {

// Error codes beyond the C library's, for errors found by the binding itself.
constexpr int kErrDatatype = -1000;  // remora.DatatypeError (an ArgumentError and a TypeError)

// A failed call: translated to the remora.Error subclass of the code, with the message.
struct Failure {
  int code;
  std::string message;
};

[[noreturn]] void fail(int code, std::string message);
// Throws a Failure with remora_last_error()'s message when rc is negative.
[[noreturn]] void fail_rc(int rc);
// Calls the C API without the GIL (blocking calls: other Python threads run meanwhile). Only
// for calls that touch no Python object.
#define REMORA_NOGIL(call)         \
  ([&]() {                         \
    nb::gil_scoped_release nogil_; \
    return (call);                 \
  }())
inline int check(int rc) {
  if (rc < 0) [[unlikely]]
    fail_rc(rc);
  return rc;
}
void register_errors(nb::module_& m);

// An element type: Remora's, numpy's type number and the size of one element.
struct Type {
  remora_datatype_t remora;
  int typenum;
  size_t size;
};
// The type of a numpy dtype (anything np.dtype() accepts); DatatypeError when Remora has none.
Type type_of_dtype(nb::handle dtype, const char* what);
Type type_of_descr(PyArray_Descr* descr, const char* what);
std::string dtype_name(int typenum);
std::string descr_name(PyArray_Descr* descr);
nb::object dtype_object(const Type& type);

// A reference to an ndarray whose data may be handed to the C API.
struct Input {
  nb::object array;
  PyArrayObject* a() const { return reinterpret_cast<PyArrayObject*>(array.ptr()); }
  const void* data() const { return PyArray_DATA(a()); }
  size_t count() const { return static_cast<size_t>(PyArray_SIZE(a())); }
};
// data as a C-contiguous, aligned array of type: an ndarray of another dtype is a
// DatatypeError (no silent casts); lists and scalars are converted to type.
Input as_input(nb::handle data, const Type& type, const char* what);
// A new, uninitialised C-contiguous array.
nb::object new_array(const Type& type, int ndim, const npy_intp* dims);
// out (an ndarray that will receive results): must be C-contiguous, writeable, of type.
PyArrayObject* as_output(nb::handle out, const Type& type, const char* what);
// One element of type from a Python scalar (int, float, complex, numpy scalar, 0-d array).
void scalar_bytes(nb::handle value, const Type& type, void* out, const char* what);
// A numpy scalar of type read from bytes.
nb::object scalar_object(const Type& type, const void* bytes);

remora_op_t parse_op(nb::handle op);
remora_coll_algorithm_t parse_algorithm(nb::handle algorithm);

// Holds a remora_request_t and what must stay alive until it completes; wait() returns result.
struct Request {
  remora_request_t request = REMORA_REQUEST_NULL;
  std::vector<nb::object> keep;
  nb::object result = nb::none();
  bool done = false;
  nb::object wait();
  ~Request() {
    // Never waited for: keep the buffers alive for good rather than free memory that the
    // operation may still read or write.
    if (!done)
      for (auto& o : keep) o.release();
  }
  bool test();
};

struct Group {
  remora_group_t group = REMORA_GROUP_NULL;
  ~Group();
};
struct Comm {
  remora_comm_t comm = REMORA_COMM_NULL;
  bool owned = false;
  ~Comm();
};
remora_comm_t comm_of(nb::handle comm);  // None: the world communicator
remora_group_t group_of(nb::handle group);

std::vector<npy_intp> shape_of(nb::handle shape, const char* what);
void bind_window(nb::module_& m);
void bind_coll(nb::module_& m);
void bind_array(nb::module_& m);

}  // namespace remora_py
