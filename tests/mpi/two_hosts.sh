#!/bin/sh
# Runs a 2-rank Remora job with one rank on each of two "hosts": two network namespaces on
# this machine joined by a veth pair, each with its own hostname (UTS namespace). MPI talks TCP
# between them (MPICH: UCX over tcp; Open MPI: the tcp BTL); the launcher reaches the second
# host through a stand-in for ssh that runs the command with `ip netns exec`.
#   two_hosts.sh MPIEXEC PROGRAM [ARGS...]
# Exit 77 (the test's SKIP_RETURN_CODE) when namespaces cannot be created here. The namespaces
# (and with them the veth pair) are removed on every exit.
set -u
here=$(cd "$(dirname "$0")" && pwd)
mpiexec=$1
shift
skip=77
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: creating network namespaces needs root"
  exit $skip
fi
if ! command -v ip >/dev/null 2>&1 || ! command -v unshare >/dev/null 2>&1; then
  echo "SKIP: needs ip (iproute2) and unshare (util-linux)"
  exit $skip
fi

tag=rmh$$
ns0=${tag}a
ns1=${tag}b
work=$(mktemp -d)
cleanup() {
  ip netns del "$ns0" 2>/dev/null
  ip netns del "$ns1" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 143' INT TERM

if ! ip netns add "$ns0" 2>"$work/err" || ! ip netns add "$ns1" 2>>"$work/err"; then
  echo "SKIP: cannot create a network namespace here: $(cat "$work/err")"
  exit $skip
fi
set -e
ip link add "${tag}x" type veth peer name "${tag}y"
ip link set "${tag}x" netns "$ns0"
ip link set "${tag}y" netns "$ns1"
# The same device name on both hosts, so one UCX_NET_DEVICES / if_include serves both.
ip -n "$ns0" link set "${tag}x" name remora0
ip -n "$ns1" link set "${tag}y" name remora0
ip -n "$ns0" addr add 10.77.0.1/24 dev remora0
ip -n "$ns1" addr add 10.77.0.2/24 dev remora0
for ns in "$ns0" "$ns1"; do
  ip -n "$ns" link set lo up
  ip -n "$ns" link set remora0 up
done
set +e

# The launcher's "ssh HOST COMMAND": options are skipped, HOST picks the namespace.
cat >"$work/netns-ssh" <<SCRIPT
#!/bin/sh
while [ \$# -gt 0 ]; do case "\$1" in -*) shift ;; *) break ;; esac; done
host=\$1
shift
case "\$host" in
  10.77.0.1) ns=$ns0 name=remora-host0 ;;
  10.77.0.2) ns=$ns1 name=remora-host1 ;;
  *) echo "netns-ssh: unknown host \$host" >&2; exit 255 ;;
esac
exec ip netns exec "\$ns" unshare --uts sh -c "hostname \$name; \$*"
SCRIPT
chmod +x "$work/netns-ssh"

hosts=10.77.0.1,10.77.0.2
program=$1
if "$mpiexec" --version 2>&1 | grep -qi "open *mpi\|openrte"; then
  echo "two_hosts: Open MPI over TCP between $ns0 and $ns1"
  set -- ip netns exec "$ns0" "$mpiexec" --allow-run-as-root --mca plm_rsh_agent "$work/netns-ssh" \
    --host "$hosts" -n 2 --map-by node --mca pml ob1 --mca btl tcp,self \
    --mca btl_tcp_if_include remora0 --mca oob_tcp_if_include remora0 "$@"
else
  echo "two_hosts: MPICH (hydra) over TCP between $ns0 and $ns1"
  set -- env UCX_TLS=tcp,self UCX_NET_DEVICES=remora0 ip netns exec "$ns0" "$mpiexec" \
    -launcher ssh -launcher-exec "$work/netns-ssh" -hosts "$hosts" -n 2 -ppn 1 "$@"
fi

# MPICH 4.0.2 (ch4:ucx) can hang inside MPI_Finalize over TCP, after every check passed: a rank
# that has closed its UCX endpoints waits in a PMI barrier without progressing UCX, while its
# peer's endpoint close still needs its reply (docs/running-on-clusters.md, "What remains"; a
# plain MPI_Init/MPI_Barrier/MPI_Finalize program hangs the same way). The watchdog prints every
# process's stack when the job has not ended 20 s after its checks passed; when every rank is
# inside MPI_Finalize (status 75) the job runs once more, and only that case is retried.
attempt=1
while :; do
  "$here/finalize_watchdog.sh" 20 "two hosts: " "$program" "$@"
  status=$?
  [ "$status" -eq 75 ] && [ "$attempt" -eq 1 ] || exit "$status"
  echo "two_hosts: MPI_Finalize hung in the MPI library after every check passed; running once more"
  attempt=2
done
