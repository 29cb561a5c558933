// C API: the collectives. Every entry point checks its arguments here; the coll layer below
// trusts them.
#include <algorithm>
#include <cstdint>
#include <string>

#include "api/coll_handles.hpp"
#include "coll/algorithms/algorithms.hpp"
#include "coll/shm_fast.hpp"
#include "core/error.hpp"
#include "remora/coll.h"
#include "rma/reduce_op.hpp"

using remora::fail;
using remora::api::CommPtr;
using remora::api::enter_waiting;
using remora::api::find_comm;
using remora::api::Runtime;
using remora::coll::Algorithm;
using remora::coll::CollectiveArgs;
using remora::coll::Communicator;
using remora::coll::Operation;
using remora::coll::Schedule;

namespace {

// ---- Collective arguments ----

// A value of the enum that names an algorithm of the operation (coll/algorithms/list.def).
int check_algorithm(const char* function, Operation operation, remora_coll_algorithm_t requested,
                    Algorithm* algorithm) {
  const int value = static_cast<int>(requested);
  *algorithm = static_cast<Algorithm>(value);
  if (!remora::coll::supports(operation, *algorithm))
    return fail(REMORA_ERR_ARG, "%s: algorithm=%d (%s) is not an algorithm of %s: expected %s",
                function, value, remora::coll::algorithm_name(*algorithm),
                remora::coll::operation_name(operation),
                remora::coll::supported_names(operation).c_str());
  return REMORA_SUCCESS;
}

int check_type(const char* function, remora_datatype_t type, CollectiveArgs* args) {
  args->type = type;
  args->extent = remora::rma::datatype_size(type);
  if (args->extent == 0)
    return fail(REMORA_ERR_ARG, "%s: type=%d is not a remora_datatype_t", function,
                static_cast<int>(type));
  return REMORA_SUCCESS;
}

int check_reduction(const char* function, remora_op_t op, remora_datatype_t type,
                    CollectiveArgs* args) {
  if (int status = check_type(function, type, args)) return status;
  // The collectives combine values of different ranks; these three do not reduce anything.
  if (op == REMORA_OP_REPLACE || op == REMORA_OP_NO_OP || op == REMORA_OP_SCALED_SUM)
    return fail(REMORA_ERR_ARG, "%s: op=REMORA_OP_%s is not a reduction of a collective", function,
                remora::rma::op_name(op));
  args->op = op;
  return remora::rma::check_op(function, op, type);
}

int check_root(const char* function, int root, const Communicator& comm, CollectiveArgs* args) {
  if (root < 0 || root >= comm.size())
    return fail(REMORA_ERR_RANK, "%s: root=%d is not a rank of the communicator [0, %d)", function,
                root, comm.size());
  args->root = root;
  return REMORA_SUCCESS;
}

// elements * extent must not overflow (a negative count converted to size_t is caught here).
int check_count(const char* function, const char* name, size_t count, const CollectiveArgs& args) {
  if (args.extent != 0 && count > SIZE_MAX / 4 / args.extent)
    return fail(REMORA_ERR_ARG, "%s: %s=%zu is too large (a negative value converted to size_t?)",
                function, name, count);
  return REMORA_SUCCESS;
}

// A buffer of `elements` elements: non-NULL unless empty; REMORA_IN_PLACE only where allowed.
int check_buffer(const char* function, const char* name, const void* buffer, size_t elements,
                 bool in_place_allowed) {
  if (buffer == REMORA_IN_PLACE && !in_place_allowed)
    return fail(REMORA_ERR_ARG, "%s: %s=REMORA_IN_PLACE is not allowed here", function, name);
  if (buffer == nullptr && elements > 0)
    return fail(REMORA_ERR_ARG, "%s: %s is NULL but holds %zu elements", function, name, elements);
  return REMORA_SUCCESS;
}

// A per-rank array of counts or displacements, copied into *out.
int check_array(const char* function, const char* name, const size_t* array,
                const Communicator& comm, const CollectiveArgs& args, std::vector<size_t>* out) {
  if (int status = remora::api::check_pointer(function, name, array)) return status;
  out->assign(array, array + comm.size());
  for (size_t rank = 0; rank < out->size(); ++rank)
    if (check_count(function, name, (*out)[rank], args) != REMORA_SUCCESS)
      return fail(REMORA_ERR_ARG,
                  "%s: %s[%zu]=%zu is too large (a negative value converted to size_t?)", function,
                  name, rank, (*out)[rank]);
  return REMORA_SUCCESS;
}

// Fills counts and displs in place: the vectors are the thread's reused ones (see
// ThreadArgs), so the regular forms allocate nothing once they have held a communicator's size.
void uniform(size_t count, const Communicator& comm, std::vector<size_t>* counts,
             std::vector<size_t>* displs) {
  const auto size = static_cast<size_t>(comm.size());
  counts->assign(size, count);
  displs->resize(size);
  for (size_t rank = 0; rank < size; ++rank) (*displs)[rank] = rank * count;
}

size_t sum(const std::vector<size_t>& counts) {
  size_t total = 0;
  for (size_t count : counts) total += count;
  return total;
}

// The sizes this rank sends and expects for its own block must agree.
int check_own_block(const char* function, const char* own_name, size_t own, const char* list_name,
                    const std::vector<size_t>& list, const Communicator& comm) {
  const size_t listed = list[static_cast<size_t>(comm.rank())];
  if (own != listed)
    return fail(REMORA_ERR_ARG, "%s: mismatched counts: %s=%zu but %s[%d]=%zu", function, own_name,
                own, list_name, comm.rank(), listed);
  return REMORA_SUCCESS;
}

void set_input(const void* send, CollectiveArgs* args) {
  args->in_place = send == REMORA_IN_PLACE;
  args->send = args->in_place ? nullptr : send;
}

// A collective that failed below: its message names the function.
int call_failed(const char* function, int status) {
  const std::string message = remora::last_error();
  return fail(status, "%s: %s", function, message.c_str());
}

// ---- The small path: calls of small payloads on shm ----
// Blocking calls run on the small path of coll/shm_fast.hpp; nonblocking ones (barrier, bcast,
// reduce, allreduce, gather and alltoall in their regular forms) start the request of
// coll/shm_request.hpp (Collectives::start_small). It takes a call only when every argument
// passes the checks the full path makes (valid(comm) repeats those that need the communicator;
// a nonblocking call's request pointer is not NULL); any other call, erroneous ones included,
// takes the full path, which checks, reports and tells the other members. It borrows the
// communicator without a reference (a nonblocking call's request takes one) and builds no
// CollectiveArgs. Returns true with the call's status in *status when it ran (blocking) or
// started (nonblocking: its handle in *request) the call.
template <typename Valid>
bool small_call(const char* function, remora_comm_t handle, Operation operation,
                remora_coll_algorithm_t requested, const remora::coll::ShmFast::Small& args,
                const Valid& valid, bool nonblocking, remora_request_t* request, int* status) {
  Runtime* runtime = nullptr;
  // Elements are at least one byte, so a count above the largest small payload in bytes is too
  // large for any type; run_small and start_small apply the exact per-operation limits.
  if (handle == REMORA_COMM_NULL || args.count > remora::coll::ShmFast::kSmallScatterBytes ||
      (nonblocking && request == nullptr) ||
      remora::api::enter_waiting(function, &runtime) != REMORA_SUCCESS)
    return false;
  const auto algorithm = static_cast<Algorithm>(requested);
  Communicator* comm = runtime->collectives->communicators.find_borrowed(handle);
  // auto: every operation's; shm asked for: every operation of the small path is shm's (no
  // lookup in the table).
  const bool supported =
      algorithm == Algorithm::Auto ||
      (algorithm == Algorithm::Shm ? remora::coll::ShmFast::serves(operation)
                                   : remora::coll::supports(operation, algorithm));
  if (comm == nullptr || !supported || !valid(*comm)) return false;
  if (nonblocking) {
    std::shared_ptr<remora::Request> started;
    if (!runtime->collectives->start_small(*comm, operation, algorithm, args, &started))
      return false;
    *status = remora::api::request_handle(function, *runtime, std::move(started), request);
    return true;
  }
  if (!runtime->collectives->run_small(*comm, operation, algorithm, args, status)) return false;
  if (*status != REMORA_SUCCESS) *status = call_failed(function, *status);
  return true;
}

// The small path's arguments of a call whose input may be in place (sendbuf REMORA_IN_PLACE).
remora::coll::ShmFast::Small small_args(const void* sendbuf, void* recvbuf, size_t count,
                                        int root) {
  remora::coll::ShmFast::Small small;
  small.in_place = sendbuf == REMORA_IN_PLACE;
  small.send = small.in_place ? nullptr : sendbuf;
  small.recv = recvbuf;
  small.count = count;
  small.root = root;
  return small;
}

// A v-form's per-rank lists (the receive side's; the root's of gatherv and scatterv).
void small_lists(bool vector_form, const size_t* counts, const size_t* displs,
                 remora::coll::ShmFast::Small* args) {
  args->vector_form = vector_form;
  args->counts = counts;
  args->displs = displs;
}

bool small_type(remora_datatype_t type, remora::coll::ShmFast::Small* args) {
  args->type = type;
  args->extent = remora::rma::datatype_size(type);
  return args->extent != 0;
}

// As check_reduction, without reporting.
bool small_reduction(remora_op_t op, remora_datatype_t type, remora::coll::ShmFast::Small* args) {
  if (!small_type(type, args) || op == REMORA_OP_REPLACE || op == REMORA_OP_NO_OP ||
      op == REMORA_OP_SCALED_SUM)
    return false;
  args->op = op;
  return remora::rma::op_valid_for(op, type);
}

bool small_root(int root, const Communicator& comm) {
  return root >= 0 && root < comm.size();
}

// The buffer of every rank's block of a small call (the root's recvbuf of gather(v), sendbuf of
// scatter(v); allgather(v)'s recvbuf) passes the full path's checks: in the regular form count
// from every rank, in the v-form counts and displs (check_array, check_buffer, check_own_block
// when the own block is not in place). The small path takes only blocks of up to
// ShmFast::kSmallScatterBytes (gatherv and scatterv: smaller, ShmFast::small_serves), so a
// count that large is no small call.
// A v-form's per-rank counts and displacements (both given, every count small) and the sum of
// the counts.
bool small_counts(const size_t* counts, const size_t* displs, const Communicator& comm,
                  size_t extent, size_t* total) {
  if (counts == nullptr || displs == nullptr) return false;
  *total = 0;
  const size_t limit =
      remora::coll::ShmFast::elements_in(remora::coll::ShmFast::kSmallScatterBytes, extent);
  for (size_t rank = 0; rank < static_cast<size_t>(comm.size()); ++rank) {
    if (counts[rank] > limit) return false;
    *total += counts[rank];
  }
  return true;
}

bool small_blocks(const char* function, const char* name, const void* buffer, size_t own,
                  bool vector_form, const size_t* counts, const size_t* displs, bool own_checked,
                  const Communicator& comm, size_t extent) {
  const auto ranks = static_cast<size_t>(comm.size());
  if (!vector_form)
    return check_buffer(function, name, buffer, own * ranks, false) == REMORA_SUCCESS;
  size_t total = 0;
  return small_counts(counts, displs, comm, extent, &total) &&
         check_buffer(function, name, buffer, total, false) == REMORA_SUCCESS &&
         (!own_checked || counts[static_cast<size_t>(comm.rank())] == own);
}

// Builds and starts the collective; returns its request, or waits for it when request is
// nullptr (the blocking form). args are permuted when comm has a rank order.
int launch(const char* function, Runtime& runtime, const CommPtr& comm, Operation operation,
           Algorithm requested, size_t bytes, remora_request_t* request, CollectiveArgs* args) {
  std::shared_ptr<remora::Request> started;
  const int status = runtime.collectives->launch(comm, operation, requested, bytes, args,
                                                 request != nullptr ? &started : nullptr);
  if (status != REMORA_SUCCESS) return call_failed(function, status);
  if (request != nullptr)
    return remora::api::request_handle(function, runtime, std::move(started), request);
  return REMORA_SUCCESS;
}

// What every collective checks first: initialized, not in a handler, the request pointer of a
// nonblocking call, the communicator and the algorithm.
// The arguments of this thread's calls, reused from call to call so that the per-rank counts
// and displacements keep their storage (three or more allocations per call otherwise; launch
// reads and permutes them, never moves them away). A call that finds them in use (a call
// inside a call; handlers may not make collective calls, so none today) takes its own.
struct ThreadArgs {
  CollectiveArgs args;
  bool busy = false;
};
// initial-exec: as FoundList's in request_api.cpp (no __tls_get_addr call per collective).
[[gnu::tls_model("initial-exec")]] thread_local ThreadArgs thread_args;

CollectiveArgs& take_args(CollectiveArgs* own, bool* took) {
  ThreadArgs& mine = thread_args;  // one lookup of the thread-local (a call in a shared library)
  if (mine.busy) return *own;
  mine.busy = *took = true;
  CollectiveArgs& args = mine.args;
  // The defaults field by field, the lists emptied in place (a fresh CollectiveArgs moved in
  // cost about 250 instructions per call).
  args.send = nullptr;
  args.recv = nullptr;
  args.in_place = false;
  args.count = 0;
  args.type = 0;
  args.extent = 0;
  args.op = 0;
  args.root = 0;
  args.exclusive = false;
  args.vector_form = false;
  args.send_counts.clear();
  args.send_displs.clear();
  args.recv_counts.clear();
  args.recv_displs.clear();
  // A field added to CollectiveArgs needs its default above.
  static_assert(sizeof(CollectiveArgs) == 8 * sizeof(uint64_t) + 4 * sizeof(std::vector<size_t>));
  return args;
}

struct Call {
  explicit Call(const char* name) : function(name) {}
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;
  // A call that found its communicator but did not launch failed one of its checks (every
  // other return path launches): the other members, who may have started this collective,
  // must hear of it rather than wait for this rank.
  ~Call() {
    if (took_args) thread_args.busy = false;
    if (comm == nullptr || launched) return;
    const std::string message = remora::last_error();
    const int code = remora::last_error_code();
    runtime->collectives->fail_before_start(comm, code != 0 ? code : REMORA_ERR_ARG, message);
    remora::fail(code, "%s", message.c_str());  // the caller's error stays the one it sees
  }
  const char* function;
  Runtime* runtime = nullptr;
  CommPtr comm;
  Algorithm algorithm = Algorithm::Auto;
  bool took_args = false;
  CollectiveArgs own_args;  // unused unless the thread's are busy
  CollectiveArgs& args = take_args(&own_args, &took_args);
  bool launched = false;

