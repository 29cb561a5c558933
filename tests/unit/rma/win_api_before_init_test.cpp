// Every window function fails cleanly, naming itself, before remora_init (a job of one rank,
// no launcher).
#include <gtest/gtest.h>

#include <string>

#include "remora.h"

namespace {

void expect_not_initialized(int status, const char* function) {
  EXPECT_EQ(status, REMORA_ERR_NOT_INITIALIZED) << function;
  EXPECT_NE(std::string(remora_last_error()).find(function), std::string::npos)
      << remora_last_error();
}

TEST(WinApiBeforeInit, EveryCallFailsWithNotInitialized) {
  remora_win_t win = nullptr;
  void* base = nullptr;
  size_t bytes = 0;
  int64_t value = 0, result = 0;
  remora_acc_strategy_t strategy;
  expect_not_initialized(remora_win_allocate(8, 1, nullptr, &base, &win), "remora_win_allocate");
  expect_not_initialized(remora_win_free(&win), "remora_win_free");
  expect_not_initialized(remora_win_base(win, &base), "remora_win_base");
  expect_not_initialized(remora_win_size(win, 0, &bytes), "remora_win_size");
  expect_not_initialized(remora_win_disp_unit(win, 0, &bytes), "remora_win_disp_unit");
  expect_not_initialized(remora_win_acc_strategy(win, &strategy), "remora_win_acc_strategy");
  expect_not_initialized(remora_win_put(win, 0, 0, &value, 1, REMORA_INT64), "remora_win_put");
  expect_not_initialized(remora_win_get(win, 0, 0, &value, 1, REMORA_INT64), "remora_win_get");
  expect_not_initialized(
      remora_win_accumulate(win, 0, 0, &value, 1, REMORA_INT64, REMORA_OP_SUM, nullptr),
      "remora_win_accumulate");
  expect_not_initialized(remora_win_get_accumulate(win, 0, 0, &value, &result, 1, REMORA_INT64,
                                                   REMORA_OP_SUM, nullptr),
                         "remora_win_get_accumulate");
  expect_not_initialized(
      remora_win_fetch_and_op(win, 0, 0, &value, &result, REMORA_INT64, REMORA_OP_SUM),
      "remora_win_fetch_and_op");
  expect_not_initialized(
      remora_win_compare_and_swap(win, 0, 0, &value, &value, &result, REMORA_INT64),
      "remora_win_compare_and_swap");
  expect_not_initialized(remora_win_fence(win, 0), "remora_win_fence");
  expect_not_initialized(remora_win_lock(win, REMORA_LOCK_SHARED, 0, 0), "remora_win_lock");
  expect_not_initialized(remora_win_unlock(win, 0), "remora_win_unlock");
  expect_not_initialized(remora_win_lock_all(win, 0), "remora_win_lock_all");
  expect_not_initialized(remora_win_unlock_all(win), "remora_win_unlock_all");
  expect_not_initialized(remora_win_flush(win, 0), "remora_win_flush");
  expect_not_initialized(remora_win_flush_all(win), "remora_win_flush_all");
  expect_not_initialized(remora_win_flush_local(win, 0), "remora_win_flush_local");
  expect_not_initialized(remora_win_flush_local_all(win), "remora_win_flush_local_all");
  expect_not_initialized(remora_win_sync(win), "remora_win_sync");
  int flag = 0;
  expect_not_initialized(remora_win_post(REMORA_GROUP_NULL, 0, win), "remora_win_post");
  expect_not_initialized(remora_win_start(REMORA_GROUP_NULL, 0, win), "remora_win_start");
  expect_not_initialized(remora_win_complete(win), "remora_win_complete");
  expect_not_initialized(remora_win_wait(win), "remora_win_wait");
  expect_not_initialized(remora_win_test(win, &flag), "remora_win_test");
  remora_request_t request;
  expect_not_initialized(remora_win_rput(win, 0, 0, &value, 1, REMORA_INT64, &request),
                         "remora_win_rput");
  expect_not_initialized(remora_win_rget(win, 0, 0, &value, 1, REMORA_INT64, &request),
                         "remora_win_rget");
  expect_not_initialized(
      remora_win_raccumulate(win, 0, 0, &value, 1, REMORA_INT64, REMORA_OP_SUM, nullptr, &request),
      "remora_win_raccumulate");
  expect_not_initialized(remora_win_rget_accumulate(win, 0, 0, &value, &result, 1, REMORA_INT64,
                                                    REMORA_OP_SUM, nullptr, &request),
                         "remora_win_rget_accumulate");
  remora_layout_t layout = nullptr;
  expect_not_initialized(remora_win_put_layout(win, 0, 0, &value, layout, layout, REMORA_INT64),
                         "remora_win_put_layout");
  expect_not_initialized(remora_win_get_layout(win, 0, 0, &value, layout, layout, REMORA_INT64),
                         "remora_win_get_layout");
  expect_not_initialized(remora_win_accumulate_layout(win, 0, 0, &value, layout, layout,
                                                      REMORA_INT64, REMORA_OP_SUM, nullptr),
                         "remora_win_accumulate_layout");
  expect_not_initialized(
      remora_win_get_accumulate_layout(win, 0, 0, &value, &result, layout, layout, REMORA_INT64,
                                       REMORA_OP_SUM, nullptr),
      "remora_win_get_accumulate_layout");
}

// Layouts are local objects: they work before remora_init.
TEST(WinApiBeforeInit, LayoutsNeedNoInit) {
  remora_layout_t layout = nullptr;
  ASSERT_EQ(remora_layout_vector(3, 2, 4, &layout), REMORA_SUCCESS);
  size_t elements = 0, extent = 0;
  EXPECT_EQ(remora_layout_elements(layout, &elements), REMORA_SUCCESS);
  EXPECT_EQ(remora_layout_extent(layout, &extent), REMORA_SUCCESS);
  EXPECT_EQ(elements, 6u);
  EXPECT_EQ(extent, 10u);
  EXPECT_EQ(remora_layout_free(&layout), REMORA_SUCCESS);
  EXPECT_EQ(layout, nullptr);
}

}  // namespace
