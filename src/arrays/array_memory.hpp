// The window holding distributed arrays' local parts. An array usually has one of its own; an
// array created on another's memory (remora_array_set_create_memory: GA_Overlay,
// GA_Assemble_duplicate) shares that window, which then lives until the last array using it is
// destroyed, whichever is destroyed first.
#pragma once

#include <memory>

#include "rma/window.hpp"
#include "rma/window_registry.hpp"

namespace remora::arrays {

class ArrayMemory {
 public:
  // window: allocated and in the arrays' lock_all epoch; owned from here on.
  ArrayMemory(rma::WindowRegistry& windows, rma::Window* window)
      : windows_(windows), window_(window) {}
  ArrayMemory(const ArrayMemory&) = delete;
  ArrayMemory& operator=(const ArrayMemory&) = delete;

  rma::Window* window() const { return window_; }
  // Bytes of world rank's part.
  size_t bytes(int world_rank) const { return window_->size(world_rank); }

  // An array that used *memory is being destroyed: drops its share; the last share ends the
  // epoch and frees the window. Collective over the window's ranks when it frees; array
  // destruction is collective and ordered alike on every rank, so every rank frees in the same
  // call.
  static int release(std::shared_ptr<ArrayMemory>* memory);

 private:
  rma::WindowRegistry& windows_;
  rma::Window* window_;
};

}  // namespace remora::arrays