  int begin(remora_comm_t handle, Operation operation, remora_coll_algorithm_t requested,
            bool nonblocking, remora_request_t* request) {
    if (int status = enter_waiting(function, &runtime)) return status;
    if (int status = find_comm(function, "comm", handle, *runtime, &comm)) return status;
    if (nonblocking)
      if (int status = remora::api::check_pointer(function, "request", request)) return status;
    return check_algorithm(function, operation, requested, &algorithm);
  }
  int launch(Operation operation, size_t bytes, remora_request_t* request) {
    launched = true;
    return ::launch(function, *runtime, comm, operation, algorithm, bytes, request, &args);
  }
};

// A collective's full path (Call and its checks) in a frame of its own: inline in the entry
// point, its setup (a zeroed CollectiveArgs, saved registers) ran before the small path on
// every call. For few arguments (barrier); with many, a lambda's captures were also stored
// before the small path, so bcast, reduction, reduce_scatter, gathering and scattering call a
// *_full function instead.
template <typename Full>
[[gnu::noinline]] int full_path(const Full& full) {
  return full();
}

// ---- The collectives, each in one function for both forms (request == nullptr: blocking) ----

int barrier(const char* function, remora_comm_t comm, remora_coll_algorithm_t algorithm,
            bool nonblocking, remora_request_t* request) {
  // No arguments: a constant, not a temporary zeroed per call (with `rep stos`).
  static constexpr remora::coll::ShmFast::Small kNone{};
  int small_status = REMORA_SUCCESS;
  if (small_call(
          function, comm, Operation::Barrier, algorithm, kNone,
          [](const Communicator&) { return true; }, nonblocking, request, &small_status))
    return small_status;
  return full_path([&] {
    Call call{function};
    if (int status = call.begin(comm, Operation::Barrier, algorithm, nonblocking, request))
      return status;
    return call.launch(Operation::Barrier, 0, request);
  });
}

// bcast's full path (see full_path: a function of its own, called with its arguments).
[[gnu::noinline]] int bcast_full(const char* function, void* buffer, size_t count,
                                 remora_datatype_t type, int root, remora_comm_t comm,
                                 remora_coll_algorithm_t algorithm, bool nonblocking,
                                 remora_request_t* request) {
  Call call{function};
  auto& args = call.args;
  if (int status = call.begin(comm, Operation::Bcast, algorithm, nonblocking, request))
    return status;
  if (int status = check_type(function, type, &args)) return status;
  if (int status = check_count(function, "count", count, args)) return status;
  if (int status = check_root(function, root, *call.comm, &args)) return status;
  if (int status = check_buffer(function, "buffer", buffer, count, false)) return status;
  args.recv = buffer;
  args.count = count;
  return call.launch(Operation::Bcast, count * args.extent, request);
}

int bcast(const char* function, void* buffer, size_t count, remora_datatype_t type, int root,
          remora_comm_t comm, remora_coll_algorithm_t algorithm, bool nonblocking,
          remora_request_t* request) {
  // small_args, not a Small zeroed and then filled in (`rep stos` per call).
  remora::coll::ShmFast::Small small = small_args(nullptr, buffer, count, root);
  int small_status = REMORA_SUCCESS;
  if (small_type(type, &small) && small_call(
                                      function, comm, Operation::Bcast, algorithm, small,
                                      [&](const Communicator& c) {
                                        return small_root(root, c) &&
                                               check_buffer(function, "buffer", buffer, count,
                                                            false) == REMORA_SUCCESS;
                                      },
                                      nonblocking, request, &small_status))
    return small_status;
  return bcast_full(function, buffer, count, type, root, comm, algorithm, nonblocking, request);
}

// reduce, allreduce, scan and exscan (exclusive): count elements in, count elements out.
// reduction's full path (see full_path: a function of its own, called with its arguments).
[[gnu::noinline]] int reduction_full(const char* function, Operation operation, const void* sendbuf,
                                     void* recvbuf, size_t count, remora_datatype_t type,
                                     remora_op_t op, int root, remora_comm_t comm,
                                     remora_coll_algorithm_t algorithm, bool nonblocking,
                                     remora_request_t* request, bool exclusive) {
  const bool rooted = operation == Operation::Reduce;
  Call call{function};
  auto& args = call.args;
  if (int status = call.begin(comm, operation, algorithm, nonblocking, request)) return status;
  if (int status = check_reduction(function, op, type, &args)) return status;
  if (int status = check_count(function, "count", count, args)) return status;
  if (rooted)
    if (int status = check_root(function, root, *call.comm, &args)) return status;
  const bool receives = !rooted || call.comm->rank() == root;
  if (int status = check_buffer(function, "sendbuf", sendbuf, count, receives)) return status;
  if (receives)
    if (int status = check_buffer(function, "recvbuf", recvbuf, count, false)) return status;
  set_input(sendbuf, &args);
  args.recv = recvbuf;
  args.count = count;
  args.exclusive = exclusive;
  return call.launch(operation, count * args.extent, request);
}

int reduction(const char* function, Operation operation, const void* sendbuf, void* recvbuf,
              size_t count, remora_datatype_t type, remora_op_t op, int root, remora_comm_t comm,
              remora_coll_algorithm_t algorithm, bool nonblocking, remora_request_t* request,
              bool exclusive = false) {
  const bool rooted = operation == Operation::Reduce;
  remora::coll::ShmFast::Small small = small_args(sendbuf, recvbuf, count, rooted ? root : 0);
  int small_status = REMORA_SUCCESS;
  if (operation != Operation::Scan && small_reduction(op, type, &small) &&
      small_call(
          function, comm, operation, algorithm, small,
          [&](const Communicator& c) {
            if (rooted && !small_root(root, c)) return false;
            const bool receives = !rooted || c.rank() == root;
            return check_buffer(function, "sendbuf", sendbuf, count, receives) == REMORA_SUCCESS &&
                   (!receives ||
                    check_buffer(function, "recvbuf", recvbuf, count, false) == REMORA_SUCCESS);
          },
          nonblocking, request, &small_status))
    return small_status;
  return reduction_full(function, operation, sendbuf, recvbuf, count, type, op, root, comm,
                        algorithm, nonblocking, request, exclusive);
}

// recvcounts == nullptr with vector_form false: the block form (recvcount each).
// reduce_scatter's full path (see full_path: a function of its own, called with its arguments).
[[gnu::noinline]] int reduce_scatter_full(const char* function, const void* sendbuf, void* recvbuf,
                                          const size_t* recvcounts, size_t recvcount,
                                          bool vector_form, remora_datatype_t type, remora_op_t op,
                                          remora_comm_t comm, remora_coll_algorithm_t algorithm,
                                          bool nonblocking, remora_request_t* request) {
  Call call{function};
  auto& args = call.args;
  if (int status = call.begin(comm, Operation::ReduceScatter, algorithm, nonblocking, request))
    return status;
  if (int status = check_reduction(function, op, type, &args)) return status;
  if (vector_form) {
    if (int status =
            check_array(function, "recvcounts", recvcounts, *call.comm, args, &args.recv_counts))
      return status;
  } else {
    if (int status = check_count(function, "recvcount", recvcount, args)) return status;
    args.recv_counts.assign(static_cast<size_t>(call.comm->size()), recvcount);
  }
  const size_t total = sum(args.recv_counts);
  if (int status = check_count(function, "the sum of recvcounts", total, args)) return status;
  if (int status = check_buffer(function, "sendbuf", sendbuf, total, true)) return status;
  const size_t mine = args.recv_counts[static_cast<size_t>(call.comm->rank())];
  if (int status = check_buffer(function, "recvbuf", recvbuf,
                                sendbuf == REMORA_IN_PLACE ? total : mine, false))
    return status;
  set_input(sendbuf, &args);
  args.recv = recvbuf;
  return call.launch(Operation::ReduceScatter, total * args.extent, request);
}

int reduce_scatter(const char* function, const void* sendbuf, void* recvbuf,
                   const size_t* recvcounts, size_t recvcount, bool vector_form,
                   remora_datatype_t type, remora_op_t op, remora_comm_t comm,
                   remora_coll_algorithm_t algorithm, bool nonblocking, remora_request_t* request) {
  remora::coll::ShmFast::Small small = small_args(sendbuf, recvbuf, recvcount, 0);
  int small_status = REMORA_SUCCESS;
  if (!nonblocking && !vector_form && small_reduction(op, type, &small) &&
      small_call(
          function, comm, Operation::ReduceScatter, algorithm, small,
          [&](const Communicator& c) {
            const size_t total = recvcount * static_cast<size_t>(c.size());
            return check_buffer(function, "sendbuf", sendbuf, total, true) == REMORA_SUCCESS &&
                   check_buffer(function, "recvbuf", recvbuf, small.in_place ? total : recvcount,
                                false) == REMORA_SUCCESS;
          },
          false, nullptr, &small_status))
    return small_status;
  return reduce_scatter_full(function, sendbuf, recvbuf, recvcounts, recvcount, vector_form, type,
                             op, comm, algorithm, nonblocking, request);
}

// gather(v) and allgather(v): sendcount elements from each rank into counts/displs of recvbuf.
// gathering's full path (see full_path: a function of its own, called with its arguments).
[[gnu::noinline]] int gathering_full(const char* function, Operation operation, const void* sendbuf,
                                     size_t sendcount, void* recvbuf, const size_t* recvcounts,
                                     const size_t* displs, bool vector_form, remora_datatype_t type,
                                     int root, remora_comm_t comm,
                                     remora_coll_algorithm_t algorithm, bool nonblocking,
                                     remora_request_t* request) {
  const bool rooted = operation == Operation::Gather;
  Call call{function};
  auto& args = call.args;
  args.vector_form = vector_form;
  if (int status = call.begin(comm, operation, algorithm, nonblocking, request)) return status;
  if (int status = check_type(function, type, &args)) return status;
  const char* count_name = vector_form ? "sendcount" : "count";
  if (int status = check_count(function, count_name, sendcount, args)) return status;
  if (rooted)
    if (int status = check_root(function, root, *call.comm, &args)) return status;
  const bool receives = !rooted || call.comm->rank() == root;
  if (receives && vector_form) {
    if (int status =
            check_array(function, "recvcounts", recvcounts, *call.comm, args, &args.recv_counts))
      return status;
    if (int status = check_array(function, "displs", displs, *call.comm, args, &args.recv_displs))
      return status;
  } else {
    uniform(sendcount, *call.comm, &args.recv_counts, &args.recv_displs);
  }
  if (int status = check_buffer(function, "sendbuf", sendbuf, sendcount, receives)) return status;
  if (receives) {
    if (int status = check_buffer(function, "recvbuf", recvbuf, sum(args.recv_counts), false))
      return status;
    if (sendbuf != REMORA_IN_PLACE)
      if (int status = check_own_block(function, count_name, sendcount, "recvcounts",
                                       args.recv_counts, *call.comm))
        return status;
  }
  set_input(sendbuf, &args);
  args.recv = recvbuf;
  args.count = sendcount;
  // allgatherv: every member knows every block, and auto chooses by the largest, alike on all
  // (by its own block, members could choose differently and fail the call as mismatched).
  size_t block = sendcount;
  if (!rooted)
    for (size_t count : args.recv_counts) block = std::max(block, count);
  return call.launch(operation, block * args.extent, request);
}

int gathering(const char* function, Operation operation, const void* sendbuf, size_t sendcount,
              void* recvbuf, const size_t* recvcounts, const size_t* displs, bool vector_form,
              remora_datatype_t type, int root, remora_comm_t comm,
              remora_coll_algorithm_t algorithm, bool nonblocking, remora_request_t* request) {
  const bool rooted = operation == Operation::Gather;
  remora::coll::ShmFast::Small small = small_args(sendbuf, recvbuf, sendcount, rooted ? root : 0);
  small_lists(vector_form, recvcounts, displs, &small);
  int small_status = REMORA_SUCCESS;
  // Nonblocking: igather's regular form only (the others have no one-round request).
  const bool small_form = !nonblocking || (rooted && !vector_form);
  if (small_form && small_type(type, &small) &&
      small_call(
          function, comm, operation, algorithm, small,
          [&](const Communicator& c) {
            if (rooted && !small_root(root, c)) return false;
            const bool receives = !rooted || c.rank() == root;
            if (check_buffer(function, "sendbuf", sendbuf, sendcount, receives) != REMORA_SUCCESS)
              return false;
            return !receives ||
                   small_blocks(function, "recvbuf", recvbuf, sendcount, vector_form, recvcounts,
                                displs, sendbuf != REMORA_IN_PLACE, c, small.extent);
          },
          nonblocking, request, &small_status))
    return small_status;
  return gathering_full(function, operation, sendbuf, sendcount, recvbuf, recvcounts, displs,
                        vector_form, type, root, comm, algorithm, nonblocking, request);
}

// scattering's full path (see full_path: a function of its own, called with its arguments).
[[gnu::noinline]] int scattering_full(const char* function, const void* sendbuf,
                                      const size_t* sendcounts, const size_t* displs, void* recvbuf,
                                      size_t recvcount, remora_datatype_t type, int root,
                                      remora_comm_t comm, remora_coll_algorithm_t algorithm,
                                      bool vector_form, bool nonblocking,
                                      remora_request_t* request) {
  Call call{function};
  auto& args = call.args;
  args.vector_form = vector_form;
  if (int status = call.begin(comm, Operation::Scatter, algorithm, nonblocking, request))
    return status;
  if (int status = check_type(function, type, &args)) return status;
  if (int status = check_count(function, vector_form ? "recvcount" : "count", recvcount, args))
    return status;
  if (int status = check_root(function, root, *call.comm, &args)) return status;
  const bool sends = call.comm->rank() == root;
  if (sends && vector_form) {
    if (int status =
            check_array(function, "sendcounts", sendcounts, *call.comm, args, &args.send_counts))
      return status;
    if (int status = check_array(function, "displs", displs, *call.comm, args, &args.send_displs))
      return status;
  } else {
    uniform(recvcount, *call.comm, &args.send_counts, &args.send_displs);
  }
  if (sends) {
    if (int status = check_buffer(function, "sendbuf", sendbuf, sum(args.send_counts), false))
      return status;
    if (recvbuf != REMORA_IN_PLACE)
      if (int status = check_own_block(function, vector_form ? "recvcount" : "count", recvcount,
                                       "sendcounts", args.send_counts, *call.comm))
        return status;
  }
  if (int status = check_buffer(function, "recvbuf", recvbuf, recvcount, sends)) return status;
  args.send = sendbuf;
  args.in_place = recvbuf == REMORA_IN_PLACE;
  args.recv = args.in_place ? nullptr : recvbuf;
  args.count = recvcount;
  return call.launch(Operation::Scatter, recvcount * args.extent, request);
}

int scattering(const char* function, const void* sendbuf, const size_t* sendcounts,
               const size_t* displs, void* recvbuf, size_t recvcount, remora_datatype_t type,
               int root, remora_comm_t comm, remora_coll_algorithm_t algorithm, bool vector_form,
               bool nonblocking, remora_request_t* request) {
  remora::coll::ShmFast::Small small;
  small.send = sendbuf;
  small.in_place = recvbuf == REMORA_IN_PLACE;
  small.recv = small.in_place ? nullptr : recvbuf;
  small.count = recvcount;
  small.root = root;
  small_lists(vector_form, sendcounts, displs, &small);
  int small_status = REMORA_SUCCESS;
  if (!nonblocking && small_type(type, &small) &&
      small_call(
          function, comm, Operation::Scatter, algorithm, small,
          [&](const Communicator& c) {
            if (!small_root(root, c)) return false;
            const bool sends = c.rank() == root;
            if (check_buffer(function, "recvbuf", recvbuf, recvcount, sends) != REMORA_SUCCESS)
              return false;
            return !sends ||
                   small_blocks(function, "sendbuf", sendbuf, recvcount, vector_form, sendcounts,
                                displs, recvbuf != REMORA_IN_PLACE, c, small.extent);
          },
          false, nullptr, &small_status))
    return small_status;
  return scattering_full(function, sendbuf, sendcounts, displs, recvbuf, recvcount, type, root,
                         comm, algorithm, vector_form, nonblocking, request);
}

int alltoall(const char* function, const void* sendbuf, const size_t* sendcounts,
             const size_t* sdispls, void* recvbuf, const size_t* recvcounts, const size_t* rdispls,
             size_t count, remora_datatype_t type, remora_comm_t comm,
             remora_coll_algorithm_t algorithm, bool vector_form, bool nonblocking,
             remora_request_t* request) {
  remora::coll::ShmFast::Small small = small_args(sendbuf, recvbuf, count, 0);
  small_lists(vector_form, recvcounts, rdispls, &small);
  small.send_counts = sendcounts;
  small.send_displs = sdispls;
  int small_status = REMORA_SUCCESS;
  // Nonblocking: ialltoall's regular form only (alltoallv has no one-round request).
  if ((!nonblocking || !vector_form) && small_type(type, &small) &&
      small_call(
          function, comm, Operation::Alltoall, algorithm, small,
          [&](const Communicator& c) {
            size_t sent = count * static_cast<size_t>(c.size()), received = sent;
            if (vector_form &&
                (!small_counts(recvcounts, rdispls, c, small.extent, &received) ||
                 (!small.in_place && !small_counts(sendcounts, sdispls, c, small.extent, &sent))))
              return false;
            if (vector_form && small.in_place) sent = 0;  // the full path checks no send lists
            return check_buffer(function, "sendbuf", sendbuf, sent, true) == REMORA_SUCCESS &&
                   check_buffer(function, "recvbuf", recvbuf, received, false) == REMORA_SUCCESS;
          },
          nonblocking, request, &small_status))
    return small_status;
  Call call{function};
  auto& args = call.args;
  args.vector_form = vector_form;
  if (int status = call.begin(comm, Operation::Alltoall, algorithm, nonblocking, request))
    return status;
  if (int status = check_type(function, type, &args)) return status;
  const bool in_place = sendbuf == REMORA_IN_PLACE;
  if (vector_form) {
    if (!in_place) {
      if (int status =
              check_array(function, "sendcounts", sendcounts, *call.comm, args, &args.send_counts))
        return status;
      if (int status =
              check_array(function, "sdispls", sdispls, *call.comm, args, &args.send_displs))
        return status;
    }
    if (int status =
            check_array(function, "recvcounts", recvcounts, *call.comm, args, &args.recv_counts))
      return status;
    if (int status = check_array(function, "rdispls", rdispls, *call.comm, args, &args.recv_displs))
      return status;
  } else {
    if (int status = check_count(function, "count", count, args)) return status;
    uniform(count, *call.comm, &args.send_counts, &args.send_displs);
    uniform(count, *call.comm, &args.recv_counts, &args.recv_displs);
  }
  if (int status = check_buffer(function, "sendbuf", sendbuf, sum(args.send_counts), true))
    return status;
  if (int status = check_buffer(function, "recvbuf", recvbuf, sum(args.recv_counts), false))
    return status;
  set_input(sendbuf, &args);
  args.recv = recvbuf;
  const size_t block = args.recv_counts.empty() ? 0 : args.recv_counts[0];
  return call.launch(Operation::Alltoall, block * args.extent, request);
}

}  // namespace

