#!/usr/bin/env python3
"""Remora against the MPI peers: a table of medians and, optionally, one PNG per seed figure.

Input: the CSV that bench/compare_peers.sh collects, in the project's schema with a repetition
column (bench,variant,ranks,bytes,metric,value,rep; a header row is allowed). Medians are taken
over repetitions. A peer row's variant is its label (openmpi_osc_sm, openmpi_default, mpich),
prefixed as the Remora program prefixes its own variants:
  lock_put_unlock   <who>                         us, lower is better
  fence_cost        fence2_<who>                  us
  rma_latency       <operation>_<who>             us
  ga_latency        <operation>_<who>             us (bench/peers/ga_latency.c; the peer is GA)
  hf_proxy_ga       <layout>_<variant>/<who>      tasks_per_s, higher is better (apps/hf_proxy's
                    hf_proxy_ga, bench/compare_ga.sh; the peer is GA)
  acc_bandwidth     <who>, contended_<who> or     MBps, higher is better
                    contended_timed_<who> (the fixed-duration method, group contended_timed)
  reduce_skew       <who>/skew<us>[_progress_<m>]  cpu_us, root_cpu_us, other_cpu_us
                    (bench/reduce_skew_peers.sh)
                    <who>[_progress_<m>]           us, the latency without skew
  nbc_overhead      <op>/<algorithm>/<progress>/k<k|never>  overhead_us and blocking_us
                    (bench/nbc_overhead_peers.sh); a peer's algorithm is its label and its
                    progress "mpi"; group <op>/k<k|never>, who <algorithm>_<progress>
where <who> is a peer label or a Remora variant (a sync implementation or an accumulate
strategy). Every Remora row is set beside the best peer of the same experiment, operation,
rank count and size; `ratio` is always Remora's time over the peer's (below 1: Remora faster).

  peer_report.py CSV [--cores N] [--plots DIR]
"""
import argparse
import csv
import os
import statistics
import sys
from collections import defaultdict

PEERS = ("openmpi_osc_sm", "openmpi_default", "mpich", "ga58_openmpi", "openmpi")
OPERATIONS = ("put", "get", "fetch_and_op", "compare_and_swap", "get_accumulate")
GA_OPERATIONS = ("put_1x1", "get_1x1", "acc_1x1", "put_16x16", "get_16x16", "acc_16x16",
                 "read_inc")
HIGHER_IS_BETTER = {"MBps", "tasks_per_s"}
# The metrics each experiment is compared on.
METRICS = {"lock_put_unlock": {"us"}, "fence_cost": {"us"}, "rma_latency": {"us"},
           "acc_bandwidth": {"MBps"}, "ga_latency": {"us"},
           "hf_proxy_ga": {"tasks_per_s"}, "reduce_skew": {"cpu_us", "root_cpu_us", "other_cpu_us", "us"},
           "nbc_overhead": {"overhead_us", "blocking_us"}}
SKEW_PREFIX = "/skew"


def split_variant(bench, variant):
    """(group, who): the operation or flavour the row belongs to, and who produced it."""
    if bench == "fence_cost" and variant.startswith("fence2_"):
        return "fence2", variant[len("fence2_"):]
    operations = {"rma_latency": OPERATIONS, "ga_latency": GA_OPERATIONS}.get(bench, ())
    for operation in sorted(operations, key=len, reverse=True):  # get_accumulate before get
        if variant.startswith(operation + "_"):
            return operation, variant[len(operation) + 1:]
    for group in ("contended_timed", "contended"):  # the longer prefix first
        if bench == "acc_bandwidth" and variant.startswith(group + "_"):
            return group, variant[len(group) + 1:]
    if bench == "hf_proxy_ga" and "/" in variant:
        group, who = variant.split("/", 1)  # "block_rma_nb/remora_manual"
        return group, who
    if bench == "reduce_skew":
        # "bypass/skew1000_progress_thread": group "skew1000", who "bypass_progress_thread";
        # "bypass_progress_thread" (no skew part): the latency rows, group "latency".
        if SKEW_PREFIX not in variant:
            return "latency", variant
        who, skew = variant.split(SKEW_PREFIX, 1)
        digits = len(skew) - len(skew.lstrip("0123456789"))
        return "skew" + skew[:digits], who + skew[digits:]
    if bench == "nbc_overhead" and variant.count("/") == 3:
        operation, algorithm, progress, test_every = variant.split("/")
        who = algorithm if progress == "mpi" else f"{algorithm}_{progress}"
        return f"{operation}/{test_every}", who
    return "", variant


