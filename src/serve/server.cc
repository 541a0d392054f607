#include "serve/server.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "aligndb.pb.h"
#include "cli/print.h"
#include "export/export.h"
#include "report/report.h"
#include "serve/pages.h"
#include "storage/store.h"
#include "text/text.h"
#include "util/numbers.h"

// Last: its system headers (OpenSSL, sockets) define macros that break Eigen, which the headers
// above include.
#include <httplib.h>
#include <sys/socket.h>

namespace aligndb::serve {
namespace {

using Clock = std::chrono::steady_clock;

// One read-only open of the database, shared by the requests that use it, with the home page's
// statistics computed on first use (they scan every record).
struct View {
  std::unique_ptr<Store> store;
  std::once_flag home_once;
  CorpusStats stats;
  std::vector<std::pair<std::string, std::string>> pictures;
  std::string stats_error;  // empty when `stats` holds the statistics
  // The pairs made through a redirect, found on first use (a scan): their normal titles are
  // not record names, so the title completion looks them up here.
  std::once_flag redirected_once;
  std::vector<RedirectedPair> redirected;
};

// What decides whether the database changed: the names and sizes of the files a read-only
// open reads (CURRENT, manifests, write-ahead logs, tables). The info logs are left out: a
// reader's own open writes to them.
std::string Signature(const std::string& dir) {
  std::vector<std::string> entries;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!(name == "CURRENT" || name.starts_with("MANIFEST-") || name.ends_with(".log") ||
          name.ends_with(".sst")))
      continue;
    std::error_code size_ec;
    const auto size = std::filesystem::file_size(it->path(), size_ec);
    entries.push_back(name + ":" + std::to_string(size_ec ? 0 : size));
  }
  std::sort(entries.begin(), entries.end());
  std::string sig;
  for (const auto& e : entries) sig += e + "\n";
  return sig;
}

Status OpenView(const std::string& dir, std::shared_ptr<View>* out) {
  auto v = std::make_shared<View>();
  StoreOptions opts;
  opts.read_only = true;
  RETURN_IF_ERROR(Store::Open(opts, dir, &v->store));
  *out = std::move(v);
  return Status::OK();
}

// The current view of the database, reopened when its files changed.
class Views {
 public:
  Views(std::string dir, int refresh_ms) : dir_(std::move(dir)), refresh_(refresh_ms) {}

  Status Open() {
    signature_ = Signature(dir_);
    last_check_ = Clock::now();
    return OpenView(dir_, &current_);
  }

  std::shared_ptr<View> Get() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      const auto now = Clock::now();
      if (refreshing_ || now - last_check_ < refresh_) return current_;
      refreshing_ = true;  // one request checks; the others keep the current view meanwhile
      last_check_ = now;
    }
    std::string sig;
    std::shared_ptr<View> fresh;
    bool reopen = false;
    // A failed reopen (a writer deleting files under it, or anything thrown) keeps the old view;
    // the next check tries again.
    try {
      sig = Signature(dir_);
      reopen = sig != signature_ && OpenView(dir_, &fresh).ok();
    } catch (const std::exception&) {
      reopen = false;
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (reopen) {
      current_ = std::move(fresh);
      signature_ = std::move(sig);
    }
    refreshing_ = false;
    return current_;
  }

 private:
  const std::string dir_;
  const std::chrono::milliseconds refresh_;
  std::mutex mu_;
  std::shared_ptr<View> current_;
  std::string signature_;  // of current_, read and written only by the refreshing request
  Clock::time_point last_check_;
  bool refreshing_ = false;
};

int HttpStatusFor(const Status& s) {
  switch (s.code()) {
    case Status::Code::kOk:
      return 200;
    case Status::Code::kInvalidArgument:
      return 400;
    case Status::Code::kNotFound:
      return 404;
    case Status::Code::kBusy:
    case Status::Code::kIOError:
      return 503;
    default:
      return 500;
  }
}

constexpr char kHtml[] = "text/html; charset=utf-8";
constexpr char kJson[] = "application/json";

void SendHtml(httplib::Response& res, int status, std::string body) {
  res.status = status;
  res.set_content(std::move(body), kHtml);
}

