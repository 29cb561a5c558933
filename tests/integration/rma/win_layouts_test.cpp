// Non-contiguous transfers: vector and subarray layouts on origin and target for put, get,
// accumulate and get_accumulate, checked against a reference computed here element by element;
// accumulates through layouts stay atomic under contention; and layout misuse. Each accumulate
// strategy through the info key; the transfers and accumulates once more through the request
// forms (remora_win_rput_layout ...), waited for before their buffers are read.
#include <cstdint>
#include <vector>

#include "multirank.hpp"

namespace {

int rank_, size_;
bool requests_ = false;  // use the request forms of the layout operations

// Waits for the request of a request-form call that succeeded.
void wait_for(remora_request_t* request) {
  REQUIRE(*request != REMORA_REQUEST_NULL, "no request");
  REQUIRE_OK(remora_request_wait(request));
}

// Reference element offsets, in order.
std::vector<size_t> vector_offsets(size_t count, size_t blocklen, size_t stride) {
  std::vector<size_t> out;
  for (size_t b = 0; b < count; ++b)
    for (size_t i = 0; i < blocklen; ++i) out.push_back(b * stride + i);
  return out;
}

// 3-D subarray, C order: the last index varies fastest.
std::vector<size_t> box_offsets(const size_t sizes[3], const size_t subsizes[3],
                                const size_t starts[3]) {
  std::vector<size_t> out;
  for (size_t i = 0; i < subsizes[0]; ++i)
    for (size_t j = 0; j < subsizes[1]; ++j)
      for (size_t k = 0; k < subsizes[2]; ++k)
        out.push_back(((starts[0] + i) * sizes[1] + starts[1] + j) * sizes[2] + starts[2] + k);
  return out;
}

constexpr size_t kWindow = 4 * 5 * 6;  // int64 elements per rank: a 4 x 5 x 6 array
const size_t kSizes[3] = {4, 5, 6}, kSubsizes[3] = {2, 3, 4}, kStarts[3] = {1, 2, 1};

int64_t origin_value(int rank, size_t i) {
  return 1000 * (rank + 1) + static_cast<int64_t>(i);
}

// Each rank puts elements of a vector layout of its buffer into a 2x3x4 box of its right
// neighbour's array, then reads the box back into another vector layout with get.
void put_and_get(remora_win_t win, const int64_t* base) {
  const int right = (rank_ + 1) % size_, left = (rank_ + size_ - 1) % size_;
  remora_layout_t vector, box, gather;
  REQUIRE_OK(remora_layout_vector(8, 3, 5, &vector));  // 24 elements
  REQUIRE_OK(remora_layout_subarray(3, kSizes, kSubsizes, kStarts, REMORA_ORDER_C, &box));
  REQUIRE_OK(remora_layout_vector(12, 2, 3, &gather));  // 24 elements
  size_t elements = 0, extent = 0;
  REQUIRE_OK(remora_layout_elements(box, &elements));
  REQUIRE_OK(remora_layout_extent(vector, &extent));
  REQUIRE(elements == 24 && extent == 38, "elements %zu extent %zu", elements, extent);
  std::vector<int64_t> origin(extent);
  for (size_t i = 0; i < origin.size(); ++i) origin[i] = origin_value(rank_, i);

  REQUIRE_OK(remora_win_lock_all(win, 0));
  remora_request_t request = REMORA_REQUEST_NULL;
  if (requests_) {
    REQUIRE_OK(
        remora_win_rput_layout(win, right, 0, origin.data(), vector, box, REMORA_INT64, &request));
    wait_for(&request);
  } else {
    REQUIRE_OK(remora_win_put_layout(win, right, 0, origin.data(), vector, box, REMORA_INT64));
  }
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  const std::vector<size_t> from = vector_offsets(8, 3, 5),
                            to = box_offsets(kSizes, kSubsizes, kStarts);
  std::vector<int64_t> expected(kWindow, 0);
  for (size_t i = 0; i < to.size(); ++i) expected[to[i]] = origin_value(left, from[i]);
  for (size_t e = 0; e < kWindow; ++e)
    REQUIRE(base[e] == expected[e], "element %zu holds %lld, expected %lld", e, (long long)base[e],
            (long long)expected[e]);

  std::vector<int64_t> back(36, -1);
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, right, 0));
  if (requests_) {
    REQUIRE_OK(
        remora_win_rget_layout(win, right, 0, back.data(), gather, box, REMORA_INT64, &request));
    wait_for(&request);
  } else {
    REQUIRE_OK(remora_win_get_layout(win, right, 0, back.data(), gather, box, REMORA_INT64));
  }
  REQUIRE_OK(remora_win_unlock(win, right));
  const std::vector<size_t> into = vector_offsets(12, 2, 3);
  for (size_t i = 0; i < into.size(); ++i)
    REQUIRE(back[into[i]] == origin_value(rank_, from[i]), "got %lld at %zu",
            (long long)back[into[i]], into[i]);
  REQUIRE(back[2] == -1 && back[35] == -1, "get wrote outside its layout");
  REQUIRE_OK(remora_layout_free(&vector));
  REQUIRE_OK(remora_layout_free(&box));
  REQUIRE_OK(remora_layout_free(&gather));
  REQUIRE(vector == nullptr);
  REQUIRE_OK(remora_barrier());
}

