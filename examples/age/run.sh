#!/usr/bin/env bash
# The final measurement of examples/age (run install.sh first, on an idle
# machine), each report published under docs/results/ by scripts/publish.sh:
#   age.toml          the CLIs as processes        docs/results/age.md
#   age-lib.toml      in-process encrypt/decrypt   docs/results/age-lib.md
#   age-keygen.toml   in-process key generation    docs/results/age-keygen.md
#   age-keys.toml     in-process wrap/unwrap       docs/results/age-keys.md
#   age-random.toml   sequential vs random reads   docs/results/age-random.md
# Extra arguments go to every `versus run`. ONLY=age-lib (a report name) runs one.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
for name in age age-lib age-keygen age-keys age-random; do
  [[ -z "${ONLY:-}" || "$ONLY" == "$name" ]] || continue
  scripts/publish.sh "$name" "examples/age/$name.toml" "$@"
done
