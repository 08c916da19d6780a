#!/usr/bin/env bash
# A check for a change that must not change what versus says: renders every
# committed results.json and test fixture in every format, a diff of each
# pair of runs of one suite, and a store made of those runs as `versus
# history show`, `versus trend` and `versus site` see it, with two builds,
# and compares the outputs byte for byte.
#
#   scripts/same-output.sh OLD_VERSUS NEW_VERSUS [WORK_DIR]
#
# Prints the count of files compared and each one that differs; exits 1 when
# any does. Nothing is measured: runs, revisions and bisect steps measure
# anew each time and are covered by the tests instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
old="$(realpath "$1")" new="$(realpath "$2")"
work="${3:-$(mktemp -d)}"
mkdir -p "$work"

render_all() { # VERSUS OUT
  local v="$1" out="$2" f name n
  mkdir -p "$out"
  export VERSUS_CACHE_DIR="$out/.cache" VERSUS_STORE="$out/store/history.db" NO_COLOR=1 COLUMNS=100
  for f in docs/results/*/results.json tests/fixtures/*.json; do
    name="$(echo "$f" | tr '/' '_')"
    mkdir -p "$out/r/$name"
    # One output a call, so that one refused (a PR comment of a run with no
    # revisions) costs only itself; a refusal is compared like any output.
    for out_flag in "markdown report.md" "html report.html" "csv cells.csv" "bmf bmf.json" \
      "json results.json" "hyperfine hyperfine.json" "pyperf pyperf.json" "go-bench go.txt" \
      "github-action gha.json" "pr-comment pr.md"; do
      set -- $out_flag
      "$v" report "$f" "--$1" "$out/r/$name/$2" >"$out/r/$name/$1.stdout" 2>&1 || echo "exit $?" >>"$out/r/$name/$1.stdout"
    done
    "$v" report "$f" --color never >"$out/r/$name/terminal.txt" 2>&1 || true
    "$v" report "$f" --color never -v >"$out/r/$name/terminal-v.txt" 2>&1 || true
  done
  # A diff of each pair of committed runs of one suite.
  n=0
  for a in docs/results/*/results.json; do
    for b in docs/results/*/results.json; do
      [[ "$a" < "$b" ]] || continue
      [[ "$(jq -r .suite.name "$a")" == "$(jq -r .suite.name "$b")" ]] || continue
      n=$((n + 1))
      "$v" diff "$a" "$b" >"$out/diff-$n.txt" 2>&1 || echo "exit $?" >>"$out/diff-$n.txt"
    done
  done
  # A store of every committed run: history, trend, site.
  for f in docs/results/*/results.json; do
    "$v" history import --as-this-machine "$f" >/dev/null 2>&1 || true
  done
  "$v" history list >"$out/history.txt" 2>&1 || true
  "$v" history show 1 >>"$out/history.txt" 2>&1 || true
  n=0
  while IFS= read -r s; do
    n=$((n + 1))
    "$v" trend --suite "$s" --html "$out/trend-$n.html" --markdown "$out/trend-$n.md" >"$out/trend-$n.txt" 2>&1 || true
  done < <(jq -r .suite.name docs/results/*/results.json | sort -u)
  "$v" site --out "$out/site" >/dev/null 2>&1 || true
  "$v" site --regressions --json >"$out/regressions.json" 2>&1 || true
  rm -rf "$out/.cache" "$out/store"
}

# Both builds write into the same folder, so paths in messages match.
rm -rf "$work/old" "$work/new" "$work/out"
render_all "$old" "$work/out" && mv "$work/out" "$work/old"
render_all "$new" "$work/out" && mv "$work/out" "$work/new"
count=$(cd "$work/old" && find . -type f | wc -l)
if diff -r "$work/old" "$work/new" >"$work/differences.txt"; then
  echo "same output: $count files identical ($work)"
else
  echo "DIFFERENT: $(grep -c '^diff\|^Only' "$work/differences.txt") of $count files ($work/differences.txt)"
  exit 1
fi
