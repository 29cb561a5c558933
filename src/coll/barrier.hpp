// The barrier, built on the transport interface.
//   dissemination: ceil(log2 P) rounds; in round k each rank adds 1 to a counter of rank
//                  (r + 2^k) mod P with a remote atomic, wakes it, and waits for its own
//                  round-k counter to reach the barrier's epoch. Works across nodes.
//   central:       the transport's node barrier (one shared counter and a generation word);
//                  only when every rank shares one node.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "transport/transport.hpp"

namespace remora::coll {

enum class BarrierAlgorithm { Dissemination, Central };

class Barrier {
 public:
  // Collective. algorithm: "auto", "dissemination" or "central".
  static int create(transport::Transport& transport, const std::string& algorithm,
                    std::unique_ptr<Barrier>* out);
  ~Barrier();

  int run();
  BarrierAlgorithm algorithm() const { return algorithm_; }
  // Collective: frees the counters.
  int destroy();

 private:
  Barrier(transport::Transport& transport, BarrierAlgorithm algorithm);
  int run_dissemination();

  transport::Transport& transport_;
  BarrierAlgorithm algorithm_;
  transport::Segment* counters_ = nullptr;  // dissemination: one uint64 per round per rank
  uint64_t epoch_ = 0;
};

}  // namespace remora::coll
