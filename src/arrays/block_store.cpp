#include "arrays/block_store.hpp"

namespace remora::arrays {

void BlockStore::locate(const int64_t* index, int* owner, int64_t* local) const {
  int64_t coords[8] = {};
  int64_t within = 0;
  for (int d = 0; d < ndim(); ++d) {
    coords[d] = block_of(d, index[d]);
    within = within * extent(d, coords[d]) + index[d] - start(d, coords[d]);
  }
  *owner = this->owner(coords);
  *local = offset(coords) + within;
}

}  // namespace remora::arrays
