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
"$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows "$root/docs/recipes/github-actions.yml" "$root/docs/recipes/github-pages-site.yml"
"$venv/bin/check-jsonschema" --builtin-schema vendor.github-actions "$root/action.yml"
"$venv/bin/kubernetes-validate" --strict -k 1.37.0 "$root/docs/recipes/kubernetes.yaml"
# The checks must be able to fail: a misspelt field in each is refused.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's/runs-on:/run-on:/' "$root/docs/recipes/github-actions.yml" >"$tmp/bad.yml"
sed 's/runs-on:/run-on:/' "$root/docs/recipes/github-pages-site.yml" >"$tmp/bad-site.yml"
sed 's/completionMode:/completionMod:/' "$root/docs/recipes/kubernetes.yaml" >"$tmp/bad.yaml"
if "$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows "$tmp/bad.yml" >/dev/null 2>&1 \
  || "$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows "$tmp/bad-site.yml" >/dev/null 2>&1 \
  || "$venv/bin/kubernetes-validate" --strict -k 1.37.0 "$tmp/bad.yaml" >/dev/null 2>&1; then
  echo "recipes: a misspelt field passed the schema check" >&2
  exit 1
fi
bash -n "$root"/docs/recipes/slurm*.sbatch "$root/docs/recipes/slurm-submit.sh"
echo "recipes: the workflow and the manifest match their schemas"
# The Pages workflow's artifact, made as its steps make it: two runs of the
# quickstart recorded in a store, then the Action's site step
# (`versus_pr.py site`: `versus site --out site --regressions`), which must
# succeed also when the newest run is slower, set the outputs the workflow
# reads, and leave a folder that holds the index and opens from disk (no
# address outside the site).
versus=${VERSUS:-$root/target/debug/versus}
store="$tmp/store.db"
for i in 1 2; do
  VERSUS_STORE=$store VERSUS_CACHE_DIR="$tmp/cache" "$versus" run "$root/examples/quickstart.toml" -q --runs 6 --out "$tmp/run-$i" >/dev/null
done
if ! (cd "$tmp" && env -u GITHUB_EVENT_PATH VERSUS="$versus" VERSUS_STORE="$store" VERSUS_PR_SITE=site VERSUS_CACHE_DIR="$tmp/cache" \
  GITHUB_WORKSPACE="$tmp" GITHUB_OUTPUT="$tmp/outputs" GITHUB_STEP_SUMMARY="$tmp/summary.md" \
  python3 "$root/scripts/action/versus_pr.py" site >"$tmp/site.log"); then
  cat "$tmp/site.log" >&2
  echo "recipes: the Action's site step failed" >&2
  exit 1
fi
grep -qE '^site-status=(0|4)$' "$tmp/outputs" || { echo "recipes: the site step set no site-status" >&2; exit 1; }
[[ -s $tmp/site/index.html ]] || { echo "recipes: the site has no index.html" >&2; exit 1; }
if grep -rlE '(src|href)="(https?:)?//' "$tmp/site" >/dev/null; then
  echo "recipes: a page of the site loads something from another address" >&2
  exit 1
fi
echo "recipes: the Pages workflow's site was made by the Action's site step ($(find "$tmp/site" -type f | wc -l) files, $(grep site-status "$tmp/outputs")) from a store of 2 runs"
