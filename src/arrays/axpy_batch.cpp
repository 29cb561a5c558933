#include "arrays/axpy_batch.hpp"

#include <cstring>

#include "arrays/element_types.hpp"
#include "arrays/patch_plan.hpp"
#include "coll/internal_calls.hpp"
#include "core/error.hpp"

namespace remora::arrays {

namespace {

enum class Kind : uint32_t { Update, Request, Reply, Ack, Eom };

struct Header {
  Kind kind;
  uint32_t tiles;
  uint64_t batch;
  uint64_t token;  // Request/Reply: the request; Eom: data messages sent to the receiver
  unsigned char alpha[16];
};

struct TileHeader {
  uint64_t offset;  // bytes into the owner's local array
  transport::StridedShape shape;
};

// Live batches of this process by id, for the handler.
std::mutex registry_mutex;
std::map<uint64_t, AxpyBatch*>& registry() {
  static std::map<uint64_t, AxpyBatch*> batches;
  return batches;
}
uint64_t next_batch_id = 0;
int handler_id = -1;

template <typename T>
void append(std::vector<char>& out, const T& value) {
  const char* p = reinterpret_cast<const char*>(&value);
  out.insert(out.end(), p, p + sizeof value);
}

}  // namespace

AxpyBatch::AxpyBatch(transport::Transport& transport, Array& array, int detach, uint64_t id)
    : transport_(transport),
      array_(array),
      detach_(detach),
      id_(id),
      sent_to_(static_cast<size_t>(transport.size()), 0),
      received_from_(new std::atomic<uint64_t>[static_cast<size_t>(transport.size())]),
      announced_(new std::atomic<int64_t>[static_cast<size_t>(transport.size())]) {
  for (int r = 0; r < transport.size(); ++r) {
    received_from_[static_cast<size_t>(r)] = 0;
    announced_[static_cast<size_t>(r)] = -1;
  }
}

int AxpyBatch::attach(transport::Transport& transport, Array& array, int detach, AxpyBatch** out) {
  if (handler_id < 0) {
    if (int status = transport.am_register(&AxpyBatch::on_message, nullptr, &handler_id))
      return status;
    // Handler ids are given out in registration order: every rank must have the same one.
    int range[2] = {-handler_id, handler_id};
    coll::Collectives& collectives = array.context().collectives;
    if (int status = coll::run_allreduce("remora_axpy_attach", collectives, collectives.world(),
                                         range, 2, REMORA_INT32, REMORA_OP_MAX))
      return status;
    if (-range[0] != range[1])
      return fail(REMORA_ERR_INTERNAL,
                  "remora_axpy_attach: the batch message handler got ids %d..%d on different "
                  "ranks (handlers registered in different orders)",
                  -range[0], range[1]);
  }
  auto* batch = new AxpyBatch(transport, array, detach, next_batch_id++);
  {
    std::lock_guard<std::mutex> lock(registry_mutex);
    registry()[batch->id_] = batch;
  }
  *out = batch;
  return array.context().world_barrier.run();
}

void AxpyBatch::on_message(int source, const void* payload, size_t bytes, void*) {
  Header header;
  std::memcpy(&header, payload, sizeof header);
  AxpyBatch* batch = nullptr;
  {
    std::lock_guard<std::mutex> lock(registry_mutex);
    const auto it = registry().find(header.batch);
    if (it != registry().end()) batch = it->second;
  }
  // Every message to a rank is served before that rank's detach returns (see detach).
  if (batch != nullptr) batch->handle(source, static_cast<const char*>(payload), bytes);
}

void AxpyBatch::apply(const transport::StridedShape& shape, char* base, const char* packed,
                      const void* alpha, bool into_a) const {
  dispatch(array_.type(), [&](auto zero) {
    using T = decltype(zero);
    T scale;
    std::memcpy(&scale, alpha, sizeof scale);
    const size_t n = shape.count[0] / sizeof(T);
    size_t k = 0;
    shape.for_each_block([&](size_t a, size_t b) {
      T* dst = reinterpret_cast<T*>(base + (into_a ? a : b));
      const char* src = packed + k++ * shape.count[0];
      for (size_t i = 0; i < n; ++i) {
        T x;
        std::memcpy(&x, src + i * sizeof(T), sizeof x);
        dst[i] += scale * x;
      }
    });
  });
}

void AxpyBatch::handle(int source, const char* payload, size_t bytes) {
  Header header;
  std::memcpy(&header, payload, sizeof header);
  const char* cursor = payload + sizeof header;
  switch (header.kind) {
    case Kind::Update: {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        for (uint32_t t = 0; t < header.tiles; ++t) {
          TileHeader tile;
          std::memcpy(&tile, cursor, sizeof tile);
          cursor += sizeof tile;
          apply(tile.shape, array_.local() + tile.offset, cursor, header.alpha, false);
          cursor += tile.shape.total_bytes();
        }
      }
      const Header ack{Kind::Ack, 0, id_, 0, {}};
      served(source, &ack, sizeof ack);
      break;
    }
    case Kind::Request: {
      TileHeader tile;
      std::memcpy(&tile, cursor, sizeof tile);
      std::vector<char> reply;
      append(reply, Header{Kind::Reply, 1, id_, header.token, {}});
      {
        std::lock_guard<std::mutex> lock(mutex_);
        const char* base = array_.local() + tile.offset;
        tile.shape.for_each_block([&](size_t, size_t b) {
          reply.insert(reply.end(), base + b, base + b + tile.shape.count[0]);
        });
      }
      served(source, reply.data(), reply.size());
      break;
    }
    case Kind::Reply: {
      Pending pending;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        const auto it = pending_.find(header.token);
        pending = std::move(it->second);
        pending_.erase(it);
      }
      apply(pending.shape, pending.user, cursor, pending.alpha.data(), true);
      outstanding_.fetch_sub(1, std::memory_order_release);
      break;
    }
    case Kind::Ack:
      outstanding_.fetch_sub(1, std::memory_order_release);
      break;
    case Kind::Eom:
      announced_[static_cast<size_t>(source)].store(static_cast<int64_t>(header.token));
      break;
  }
  (void)bytes;
}

