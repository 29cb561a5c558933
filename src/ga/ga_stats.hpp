// Per-process operation counts for GA_Print_stats.
#pragma once

#include <cstddef>
#include <cstdint>

namespace remora::ga {

enum class Stat { Put, Get, Acc, Scatter, Gather, ScatterAcc, ReadInc, Access, Sync, Count };

void stat_record(Stat stat, size_t bytes);
void stats_print();

}  // namespace remora::ga