// `http_status`: the status to send; 0 takes it from `s`.
void SendJsonError(httplib::Response& res, const Status& s, int http_status = 0) {
  res.status = http_status ? http_status : HttpStatusFor(s);
  nlohmann::ordered_json j = {{"error", s.message()}, {"status", res.status}};
  // A message may quote a parameter that is not UTF-8: replaced, not thrown on.
  res.set_content(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", kJson);
}

void SendHtmlError(httplib::Response& res, const Status& s,
                   const std::vector<std::string>& suggestions = {}) {
  const int status = HttpStatusFor(s);
  SendHtml(res, status, ErrorPage(status, s.message(), suggestions));
}

// ---------------------------------------------------------------- parameters

// The parameter `name`, empty when absent.
std::string Param(const httplib::Request& req, const char* name) {
  return req.has_param(name) ? req.get_param_value(name) : std::string();
}

Status CheckKnownParams(const httplib::Request& req,
                        std::initializer_list<std::string_view> known) {
  for (const auto& [name, value] : req.params)
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (auto k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      return Status::InvalidArgument("unknown parameter \"" + name + "\" (known: " + list + ")");
    }
  return Status::OK();
}

// A finite decimal number; an empty value leaves `*out` as it is.
Status ParseNumber(const char* name, const std::string& value, double* out) {
  if (value.empty()) return Status::OK();
  double v = 0;
  const char* end = value.data() + value.size();
  auto [ptr, ec] = std::from_chars(value.data(), end, v);
  if (ec != std::errc() || ptr != end || !std::isfinite(v))
    return Status::InvalidArgument(std::string(name) + ": \"" + value +
                                   "\" is not a finite number");
  *out = v;
  return Status::OK();
}

// The edition pair named by normal/simple or collection.
EditionPair EditionsFrom(const httplib::Request& req) {
  const std::string collection = Param(req, "collection");
  if (!collection.empty()) return {collection, collection, OptionNames::kParams};
  return {Param(req, "normal"), Param(req, "simple"), OptionNames::kParams};
}

// The export filters of the request, as `export` takes them on its command line.
Status ExportOptionsFrom(const httplib::Request& req, ExportOptions* o) {
  o->editions = EditionsFrom(req);
  o->min_sim = std::nan("");  // the defaults depend on what is exported, as for the command
  o->max_sim = std::nan("");
  RETURN_IF_ERROR(ParseNumber("min_sim", Param(req, "min_sim"), &o->min_sim));
  RETURN_IF_ERROR(ParseNumber("max_sim", Param(req, "max_sim"), &o->max_sim));
  if (const std::string ops = Param(req, "op"); !ops.empty())
    RETURN_IF_ERROR(ParseExportOps(ops, &o->ops, OptionNames::kParams));
  const std::string unit = Param(req, "unit");
  if (!unit.empty() && unit != "sentence" && unit != "operation")
    return Status::InvalidArgument("unit: use sentence or operation");
  o->unit = unit == "operation" ? ExportUnit::kOperation : ExportUnit::kSentence;
  const std::string label = Param(req, "label");
  if (!label.empty() && !ParseLabelName(label, &o->label))
    return Status::InvalidArgument("label: use good or partial");
  const std::string no_identical = Param(req, "no_identical");
  if (req.has_param("no_identical") && no_identical != "" && no_identical != "1" &&
      no_identical != "true")
    return Status::InvalidArgument("no_identical: use 1 or true (or leave it out)");
  o->no_identical = req.has_param("no_identical") && no_identical != "0";
  o->title = Param(req, "title");
  o->format = OutputFormat::kJsonl;
  return Status::OK();
}

// ---------------------------------------------------------------- reading

// Up to `limit` titles of aligned article pairs that start with `prefix` (both normalized),
// either edition's: the record names lead to the simple titles and the normal titles equal to
// them, the view's list of pairs made through a redirect to the other normal titles.
Status SuggestTitles(View* view, const std::string& prefix, size_t limit,
                     std::vector<std::string>* out) {
  out->clear();
  Store* store = view->store.get();
  EditionPair pair;
  RETURN_IF_ERROR(ResolveEditions(store, {}, &pair));
  uint32_t normal = 0, simple = 0;
  RETURN_IF_ERROR(store->EditionId(pair.normal, false, &normal));
  RETURN_IF_ERROR(store->EditionId(pair.simple, false, &simple));
  std::string key = NormalizeTitle(prefix);
  if (!key.empty() && (prefix.back() == ' ' || prefix.back() == '_')) key += ' ';
  std::vector<std::pair<std::string, std::string>> found;  // (normalized, title)
  auto offer = [&](const std::string& title) {
    std::string n = NormalizeTitle(title);
    if (n.starts_with(key)) found.emplace_back(std::move(n), title);
  };
  auto snap = store->NewSnapshot();
  auto it = store->NewAlignmentIterator(normal, simple, key, snap.get());
  for (size_t records = 0; it->Valid() && records < limit; it->Next(), ++records) {
    offer(it->record().simple_title());
    offer(it->record().normal_title());
  }
  RETURN_IF_ERROR(it->status());
  std::call_once(view->redirected_once, [&] {
    if (!RedirectedPairs(store, {}, &view->redirected).ok()) view->redirected.clear();
  });
  const auto& r = view->redirected;
  for (auto at = std::lower_bound(r.begin(), r.end(), RedirectedPair{key, "", ""});
       at != r.end() && at->key.starts_with(key) && found.size() < 2 * limit; ++at)
    found.emplace_back(at->key, at->normal_title);
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::set<std::string> seen;
  for (const auto& [n, title] : found)
    if (out->size() < limit && seen.insert(title).second) out->push_back(title);
  return Status::OK();
}

// One side of the article page: the stored page when it is the aligned revision and holds every
// aligned position, else the record's own sentences at their positions.
ArticleSide SideOf(Store* store, const pb::AlignmentRecord& r, bool normal) {
  ArticleSide side;
  const std::string& edition = normal ? r.normal_edition() : r.simple_edition();
  const uint64_t page_id = normal ? r.normal_page_id() : r.simple_page_id();
  const uint64_t revision = normal ? r.normal_revision() : r.simple_revision();
  uint32_t id = 0;
  pb::Article article;
  bool usable = store->EditionId(edition, false, &id).ok() &&
                store->GetArticle(id, page_id, &article).ok() && article.revision_id() == revision;
  for (const auto& pp : r.paragraph_pairs())
    for (const auto& sp : pp.sentence_pairs()) {
      const uint32_t p = normal ? sp.normal_paragraph() : sp.simple_paragraph();
      const uint32_t s = normal ? sp.normal_sentence() : sp.simple_sentence();
      usable = usable && p < static_cast<uint32_t>(article.paragraphs_size()) &&
               s < static_cast<uint32_t>(article.paragraphs(p).sentences_size());
    }
  if (usable) {
    for (const auto& para : article.paragraphs())
      side.paragraphs.emplace_back(para.sentences().begin(), para.sentences().end());
    return side;
  }
  return SideFromRecord(r, normal);
}

// Titles to offer when `title` was not found: those starting with it, else with its first
// three characters.
std::vector<std::string> NearTitles(View* view, const std::string& title) {
  std::vector<std::string> near;
  if (!SuggestTitles(view, title, 10, &near).ok()) return {};
  if (near.empty() && title.size() > 3) {
    size_t cut = 3;
    while (cut > 0 && (static_cast<unsigned char>(title[cut]) & 0xC0) == 0x80) --cut;
    if (!SuggestTitles(view, title.substr(0, cut), 10, &near).ok()) return {};
  }
  return near;
}

// Case-insensitive (ASCII) substring test for the pair browser's text filter.
bool Contains(std::string_view hay, std::string_view needle) {
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
  return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(),
                     [&](char a, char b) { return lower(a) == lower(b); }) != hay.end();
}