def load(path):
    """{(bench, group, who, ranks, bytes, metric): median over repetitions}"""
    values = defaultdict(list)
    with open(path) as f:
        for row in csv.reader(f):
            if len(row) < 6 or row[0] == "bench":
                continue
            bench, variant, ranks, nbytes, metric, value = row[:6]
            if metric not in METRICS.get(bench, ()):
                continue
            group, who = split_variant(bench, variant)
            values[(bench, group, who, int(ranks), int(nbytes), metric)].append(float(value))
    return {key: statistics.median(v) for key, v in values.items()}


def as_time(metric, value):
    """A figure where lower is better, so that ratios read the same for every metric."""
    return 1.0 / value if metric in HIGHER_IS_BETTER and value > 0 else value


def comparisons(medians):
    """One row per Remora figure: (bench, group, ranks, bytes, metric, who, value, peer,
    peer value, ratio of times)."""
    experiments = defaultdict(dict)
    for (bench, group, who, ranks, nbytes, metric), value in medians.items():
        experiments[(bench, group, ranks, nbytes, metric)][who] = value
    rows = []
    for (bench, group, ranks, nbytes, metric), figures in sorted(experiments.items()):
        peers = {who: v for who, v in figures.items() if who in PEERS}
        best = min(peers, key=lambda who: as_time(metric, peers[who])) if peers else None
        for who, value in sorted(figures.items()):
            if who in PEERS or who == "put":  # acc_bandwidth's put: a reference, not a rival
                continue
            peer_value = peers[best] if best else float("nan")
            ratio = (as_time(metric, value) / as_time(metric, peer_value)) if best else float("nan")
            rows.append((bench, group, ranks, nbytes, metric, who, value, best or "-",
                         peer_value, ratio))
    return rows


def print_table(rows, cores, out=sys.stdout):
    out.write(f"{'experiment':<16} {'op':<17} {'p':>2} {'bytes':>8}  {'remora':<24} "
              f"{'value':>10}  {'best peer':<16} {'peer':>10} {'ratio':>6}  metric\n")
    for bench, group, ranks, nbytes, metric, who, value, peer, peer_value, ratio in rows:
        note = " (oversubscribed)" if cores and ranks > cores else ""
        out.write(f"{bench:<16} {group or '-':<17} {ranks:>2} {nbytes:>8}  {who:<24} "
                  f"{value:>10.4g}  {peer:<16} {peer_value:>10.4g} {ratio:>6.2f}  {metric}{note}\n")
    out.write("(ratio = Remora's time / the best peer's time, below 1: Remora faster; "
              "for MBps and tasks_per_s the time is 1/value)\n")


def series(medians, bench, group, metric, ranks=None):
    """{who: [(x, value)]}, x the size (or the rank count when ranks is None and bytes is 0)."""
    result = defaultdict(list)
    for (b, g, who, r, nbytes, m), value in medians.items():
        if b != bench or g != group or m != metric or (ranks is not None and r != ranks):
            continue
        result[who].append((nbytes if ranks is not None else r, value))
    return {who: sorted(points) for who, points in result.items()}