extern "C" {

int remora_coll_algorithms(const char* operation, int capacity, remora_coll_algorithm_t* algorithms,
                           const char** names, int* count) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_coll_algorithms";
  if (int status = remora::api::check_pointer(function, "operation", operation)) return status;
  Operation parsed = Operation::Barrier;
  if (!remora::coll::parse_operation(operation, &parsed))
    return fail(REMORA_ERR_ARG, "%s: operation=\"%s\" is not a collective operation", function,
                operation);
  if (capacity < 0) return fail(REMORA_ERR_ARG, "%s: capacity=%d is negative", function, capacity);
  if (capacity > 0)
    if (int status = remora::api::check_pointer(function, "algorithms", algorithms)) return status;
  if (int status = remora::api::check_pointer(function, "count", count)) return status;
  int found = 0;
  for (const remora::coll::AlgorithmDescriptor* descriptor : remora::coll::algorithms()) {
    if (!remora::coll::contains(descriptor->operations, parsed)) continue;
    if (found < capacity) {
      algorithms[found] = static_cast<remora_coll_algorithm_t>(descriptor->algorithm);
      if (names != nullptr) names[found] = descriptor->name;
    }
    ++found;
  }
  *count = found;
  return REMORA_SUCCESS;
}

// ---- Collectives ----

