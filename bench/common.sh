# Sourced by the bench scripts that measure beside a neighbour (aa-runs.sh,
# contention.sh, young-history.sh), from the repository's root. Sets:
#   versus   the versus to measure with: VERSUS, else the release build;
#   tmp      a temporary folder, removed on exit (copied to KEEP first when
#            KEEP is set);
#   pin      `taskset -c CPUS` when CPUS is set, else nothing;
# and busy_start N (N busy loops, pinned as `pin` says) and stop_busy.
versus="${VERSUS:-}"
if [[ -z "$versus" ]]; then
  cargo build --release --quiet
  versus="$PWD/target/release/versus"
fi
pin=()
[[ -n "${CPUS:-}" ]] && pin=(taskset -c "$CPUS")
tmp="$(mktemp -d)"
busy=()
stop_busy() { for p in "${busy[@]}"; do kill "$p" 2>/dev/null || true; done; busy=(); }
busy_start() { for _ in $(seq 1 "$1"); do "${pin[@]}" bash -c 'while :; do :; done' & busy+=($!); done; }
trap 'stop_busy; [[ -n "${KEEP:-}" ]] && cp -r "$tmp" "$KEEP"; rm -rf "$tmp"' EXIT