// A stream buffer over an HTTP chunked response: fails (and so sets the stream's badbit, which
// ends the export) when the client has gone.
class SinkBuf : public std::streambuf {
 public:
  explicit SinkBuf(httplib::DataSink& sink) : sink_(sink) { setp(buf_, buf_ + sizeof(buf_)); }
  int sync() override { return Drain() ? 0 : -1; }

 protected:
  int_type overflow(int_type c) override {
    if (!Drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }

 private:
  bool Drain() {
    const size_t n = static_cast<size_t>(pptr() - pbase());
    setp(buf_, buf_ + sizeof(buf_));
    return n == 0 || (sink_.is_writable() && sink_.write(buf_, n));
  }
  httplib::DataSink& sink_;
  char buf_[1 << 16];
};

}  // namespace

// ---------------------------------------------------------------- the server

struct Server::Rep {
  explicit Rep(ServeOptions o) : options(std::move(o)), views(options.db, options.refresh_ms) {}

  void Route();
  void Home(const httplib::Request& req, httplib::Response& res);
  void Article(const httplib::Request& req, httplib::Response& res);
  void Pairs(const httplib::Request& req, httplib::Response& res);
  void ApiTitles(const httplib::Request& req, httplib::Response& res);
  void ApiLookup(const httplib::Request& req, httplib::Response& res);
  void ApiStats(const httplib::Request& req, httplib::Response& res);
  void ApiExport(const httplib::Request& req, httplib::Response& res);