int remora_comm_barrier(remora_comm_t comm, remora_coll_algorithm_t algorithm) {
  REMORA_API_ENTRY();
  return barrier("remora_comm_barrier", comm, algorithm, false, nullptr);
}
int remora_ibarrier(remora_comm_t comm, remora_coll_algorithm_t algorithm,
                    remora_request_t* request) {
  REMORA_API_ENTRY();
  return barrier("remora_ibarrier", comm, algorithm, true, request);
}

int remora_bcast(void* buffer, size_t count, remora_datatype_t type, int root, remora_comm_t comm,
                 remora_coll_algorithm_t algorithm) {
  REMORA_API_ENTRY();
  return bcast("remora_bcast", buffer, count, type, root, comm, algorithm, false, nullptr);
}
int remora_ibcast(void* buffer, size_t count, remora_datatype_t type, int root, remora_comm_t comm,
                  remora_coll_algorithm_t algorithm, remora_request_t* request) {
  REMORA_API_ENTRY();
  return bcast("remora_ibcast", buffer, count, type, root, comm, algorithm, true, request);
}

int remora_reduce(const void* sendbuf, void* recvbuf, size_t count, remora_datatype_t type,
                  remora_op_t op, int root, remora_comm_t comm, remora_coll_algorithm_t algorithm) {
  REMORA_API_ENTRY();
  return reduction("remora_reduce", Operation::Reduce, sendbuf, recvbuf, count, type, op, root,
                   comm, algorithm, false, nullptr);
}
int remora_ireduce(const void* sendbuf, void* recvbuf, size_t count, remora_datatype_t type,
                   remora_op_t op, int root, remora_comm_t comm, remora_coll_algorithm_t algorithm,
                   remora_request_t* request) {
  REMORA_API_ENTRY();
  return reduction("remora_ireduce", Operation::Reduce, sendbuf, recvbuf, count, type, op, root,
                   comm, algorithm, true, request);
}

