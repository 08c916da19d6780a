#!/usr/bin/env bash
# Submits a suite as a Slurm job array of N exclusive pieces and a merge job
# that runs when the array ends; prints the two job ids.
#
#   bash docs/recipes/slurm-submit.sh SUITE.toml N [versus run flags]
#   # later: versus-shards/<array job id>/merged/report.md
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
suite=$1
count=$2
shift 2
array=$(sbatch --parsable --array=0-$((count - 1)) --exclusive "$here/slurm.sbatch" "$suite" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency=afterany:"$array" "$here/slurm-merge.sbatch" "$array")
echo "$array ${merge%%;*}"