// Every rank adds (rank + 1) into the same Fortran-ordered box of rank 0's array, from a
// contiguous origin, 20 times, then reads it with get_accumulate(NO_OP) through a layout.
void contended_accumulate(remora_win_t win, int64_t* base) {
  for (size_t e = 0; e < kWindow; ++e) base[e] = 0;
  REQUIRE_OK(remora_barrier());
  // Fortran order over sizes {6, 5, 4} is the same memory as C order over {4, 5, 6}.
  const size_t sizes[3] = {6, 5, 4}, subsizes[3] = {4, 3, 2}, starts[3] = {1, 2, 1};
  remora_layout_t box, line;
  REQUIRE_OK(remora_layout_subarray(3, sizes, subsizes, starts, REMORA_ORDER_FORTRAN, &box));
  REQUIRE_OK(remora_layout_contiguous(24, &line));
  const std::vector<int64_t> add(24, rank_ + 1);
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, 0, 0));
  remora_request_t request = REMORA_REQUEST_NULL;
  for (int round = 0; round < 20; ++round)
    if (requests_) {
      REQUIRE_OK(remora_win_raccumulate_layout(win, 0, 0, add.data(), line, box, REMORA_INT64,
                                               REMORA_OP_SUM, nullptr, &request));
      wait_for(&request);
    } else {
      REQUIRE_OK(remora_win_accumulate_layout(win, 0, 0, add.data(), line, box, REMORA_INT64,
                                              REMORA_OP_SUM, nullptr));
    }
  REQUIRE_OK(remora_win_unlock(win, 0));
  REQUIRE_OK(remora_barrier());
  const int64_t total = 20 * static_cast<int64_t>(size_) * (size_ + 1) / 2;
  std::vector<int64_t> read(24, -1);
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, 0, 0));
  if (requests_) {
    REQUIRE_OK(remora_win_rget_accumulate_layout(win, 0, 0, nullptr, read.data(), line, box,
                                                 REMORA_INT64, REMORA_OP_NO_OP, nullptr, &request));
    wait_for(&request);
  } else {
    REQUIRE_OK(remora_win_get_accumulate_layout(win, 0, 0, nullptr, read.data(), line, box,
                                                REMORA_INT64, REMORA_OP_NO_OP, nullptr));
  }
  REQUIRE_OK(remora_win_unlock(win, 0));
  for (size_t i = 0; i < read.size(); ++i)
    REQUIRE(read[i] == total, "element %zu: %lld, expected %lld", i, (long long)read[i],
            (long long)total);
  if (rank_ == 0) {
    const std::vector<size_t> inside = box_offsets(kSizes, kSubsizes, kStarts);
    std::vector<int64_t> expected(kWindow, 0);
    for (size_t e : inside) expected[e] = total;
    for (size_t e = 0; e < kWindow; ++e)
      REQUIRE(base[e] == expected[e], "element %zu: %lld", e, (long long)base[e]);
  }
  REQUIRE_OK(remora_layout_free(&box));
  REQUIRE_OK(remora_layout_free(&line));
  REQUIRE_OK(remora_barrier());
}

