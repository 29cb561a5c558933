/* Remora: one-sided communication for parallel programs. The whole public C API. */
#ifndef REMORA_H
#define REMORA_H

#include "remora/am.h"
#include "remora/array.h"
#include "remora/coll.h"
#include "remora/layout.h"
#include "remora/runtime.h"
#include "remora/segment.h"
#include "remora/status.h"
#include "remora/types.h"
#include "remora/version.h"
#include "remora/win.h"

#endif /* REMORA_H */
