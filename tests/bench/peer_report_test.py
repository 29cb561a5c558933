#!/usr/bin/env python3
"""bench/peers/peer_report.py on a fixed CSV: the medians, the best peer of each row, the
ratios (times for us, inverse for MBps and tasks_per_s) and the plots (PNG files written).
  peer_report_test.py PEER_REPORT_PY [--plots]"""
import importlib.util
import io
import os
import sys
import tempfile

spec = importlib.util.spec_from_file_location("peer_report", sys.argv[1])
report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(report)
scratch_dir = tempfile.TemporaryDirectory(prefix="peer_report_test.")
scratch = scratch_dir.name

CSV = """bench,variant,ranks,bytes,metric,value,rep
lock_put_unlock,immediate,2,64,us,0.040,1
lock_put_unlock,immediate,2,64,us,0.050,2
lock_put_unlock,immediate,2,64,us,0.100,3
lock_put_unlock,openmpi_osc_sm,2,64,us,0.080,1
lock_put_unlock,openmpi_osc_sm,2,64,us,0.080,2
lock_put_unlock,mpich,2,64,us,0.500,1
lock_put_unlock,immediate,2,64,ratio,9.9,1
fence_cost,fence2_immediate,4,0,us,2.0,1
fence_cost,fence2_mpich,4,0,us,8.0,1
fence_cost,fence2_openmpi_osc_sm,4,0,us,4.0,1
fence_cost,fence2_immediate,2,0,us,0.5,1
fence_cost,fence2_openmpi_osc_sm,2,0,us,0.25,1
rma_latency,fetch_and_op_auto,2,8,us,0.06,1
rma_latency,fetch_and_op_openmpi_osc_sm,2,8,us,0.03,1
rma_latency,get_accumulate_native,2,8,us,0.03,1
rma_latency,get_accumulate_mpich,2,8,us,0.3,1
acc_bandwidth,auto,2,1024,MBps,20000,1
acc_bandwidth,put,2,1024,MBps,90000,1
acc_bandwidth,openmpi_osc_sm,2,1024,MBps,10000,1
acc_bandwidth,auto,2,8,MBps,100,1
acc_bandwidth,openmpi_osc_sm,2,8,MBps,400,1
acc_bandwidth,contended_auto,4,1024,MBps,30000,1
acc_bandwidth,contended_openmpi_osc_sm,4,1024,MBps,10000,1
acc_bandwidth,contended_auto,4,1024,MBps_per_rank,1,1
acc_bandwidth,contended_timed_auto,4,1024,MBps,8000,1
acc_bandwidth,contended_timed_auto,4,1024,MBps_q1,1,1
acc_bandwidth,contended_timed_openmpi_osc_sm,4,1024,MBps,2000,1
acc_bandwidth,contended_timed_auto,2,8,MBps,300,1
acc_bandwidth,contended_timed_openmpi_osc_sm,2,8,MBps,600,1
ga_latency,read_inc_remora,2,8,us,0.1,1
ga_latency,read_inc_ga58_openmpi,2,8,us,0.2,1
ga_latency,acc_16x16_remora,2,2048,us,0.9,1
ga_latency,acc_16x16_ga58_openmpi,2,2048,us,0.3,1
hf_proxy_ga,block_rma_nb/remora_manual,2,16384,tasks_per_s,900000,1
hf_proxy_ga,block_rma_nb/remora_manual,2,16384,tasks_per_s,1000000,2
hf_proxy_ga,block_rma_nb/remora_manual,2,16384,tasks_per_s,50000,3
hf_proxy_ga,block_rma_nb/ga58_openmpi,2,16384,tasks_per_s,100000,1
hf_proxy_ga,block_rma_nb/remora_manual,2,16384,seconds,0.5,1
reduce_skew,bypass/skew1000,4,32,cpu_us,10,1
reduce_skew,bypass/skew1000,4,32,call_cpu_us,7,1
reduce_skew,bypass/skew1000_progress_thread,4,32,cpu_us,15,1
reduce_skew,standard/skew1000,4,32,cpu_us,20,1
reduce_skew,mpich/skew1000,4,32,cpu_us,400,1
reduce_skew,openmpi/skew1000,4,32,cpu_us,100,1
reduce_skew,openmpi/skew0,4,32,cpu_us,3,1
reduce_skew,bypass/skew0,4,32,cpu_us,6,1
reduce_skew,bypass,4,32,us,12,1
reduce_skew,bypass,4,32,us_min,11,1
reduce_skew,mpich,4,32,us,6,1
reduce_skew,openmpi,4,32,us,8,1
nbc_overhead,igather/flat/thread/k10,4,1024,overhead_us,30,1
nbc_overhead,igather/flat/thread/k10,4,1024,overhead_us,50,2
nbc_overhead,igather/flat/thread/k10,4,1024,blocking_us,12,1
nbc_overhead,igather/flat/thread/k10,4,1024,compute_us,99,1
nbc_overhead,igather/shm/manual/k10,4,1024,overhead_us,10,1
nbc_overhead,igather/openmpi/mpi/k10,4,1024,overhead_us,20,1
nbc_overhead,igather/openmpi/mpi/k10,4,1024,blocking_us,6,1
nbc_overhead,igather/mpich/mpi/k10,4,1024,overhead_us,80,1
nbc_overhead,igather/flat/thread/knever,4,1024,overhead_us,5,1
nbc_overhead,igather/mpich/mpi/knever,4,1024,overhead_us,50,1
"""
path = os.path.join(scratch, "peers.csv")
with open(path, "w") as f:
    f.write(CSV)

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


