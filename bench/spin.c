/* The CPU-bound loop the bench scripts measure (aa-runs.sh, instructions.sh):
   the same work in every copy, and PERCENT more of it where a change is wanted. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
/* spin N [PERCENT]: N·PERCENT/100 rounds of xorshift64, the result printed. */
int main(int argc, char **argv) {
  uint64_t n = strtoull(argv[1], 0, 10);
  if (argc > 2) n = n * strtoull(argv[2], 0, 10) / 100;
  uint64_t x = 88172645463325252ull;
  for (uint64_t i = 0; i < n; i++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; }
  printf("%llu\n", (unsigned long long)x);
  return 0;
}
