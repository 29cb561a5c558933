// C API: post-start-complete-wait (remora/win.h). Turns the group into world ranks (groups live
// in the collectives layer, which the rma layer must not see) and hands over to rma::Pscw.
#include <vector>

#include "api/win_checks.hpp"
#include "core/error.hpp"
#include "rma/pscw.hpp"

using remora::fail;
using remora::api::Runtime;
using remora::rma::Window;

namespace {

// win is live, the call may block, and group is a live group: *ranks receives its world ranks.
int enter_with_group(const char* function, remora_group_t group, remora_win_t win, Window** window,
                     std::vector<int>* ranks) {
  Runtime* runtime = nullptr;
  if (int status = remora::api::win_enter(function, win, window, &runtime)) return status;
  if (int status = remora::api::check_not_in_handler(function)) return status;
  if (group == REMORA_GROUP_NULL)
    return fail(REMORA_ERR_ARG, "%s: group is REMORA_GROUP_NULL (use an empty group instead)",
                function);
  const auto found = runtime->collectives->groups.find(group);
  if (found == nullptr)
    return fail(REMORA_ERR_ARG, "%s: group=%p is not a live group (freed, or never created)",
                function, static_cast<void*>(group));
  *ranks = found->world_ranks();
  // Groups name processes; the window works in world ranks, so only membership is checked.
  for (size_t i = 0; i < ranks->size(); ++i)
    if ((*window)->comm_rank((*ranks)[i]) < 0)
      return fail(REMORA_ERR_ARG,
                  "%s: rank %zu of group (world rank %d) is not a member of the window's "
                  "communicator",
                  function, i, (*ranks)[i]);
  return REMORA_SUCCESS;
}

}  // namespace

extern "C" {

int remora_win_post(remora_group_t group, int assert_flags, remora_win_t win) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_win_post";
  Window* window = nullptr;
  std::vector<int> ranks;
  if (int status = enter_with_group(function, group, win, &window, &ranks)) return status;
  return window->pscw().post(function, ranks, assert_flags);
}

int remora_win_start(remora_group_t group, int assert_flags, remora_win_t win) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_win_start";
  Window* window = nullptr;
  std::vector<int> ranks;
  if (int status = enter_with_group(function, group, win, &window, &ranks)) return status;
  return window->pscw().start(function, ranks, assert_flags);
}

int remora_win_complete(remora_win_t win) {
  REMORA_API_ENTRY();
  Window* window = nullptr;
  if (int status = remora::api::win_enter_blocking("remora_win_complete", win, &window))
    return status;
  return window->pscw().complete("remora_win_complete");
}

int remora_win_wait(remora_win_t win) {
  REMORA_API_ENTRY();
  Window* window = nullptr;
  if (int status = remora::api::win_enter_blocking("remora_win_wait", win, &window)) return status;
  return window->pscw().wait("remora_win_wait");
}

int remora_win_test(remora_win_t win, int* flag) {
  REMORA_API_ENTRY();
  Window* window = nullptr;
  if (int status = remora::api::win_enter("remora_win_test", win, &window)) return status;
  if (int status = remora::api::check_pointer("remora_win_test", "flag", flag)) return status;
  return window->pscw().test("remora_win_test", flag);
}

}  // extern "C"