int remora_allreduce(const void* sendbuf, void* recvbuf, size_t count, remora_datatype_t type,
                     remora_op_t op, remora_comm_t comm, remora_coll_algorithm_t algorithm) {
  REMORA_API_ENTRY();
  return reduction("remora_allreduce", Operation::Allreduce, sendbuf, recvbuf, count, type, op, 0,
                   comm, algorithm, false, nullptr);
}
int remora_iallreduce(const void* sendbuf, void* recvbuf, size_t count, remora_datatype_t type,
                      remora_op_t op, remora_comm_t comm, remora_coll_algorithm_t algorithm,
                      remora_request_t* request) {
  REMORA_API_ENTRY();
  return reduction("remora_iallreduce", Operation::Allreduce, sendbuf, recvbuf, count, type, op, 0,
                   comm, algorithm, true, request);
}

int remora_scan(const void* sendbuf, void* recvbuf, size_t count, remora_datatype_t type,
                remora_op_t op, remora_comm_t comm, remora_coll_algorithm_t algorithm) {
  REMORA_API_ENTRY();
  return reduction("remora_scan", Operation::Scan, sendbuf, recvbuf, count, type, op, 0, comm,
                   algorithm, false, nullptr);
}
int remora_iscan(const void* sendbuf, void* recvbuf, size_t count, remora_datatype_t type,
                 remora_op_t op, remora_comm_t comm, remora_coll_algorithm_t algorithm,
                 remora_request_t* request) {
  REMORA_API_ENTRY();
  return reduction("remora_iscan", Operation::Scan, sendbuf, recvbuf, count, type, op, 0, comm,
                   algorithm, true, request);
}
int remora_exscan(const void* sendbuf, void* recvbuf, size_t count, remora_datatype_t type,
                  remora_op_t op, remora_comm_t comm, remora_coll_algorithm_t algorithm) {
  REMORA_API_ENTRY();
  return reduction("remora_exscan", Operation::Scan, sendbuf, recvbuf, count, type, op, 0, comm,
                   algorithm, false, nullptr, true);
}
int remora_iexscan(const void* sendbuf, void* recvbuf, size_t count, remora_datatype_t type,
                   remora_op_t op, remora_comm_t comm, remora_coll_algorithm_t algorithm,
                   remora_request_t* request) {
  REMORA_API_ENTRY();
  return reduction("remora_iexscan", Operation::Scan, sendbuf, recvbuf, count, type, op, 0, comm,
                   algorithm, true, request, true);
}

