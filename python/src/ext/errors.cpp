// remora.Error and its subclasses, one per status code, and the translation of Failure.
#include "common.h"

#include <utility>

namespace remora_py {
namespace {

struct ErrorClass {
  int code;
  const char* name;
  const char* parent;  // a class defined earlier, or nullptr for Error
  PyObject* extra;     // a built-in exception it also derives from, or nullptr
  const char* doc;
};

PyObject* g_error = nullptr;                             // remora.Error
std::vector<std::pair<int, PyObject*>> g_error_classes;  // code -> class

PyObject* class_for(int code) {
  for (auto& [c, cls] : g_error_classes)
    if (c == code) return cls;
  return g_error;
}

}  // namespace

void fail(int code, std::string message) {
  throw Failure{code, std::move(message)};
}

void fail_rc(int rc) {
  const char* msg = remora_last_error();
  if (msg == nullptr || *msg == '\0') msg = remora_strerror(rc);
  throw Failure{rc, msg};
}

void register_errors(nb::module_& m) {
  g_error = PyErr_NewExceptionWithDoc(
      "remora.Error",
      "A Remora call failed. str() is remora_last_error()'s message, naming the bad argument "
      "and its value; .code is the (negative) REMORA_ERR_* status.",
      PyExc_RuntimeError, nullptr);
  if (g_error == nullptr) throw nb::python_error();
  m.attr("Error") = nb::handle(g_error);
  const ErrorClass classes[] = {
      {REMORA_ERR_ARG, "ArgumentError", nullptr, PyExc_ValueError, "An argument is invalid."},
      {kErrDatatype, "DatatypeError", "ArgumentError", PyExc_TypeError,
       "A dtype that Remora has no element type for, or data of another dtype than expected."},
      {REMORA_ERR_RANK, "RankError", "ArgumentError", PyExc_IndexError,
       "A rank is outside [0, size)."},
      {REMORA_ERR_RANGE, "RangeError", "ArgumentError", PyExc_IndexError,
       "An offset, length or index lies outside the target memory or array."},
      {REMORA_ERR_ALIGN, "AlignmentError", "ArgumentError", nullptr,
       "An address is not aligned as the operation requires."},
      {REMORA_ERR_NOT_INITIALIZED, "NotInitializedError", nullptr, nullptr,
       "Called before init or after finalize."},
      {REMORA_ERR_STATE, "StateError", nullptr, nullptr,
       "Not allowed in the current state (an operation outside an epoch, a freed object...)."},
      {REMORA_ERR_CONFIG, "ConfigError", nullptr, nullptr,
       "A REMORA_* environment variable or an info key is malformed."},
      {REMORA_ERR_NOMEM, "OutOfMemoryError", nullptr, PyExc_MemoryError, "Out of memory."},
      {REMORA_ERR_SYSTEM, "SystemCallError", nullptr, nullptr, "An operating-system call failed."},
      {REMORA_ERR_ABORTED, "AbortedError", nullptr, nullptr,
       "The job is being torn down: a rank died or aborted."},
      {REMORA_ERR_UNSUPPORTED, "UnsupportedError", nullptr, PyExc_NotImplementedError,
       "Not supported by this transport, build or layout."},
      {REMORA_ERR_INTERNAL, "InternalError", nullptr, nullptr, "A bug in Remora."},
  };
  for (const ErrorClass& c : classes) {
    PyObject* parent = c.parent ? m.attr(c.parent).ptr() : g_error;
    PyObject* bases = c.extra ? PyTuple_Pack(2, parent, c.extra) : PyTuple_Pack(1, parent);
    std::string qualified = std::string("remora.") + c.name;
    PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), c.doc, bases, nullptr);
    Py_DECREF(bases);
    if (cls == nullptr) throw nb::python_error();
    m.attr(c.name) = nb::handle(cls);
    g_error_classes.emplace_back(c.code, cls);
  }
  nb::register_exception_translator(
      [](const std::exception_ptr& p, void*) {
        try {
          std::rethrow_exception(p);
        } catch (const Failure& f) {
          PyObject* cls = class_for(f.code);
          PyObject* exc = PyObject_CallFunction(cls, "s", f.message.c_str());
          if (exc == nullptr) return;
          PyObject* code = PyLong_FromLong(f.code == kErrDatatype ? REMORA_ERR_ARG : f.code);
          PyObject_SetAttrString(exc, "code", code);
          Py_XDECREF(code);
          PyErr_SetObject(cls, exc);
          Py_DECREF(exc);
        }
      },
      nullptr);
}

}  // namespace remora_py