// The last step of serving a data message. Once the source has its acknowledgement (NBX) or
// this rank has counted the message (EOM), detach may finish and free the batch, so nothing
// of the batch is touched afterwards. A reply (Request) is sent in both modes; an
// acknowledgement of an Update (reply == nullptr... bytes of an Ack) only with NBX.
void AxpyBatch::served(int source, const void* reply, size_t bytes) {
  Header kind;
  std::memcpy(&kind, reply, sizeof kind);
  const bool nbx = detach_ == REMORA_AXPY_DETACH_NBX;
  if (!nbx) {
    if (kind.kind == Kind::Reply) transport_.am_send(source, handler_id, reply, bytes);
    received_from_[static_cast<size_t>(source)].fetch_add(1);
    return;
  }
  transport_.am_send(source, handler_id, reply, bytes);
}

int AxpyBatch::send(int target, std::vector<char>& message) {
  ++sent_to_[static_cast<size_t>(target)];
  if (detach_ == REMORA_AXPY_DETACH_NBX) outstanding_.fetch_add(1);
  const int status = transport_.am_send(target, handler_id, message.data(), message.size());
  message.clear();
  return status;
}

int AxpyBatch::axpy(int direction, const void* alpha, void* buffer, const int64_t* ld,
                    const int64_t* lo, const int64_t* hi) {
  const std::vector<int64_t> user = buffer_strides(array_.ndim(), ld);
  const int me = transport_.rank();
  const size_t element = array_.element();
  Header header{
      direction == REMORA_AXPY_LOCAL_TO_GLOBAL ? Kind::Update : Kind::Request, 0, id_, 0, {}};
  std::memcpy(header.alpha, alpha, element);
  std::vector<char> message;
  int owner = -1, result = REMORA_SUCCESS;
  auto flush_message = [&] {
    if (message.empty() || result != REMORA_SUCCESS) return;
    std::memcpy(message.data(), &header, sizeof header);
    result = send(owner, message);
    header.tiles = 0;
  };
  for_each_tile(array_.dist(), lo, hi, [&](const Tile& tile) {
    const TileTransfer t = tile_transfer(tile, lo, user, element);
    char* at = static_cast<char*>(buffer) + t.user_offset;
    if (direction == REMORA_AXPY_GLOBAL_TO_LOCAL) {
      if (tile.owner == me) {  // no message to ourselves: copy under the batch's lock
        std::lock_guard<std::mutex> lock(mutex_);
        std::vector<char> packed;
        const char* base = array_.local() + t.remote_offset;
        t.shape.for_each_block([&](size_t, size_t b) {
          packed.insert(packed.end(), base + b, base + b + t.shape.count[0]);
        });
        apply(t.shape, at, packed.data(), alpha, true);
        return;
      }
      // One request per tile: the reply is matched to its buffer by the token.
      const uint64_t token = next_token_++;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        const char* a = static_cast<const char*>(alpha);
        pending_[token] = Pending{at, t.shape, std::vector<char>(a, a + element)};
      }
      if (detach_ != REMORA_AXPY_DETACH_NBX) outstanding_.fetch_add(1);
      header.token = token;
      header.tiles = 1;
      append(message, header);
      append(message, TileHeader{t.remote_offset, t.shape});
      owner = tile.owner;
      flush_message();
      return;
    }
    // Local to global: tiles of one owner are packed into one message.
    std::vector<char> packed;
    t.shape.for_each_block(
        [&](size_t a, size_t) { packed.insert(packed.end(), at + a, at + a + t.shape.count[0]); });
    if (tile.owner == me) {
      std::lock_guard<std::mutex> lock(mutex_);
      apply(t.shape, array_.local() + t.remote_offset, packed.data(), alpha, false);
      return;
    }
    if (tile.owner != owner) flush_message();
    owner = tile.owner;
    if (message.empty()) message.resize(sizeof header);
    ++header.tiles;
    append(message, TileHeader{t.remote_offset, t.shape});
    message.insert(message.end(), packed.begin(), packed.end());
  });
  flush_message();
  return result;
}

