// Misuse on some ranks only, for the collective array calls: a bad argument on one rank of a
// create, duplicate or destroy fails the call on every rank with a message (the bad rank's own
// names its argument, the others' name that rank), nobody waits forever, and nothing is created
// or destroyed, so the job carries on. Also destroy with an AXPY batch still attached (refused
// everywhere) and with nonblocking requests still outstanding (destroy completes them; the
// requests stay valid until waited for).
#include <cstdio>
#include <cstring>
#include <string>

#include "multirank.hpp"

namespace {

int rank_, size_;

// The message the ranks other than `bad` get.
std::string others(int bad) {
  return "rank " + std::to_string(bad) + " of the communicator passed invalid arguments";
}

// rc and the message on this rank: `own` on the bad rank, the others' text elsewhere.
void require_fails_everywhere(int rc, int bad, int code, const char* own, const char* outcome) {
  if (rank_ == bad) {
    REQUIRE(rc == code, "-> %d (%s), expected %d", rc, remora_last_error(), code);
    REQUIRE(std::strstr(remora_last_error(), own) != nullptr, "message \"%s\" lacks \"%s\"",
            remora_last_error(), own);
  } else {
    REQUIRE(rc == REMORA_ERR_ARG, "-> %d (%s), expected REMORA_ERR_ARG", rc, remora_last_error());
    REQUIRE(std::strstr(remora_last_error(), others(bad).c_str()) != nullptr,
            "message \"%s\" lacks \"%s\"", remora_last_error(), others(bad).c_str());
    REQUIRE(std::strstr(remora_last_error(), outcome) != nullptr, "message \"%s\" lacks \"%s\"",
            remora_last_error(), outcome);
  }
}

// The array works on every rank: each rank puts its rank into row `rank`, then reads all rows.
void check_usable(remora_array_t a) {
  const int64_t lo[2] = {rank_, 0}, hi[2] = {rank_, 1}, ld[1] = {2};
  const double mine[2] = {static_cast<double>(rank_), static_cast<double>(rank_) + 0.5};
  REQUIRE_OK(remora_array_put(a, lo, hi, mine, ld));
  REQUIRE_OK(remora_array_sync());
  for (int r = 0; r < size_; ++r) {
    const int64_t rlo[2] = {r, 0}, rhi[2] = {r, 1};
    double got[2] = {-1, -1};
    REQUIRE_OK(remora_array_get(a, rlo, rhi, got, ld));
    REQUIRE(got[0] == r && got[1] == r + 0.5, "row %d holds %g %g", r, got[0], got[1]);
  }
  REQUIRE_OK(remora_array_sync());
}

void creation(int bad) {
  const bool mine = rank_ == bad;
  const int64_t dims[2] = {size_, 2}, zero[2] = {size_, 0};
  const char* created = "no rank created the array";
  remora_array_t a = nullptr;
  require_fails_everywhere(remora_array_create(REMORA_DOUBLE, mine ? 0 : 2, dims, "x", &a), bad,
                           REMORA_ERR_ARG, "ndim=0", created);
  require_fails_everywhere(remora_array_create(REMORA_DOUBLE, 2, mine ? zero : dims, "x", &a), bad,
                           REMORA_ERR_ARG, "dims[1]=0", created);
  require_fails_everywhere(
      remora_array_create(mine ? REMORA_INT16 : REMORA_DOUBLE, 2, dims, "x", &a), bad,
      REMORA_ERR_ARG, "type=2", created);
  require_fails_everywhere(remora_array_create(REMORA_DOUBLE, 2, dims, "x", mine ? nullptr : &a),
                           bad, REMORA_ERR_ARG, "array is NULL", created);
  const int nblock[2] = {1, 1};
  const int64_t map[2] = {0, 0}, late_map[2] = {1, 0};
  require_fails_everywhere(
      remora_array_create_irregular(REMORA_DOUBLE, 2, dims, nblock, mine ? late_map : map, "x", &a),
      bad, REMORA_ERR_ARG, "map[0]=1", created);
  const int64_t block[2] = {1, 1}, no_block[2] = {1, 0};
  require_fails_everywhere(remora_array_create_block_cyclic(
                               REMORA_DOUBLE, dims, mine ? no_block : block, nullptr, "x", &a),
                           bad, REMORA_ERR_ARG, "block[1]=0", created);
  const int big_grid[2] = {size_ + 1, 1};
  require_fails_everywhere(
      remora_array_create_element_cyclic(REMORA_DOUBLE, dims, mine ? big_grid : nullptr, "x", &a),
      bad, REMORA_ERR_ARG, "needs more ranks", created);
  REQUIRE(a == nullptr, "a failed creation set the handle");
  // The job goes on: a correct creation right after works everywhere.
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 2, dims, "after", &a));
  check_usable(a);
  remora_array_t copy = nullptr;
  require_fails_everywhere(remora_array_duplicate(mine ? nullptr : a, "copy", &copy), bad,
                           REMORA_ERR_ARG, "a is NULL", created);
  require_fails_everywhere(remora_array_duplicate(a, "copy", mine ? nullptr : &copy), bad,
                           REMORA_ERR_ARG, "array is NULL", created);
  REQUIRE(copy == nullptr, "a failed duplicate set the handle");
  REQUIRE_OK(remora_array_duplicate(a, "copy", &copy));
  check_usable(copy);
  REQUIRE_OK(remora_array_destroy(&copy));
  REQUIRE_OK(remora_array_destroy(&a));
}

