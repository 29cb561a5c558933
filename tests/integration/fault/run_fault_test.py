#!/usr/bin/env python3
"""Runs remorarun on a fault-injection program and checks how the job ends.

usage: run_fault_test.py --remorarun PATH [--program PATH] CASE
       run_fault_test.py --remorarun PATH|--mpiexec PATH --program fault_random [--seed N]
                         random-HOW

In the shm-coll-* cases the last rank of fault_shm_coll dies by SIGKILL inside a collective of
the shm algorithm. In the random-* cases the last rank of fault_random dies by HOW (kill: SIGKILL, segv, abort:
abort(), remora-abort) after a seeded random number of window operations and collectives (the
seed is printed; --seed repeats a run), under remorarun or under mpiexec (MPICH's or Open
MPI's).

Each case checks the launcher's exit status, that it ends (a hang is killed and fails after
HANG_SECONDS; durations are printed, never compared with a threshold), that its message names
the rank at fault, that no rank process survives, and that no shared-memory object of the job
is left in /dev/shm. The job id comes from the ranks' own "job=<id> rank=<r> pid=<p>" lines
(fault_common.h), so concurrent jobs on the same machine do not disturb the check.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import threading
import time

RANKS = 4
RANKS_RANDOM = 3
HANG_SECONDS = 20  # below CTest's TIMEOUT of 30 s, so a hang fails with the run shown
ANNOUNCE = re.compile(r"job=(\S+) rank=(\d+) pid=(\d+)")

failures = []
runs = []  # every launcher run, shown when a check fails


def check(condition, message):
    if not condition:
        failures.append(message)


class Run:
    """One remorarun process whose stdout/stderr are collected while it runs."""

    def __init__(self, argv, env=None):
        self.argv = argv
        runs.append(self)
        self.start = time.monotonic()
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        env=env)
        self.stdout = []
        self.stderr = []
        self.stdout_times = []  # when each stdout line arrived (time.monotonic())
        self.lock = threading.Condition()
        self.readers = [
            threading.Thread(target=self._read,
                             args=(self.process.stdout, self.stdout, self.stdout_times)),
            threading.Thread(target=self._read, args=(self.process.stderr, self.stderr, None)),
        ]
        for reader in self.readers:
            reader.start()

    def _read(self, stream, lines, times):
        for raw in stream:
            with self.lock:
                lines.append(raw.decode(errors="replace"))
                if times is not None:
                    times.append(time.monotonic())
                self.lock.notify_all()

    def wait_for_announcements(self, count, timeout):
        deadline = time.monotonic() + timeout
        with self.lock:
            while len(self.announcements()) < count:
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    return False
                self.lock.wait(min(left, 0.1))
        return True

    def announcements(self):
        return [ANNOUNCE.search(line).groups() for line in self.stdout if ANNOUNCE.search(line)]

    def finish(self, timeout=HANG_SECONDS):
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            failures.append(f"remorarun did not exit within {timeout} s (killed)")
        for reader in self.readers:
            reader.join()
        self.seconds = time.monotonic() - self.start
        self.out = "".join(self.stdout)
        self.err = "".join(self.stderr)
        return self.process.returncode


def job_ids(run):
    return {job for job, _, _ in run.announcements() if job != "?"}


def job_processes(job):
    """Pids of live processes started for the job (ranks and the ghost): REMORA_JOB_ID=job."""
    marker = f"REMORA_JOB_ID={job}".encode() + b"\0"
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as environ:
                if marker not in environ.read() + b"\0":
                    continue
            with open(f"/proc/{entry}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X"):
                    continue
        except OSError:  # gone meanwhile, or not ours to read
            continue
        found.append(int(entry))
    return found


def ghost_pids(job):
    """The job's ghost process (REMORA_PROGRESS=ghost): remorarun --ghost-process."""
    pids = []
    for pid in job_processes(job):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                if b"--ghost-process" in cmdline.read():
                    pids.append(pid)
        except OSError:
            pass
    return pids


