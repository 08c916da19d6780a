#!/usr/bin/env bash
# Validates the scheduler recipes in docs/recipes against their published
# schemas (a schema check, not a run): the GitHub Actions workflow against
# SchemaStore's workflow schema, which check-jsonschema bundles, and the
# Kubernetes manifest against the Kubernetes JSON schemas, which
# kubernetes-validate bundles, strictly (unknown fields are errors). Both
# come from PyPI into a virtual environment under the cache folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=${VERSUS_CI_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/versus-ci/recipes-venv}
if [[ ! -x $venv/bin/check-jsonschema || ! -x $venv/bin/kubernetes-validate ]]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q check-jsonschema==0.39.0 kubernetes-validate==1.37.0
fi
"$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows "$root/docs/recipes/github-actions.yml"
"$venv/bin/kubernetes-validate" --strict -k 1.37.0 "$root/docs/recipes/kubernetes.yaml"
# The checks must be able to fail: a misspelt field in each is refused.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's/runs-on:/run-on:/' "$root/docs/recipes/github-actions.yml" >"$tmp/bad.yml"
sed 's/completionMode:/completionMod:/' "$root/docs/recipes/kubernetes.yaml" >"$tmp/bad.yaml"
if "$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows "$tmp/bad.yml" >/dev/null 2>&1 \
  || "$venv/bin/kubernetes-validate" --strict -k 1.37.0 "$tmp/bad.yaml" >/dev/null 2>&1; then
  echo "recipes: a misspelt field passed the schema check" >&2
  exit 1
fi
bash -n "$root"/docs/recipes/slurm*.sbatch "$root/docs/recipes/slurm-submit.sh"
echo "recipes: the workflow and the manifest match their schemas"
