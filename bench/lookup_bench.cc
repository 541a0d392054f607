// Lookup latency: opens a database read-only, looks up random aligned titles, prints p50/p99.
// Usage: lookup_bench DB [N=2000]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>
#include <sstream>

#include "cli/print.h"
#include "export/export.h"
#include "storage/store.h"

int main(int argc, char** argv) {
  using namespace aligndb;
  if (argc < 2) {
    std::fprintf(stderr, "usage: lookup_bench DB [N]\n");
    return 2;
  }
  size_t n = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 2000;
  std::unique_ptr<Store> store;
  StoreOptions o;
  o.read_only = true;
  Status s = Store::Open(o, argv[1], &store);
  if (!s.ok()) return std::fprintf(stderr, "%s\n", s.ToString().c_str()), 1;
  // Titles of the aligned pairs, from a JSONL export's first field would be slow: use the
  // simple edition's titles that lookup finds.
  std::map<std::string, uint32_t> eds;
  (void)store->Editions(&eds);
  std::vector<std::string> titles;
  (void)store->ForEachTitle(eds["simplewiki"], [&](const std::string& t, uint64_t) {
    titles.push_back(t);
    return Status::OK();
  });
  std::mt19937 rng(1);
  std::vector<double> us, cpu_us;  // wall, and this thread's CPU (steadier on a shared machine)
  auto cpu_now = [] {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
  };
  size_t found = 0, sentences = 0;
  std::string out;  // kept from lookup to lookup, as a server or a loop over titles would
  for (size_t i = 0; i < n; ++i) {
    const std::string& t = titles[rng() % titles.size()];
    const double cpu_start = cpu_now();
    auto start = std::chrono::steady_clock::now();
    Status ls = Lookup(store.get(), {"enwiki", "simplewiki"}, t, OutputFormat::kText, &out);
    auto end = std::chrono::steady_clock::now();
    cpu_us.push_back(cpu_now() - cpu_start);
    us.push_back(std::chrono::duration<double, std::micro>(end - start).count());
    if (ls.ok()) ++found, sentences += std::count(out.begin(), out.end(), '\n');
  }
  std::sort(us.begin(), us.end());
  std::sort(cpu_us.begin(), cpu_us.end());
  EditionCounts en, simple;
  (void)store->GetEditionCounts(eds["enwiki"], &en);
  (void)store->GetEditionCounts(eds["simplewiki"], &simple);
  std::printf("database: %lld + %lld sentences; %zu lookups of random simple titles, %zu found\n",
              (long long)en.sentences, (long long)simple.sentences, n, found);
  std::printf("p50 %.0f us, p90 %.0f us, p99 %.0f us, max %.0f us\n", us[n / 2], us[n * 9 / 10],
              us[n * 99 / 100], us.back());
  std::printf("CPU time: p50 %.0f us, p90 %.0f us, p99 %.0f us, max %.0f us\n", cpu_us[n / 2],
              cpu_us[n * 9 / 10], cpu_us[n * 99 / 100], cpu_us.back());
  return 0;
}
