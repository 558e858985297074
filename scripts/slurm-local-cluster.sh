#!/usr/bin/env bash
# A single-node Slurm cluster of its own in DIR, for trying rooflab's job arrays on one machine and for
# the Slurm test (tests/binary/test_slurm.cpp): munged, slurmctld and slurmd from Debian's packages
# (slurmctld slurmd slurm-client munge), with their config, key, state, sockets and logs in DIR and on
# ports of their own, so that it touches no system-wide Slurm or MUNGE; stopped by the pids they wrote
# there. Run as root (the daemons run as root, as SlurmUser).
#
#   bash scripts/slurm-local-cluster.sh start DIR    # prints the SLURM_CONF line to export
#   SLURM_CONF=DIR/slurm.conf sbatch ...             # submit to it
#   bash scripts/slurm-local-cluster.sh stop DIR
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
dir=$(realpath -m "$2")

# A TCP port nobody listens on (from /proc/net/tcp and tcp6), from a start that differs per run.
free_port() {
  local port=$(( 20000 + (RANDOM * 7 + $$) % 20000 ))
  while grep -qi ":$(printf '%04X' "$port") " /proc/net/tcp /proc/net/tcp6 2>/dev/null; do port=$((port + 1)); done
  echo "$port"
}

stop_pid_file() {
  local file=$1 pid
  [ -s "$file" ] || return 0
  pid=$(cat "$file")
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$file"
}

case $action in
  start)
    [ "$(id -u)" -eq 0 ] || { echo "$0: the daemons run as root: run this as root" >&2; exit 2; }
    for tool in munged slurmctld slurmd sbatch; do
      command -v "$tool" > /dev/null || { echo "$0: $tool not found (apt-get install slurmctld slurmd slurm-client munge)" >&2; exit 3; }
    done
    mkdir -p "$dir/state" "$dir/spool"
    chmod 700 "$dir"
    node=$(hostname -s)
    cpus=$(nproc)
    # A key of its own: MUNGE refuses a key that others can read.
    head -c 1024 /dev/urandom > "$dir/munge.key"
    chmod 400 "$dir/munge.key"
    munged --force --key-file="$dir/munge.key" --socket="$dir/munge.socket" --pid-file="$dir/munged.pid" \
      --log-file="$dir/munged.log" --seed-file="$dir/munged.seed"
    cat > "$dir/slurm.conf" <<CONF
ClusterName=rooflablocal
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
PropagateResourceLimits=NONE
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF="$dir/slurm.conf"
    slurmctld -f "$dir/slurm.conf"
    slurmd -f "$dir/slurm.conf" -N "$node"
    # Ready when the node takes jobs.
    for _ in $(seq 100); do
      state=$(sinfo -h -N -o '%t' 2>/dev/null || true)
      case $state in idle*|mix*|alloc*) echo "export SLURM_CONF=$dir/slurm.conf"; exit 0 ;; esac
      sleep 0.2
    done
    echo "$0: the node did not come up (state '${state:-none}'); logs in $dir" >&2
    exit 1
    ;;
  stop)
    stop_pid_file "$dir/slurmd.pid"
    stop_pid_file "$dir/slurmctld.pid"
    stop_pid_file "$dir/munged.pid"
    ;;
  *) usage ;;
esac
