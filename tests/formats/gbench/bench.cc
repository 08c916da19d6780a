#include <benchmark/benchmark.h>
#include <string>
#include <vector>
#include <numeric>

static void BM_Sum(benchmark::State& state) {
  std::vector<int> v(state.range(0), 1);
  for (auto _ : state) {
    benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0));
  }
  state.SetBytesProcessed(state.iterations() * state.range(0) * sizeof(int));
}
BENCHMARK(BM_Sum)->Arg(64)->Arg(1024);

static void BM_Concat(benchmark::State& state) {
  for (auto _ : state) {
    std::string s = std::string("a") + std::to_string(42);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_Concat);
BENCHMARK_MAIN();