def process_state(pid):
    """The state letter of a process (R, S, D, Z, X...), None when there is no such process."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return None


def check_no_leftovers(run, expect_job=True, zombies_ok=False):
    """No rank or ghost process alive, no /dev/shm object of the job left. zombies_ok: under
    mpiexec the ranks are not the test's children: when the launcher's proxy exits before
    reaping them, they wait as zombies for init (which, in a container, may never reap)."""
    jobs = job_ids(run)
    if expect_job:
        check(len(jobs) == 1, f"expected one job id in the ranks' output, found {sorted(jobs)}")
    for _, rank, pid in run.announcements():
        pid = int(pid)
        # mpiexec may exit while the processes it killed are still inside their exit (state
        # R or D, their memory being released): give them up to 5 s to become zombies.
        deadline = time.monotonic() + (5 if zombies_ok else 0)
        while True:
            state = process_state(pid)
            dead = state is None or state == "X" or (zombies_ok and state == "Z")
            if dead or time.monotonic() >= deadline:
                break
            time.sleep(0.05)
        check(dead, f"rank {rank} (pid {pid}) is still there (state {state}) after the launcher "
                    f"exited")
    for job in jobs:
        survivors = job_processes(job)
        check(not survivors, f"processes of job {job} still alive: {survivors}")
        left = [n for n in os.listdir("/dev/shm") if n.startswith(f"remora-{job}-")]
        check(not left, f"shared-memory objects of job {job} left in /dev/shm: {left}")


def expect(run, code, names):
    rc = run.finish()
    check(rc == code, f"exit status {rc}, expected {code}")
    for name in names:
        check(name in run.err, f"stderr does not mention '{name}'")
    print(f"{' '.join(run.argv[1:])}: exit {rc} after {run.seconds:.3f} s")
    return rc


def case_segv(args):
    run = Run([args.remorarun, "-n", str(RANKS), args.program])
    expect(run, 128 + signal.SIGSEGV, ["rank 1", "SIGSEGV"])
    # The crash is reported by the launcher alone: no MPI library (UCX, Open MPI) installs its
    # own handler and prints a backtrace when no MPI is in use.
    for marker in ("==== backtrace", "*** Process received signal ***"):  # UCX, Open MPI
        check(marker not in run.out + run.err,
              f"a crash under remorarun printed an MPI library's backtrace: {run.err!r}")
    leaked = re.search(r"leaked /(\S+)", run.out)
    check(leaked is not None, "rank 1 did not report the shared-memory object it leaves behind")
    if leaked:
        check(not os.path.exists("/dev/shm/" + leaked.group(1)),
              f"/dev/shm/{leaked.group(1)} (left by the crashed rank) was not removed")
    check_no_leftovers(run)


def case_abort(args):
    run = Run([args.remorarun, "-n", str(RANKS), args.program])
    expect(run, 3, ["rank 1", "deliberate abort"])
    check_no_leftovers(run)


def case_no_finalize(args):
    run = Run([args.remorarun, "-n", str(RANKS), args.program])
    expect(run, 1, ["rank 2", "remora_finalize"])
    check_no_leftovers(run)


def case_timeout(args):
    run = Run([args.remorarun, "-n", str(RANKS), "--timeout", "1.5", args.program])
    expect(run, 124, ["--timeout"])
    check(run.seconds >= 1.4, f"stopped after {run.seconds:.2f} s, before the 1.5 s timeout")
    check_no_leftovers(run)


def case_sigterm(args):
    run = Run([args.remorarun, "-n", str(RANKS), args.program])
    check(run.wait_for_announcements(RANKS, HANG_SECONDS),
          "the ranks did not all start (no job=... line from each)")
    sent = time.monotonic()
    run.process.send_signal(signal.SIGTERM)
    expect(run, 128 + signal.SIGTERM, ["SIGTERM"])
    teardown = time.monotonic() - sent
    print(f"teardown after SIGTERM took {teardown:.3f} s")
    check_no_leftovers(run)


def case_tag_output(args):
    run = Run([args.remorarun, "-n", str(RANKS), "--tag-output", args.program])
    expect(run, 7, ["rank 3", "code 7"])
    for stream, text in (("stdout", run.out), ("stderr", run.err)):
        for line in text.splitlines():
            if line.startswith("remorarun:") or line.startswith("remora:"):
                continue  # the launcher's own messages are not a rank's output
            check(re.match(r"\[\d+\] ", line), f"{stream} line without a rank prefix: {line!r}")
    for rank in range(RANKS):
        check(f"[{rank}] hello from rank {rank} of {RANKS}\n" in run.out,
              f"stdout lacks '[{rank}] hello from rank {rank} of {RANKS}'")
        check(f"[{rank}] second line from rank {rank}\n" in run.out,
              f"stdout lacks '[{rank}] second line from rank {rank}'")
        check(f"[{rank}] note from rank {rank}\n" in run.err,
              f"stderr lacks '[{rank}] note from rank {rank}'")
    check("[3] partial line from rank 3\n" in run.out,
          "the partial last line of rank 3 was not forwarded")
    check_no_leftovers(run)
    # The same exit status without --tag-output; an unknown REMORA_ variable is reported once
    # for the job (by the launcher), not once per rank.
    env = dict(os.environ, REMORA_NO_SUCH_SETTING="1")
    plain = Run([args.remorarun, "-n", str(RANKS), args.program], env=env)
    expect(plain, 7, ["rank 3"])
    check("partial line from rank 3" in plain.out, "rank 3's output missing without --tag-output")
    warned = (plain.out + plain.err).count("unknown configuration variable REMORA_NO_SUCH_SETTING")
    check(warned == 1, f"the unknown variable was reported {warned} times, expected once")
    check_no_leftovers(plain)


def case_whole_lines(args):
    run = Run([args.remorarun, "-n", str(RANKS), args.program])
    expect(run, 0, [])
    seen = set()
    for line in run.out.splitlines():
        if line.startswith("job="):
            continue  # fault_start's announcement
        match = re.fullmatch(r"rank (\d+) line (\d+): x{32} (\d+)-(\d+)", line)
        check(match is not None, f"a line mixes ranks' output: {line!r}")
        check(match.group(1) == match.group(3) and match.group(2) == match.group(4),
              f"a line mixes ranks' output: {line!r}")
        seen.add((int(match.group(1)), int(match.group(2))))
    check(len(seen) == RANKS * 300, f"{len(seen)} distinct lines, expected {RANKS * 300}")
    check_no_leftovers(run)


def case_ghost_killed(args):
    run = Run([args.remorarun, "-n", str(RANKS), args.program])
    check(run.wait_for_announcements(RANKS, HANG_SECONDS),
          "the ranks did not all start (no job=... line from each)")
    jobs = job_ids(run)
    ghosts = ghost_pids(next(iter(jobs))) if len(jobs) == 1 else []
    check(len(ghosts) == 1, f"expected one ghost process of the job, found {ghosts}")
    time.sleep(0.3)  # the ranks are now busy with owner-computes accumulates
    for pid in ghosts:
        os.kill(pid, signal.SIGKILL)
    expect(run, 128 + signal.SIGKILL, ["ghost process", "SIGKILL"])
    check_no_leftovers(run)


def random_case(how):
    """The last rank of fault_random dies by `how` after a seeded random number of operations,
    under mpiexec (--mpiexec) or remorarun."""
    def run_case(args):
        seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
        env = dict(os.environ)
        # mpiexec's own timeout would end a hung job with a report that names every rank: a job
        # that does not end must fail by the watchdog (Run.finish) instead.
        env.pop("MPIEXEC_TIMEOUT", None)
        launcher = args.mpiexec or args.remorarun
        run = Run([launcher, "-n", str(RANKS_RANDOM), args.program, how, str(seed)], env=env)
        # The watchdog counts from the victim's death: starting the job and the operations
        # before it may take long on a loaded machine (CTest's TIMEOUT bounds them).
        with run.lock:
            while (not any(line.startswith("victim dies now") for line in run.stdout)
                   and run.process.poll() is None):
                run.lock.wait(0.1)
        rc = run.finish()
        plan = re.search(r"victim=(\d+) how=\S+ seed=\d+ after=(\d+)", run.out)
        victim = RANKS_RANDOM - 1
        # From the victim's last line ("dies now", printed just before it dies) to the end.
        died = [stamp for line, stamp in zip(run.stdout, run.stdout_times)
                if line.startswith("victim dies now")]
        teardown = f"{run.start + run.seconds - died[0]:.3f} s" if died else "?"
        print(f"{os.path.basename(launcher)} {how} seed={seed} "
              f"after={plan.group(2) if plan else '?'} "
              f"progress={os.environ.get('REMORA_PROGRESS', 'default')}: "
              f"exit {rc} after {run.seconds:.3f} s, {teardown} after the victim's death")
        check(died, "the victim did not say that it dies now")
        check(rc != 0, f"the launcher exited 0 although rank {victim} died")
        check(plan is not None, "the victim did not print when it dies")
        # The program never writes "rank <n>" itself (only "rank=<n>"): the name comes from the
        # launcher (MPICH: "RANK 2 PID ... KILLED BY SIGNAL", Open MPI: "process rank 2 with
        # PID ...", remorarun: "rank 2 (pid ...) ..."), or from Remora for remora_abort.
        check(re.search(rf"\brank\s+{victim}\b", run.out + run.err, re.IGNORECASE),
              f"the output does not name the dead rank {victim}")
        if how == "remora-abort":
            check("the victim gives up" in run.err, "remora_abort's message is not shown")
        check(len(run.announcements()) == RANKS_RANDOM,
              f"{len(run.announcements())} ranks announced themselves, expected {RANKS_RANDOM}")
        check_no_leftovers(run, zombies_ok=bool(args.mpiexec))
    return run_case


def shm_coll_case(which):
    """The last rank of fault_shm_coll dies by SIGKILL inside a shm collective (`which`: see
    fault_shm_coll.c) while the others wait in it for the dead rank's flags."""
    def run_case(args):
        run = Run([args.remorarun, "-n", str(RANKS), args.program, which])
        expect(run, 128 + signal.SIGKILL, [f"rank {RANKS - 1}", "SIGKILL"])
        check("victim dies now" in run.out, "the victim did not reach its collective")
        check("completed without the dead rank" not in run.err,
              "a shm collective completed although a member had died")
        check("rank -1" not in run.err, "a message names rank -1 instead of the dead rank")
        check(len(run.announcements()) == RANKS,
              f"{len(run.announcements())} ranks announced themselves, expected {RANKS}")
        check_no_leftovers(run)
    return run_case


