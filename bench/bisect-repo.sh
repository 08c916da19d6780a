#!/usr/bin/env bash
# Makes the test repository of bench/bisect.sh: 32 commits after a first
# one, of a small C program whose work is a fixed number of rounds of a
# hash. One commit (the CULPRIT-th, default 19) gives it 5% more rounds;
# every other commit touches files the program does not use. The suite
# that measures it is in the repository's root, suite.toml: the program at
# a quarter, half and all of its rounds (`scale`), so a run has three cells.
#
#   bash bench/bisect-repo.sh DIR [CULPRIT] [ROUNDS]
set -euo pipefail
dir=${1:?usage: bisect-repo.sh DIR [CULPRIT] [ROUNDS]}
culprit=${2:-19}
rounds=${3:-10000000}
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
git init -q -b main
git config user.email bench@versus.invalid
git config user.name "versus bench"
program() {
  cat > prog.c <<C
/* A fixed amount of work: SCALE/4 of ROUNDS rounds of a multiply-xorshift
   hash, SCALE the first argument (1 to 4). */
#include <stdio.h>
#include <stdlib.h>
#define ROUNDS $1UL
int main(int argc, char **argv) {
    unsigned long scale = argc > 1 ? strtoul(argv[1], 0, 10) : 4;
    unsigned long rounds = ROUNDS / 4 * scale;
    unsigned long h = 88172645463325252UL;
    for (unsigned long i = 0; i < rounds; i++) {
        h ^= h << 13; h ^= h >> 7; h ^= h << 17; h *= 0x9E3779B97F4A7C15UL;
    }
    printf("%lu\\n", h);
    return 0;
}
C
}
program "$rounds"
cat > suite.toml <<'TOML'
name = "bisect proof"
description = "A small C program whose work is a fixed number of hash rounds; one commit adds 5% more."
[settings]
runs = 20
warmup = 2
[matrix]
scale = [1, 2, 4]
[operations.work]
output = "none"
[implementations.prog]
build = "gcc -O1 -o prog prog.c"
run.work = "{checkout}/prog {scale}"
TOML
mkdir -p notes
echo "notes" > notes/README
git add -A
git commit -qm "the program and its suite"
for i in $(seq 1 32); do
  if [[ $i == "$culprit" ]]; then
    program $((rounds + rounds / 20))
    git commit -qam "commit $i: 5% more rounds"
  else
    echo "note $i" > "notes/$i.txt"
    git add notes
    git commit -qm "commit $i: a note the program does not read"
  fi
done
