// Active-message flood: every rank sends 20,000 messages of random sizes (0 to 64 KiB, most of
// them small) to random targets. Sizes and contents are a function of (source, target,
// sequence number), so each receiver can check that every message arrives exactly once, in
// per-pair order, with the right content. Then a request/reply phase where handlers send.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "multirank.hpp"

namespace {

constexpr int kMessages = 20000;
constexpr int kRequests = 500;
constexpr size_t kMaxBytes = 64 * 1024;

uint64_t mix(uint64_t x) {  // splitmix64
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

uint64_t key(int source, int target, uint64_t sequence) {
  return (static_cast<uint64_t>(source) << 48) ^ (static_cast<uint64_t>(target) << 32) ^ sequence;
}

// 85% up to 256 bytes, 12% up to 4 KiB, 3% up to 64 KiB.
size_t message_bytes(int source, int target, uint64_t sequence) {
  const uint64_t h = mix(key(source, target, sequence));
  const uint64_t bucket = h % 100, r = h >> 8;
  if (bucket < 85) return r % 257;
  if (bucket < 97) return 257 + r % (4096 - 257 + 1);
  return 4097 + r % (kMaxBytes - 4097 + 1);
}

uint8_t content(int source, uint64_t sequence, size_t index) {
  return static_cast<uint8_t>(mix(key(source, 0, sequence) + index / 8) >> (8 * (index % 8)));
}

// Handlers may run on the progress thread while main() reads the counters: atomics.
struct State {
  int rank = 0;
  std::unique_ptr<std::atomic<uint64_t>[]> received;  // per source: the next sequence number
  int reply_handler = -1;
  std::atomic<int64_t> replies{0};
  std::atomic<int64_t> reply_bytes{0};
};

void on_flood(int source, const void* payload, size_t bytes, void* context) {
  auto* state = static_cast<State*>(context);
  const uint64_t sequence = state->received[static_cast<size_t>(source)].fetch_add(1);
  const size_t expected = message_bytes(source, state->rank, sequence);
  REQUIRE(bytes == expected,
          "message %llu from rank %d: %zu bytes, expected %zu (lost, "
          "duplicated or reordered?)",
          (unsigned long long)sequence, source, bytes, expected);
  const auto* data = static_cast<const uint8_t*>(payload);
  for (size_t i = 0; i < bytes; ++i)
    REQUIRE(data[i] == content(source, sequence, i), "message %llu from rank %d: byte %zu",
            (unsigned long long)sequence, source, i);
}

// Requests carry a token; the handler replies from inside the handler, sometimes with 8 KiB.
void on_request(int source, const void* payload, size_t bytes, void* context) {
  auto* state = static_cast<State*>(context);
  REQUIRE(bytes == sizeof(uint64_t));
  uint64_t token;
  std::memcpy(&token, payload, sizeof token);
  std::vector<uint64_t> reply(token % 7 == 0 ? 1024 : 1, token);
  REQUIRE_OK(remora_am_send(source, state->reply_handler, reply.data(), reply.size() * 8));
}

void on_reply(int, const void* payload, size_t bytes, void* context) {
  auto* state = static_cast<State*>(context);
  uint64_t token;
  std::memcpy(&token, payload, sizeof token);
  REQUIRE(bytes == (token % 7 == 0 ? 8192u : 8u), "reply of %zu bytes for token %llu", bytes,
          (unsigned long long)token);
  REQUIRE(static_cast<int>(token >> 32) == state->rank, "reply for another rank's request");
  ++state->replies;
  state->reply_bytes += static_cast<int64_t>(bytes);
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  State state;
  state.rank = rank;
  state.received.reset(new std::atomic<uint64_t>[static_cast<size_t>(size)]());
  int flood = -1, request = -1;
  REQUIRE_OK(remora_am_register(on_flood, &state, &flood));
  REQUIRE_OK(remora_am_register(on_request, &state, &request));
  REQUIRE_OK(remora_am_register(on_reply, &state, &state.reply_handler));

  // Expected counts: every rank tells every target how many messages it sent there.
  remora_segment_t counts;
  REQUIRE_OK(remora_segment_allocate(sizeof(uint64_t) * static_cast<size_t>(size), &counts));
  REQUIRE_OK(remora_barrier());

  std::vector<uint64_t> sent(static_cast<size_t>(size), 0);
  std::vector<uint8_t> buffer(kMaxBytes);
  uint64_t random = mix(static_cast<uint64_t>(rank) + 12345);
  for (int i = 0; i < kMessages; ++i) {
    random = mix(random);
    const int target = static_cast<int>(random % static_cast<uint64_t>(size));
    const uint64_t sequence = sent[static_cast<size_t>(target)]++;
    const size_t bytes = message_bytes(rank, target, sequence);
    for (size_t b = 0; b < bytes; ++b) buffer[b] = content(rank, sequence, b);
    REQUIRE_OK(remora_am_send(target, flood, bytes > 0 ? buffer.data() : nullptr, bytes));
    if (i % 64 == 0) REQUIRE_OK(remora_progress());
  }
  for (int target = 0; target < size; ++target)
    REQUIRE_OK(remora_put(counts, target, sizeof(uint64_t) * static_cast<size_t>(rank),
                          &sent[static_cast<size_t>(target)], sizeof(uint64_t)));
  REQUIRE_OK(remora_flush_all(counts));
  REQUIRE_OK(remora_barrier());

  uint64_t* expected = nullptr;
  REQUIRE_OK(remora_segment_pointer(counts, rank, reinterpret_cast<void**>(&expected)));
  for (int source = 0; source < size; ++source) {
    // No deadline: lost messages leave this loop waiting, and the CTest timeout fails the test.
    while (state.received[static_cast<size_t>(source)] < expected[source])
      remora_test::progress_and_yield();
  }
  REQUIRE_OK(remora_barrier());  // nobody sends more, so no count may have grown past expected
  for (int source = 0; source < size; ++source)
    REQUIRE(state.received[static_cast<size_t>(source)] == expected[source],
            "from rank %d: %llu messages, expected %llu", source,
            (unsigned long long)state.received[static_cast<size_t>(source)].load(),
            (unsigned long long)expected[source]);

  // Request/reply: handlers send, some replies in several chunks.
  int64_t expected_reply_bytes = 0;
  for (int i = 0; i < kRequests; ++i) {
    random = mix(random);
    const int target = static_cast<int>(random % static_cast<uint64_t>(size));
    const uint64_t token = (static_cast<uint64_t>(rank) << 32) | static_cast<uint64_t>(i);
    expected_reply_bytes += token % 7 == 0 ? 8192 : 8;
    REQUIRE_OK(remora_am_send(target, request, &token, sizeof token));
  }
  while (state.replies < kRequests) remora_test::progress_and_yield();
  REQUIRE(state.replies.load() == kRequests && state.reply_bytes.load() == expected_reply_bytes);
  REQUIRE_OK(remora_barrier());

  REQUIRE_OK(remora_segment_free(&counts));
  REQUIRE_OK(remora_finalize());
  return 0;
}