  ServeOptions options;
  Views views;
  httplib::Server http;
  int port = 0;
  std::atomic<bool> stop_requested{false}, running{false};
};

void Server::Rep::Route() {
  http.Get("/", [this](const auto& req, auto& res) { Home(req, res); });
  http.Get("/article", [this](const auto& req, auto& res) { Article(req, res); });
  http.Get("/pairs", [this](const auto& req, auto& res) { Pairs(req, res); });
  http.Get("/api/titles", [this](const auto& req, auto& res) { ApiTitles(req, res); });
  http.Get("/api/lookup", [this](const auto& req, auto& res) { ApiLookup(req, res); });
  http.Get("/api/stats", [this](const auto& req, auto& res) { ApiStats(req, res); });
  http.Get("/api/export", [this](const auto& req, auto& res) { ApiExport(req, res); });
  // Unknown paths, refused methods and oversized requests get a page (or JSON under /api/);
  // responses that already carry a body keep it.
  http.set_error_handler(
      httplib::Server::HandlerWithResponse([](const httplib::Request& req, httplib::Response& res) {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
        const Status s = res.status == 404 ? Status::NotFound("no page at " + req.path)
                                           : Status::InvalidArgument("request refused");
        const int status = res.status;
        if (req.path.starts_with("/api/"))
          SendJsonError(res, s, status);  // 405, 413, 414 as httplib decided, also in the body
        else
          SendHtml(res, status, ErrorPage(status, s.message(), {}));
        res.status = status;
        return httplib::Server::HandlerResponse::Handled;
      }));
  http.set_exception_handler(
      [](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
        std::string what = "unexpected error";
        try {
          std::rethrow_exception(ep);
        } catch (const std::exception& e) {
          what += std::string(": ") + e.what();
        } catch (...) {
        }
        if (req.path.starts_with("/api/"))  // API clients read JSON, also on a 500
          SendJsonError(res, Status::Internal(what), 500);
        else
          SendHtml(res, 500, ErrorPage(500, what, {}));
      });
  http.set_default_headers({{"X-Content-Type-Options", "nosniff"},
                            {"Content-Security-Policy",
                             "default-src 'none'; style-src 'unsafe-inline'; script-src "
                             "'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
                             "form-action 'self'; base-uri 'none'"}});
}

void Server::Rep::Home(const httplib::Request& req, httplib::Response& res) {
  if (Status s = CheckKnownParams(req, {"prefix"}); !s.ok()) return SendHtmlError(res, s);
  auto view = views.Get();
  Store* store = view->store.get();
  std::call_once(view->home_once, [&] {
    Status s = ComputeCorpusStats(store, {}, kDefaultMinSimilarity, true, &view->stats);
    if (s.ok())
      view->pictures = ReportPictures(view->stats);
    else
      view->stats_error = "No corpus statistics: " + s.message();
  });
  HomeView v;
  v.prefix = Param(req, "prefix");
  if (!v.prefix.empty()) (void)SuggestTitles(view.get(), v.prefix, 50, &v.suggestions);
  if (view->stats_error.empty()) {
    v.stats = &view->stats;
    v.pictures = view->pictures;
  }
  v.stats_error = view->stats_error;
  SendHtml(res, 200, HomePage(v));
}

