// C API: element types and reduction operators.
#include "api/runtime.hpp"
#include "core/error.hpp"
#include "rma/reduce_op.hpp"

extern "C" {

int remora_datatype_size(remora_datatype_t type, size_t* bytes) {
  REMORA_API_ENTRY();
  if (int status = remora::api::check_pointer("remora_datatype_size", "bytes", bytes))
    return status;
  const size_t size = remora::rma::datatype_size(type);
  if (size == 0)
    return remora::fail(REMORA_ERR_ARG, "remora_datatype_size: type=%d is not a remora_datatype_t",
                        static_cast<int>(type));
  *bytes = size;
  return REMORA_SUCCESS;
}

int remora_op_valid(remora_op_t op, remora_datatype_t type) {
  REMORA_API_ENTRY();
  return remora::rma::check_op("remora_op_valid", op, type);
}

}  // extern "C"