int remora_reduce_scatter(const void* sendbuf, void* recvbuf, const size_t* recvcounts,
                          remora_datatype_t type, remora_op_t op, remora_comm_t comm,
                          remora_coll_algorithm_t algorithm) {
  REMORA_API_ENTRY();
  return reduce_scatter("remora_reduce_scatter", sendbuf, recvbuf, recvcounts, 0, true, type, op,
                        comm, algorithm, false, nullptr);
}
int remora_ireduce_scatter(const void* sendbuf, void* recvbuf, const size_t* recvcounts,
                           remora_datatype_t type, remora_op_t op, remora_comm_t comm,
                           remora_coll_algorithm_t algorithm, remora_request_t* request) {
  REMORA_API_ENTRY();
  return reduce_scatter("remora_ireduce_scatter", sendbuf, recvbuf, recvcounts, 0, true, type, op,
                        comm, algorithm, true, request);
}
int remora_reduce_scatter_block(const void* sendbuf, void* recvbuf, size_t recvcount,
                                remora_datatype_t type, remora_op_t op, remora_comm_t comm,
                                remora_coll_algorithm_t algorithm) {
  REMORA_API_ENTRY();
  return reduce_scatter("remora_reduce_scatter_block", sendbuf, recvbuf, nullptr, recvcount, false,
                        type, op, comm, algorithm, false, nullptr);
}
int remora_ireduce_scatter_block(const void* sendbuf, void* recvbuf, size_t recvcount,
                                 remora_datatype_t type, remora_op_t op, remora_comm_t comm,
                                 remora_coll_algorithm_t algorithm, remora_request_t* request) {
  REMORA_API_ENTRY();
  return reduce_scatter("remora_ireduce_scatter_block", sendbuf, recvbuf, nullptr, recvcount, false,
                        type, op, comm, algorithm, true, request);
}

