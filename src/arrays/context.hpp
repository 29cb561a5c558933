// What distributed arrays are built on: the layers below them, which the runtime above composes
// and hands in. Arrays call these directly, never the public C API: its argument checks and
// handle tables are for applications, and its errors would name its own functions.
#pragma once

#include "coll/barrier.hpp"
#include "coll/collectives.hpp"
#include "core/config.hpp"
#include "rma/window_registry.hpp"
#include "transport/transport.hpp"

namespace remora::arrays {

struct Context {
  transport::Transport& transport;
  coll::Collectives& collectives;
  coll::Barrier& world_barrier;
  rma::WindowRegistry& windows;
  const Config& config;
};

}  // namespace remora::arrays
