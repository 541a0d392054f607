// Micro-benchmarks of the hot paths (Google Benchmark). Build: cmake --build build --target
// micro_bench Run: build/micro_bench   (reads the bundled dumps from data/)
#include <benchmark/benchmark.h>
#include <bzlib.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <random>

#include "align/align.h"
#include "align/similarity.h"
#include "dump/bz2_decode.h"
#include "dump/bz2_parallel.h"
#include "dump/dump.h"
#include "text/text.h"
#include "text/tokens.h"
#include "text/wikitext.h"

namespace aligndb {
namespace {

const std::vector<SourcePage>& Pages() {
  static std::vector<SourcePage> pages = [] {
    std::vector<SourcePage> out;
    (void)ReadMediaWikiDump(
        std::string(ALIGNDB_SOURCE_DIR) + "/data/wikidumps/enwiki-gensim-sample.xml.bz2",
        [&](const SourcePage& p, const DumpInfo&) {
          if (p.ns == 0 && !p.is_redirect) out.push_back(p);
          return Status::OK();
        },
        nullptr);
    return out;
  }();
  return pages;
}

void BM_CleanWikitext(benchmark::State& state) {
  size_t bytes = 0;
  for (auto _ : state)
    for (const auto& p : Pages()) {
      benchmark::DoNotOptimize(CleanWikitext(p.text));
      bytes += p.text.size();
    }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_CleanWikitext)->Unit(benchmark::kMillisecond);

void BM_SplitAndTokenize(benchmark::State& state) {
  std::vector<std::string> paragraphs;
  for (const auto& p : Pages())
    for (auto& para : CleanWikitext(p.text).paragraphs) paragraphs.push_back(para);
  SentenceSplitter splitter;
  std::vector<std::string> tokens;
  size_t bytes = 0;
  for (auto _ : state)
    for (const auto& para : paragraphs) {
      for (const auto& s : splitter.Split(para)) {
        tokens.clear();
        Tokenize(s, &tokens);
      }
      bytes += para.size();
    }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_SplitAndTokenize)->Unit(benchmark::kMillisecond);

// The whole text path of ingest per page, as src/ingest runs it: cleaning, sentence splitting
// (TextProcessor) and the page's document-frequency terms (PageTerms: tokenizing every
// sentence); throughput in bytes of wikitext.
void BM_TextPipeline(benchmark::State& state) {
  TextProcessor processor;
  ProcessedPage processed;
  PageTerms terms;
  size_t bytes = 0;
  for (auto _ : state)
    for (const auto& p : Pages()) {
      (void)processor.Process(p, &processed);
      terms.Clear();
      for (const auto& para : processed.paragraphs) {
        terms.BeginParagraph();
        for (const auto& s : para) terms.AddSentence(s);
      }
      bytes += p.text.size();
    }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_TextPipeline)->Unit(benchmark::kMillisecond);

// Decompressing a bz2 file through the sequential source (argument 0) and the block-parallel one
// (argument: worker threads); wall time, as the point is using more cores. The file is
// $ALIGNDB_BENCH_BZ2, by default the bundled English dump (only 2 blocks: give a larger one).
void BM_Bz2Read(benchmark::State& state) {
  const char* env = std::getenv("ALIGNDB_BENCH_BZ2");
  const std::string path =
      env ? env : std::string(ALIGNDB_SOURCE_DIR) + "/data/wikidumps/enwiki-gensim-sample.xml.bz2";
  std::vector<char> buf(1 << 18);
  size_t bytes = 0;
  for (auto _ : state) {
    std::unique_ptr<ByteSource> src;
    Status s = state.range(0) == 0
                   ? OpenByteSource(path, &src)
                   : OpenParallelByteSource(path, static_cast<int>(state.range(0)), &src);
    for (size_t got = 1; s.ok() && got > 0; bytes += got)
      s = src->Read(buf.data(), buf.size(), &got);
    if (!s.ok()) state.SkipWithError(s.ToString().c_str());
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_Bz2Read)->Arg(0)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// One core decoding a bz2 file held in memory: libbz2 (0), the faster decoder walking each block
// in one part (1, its Huffman tables and move-to-front alone) or in 32 parts (32, the default).
void BM_Bz2Decode(benchmark::State& state) {
  const char* env = std::getenv("ALIGNDB_BENCH_BZ2");
  std::ifstream f(env ? env
                      : std::string(ALIGNDB_SOURCE_DIR) +
                            "/data/wikidumps/enwiki-gensim-sample.xml.bz2",
                  std::ios::binary);
  std::stringstream in;
  in << f.rdbuf();
  const std::string z = in.str();
  std::string out;
  bz2_internal::SetBwtParts(std::max<int>(1, static_cast<int>(state.range(0))));
  std::vector<char> buf(1 << 20);
  size_t bytes = 0;
  for (auto _ : state) {
    out.clear();
    if (state.range(0) > 0) {
      if (!FastDecodeBz2(z, &out, 64ull << 20)) state.SkipWithError("not decoded");
      bytes += out.size();
      continue;
    }
    bz_stream s{};
    size_t at = 0;
    int rc = BZ_STREAM_END;
    while (at < z.size() && rc == BZ_STREAM_END) {
      BZ2_bzDecompressInit(&s, 0, 0);
      s.next_in = const_cast<char*>(z.data() + at);
      s.avail_in = static_cast<unsigned>(z.size() - at);
      do {
        s.next_out = buf.data();
        s.avail_out = static_cast<unsigned>(buf.size());
        rc = BZ2_bzDecompress(&s);
        bytes += buf.size() - s.avail_out;
      } while (rc == BZ_OK);
      at = z.size() - s.avail_in;
      BZ2_bzDecompressEnd(&s);
    }
    if (rc != BZ_STREAM_END) state.SkipWithError("libbz2 failed");
  }
  bz2_internal::SetBwtParts(32);
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_Bz2Decode)->Arg(0)->Arg(1)->Arg(32)->Unit(benchmark::kMillisecond);

void BM_AlignSentences(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::mt19937 rng(1);
  Eigen::MatrixXd sim(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) sim(i, j) = std::uniform_real_distribution<double>(0, 1)(rng);
  for (auto _ : state) benchmark::DoNotOptimize(AlignSentences(sim, 0.0001));
  state.SetItemsProcessed(state.iterations() * n * n);
}
BENCHMARK(BM_AlignSentences)->Arg(8)->Arg(32)->Arg(128);

void BM_Cosine(benchmark::State& state) {
  IdfTable idf;
  std::vector<std::string> a, b;
  std::vector<uint32_t> ca, cb;
  for (int k = 0; k < 40; ++k) {
    a.push_back("t" + std::to_string(k * 2));
    b.push_back("t" + std::to_string(k * 3));
    ca.push_back(1);
    cb.push_back(2);
  }
  for (uint32_t id = 0; id < 200; ++id) idf.SetIdf(idf.Id("t" + std::to_string(id)), 1000, 1 + id);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  SparseVector va = idf.Vector(a, ca), vb = idf.Vector(b, cb);
  for (auto _ : state) benchmark::DoNotOptimize(Cosine(va, vb));
}
BENCHMARK(BM_Cosine);

}  // namespace
}  // namespace aligndb

BENCHMARK_MAIN();