int remora_gather(const void* sendbuf, void* recvbuf, size_t count, remora_datatype_t type,
                  int root, remora_comm_t comm, remora_coll_algorithm_t algorithm) {
  REMORA_API_ENTRY();
  return gathering("remora_gather", Operation::Gather, sendbuf, count, recvbuf, nullptr, nullptr,
                   false, type, root, comm, algorithm, false, nullptr);
}
int remora_igather(const void* sendbuf, void* recvbuf, size_t count, remora_datatype_t type,
                   int root, remora_comm_t comm, remora_coll_algorithm_t algorithm,
                   remora_request_t* request) {
  REMORA_API_ENTRY();
  return gathering("remora_igather", Operation::Gather, sendbuf, count, recvbuf, nullptr, nullptr,
                   false, type, root, comm, algorithm, true, request);
}
int remora_gatherv(const void* sendbuf, size_t sendcount, void* recvbuf, const size_t* recvcounts,
                   const size_t* displs, remora_datatype_t type, int root, remora_comm_t comm,
                   remora_coll_algorithm_t algorithm) {
  REMORA_API_ENTRY();
  return gathering("remora_gatherv", Operation::Gather, sendbuf, sendcount, recvbuf, recvcounts,
                   displs, true, type, root, comm, algorithm, false, nullptr);
}
int remora_igatherv(const void* sendbuf, size_t sendcount, void* recvbuf, const size_t* recvcounts,
                    const size_t* displs, remora_datatype_t type, int root, remora_comm_t comm,
                    remora_coll_algorithm_t algorithm, remora_request_t* request) {
  REMORA_API_ENTRY();
  return gathering("remora_igatherv", Operation::Gather, sendbuf, sendcount, recvbuf, recvcounts,
                   displs, true, type, root, comm, algorithm, true, request);
}