int AxpyBatch::detach() {
  const int size = transport_.size(), me = transport_.rank();
  int status = REMORA_SUCCESS;
  if (detach_ == REMORA_AXPY_DETACH_NBX) {
    // Algorithm 1: serve messages until all of ours are acknowledged, then join the
    // nonblocking barrier and keep serving until it completes.
    status =
        transport_.wait_until([&] { return outstanding_.load(std::memory_order_acquire) == 0; });
    // Waiting for the barrier serves messages meanwhile, as the algorithm needs.
    coll::Collectives& collectives = array_.context().collectives;
    if (status == REMORA_SUCCESS)
      status = coll::run_barrier("remora_axpy_detach", collectives, collectives.world());
  } else {
    // End of message: tell every rank how many data messages it gets from us, then serve
    // until every rank's count has arrived and been met, and our requests are answered.
    for (int r = 0; r < size && status == REMORA_SUCCESS; ++r) {
      if (r == me) continue;
      Header eom{Kind::Eom, 0, id_, sent_to_[static_cast<size_t>(r)], {}};
      status = transport_.am_send(r, handler_id, &eom, sizeof eom);
    }
    if (status == REMORA_SUCCESS)
      status = transport_.wait_until([&] {
        if (outstanding_.load(std::memory_order_acquire) != 0) return false;
        for (int r = 0; r < size; ++r) {
          if (r == me) continue;
          const int64_t announced = announced_[static_cast<size_t>(r)].load();
          if (announced < 0 ||
              received_from_[static_cast<size_t>(r)].load() != static_cast<uint64_t>(announced))
            return false;
        }
        return true;
      });
  }
  std::lock_guard<std::mutex> lock(registry_mutex);
  registry().erase(id_);
  return status;
}

}  // namespace remora::arrays
