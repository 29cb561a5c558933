/* Element types and reduction operators, shared by accumulates (RMA) and reductions
 * (collectives). */
#ifndef REMORA_TYPES_H
#define REMORA_TYPES_H

#include <stddef.h>

#include "remora/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum remora_datatype {
  REMORA_INT8 = 1,
  REMORA_INT16,
  REMORA_INT32,
  REMORA_INT64,
  REMORA_UINT8,
  REMORA_UINT16,
  REMORA_UINT32,
  REMORA_UINT64,
  REMORA_FLOAT,
  REMORA_DOUBLE,
  REMORA_FLOAT_COMPLEX,  /* two floats: real, imaginary (C99 float _Complex layout) */
  REMORA_DOUBLE_COMPLEX, /* two doubles */
  /* Makes every int a valid value of the type, so a bad value from a caller is reported as
   * an error instead of being undefined behaviour in C++. Not an element type. */
  REMORA_DATATYPE_ENUM_RANGE_ = 0x7fffffff
} remora_datatype_t;

typedef enum remora_op {
  REMORA_OP_SUM = 1,
  REMORA_OP_PROD,
  REMORA_OP_MIN,  /* not for complex types */
  REMORA_OP_MAX,  /* not for complex types */
  REMORA_OP_BAND, /* bitwise: integer types only */
  REMORA_OP_BOR,
  REMORA_OP_BXOR,
  REMORA_OP_LAND, /* logical (non-zero is true, result 0 or 1): integer types only */
  REMORA_OP_LOR,
  REMORA_OP_LXOR,
  REMORA_OP_REPLACE,    /* target = origin */
  REMORA_OP_NO_OP,      /* target unchanged (an atomic read in get_accumulate) */
  REMORA_OP_SCALED_SUM, /* target += alpha * origin (AXPY); alpha has the element type */
  /* Makes every int a valid value of the type, so a bad value from a caller is reported as
   * an error instead of being undefined behaviour in C++. Not an operator. */
  REMORA_OP_ENUM_RANGE_ = 0x7fffffff
} remora_op_t;

/* *bytes = the size of one element of type. */
REMORA_API int remora_datatype_size(remora_datatype_t type, size_t* bytes);

/* REMORA_SUCCESS if op may be applied to type, else REMORA_ERR_ARG with a message. */
REMORA_API int remora_op_valid(remora_op_t op, remora_datatype_t type);

#ifdef __cplusplus
}
#endif

#endif /* REMORA_TYPES_H */