void destruction(int bad) {
  const bool mine = rank_ == bad;
  const int64_t dims[2] = {size_, 2};
  const char* destroyed = "no rank destroyed the array";
  remora_array_t a = nullptr, gone = nullptr;
  // a first, so that the destroyed handle cannot be a's address re-used.
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 2, dims, "a", &a));
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 2, dims, "gone", &gone));
  remora_array_t stale = gone;
  REQUIRE_OK(remora_array_destroy(&gone));
  // A NULL pointer, a NULL handle, a destroyed handle: on one rank only.
  require_fails_everywhere(remora_array_destroy(mine ? nullptr : &a), bad, REMORA_ERR_ARG,
                           "array is NULL", destroyed);
  remora_array_t null_handle = nullptr;
  require_fails_everywhere(remora_array_destroy(mine ? &null_handle : &a), bad, REMORA_ERR_ARG,
                           "*array is NULL", destroyed);
  require_fails_everywhere(remora_array_destroy(mine ? &stale : &a), bad, REMORA_ERR_ARG,
                           "not a live array", destroyed);
  // Nothing was destroyed: the array still works everywhere and is then destroyed.
  REQUIRE(a != nullptr, "a failed destroy cleared the handle");
  check_usable(a);
  REQUIRE_OK(remora_array_destroy(&a));
  REQUIRE(a == nullptr, "destroy did not clear the handle");
}

void batch_attached() {
  const int64_t dims[2] = {size_, 2};
  remora_array_t a = nullptr;
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 2, dims, "batch", &a));
  remora_axpy_t batch = nullptr;
  REQUIRE_OK(remora_axpy_attach(a, REMORA_AXPY_DETACH_NBX, &batch));
  // Every rank adds 1 to element (0, 0) in the batch; destroy is refused while it is attached.
  const double one = 1, alpha = 1;
  const int64_t lo[2] = {0, 0}, hi[2] = {0, 0}, ld[1] = {1};
  REQUIRE_OK(remora_axpy(batch, REMORA_AXPY_LOCAL_TO_GLOBAL, &alpha, const_cast<double*>(&one), ld,
                         lo, hi));
  REQUIRE_ERROR(remora_array_destroy(&a), REMORA_ERR_STATE, "AXPY batch");
  REQUIRE(a != nullptr, "a refused destroy cleared the handle");
  REQUIRE_OK(remora_axpy_detach(&batch));
  REQUIRE_OK(remora_array_sync());
  double got = 0;
  REQUIRE_OK(remora_array_get(a, lo, hi, &got, ld));
  REQUIRE(got == size_, "element (0,0) is %g after %d batched adds of 1", got, size_);
  REQUIRE_OK(remora_array_sync());
  REQUIRE_OK(remora_array_destroy(&a));
}

// Nonblocking operations still outstanding at destroy (on some ranks): destroy completes them
// and their requests report the result when waited for afterwards.
void requests_outstanding(int bad) {
  const int64_t dims[2] = {size_, 2};
  remora_array_t a = nullptr;
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 2, dims, "nb", &a));
  const double seven = 7;
  REQUIRE_OK(remora_array_fill(a, &seven));
  const int64_t ld[1] = {2};
  const int64_t next = (rank_ + 1) % size_;
  const int64_t lo[2] = {next, 0}, hi[2] = {next, 1};
  double got[2] = {0, 0};
  const double put[2] = {1, 2};
  remora_array_request_t get_request = REMORA_ARRAY_REQUEST_NULL,
                         put_request = REMORA_ARRAY_REQUEST_NULL;
  if (rank_ == bad) {
    REQUIRE_OK(remora_array_nbget(a, lo, hi, got, ld, &get_request));
  } else {
    REQUIRE_OK(remora_array_nbput(a, lo, hi, put, ld, &put_request));
  }
  REQUIRE_OK(remora_array_destroy(&a));
  REQUIRE_OK(remora_array_wait(&get_request));
  REQUIRE_OK(remora_array_wait(&put_request));
  REQUIRE(get_request == REMORA_ARRAY_REQUEST_NULL && put_request == REMORA_ARRAY_REQUEST_NULL,
          "wait did not clear the requests");
  // The get ran before the array went: it read the row, which nobody else writes (the rank
  // that would put to it is the bad rank itself).
  if (rank_ == bad) REQUIRE(got[0] == 7 && got[1] == 7, "nbget read %g %g", got[0], got[1]);
}

}  // namespace

int main(int argc, char** argv) {
  remora_test::init(&argc, &argv, &rank_, &size_);
  for (int bad : {size_ - 1, 0}) {
    if (size_ > 1) {
      creation(bad);
      destruction(bad);
    }
    requests_outstanding(bad);
  }
  batch_attached();
  REQUIRE_OK(remora_finalize());
  return 0;
}