void Server::Rep::Article(const httplib::Request& req, httplib::Response& res) {
  if (Status s = CheckKnownParams(req, {"title", "normal", "simple"}); !s.ok())
    return SendHtmlError(res, s);
  const std::string title = Param(req, "title");
  if (title.empty())
    return SendHtmlError(res, Status::InvalidArgument("title: give the title to look up"));
  auto view = views.Get();
  Store* store = view->store.get();
  pb::AlignmentRecord record;
  if (Status s = LookupRecord(store, EditionsFrom(req), title, &record); !s.ok())
    return SendHtmlError(
        res, s, s.IsNotFound() ? NearTitles(view.get(), title) : std::vector<std::string>{});
  SendHtml(res, 200,
           ArticlePage(record, SideOf(store, record, true), SideOf(store, record, false)));
}

void Server::Rep::Pairs(const httplib::Request& req, httplib::Response& res) {
  Status s = CheckKnownParams(
      req, {"min_sim", "max_sim", "op", "label", "q", "page", "normal", "simple", "collection"});
  PairsQuery q{Param(req, "min_sim"), Param(req, "max_sim"), Param(req, "op"),
               Param(req, "label"),   Param(req, "q"),       1};
  ExportOptions o;
  if (s.ok()) s = ExportOptionsFrom(req, &o);
  if (s.ok() && req.has_param("page") &&
      (!ParseDecimalU64(Param(req, "page"), &q.page) || q.page < 1 || q.page > 1000000))
    s = Status::InvalidArgument("page: a page number from 1 to 1000000");
  if (!s.ok()) return SendHtmlError(res, s);
  const uint64_t skip = (q.page - 1) * kPairsPerPage;
  uint64_t matched = 0;
  std::vector<PairRow> rows;
  auto view = views.Get();
  const Status kPageFull = Status::Internal("page full");  // stops the scan, not an error
  s = ForEachExportedPair(view->store.get(), o, [&](const ExportedPair& p) {
    if (!q.q.empty() && !Contains(p.normal, q.q) && !Contains(p.simple, q.q) &&
        !Contains(p.normal_title, q.q) && !Contains(p.simple_title, q.q))
      return Status::OK();
    if (matched++ < skip) return Status::OK();
    if (rows.size() == kPairsPerPage) return kPageFull;
    rows.push_back({std::string(p.normal_title), std::string(p.simple_title), std::string(p.normal),
                    std::string(p.simple), p.similarity, p.op, p.label});
    return Status::OK();
  });
  const bool has_next = !s.ok() && s.message() == kPageFull.message();
  if (!s.ok() && !has_next) return SendHtmlError(res, s);
  SendHtml(res, 200, PairsPage(q, rows, has_next));
}

void Server::Rep::ApiTitles(const httplib::Request& req, httplib::Response& res) {
  std::vector<std::string> titles;
  Status s = CheckKnownParams(req, {"prefix"});
  if (s.ok()) s = SuggestTitles(views.Get().get(), Param(req, "prefix"), 20, &titles);
  if (!s.ok()) return SendJsonError(res, s);
  res.set_content(
      nlohmann::json(titles).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
      kJson);
}

void Server::Rep::ApiLookup(const httplib::Request& req, httplib::Response& res) {
  Status s = CheckKnownParams(req, {"title", "normal", "simple"});
  if (s.ok() && Param(req, "title").empty())
    s = Status::InvalidArgument("title: give the title to look up");
  pb::AlignmentRecord record;
  if (s.ok())
    s = LookupRecord(views.Get()->store.get(), EditionsFrom(req), Param(req, "title"), &record);
  if (!s.ok()) return SendJsonError(res, s);
  std::string out;
  PrintLookup(record, OutputFormat::kJson, &out);  // what `lookup --format json` prints
  res.set_content(out, kJson);
}

void Server::Rep::ApiStats(const httplib::Request& req, httplib::Response& res) {
  Status s = CheckKnownParams(req, {"normal", "simple", "collection", "min_sim"});
  double min_sim = kDefaultMinSimilarity;
  if (s.ok()) s = ParseNumber("min_sim", Param(req, "min_sim"), &min_sim);
  std::ostringstream out;
  if (s.ok())
    s = Stats(views.Get()->store.get(), EditionsFrom(req), min_sim, OutputFormat::kJson, out);
  if (!s.ok()) return SendJsonError(res, s);
  res.set_content(out.str(), kJson);  // what `stats --json` prints
}

