# A one-node Slurm cluster on this machine, for tests: no systemd, no
# accounting, every file in one temporary folder. Source it, then:
#
#   slurm_install            # Debian's slurm-wlm and munge (returns 1 with a reason if it cannot)
#   trap slurm_stop EXIT     # first, so the daemons stop however the caller ends
#   slurm_start              # munged as the munge user, slurmctld -D, slurmd -D; exports SLURM_CONF
#   ...sbatch, squeue...
#   slurm_stop               # stops every daemon slurm_start started and removes the folder
#
# The cluster is the machine itself: CPUs from nproc,
# proctrack/linuxproc and task/none (no cgroups needed), ports chosen free.

SLURM_TEST_DIR=""
SLURM_TEST_PIDS=()

slurm_install() {
  if command -v sbatch >/dev/null && command -v slurmctld >/dev/null && command -v slurmd >/dev/null \
    && command -v munged >/dev/null; then
    return 0
  fi
  if [[ $(id -u) != 0 ]] || ! command -v apt-get >/dev/null; then
    echo "slurm: cannot install slurm-wlm and munge (needs root and apt-get)" >&2
    return 1
  fi
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge; } >/dev/null 2>&1 || {
    echo "slurm: apt-get install slurm-wlm munge failed" >&2
    return 1
  }
}

_slurm_free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Waits up to $2 seconds for the command $1 to succeed.
_slurm_wait() {
  local deadline=$((SECONDS + $2))
  until eval "$1" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || return 1
    sleep 0.5
  done
}

_slurm_config() {
  local node=$1 dir=$2
  cat <<CONF
ClusterName=versus-test
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
SlurmctldPort=$(_slurm_free_port)
SlurmdPort=$(_slurm_free_port)
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
MinJobAge=600
NodeName=$node CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
}

slurm_start() {
  SLURM_TEST_DIR=$(mktemp -d /tmp/versus-slurm.XXXXXX)
  local dir=$SLURM_TEST_DIR node
  node=$(hostname -s)
  chmod 755 "$dir"
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
  # munged refuses keys and sockets others could tamper with: its own user; the socket folder 0711 (clients need x), the key 0600.
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chown -R munge:munge "$dir/munge"
  chmod 711 "$dir/munge"
  chmod 600 "$dir/munge/munge.key"
  setpriv --reuid=munge --regid=munge --init-groups /usr/sbin/munged --foreground \
    --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/munged.seed" \
    --log-file="$dir/munge/munged.log" >"$dir/log/munged.out" 2>&1 &
  SLURM_TEST_PIDS+=($!)
  _slurm_wait "munge -S '$dir/munge/munge.socket' -n </dev/null | unmunge -S '$dir/munge/munge.socket'" 20 || {
    echo "slurm: munged did not start:" >&2
    cat "$dir/log/munged.out" "$dir/munge/munged.log" >&2 2>/dev/null
    return 1
  }
  _slurm_config "$node" "$dir" >"$dir/slurm.conf"
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -D -f "$SLURM_CONF" >"$dir/log/slurmctld.out" 2>&1 &
  SLURM_TEST_PIDS+=($!)
  slurmd -D -f "$SLURM_CONF" -N "$node" >"$dir/log/slurmd.out" 2>&1 &
  SLURM_TEST_PIDS+=($!)
  _slurm_wait "sinfo -h -N -o %T | grep -qE '^(idle|mixed|allocated)'" 60 || {
    echo "slurm: the node did not come up:" >&2
    sinfo -N >&2 || true
    tail -n 20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" "$dir/log/"*.out >&2 2>/dev/null
    return 1
  }
}

slurm_stop() {
  local pid
  for pid in "${SLURM_TEST_PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${SLURM_TEST_PIDS[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  SLURM_TEST_PIDS=()
  if [[ -n $SLURM_TEST_DIR ]]; then
    rm -rf "$SLURM_TEST_DIR"
    SLURM_TEST_DIR=""
  fi
}

# Waits up to $2 seconds for job $1 (and every task of an array) to leave the queue.
slurm_wait_job() {
  _slurm_wait "[[ -z \$(squeue -h -j $1 2>/dev/null) ]]" "$2"
}