int remora_allgather(const void* sendbuf, void* recvbuf, size_t count, remora_datatype_t type,
                     remora_comm_t comm, remora_coll_algorithm_t algorithm) {
  REMORA_API_ENTRY();
  return gathering("remora_allgather", Operation::Allgather, sendbuf, count, recvbuf, nullptr,
                   nullptr, false, type, 0, comm, algorithm, false, nullptr);
}
int remora_iallgather(const void* sendbuf, void* recvbuf, size_t count, remora_datatype_t type,
                      remora_comm_t comm, remora_coll_algorithm_t algorithm,
                      remora_request_t* request) {
  REMORA_API_ENTRY();
  return gathering("remora_iallgather", Operation::Allgather, sendbuf, count, recvbuf, nullptr,
                   nullptr, false, type, 0, comm, algorithm, true, request);
}
int remora_allgatherv(const void* sendbuf, size_t sendcount, void* recvbuf,
                      const size_t* recvcounts, const size_t* displs, remora_datatype_t type,
                      remora_comm_t comm, remora_coll_algorithm_t algorithm) {
  REMORA_API_ENTRY();
  return gathering("remora_allgatherv", Operation::Allgather, sendbuf, sendcount, recvbuf,
                   recvcounts, displs, true, type, 0, comm, algorithm, false, nullptr);
}
int remora_iallgatherv(const void* sendbuf, size_t sendcount, void* recvbuf,
                       const size_t* recvcounts, const size_t* displs, remora_datatype_t type,
                       remora_comm_t comm, remora_coll_algorithm_t algorithm,
                       remora_request_t* request) {
  REMORA_API_ENTRY();
  return gathering("remora_iallgatherv", Operation::Allgather, sendbuf, sendcount, recvbuf,
                   recvcounts, displs, true, type, 0, comm, algorithm, true, request);
}

int remora_scatter(const void* sendbuf, void* recvbuf, size_t count, remora_datatype_t type,
                   int root, remora_comm_t comm, remora_coll_algorithm_t algorithm) {
  REMORA_API_ENTRY();
  return scattering("remora_scatter", sendbuf, nullptr, nullptr, recvbuf, count, type, root, comm,
                    algorithm, false, false, nullptr);
}
int remora_iscatter(const void* sendbuf, void* recvbuf, size_t count, remora_datatype_t type,
                    int root, remora_comm_t comm, remora_coll_algorithm_t algorithm,
                    remora_request_t* request) {
  REMORA_API_ENTRY();
  return scattering("remora_iscatter", sendbuf, nullptr, nullptr, recvbuf, count, type, root, comm,
                    algorithm, false, true, request);
}
int remora_scatterv(const void* sendbuf, const size_t* sendcounts, const size_t* displs,
                    void* recvbuf, size_t recvcount, remora_datatype_t type, int root,
                    remora_comm_t comm, remora_coll_algorithm_t algorithm) {
  REMORA_API_ENTRY();
  return scattering("remora_scatterv", sendbuf, sendcounts, displs, recvbuf, recvcount, type, root,
                    comm, algorithm, true, false, nullptr);
}
int remora_iscatterv(const void* sendbuf, const size_t* sendcounts, const size_t* displs,
                     void* recvbuf, size_t recvcount, remora_datatype_t type, int root,
                     remora_comm_t comm, remora_coll_algorithm_t algorithm,
                     remora_request_t* request) {
  REMORA_API_ENTRY();
  return scattering("remora_iscatterv", sendbuf, sendcounts, displs, recvbuf, recvcount, type, root,
                    comm, algorithm, true, true, request);
}

int remora_alltoall(const void* sendbuf, void* recvbuf, size_t count, remora_datatype_t type,
                    remora_comm_t comm, remora_coll_algorithm_t algorithm) {
  REMORA_API_ENTRY();
  return alltoall("remora_alltoall", sendbuf, nullptr, nullptr, recvbuf, nullptr, nullptr, count,
                  type, comm, algorithm, false, false, nullptr);
}
int remora_ialltoall(const void* sendbuf, void* recvbuf, size_t count, remora_datatype_t type,
                     remora_comm_t comm, remora_coll_algorithm_t algorithm,
                     remora_request_t* request) {
  REMORA_API_ENTRY();
  return alltoall("remora_ialltoall", sendbuf, nullptr, nullptr, recvbuf, nullptr, nullptr, count,
                  type, comm, algorithm, false, true, request);
}
int remora_alltoallv(const void* sendbuf, const size_t* sendcounts, const size_t* sdispls,
                     void* recvbuf, const size_t* recvcounts, const size_t* rdispls,
                     remora_datatype_t type, remora_comm_t comm,
                     remora_coll_algorithm_t algorithm) {
  REMORA_API_ENTRY();
  return alltoall("remora_alltoallv", sendbuf, sendcounts, sdispls, recvbuf, recvcounts, rdispls, 0,
                  type, comm, algorithm, true, false, nullptr);
}
int remora_ialltoallv(const void* sendbuf, const size_t* sendcounts, const size_t* sdispls,
                      void* recvbuf, const size_t* recvcounts, const size_t* rdispls,
                      remora_datatype_t type, remora_comm_t comm, remora_coll_algorithm_t algorithm,
                      remora_request_t* request) {
  REMORA_API_ENTRY();
  return alltoall("remora_ialltoallv", sendbuf, sendcounts, sdispls, recvbuf, recvcounts, rdispls,
                  0, type, comm, algorithm, true, true, request);
}

}  // extern "C"
