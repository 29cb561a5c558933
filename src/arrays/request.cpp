#include "arrays/request.hpp"

namespace remora::arrays {

Request* RequestTable::add(std::shared_ptr<NbOperation> op) {
  auto* request = new Request(std::move(op));
  live_.insert(request);
  return request;
}

Request* RequestTable::find(remora_array_request_t handle) const {
  return live_.count(handle) != 0 ? static_cast<Request*>(handle) : nullptr;
}

void RequestTable::remove(Request* request) {
  live_.erase(request);
  delete request;
}

}  // namespace remora::arrays