void misuse(remora_win_t win) {
  remora_layout_t four, five, wide;
  // Never a layout: stale handles are rejected, not dereferenced.
  const auto stale = reinterpret_cast<remora_layout_t>(&rank_);
  REQUIRE_OK(remora_layout_contiguous(4, &four));
  REQUIRE_OK(remora_layout_contiguous(5, &five));
  REQUIRE_OK(remora_layout_vector(2, 1, kWindow, &wide));  // extent kWindow + 1
  std::vector<int64_t> buffer(kWindow + 1, 0);
  REQUIRE_OK(remora_win_lock(win, REMORA_LOCK_SHARED, rank_, 0));
  REQUIRE_ERROR(remora_win_put_layout(win, rank_, 0, buffer.data(), four, five, REMORA_INT64),
                REMORA_ERR_ARG, "origin_layout has 4 elements but target_layout has 5");
  REQUIRE_ERROR(remora_win_get_layout(win, rank_, 0, buffer.data(), five, four, REMORA_INT64),
                REMORA_ERR_ARG, "result_layout has 5 elements");
  REQUIRE_ERROR(remora_win_accumulate_layout(win, rank_, 0, buffer.data(), nullptr, four,
                                             REMORA_INT64, REMORA_OP_SUM, nullptr),
                REMORA_ERR_ARG, "remora_win_accumulate_layout: origin_layout is NULL");
  REQUIRE_ERROR(remora_win_put_layout(win, rank_, 0, buffer.data(), four, stale, REMORA_INT64),
                REMORA_ERR_ARG, "is not a live layout");
  REQUIRE_ERROR(remora_win_put_layout(win, rank_, 0, buffer.data(), wide, wide, REMORA_INT64),
                REMORA_ERR_RANGE, "lies outside target");
  REQUIRE_ERROR(remora_win_put_layout(win, rank_, 0, nullptr, four, four, REMORA_INT64),
                REMORA_ERR_ARG, "origin is NULL");
  REQUIRE_ERROR(remora_win_get_accumulate_layout(win, rank_, 0, buffer.data(), nullptr, four, four,
                                                 REMORA_INT64, REMORA_OP_SUM, nullptr),
                REMORA_ERR_ARG, "result is NULL");
  REQUIRE_ERROR(remora_win_accumulate_layout(win, rank_, 0, buffer.data(), four, four,
                                             REMORA_DOUBLE, REMORA_OP_BAND, nullptr),
                REMORA_ERR_ARG, "BAND");
  REQUIRE_OK(remora_win_unlock(win, rank_));
  REQUIRE_ERROR(remora_win_put_layout(win, rank_, 0, buffer.data(), four, four, REMORA_INT64),
                REMORA_ERR_STATE, "no access epoch");
  // Request forms: only in a passive-target epoch, and they validate like the blocking ones.
  remora_request_t request = REMORA_REQUEST_NULL;
  REQUIRE_ERROR(
      remora_win_rput_layout(win, rank_, 0, buffer.data(), four, four, REMORA_INT64, &request),
      REMORA_ERR_STATE, "remora_win_rput_layout: target=");
  REQUIRE(request == REMORA_REQUEST_NULL, "request set on failure");
  REQUIRE_ERROR(
      remora_win_rget_layout(win, rank_, 0, buffer.data(), four, four, REMORA_INT64, nullptr),
      REMORA_ERR_ARG, "request is NULL");
  REQUIRE_ERROR(remora_win_raccumulate_layout(win, size_, 0, buffer.data(), four, four,
                                              REMORA_INT64, REMORA_OP_SUM, nullptr, &request),
                REMORA_ERR_RANK, "target");
  REQUIRE_OK(remora_win_lock_all(win, 0));
  REQUIRE_ERROR(
      remora_win_rget_accumulate_layout(win, rank_, 0, buffer.data(), buffer.data(), four, five,
                                        REMORA_INT64, REMORA_OP_SUM, nullptr, &request),
      REMORA_ERR_ARG, "origin_layout has 4 elements but target_layout has 5");
  REQUIRE(request == REMORA_REQUEST_NULL, "request set on failure");
  REQUIRE_OK(remora_win_unlock_all(win));
  // Bad layout arguments.
  remora_layout_t out = nullptr;
  const size_t sizes[2] = {3, 3}, subsizes[2] = {2, 2}, starts[2] = {2, 0};
  REQUIRE_ERROR(remora_layout_vector(3, 4, 2, &out), REMORA_ERR_ARG,
                "remora_layout_vector: stride=2 is smaller than blocklen=4");
  REQUIRE_ERROR(remora_layout_contiguous(1, nullptr), REMORA_ERR_ARG, "layout is NULL");
  REQUIRE_ERROR(remora_layout_subarray(2, sizes, subsizes, starts, REMORA_ORDER_C, &out),
                REMORA_ERR_ARG, "remora_layout_subarray: starts[0]=2 subsizes[0]=2");
  REQUIRE_ERROR(remora_layout_subarray(2, sizes, subsizes, starts, 7, &out), REMORA_ERR_ARG,
                "order=7");
  REQUIRE_ERROR(remora_layout_subarray(-1, sizes, subsizes, starts, 0, &out), REMORA_ERR_ARG,
                "ndims=-1");
  REQUIRE(out == nullptr);
  size_t count = 0;
  REQUIRE_ERROR(remora_layout_elements(stale, &count), REMORA_ERR_ARG, "not a live layout");
  REQUIRE_ERROR(remora_layout_extent(four, nullptr), REMORA_ERR_ARG, "extent is NULL");
  REQUIRE_ERROR(remora_layout_free(nullptr), REMORA_ERR_ARG, "layout is NULL");
  for (remora_layout_t* layout : {&four, &five, &wide}) REQUIRE_OK(remora_layout_free(layout));
}

void run(const char* info) {
  remora_win_t win;
  int64_t* base = remora_test::allocate_int64_window(kWindow, info, &win);
  for (bool requests : {false, true}) {
    requests_ = requests;
    put_and_get(win, base);
    contended_accumulate(win, base);
  }
  misuse(win);
  REQUIRE_OK(remora_win_free(&win));
}

}  // namespace

int main(int argc, char** argv) {
  return remora_test::run_per_acc_strategy(argc, argv, &rank_, &size_, run);
}