def case_usage(args):
    r = args.remorarun
    bad = [
        ([r], "-n"),
        ([r, "true"], "-n"),
        ([r, "-n", "0", "true"], "'0'"),
        ([r, "-n", "-3", "true"], "-3"),
        ([r, "-n", "abc", "true"], "abc"),
        ([r, "-n", "4097", "true"], "4097"),
        ([r, "-n", "2"], "program"),
        ([r, "-n"], "-n"),
        ([r, "--bogus", "-n", "2", "true"], "--bogus"),
        ([r, "-n", "2", "--timeout", "-1", "true"], "-1"),
        ([r, "-n", "2", "--timeout", "soon", "true"], "soon"),
        ([r, "-n", "2", "--timeout"], "--timeout"),
        ([r, "--help-config=html"], "html"),
    ]
    for argv, named in bad:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=10)
        shown = " ".join(argv[1:])
        check(done.returncode == 2, f"'{shown}': exit status {done.returncode}, expected 2")
        check(named in done.stderr, f"'{shown}': stderr does not name '{named}': {done.stderr!r}")
        check("usage:" in done.stderr, f"'{shown}': stderr has no usage line")
    for argv, needle in (([r, "--help"], "usage:"), ([r, "-h"], "usage:"),
                         ([r, "--version"], "remorarun (Remora) "),
                         ([r, "--help-config"], "REMORA_PROGRESS"),
                         ([r, "--help-config=text"], "REMORA_PROGRESS"),
                         ([r, "--help-config=markdown"], "| `REMORA_PROGRESS` |")):
        done = subprocess.run(argv, capture_output=True, text=True, timeout=10)
        check(done.returncode == 0, f"'{' '.join(argv[1:])}': exit status {done.returncode}")
        check(needle in done.stdout, f"'{' '.join(argv[1:])}': stdout lacks {needle!r}")
    # --help lists every option parse_options accepts.
    shown_help = subprocess.run([r, "--help"], capture_output=True, text=True, timeout=10).stdout
    for option in ("-n", "--np", "--tag-output", "--timeout", "--help", "-h", "--version",
                   "--help-config", "--help-config=text", "--help-config=markdown", "--  "):
        check(option in shown_help, f"--help does not list {option!r}")
    done = subprocess.run([r, "--version"], capture_output=True, text=True, timeout=10)
    check("MPI transport: " in done.stdout, f"--version names no transport: {done.stdout!r}")
    # "--" ends the options: a program whose name starts with '-' can follow it.
    done = subprocess.run([r, "-n", "2", "--", "true"], capture_output=True, text=True, timeout=10)
    check(done.returncode == 0, f"'-n 2 -- true': exit {done.returncode}: {done.stderr!r}")
    env = dict(os.environ, REMORA_LOG="loud")
    done = subprocess.run([r, "-n", "2", "true"], capture_output=True, text=True, env=env, timeout=10)
    check(done.returncode == 2 and "REMORA_LOG" in done.stderr,
          f"malformed REMORA_LOG: exit {done.returncode}, stderr {done.stderr!r}")
    # Programs that never call remora_init: exiting 0 is normal, a failure propagates.
    for argv, code in (([r, "-n", "3", "true"], 0), ([r, "-n", "3", "false"], 1),
                       ([r, "-n", "2", "/nonexistent/program"], 127)):
        done = subprocess.run(argv, capture_output=True, text=True, timeout=10)
        check(done.returncode == code,
              f"'{' '.join(argv[1:])}': exit {done.returncode}, expected {code}: {done.stderr!r}")
    print(f"{len(bad)} usage errors and {11} other invocations checked")