void Server::Rep::ApiExport(const httplib::Request& req, httplib::Response& res) {
  ExportOptions o;
  Status s = CheckKnownParams(req, {"normal", "simple", "collection", "min_sim", "max_sim", "op",
                                    "unit", "label", "no_identical", "title"});
  if (s.ok()) s = ExportOptionsFrom(req, &o);
  auto view = views.Get();
  // Once streaming starts the status line is sent: check the editions and the limits first by
  // visiting (at most) one pair.
  const Status kChecked = Status::Internal("checked");
  if (s.ok()) {
    s = ForEachExportedPair(view->store.get(), o, [&](const ExportedPair&) { return kChecked; });
    if (!s.ok() && s.message() == kChecked.message()) s = Status::OK();
  }
  if (!s.ok()) return SendJsonError(res, s);
  res.set_chunked_content_provider(
      "application/x-ndjson", [view, o](size_t, httplib::DataSink& sink) {
        SinkBuf buf(sink);
        std::ostream out(&buf);
        uint64_t written = 0;
        Status st = Export(view->store.get(), o, out, &written);
        out.flush();
        if (!st.ok() || !out) return false;  // the client sees a cut stream, not a false end
        sink.done();
        return true;
      });
}

Server::Server(ServeOptions options) : rep_(std::make_unique<Rep>(std::move(options))) {}
Server::~Server() { Stop(); }

Status Server::Start() {
  const ServeOptions& o = rep_->options;
  if (o.port < 0 || o.port > 65535)
    return Status::InvalidArgument("--port " + std::to_string(o.port) + ": use 0 to 65535");
  if (o.threads < 0 || o.threads > 256)
    return Status::InvalidArgument("--threads " + std::to_string(o.threads) +
                                   ": use 0 (one per core) to 256");
  RETURN_IF_ERROR(rep_->views.Open());
  httplib::Server& http = rep_->http;
  const int threads = o.threads > 0
                          ? o.threads
                          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  http.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
  // SO_REUSEADDR only: the library's default SO_REUSEPORT would let a second server share a
  // taken port instead of failing.
  http.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  // Headers and body go out in separate writes: without TCP_NODELAY, Nagle's algorithm holds the
  // body until the client's delayed ACK, some 40 ms per response.
  http.set_tcp_nodelay(true);
  http.set_payload_max_length(64 * 1024);  // requests are GETs; URIs are capped at 8 KB
  http.set_read_timeout(5, 0);
  http.set_write_timeout(30, 0);
  http.set_keep_alive_timeout(5);
  http.set_keep_alive_max_count(1000);
  rep_->Route();
  rep_->port = o.port == 0 ? http.bind_to_any_port(o.host)
                           : (http.bind_to_port(o.host, o.port) ? o.port : -1);
  if (rep_->port < 0)
    return Status::IOError(o.host + ":" + std::to_string(o.port) +
                           ": cannot listen (the port is taken, or the address is not of this "
                           "machine)");
  return Status::OK();
}

int Server::port() const { return rep_->port; }

std::string Server::url() const {
  const std::string& h = rep_->options.host;
  const bool v6 = h.find(':') != std::string::npos;
  return "http://" + (v6 ? "[" + h + "]" : h) + ":" + std::to_string(rep_->port) + "/";
}

Status Server::Run() {
  rep_->running = true;
  if (rep_->stop_requested) {
    rep_->running = false;
    return Status::OK();
  }
  const bool ok = rep_->http.listen_after_bind();
  rep_->running = false;
  if (!ok && !rep_->stop_requested)
    return Status::IOError(url() + ": the server stopped listening");
  return Status::OK();
}

void Server::Stop() {
  rep_->stop_requested = true;
  // A Stop racing with the start of Run waits until the server listens, so that stop() reaches it.
  while (rep_->running && !rep_->http.is_running())
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  rep_->http.stop();
}

}  // namespace aligndb::serve