medians = report.load(path)
expect(medians[("lock_put_unlock", "", "immediate", 2, 64, "us")] == 0.05, "median of 3 reps")
expect(("lock_put_unlock", "", "immediate", 2, 64, "ratio") not in medians, "ratio rows dropped")
rows = {(r[0], r[1], r[2], r[3], r[5]): r for r in report.comparisons(medians)}


def check(key, peer, ratio):
    row = rows.get(key)
    if row is None:
        failures.append(f"no row {key}")
        return
    expect(row[7] == peer, f"{key}: best peer {row[7]}, expected {peer}")
    expect(abs(row[9] - ratio) < 1e-9, f"{key}: ratio {row[9]}, expected {ratio}")


check(("lock_put_unlock", "", 2, 64, "immediate"), "openmpi_osc_sm", 0.05 / 0.08)
check(("fence_cost", "fence2", 4, 0, "immediate"), "openmpi_osc_sm", 0.5)
check(("fence_cost", "fence2", 2, 0, "immediate"), "openmpi_osc_sm", 2.0)
check(("rma_latency", "fetch_and_op", 2, 8, "auto"), "openmpi_osc_sm", 2.0)
check(("rma_latency", "get_accumulate", 2, 8, "native"), "mpich", 0.1)
check(("acc_bandwidth", "", 2, 1024, "auto"), "openmpi_osc_sm", 0.5)  # twice the bandwidth
check(("acc_bandwidth", "", 2, 8, "auto"), "openmpi_osc_sm", 4.0)
check(("acc_bandwidth", "contended", 4, 1024, "auto"), "openmpi_osc_sm", 1 / 3)
check(("acc_bandwidth", "contended_timed", 4, 1024, "auto"), "openmpi_osc_sm", 1 / 4)
check(("acc_bandwidth", "contended_timed", 2, 8, "auto"), "openmpi_osc_sm", 2.0)
expect(("acc_bandwidth", "contended", "timed_auto", 4, 1024, "MBps") not in medians,
       "contended_timed_<who> is its own group, not contended's")
check(("ga_latency", "read_inc", 2, 8, "remora"), "ga58_openmpi", 0.5)
check(("ga_latency", "acc_16x16", 2, 2048, "remora"), "ga58_openmpi", 3.0)
check(("hf_proxy_ga", "block_rma_nb", 2, 16384, "remora_manual"), "ga58_openmpi", 1 / 9)
expect(("hf_proxy_ga", "block_rma_nb", "remora_manual", 2, 16384, "seconds") not in medians,
       "hf_proxy_ga is compared on tasks_per_s only")
check(("reduce_skew", "skew1000", 4, 32, "bypass"), "openmpi", 0.1)
check(("reduce_skew", "skew1000", 4, 32, "bypass_progress_thread"), "openmpi", 0.15)
check(("reduce_skew", "skew1000", 4, 32, "standard"), "openmpi", 0.2)
check(("reduce_skew", "skew0", 4, 32, "bypass"), "openmpi", 2.0)
check(("reduce_skew", "latency", 4, 32, "bypass"), "mpich", 2.0)
expect(("reduce_skew", "skew1000", "bypass", 4, 32, "call_cpu_us") not in medians,
       "reduce_skew is compared on cpu_us and us only")
check(("nbc_overhead", "igather/k10", 4, 1024, "flat_thread"), "openmpi", 2.0)  # median 40
check(("nbc_overhead", "igather/k10", 4, 1024, "shm_manual"), "openmpi", 0.5)
check(("nbc_overhead", "igather/knever", 4, 1024, "flat_thread"), "mpich", 0.1)
blocking = [r for r in report.comparisons(medians)
            if r[0] == "nbc_overhead" and r[4] == "blocking_us"]
expect(len(blocking) == 1 and blocking[0][7] == "openmpi" and abs(blocking[0][9] - 2.0) < 1e-9,
       "nbc_overhead compares the blocking time too")
expect(("nbc_overhead", "igather/k10", "flat_thread", 4, 1024, "compute_us") not in medians,
       "nbc_overhead is compared on overhead_us and blocking_us only")
expect(("acc_bandwidth", "", 2, 1024, "put") not in rows, "put is a reference, not compared")
table = io.StringIO()
report.print_table(report.comparisons(medians), cores=2, out=table)
expect("(oversubscribed)" in table.getvalue(), "p = 4 on 2 cores is marked oversubscribed")

if "--plots" in sys.argv:
    written = report.plot(medians, os.path.join(scratch, "plots"))
    names = sorted(os.path.basename(p) for p in written)
    for name in ("paper001_table1_lock_put_unlock.png", "paper001_fig2_fence.png",
                 "paper000_fig2_acc_bandwidth.png", "paper000_fig3_acc_contended_p4.png",
                 "paper000_fig3_acc_contended_timed_p4.png",
                 "paper000_fig3_acc_contended_timed_p2.png",
                 "rma_latency.png", "paper002_fig6_7_cpu_p4_32B.png",
                 "paper002_fig9_10_latency_p4.png", "paper004_fig3_igather_k10_p4.png",
                 "paper004_fig3_igather_knever_p4.png"):
        expect(name in names, f"plot {name} written")
    for p in written:
        with open(p, "rb") as f:
            expect(f.read(8) == b"\x89PNG\r\n\x1a\n", f"{p} is a PNG")

for failure in failures:
    print("FAILED:", failure)
print("peer_report_test:", "failed" if failures else "passed", f"({len(failures)} failures)")
sys.exit(1 if failures else 0)
