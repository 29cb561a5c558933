#include "arrays/array_memory.hpp"

namespace remora::arrays {

int ArrayMemory::release(std::shared_ptr<ArrayMemory>* memory) {
  constexpr const char* function = "remora_array_destroy";
  std::shared_ptr<ArrayMemory> mine = std::move(*memory);
  if (mine.use_count() > 1) return REMORA_SUCCESS;  // another array still lives on it
  if (int status = mine->window_->unlock_all(function)) return status;
  return mine->windows_.free(function, mine->window_);
}

}  // namespace remora::arrays
