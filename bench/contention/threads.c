/* threads T N: N rounds of xorshift64 split over T threads (the same work
   whatever T), the results combined and printed. With T=2 on 2 CPUs it
   takes half the wall time of T=1 on a quiet machine, and a neighbour that
   keeps one CPU busy costs it a third of its CPU while the single thread
   keeps a CPU of its own: the comparison bench/contention.sh measures. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct share { uint64_t rounds, x; };

static void *spin(void *arg) {
  struct share *s = arg;
  uint64_t x = s->x;
  for (uint64_t i = 0; i < s->rounds; i++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; }
  s->x = x;
  return 0;
}

int main(int argc, char **argv) {
  int t = atoi(argv[1]);
  uint64_t n = strtoull(argv[2], 0, 10);
  if (t < 1 || t > 64) return 2;
  pthread_t ids[64];
  struct share shares[64];
  for (int i = 0; i < t; i++) {
    shares[i] = (struct share){n / t, 88172645463325252ull + i};
    pthread_create(&ids[i], 0, spin, &shares[i]);
  }
  uint64_t x = 0;
  for (int i = 0; i < t; i++) { pthread_join(ids[i], 0); x ^= shares[i].x; }
  printf("%llu\n", (unsigned long long)x);
  return 0;
}