def plot(medians, directory):
    """Writes one PNG per figure it has data for; returns the paths written."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(directory, exist_ok=True)
    written = []

    def finish(fig, name):
        path = os.path.join(directory, name)
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)

    def bars(data, title, ylabel, name, label_of=str):
        if not data:
            return
        whos = sorted(data)
        xs = sorted({x for points in data.values() for x, _ in points})
        fig, ax = plt.subplots(figsize=(8, 4.5))
        width = 0.8 / len(whos)
        for i, who in enumerate(whos):
            values = dict(data[who])
            ax.bar([j + i * width for j in range(len(xs))], [values.get(x, 0) for x in xs],
                   width, label=who)
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(xs))])
        ax.set_xticklabels([label_of(x) for x in xs])
        ax.set_yscale("log")
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.legend(fontsize=8)
        finish(fig, name)

    def lines(data, title, xlabel, ylabel, name, logx=True):
        if not data:
            return
        fig, ax = plt.subplots(figsize=(8, 4.5))
        for who in sorted(data):
            xs, ys = zip(*data[who])
            ax.plot(xs, ys, marker="o", label=who, linestyle="--" if who in PEERS else "-")
        if logx:
            ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.legend(fontsize=8)
        finish(fig, name)

    bars(series(medians, "lock_put_unlock", "", "us", ranks=2),
         "Paper 001 Table 1: lock-put-unlock, 2 ranks", "us (median)",
         "paper001_table1_lock_put_unlock.png", label_of=lambda b: f"{b // 8} longs")
    lines(series(medians, "fence_cost", "fence2", "us"),
          "Paper 001 Fig. 2: two fences", "ranks", "us (median, max over ranks)",
          "paper001_fig2_fence.png")
    lines(series(medians, "acc_bandwidth", "", "MBps", ranks=2),
          "Paper 000 Fig. 2: accumulate (double sum), 2 ranks", "bytes", "MB/s",
          "paper000_fig2_acc_bandwidth.png")
    for group, how, suffix in (("contended", "", ""),
                               ("contended_timed", ", fixed-duration windows", "_timed")):
        for ranks in sorted({k[3] for k in medians if k[0] == "acc_bandwidth" and k[1] == group}):
            lines(series(medians, "acc_bandwidth", group, "MBps", ranks=ranks),
                  f"Paper 000 Fig. 3-4: accumulate onto one target, {ranks} ranks "
                  f"(aggregate{how})", "bytes", "MB/s",
                  f"paper000_fig3_acc_contended{suffix}_p{ranks}.png")
    latency = defaultdict(list)
    for (b, g, who, r, nbytes, m), value in medians.items():
        if b == "rma_latency" and m == "us":
            latency[who].append((OPERATIONS.index(g), value))
    bars({who: sorted(points) for who, points in latency.items()},
         "One-element operations in lock_all + flush, 2 ranks", "us (median)",
         "rma_latency.png", label_of=lambda i: OPERATIONS[i])
    skew_points = defaultdict(lambda: defaultdict(list))  # (ranks, bytes) -> who -> [(skew, cpu)]
    for (b, g, who, r, nbytes, m), value in medians.items():
        if b == "reduce_skew" and m == "cpu_us":
            skew_points[(r, nbytes)][who].append((int(g[len("skew"):]), value))
    for (ranks, nbytes), data in sorted(skew_points.items()):
        bars({who: sorted(points) for who, points in data.items()},
             f"Paper 002 Fig. 6-7: CPU per reduce under skew, {ranks} ranks, {nbytes} B",
             "us of CPU per rank and reduce (median)",
             f"paper002_fig6_7_cpu_p{ranks}_{nbytes}B.png", label_of=lambda us: f"skew {us} us")
    for ranks in sorted({k[3] for k in medians if k[0] == "reduce_skew" and k[1] == "latency"}):
        lines(series(medians, "reduce_skew", "latency", "us", ranks=ranks),
              f"Paper 002 Fig. 9-10: reduce latency without skew, {ranks} ranks", "bytes",
              "us (median, at the root)", f"paper002_fig9_10_latency_p{ranks}.png")
    for bench, group, ranks in sorted({k[:2] + (k[3],) for k in medians if k[0] == "nbc_overhead"}):
        operation, test_every = group.split("/")
        data = series(medians, bench, group, "overhead_us", ranks=ranks)
        title = f"Paper 004 Fig. 3: {operation} overhead, test {test_every}, {ranks} ranks"
        name = f"paper004_fig3_{operation}_{test_every}_p{ranks}.png"
        ylabel = "us (median, max over ranks)"
        if any(x > 0 for points in data.values() for x, _ in points):
            lines(data, title, "bytes", ylabel, name)
        else:  # ibarrier: one point, at 0 bytes
            bars(data, title, ylabel, name, label_of=lambda x: "barrier")
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--cores", type=int, default=0)
    parser.add_argument("--plots", metavar="DIR")
    args = parser.parse_args()
    medians = load(args.csv)
    print_table(comparisons(medians), args.cores)
    if args.plots:
        for path in plot(medians, args.plots):
            print(f"peer_report: wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
