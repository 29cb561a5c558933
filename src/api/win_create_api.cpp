// C API: windows over the caller's own memory (remora_win_create) and the access-path query.
#include "api/win_checks.hpp"
#include "remora/win.h"
#include "rma/user_memory.hpp"
#include "rma/window_registry.hpp"

using remora::api::Runtime;
using remora::rma::AccessPath;
using remora::rma::Window;

extern "C" {

int remora_win_create(void* base, size_t bytes, size_t disp_unit, const char* info,
                      remora_win_t* win) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_win_create";
  Runtime* runtime = nullptr;
  remora::rma::WindowOptions options;
  if (int status = remora::api::win_prepare_creation(function, nullptr, bytes, disp_unit, info, win,
                                                     &runtime, &options))
    return status;
  // A NULL base with bytes > 0 is reported by every rank at creation (it is collective).
  const remora::rma::UserRegion user{base,
                                     static_cast<remora::rma::UserMemoryMode>(options.user_memory)};
  Window* window = nullptr;
  if (int status =
          runtime->windows->allocate(function, nullptr, bytes, disp_unit, options, &window, &user))
    return status;
  *win = window;
  return REMORA_SUCCESS;
}

int remora_win_path(remora_win_t win, int target, remora_win_path_t* path) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_win_path";
  Window* window = nullptr;
  Runtime* runtime = nullptr;
  if (int status = remora::api::win_enter(function, win, &window, &runtime)) return status;
  if (int status = remora::api::check_rank(function, "target", target, *runtime)) return status;
  if (int status = remora::api::check_pointer(function, "path", path)) return status;
  if (const remora::rma::UserMemory* user = window->user_memory()) {
    switch (user->path(target)) {
      case AccessPath::Local:
        *path = REMORA_WIN_PATH_LOCAL;
        break;
      case AccessPath::SingleCopy:
        *path = REMORA_WIN_PATH_SINGLE_COPY;
        break;
      case AccessPath::Agent:
        *path = REMORA_WIN_PATH_AGENT;
        break;
    }
    return REMORA_SUCCESS;
  }
  const bool mapped = runtime->transport->address(window->data_segment(), target) != nullptr;
  *path = mapped ? REMORA_WIN_PATH_SHARED : REMORA_WIN_PATH_TRANSPORT;
  return REMORA_SUCCESS;
}

}  // extern "C"