CASES = {
    "segv": case_segv,
    "abort": case_abort,
    "no-finalize": case_no_finalize,
    "timeout": case_timeout,
    "sigterm": case_sigterm,
    "tag-output": case_tag_output,
    "ghost-killed": case_ghost_killed,
    "whole-lines": case_whole_lines,
    "usage": case_usage,
    "random-kill": random_case("kill"),
    "random-segv": random_case("segv"),
    "random-abort": random_case("abort"),
    "random-remora-abort": random_case("remora-abort"),
    "shm-coll-iallreduce": shm_coll_case("iallreduce"),
    "shm-coll-ibarrier": shm_coll_case("ibarrier"),
    "shm-coll-ialltoall": shm_coll_case("ialltoall"),
    "shm-coll-ialltoall-round": shm_coll_case("ialltoall-round"),
    "shm-coll-loop": shm_coll_case("loop"),
    "shm-coll-blocks": shm_coll_case("blocks"),
    "shm-coll-bypass": shm_coll_case("bypass"),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--remorarun")
    parser.add_argument("--mpiexec")
    parser.add_argument("--program")
    parser.add_argument("--seed", type=int)
    parser.add_argument("case", choices=sorted(CASES))
    args = parser.parse_args()
    if args.case != "usage" and not args.program:
        parser.error(f"case {args.case} needs --program")
    if args.mpiexec and not args.case.startswith("random-"):
        parser.error(f"case {args.case} runs under remorarun only")
    if not args.mpiexec and not args.remorarun:
        parser.error("--remorarun or --mpiexec is needed")
    CASES[args.case](args)
    if failures:
        for run in runs:
            if hasattr(run, "out"):
                print(f"--- {' '.join(run.argv)}\n--- stdout:\n{run.out}--- stderr:\n{run.err}",
                      file=sys.stderr)
        for failure in failures:
            print(f"FAIL: {failure}", file=sys.stderr)
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
