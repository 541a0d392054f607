// Alignment records, pairing summaries and the paragraph-index queue: the column families the
// align, paraphrase, index and export layers use, behind the Store's interface.
#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <map>

#include "aligndb.pb.h"
#include "storage/rocks.h"
#include "storage/store.h"
#include "util/fault.h"

namespace aligndb {
namespace {

constexpr const char* kPairingPrefix = "pairing/";
constexpr const char* kIndexGenerationKey = "index_generation";
constexpr size_t kQueueBatchKeys = 100000;
// Commit alignment records in batches of about this many bytes: small enough that the batch's
// buffer, reused from batch to batch, is not grown (copied, and faulted in afresh) far past it.
constexpr size_t kAlignmentBatchBytes = 1u << 20;
// With ALIGNDB_TEST_SMALL_BATCHES: commit after this many records, for the crash tests.
constexpr int kSmallBatchRecords = 1;

constexpr const char* kKeepPrefix = "keep/";

// Key of the keep record of the alignment record whose key is `record_key` ("meta" CF).
std::string KeepKey(std::string_view record_key) {
  std::string k = kKeepPrefix;
  k.append(record_key);
  return k;
}

std::string PairingKey(const std::string& normal, const std::string& simple) {
  return kPairingPrefix + normal + "/" + simple;
}

Status ParseRecord(const rocksdb::Slice& v, const std::string& dir, pb::AlignmentRecord* r) {
  if (!r->ParseFromArray(v.data(), static_cast<int>(v.size())))
    return Status::Corruption(dir + ": alignment record does not parse");
  return Status::OK();
}

}  // namespace

std::string AlignmentPrefix(uint32_t normal_edition, uint32_t simple_edition) {
  std::string k = EncodeEditionKey(normal_edition);
  AppendBigEndian32(&k, simple_edition);
  return k;
}

// ------------------------------------------------------------------ paragraph index queue

Status Store::PendingIndexPages(uint32_t edition, size_t max, std::vector<uint64_t>* page_ids) {
  page_ids->clear();
  std::unique_ptr<rocksdb::Iterator> it(
      db_->NewIterator(rocksdb::ReadOptions(), cf(Cf::kPendingIndex)));
  const std::string prefix = EncodeEditionKey(edition);
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix) && page_ids->size() < max;
       it->Next()) {
    if (it->key().size() != 12) return Status::Corruption(dir_ + ": bad pending index key");
    page_ids->push_back(DecodeBigEndian64(it->key().data() + 4));
  }
  return FromRocks(it->status(), dir_ + ": pending index queue");
}

Status Store::ClearPendingIndex(uint32_t edition, const std::vector<uint64_t>& page_ids,
                                uint64_t index_generation) {
  rocksdb::WriteBatch batch;
  for (uint64_t id : page_ids) batch.Delete(cf(Cf::kPendingIndex), EncodePageKey(edition, id));
  std::string gen;
  AppendBigEndian64(&gen, index_generation);
  batch.Put(cf(Cf::kMeta), kIndexGenerationKey, gen);
  // Logged: the Xapian commit of these pages is durable already (ParagraphIndex::CheckBelongs
  // accepts an index one commit ahead of the store, not more).
  return Write(&batch, ": index queue", /*logged=*/true);
}

Status Store::IndexGeneration(uint64_t* generation) {
  std::string value;
  RETURN_IF_ERROR(GetMeta(kIndexGenerationKey, &value));
  if (value.size() != 8) return Status::Corruption(dir_ + ": bad index generation");
  *generation = DecodeBigEndian64(value.data());
  return Status::OK();
}

Status Store::QueueAllPagesForIndex(uint64_t* queued) {
  *queued = 0;
  std::map<std::string, uint32_t> editions;
  RETURN_IF_ERROR(Editions(&editions));
  rocksdb::WriteBatch batch;
  for (auto& [name, edition] : editions) {
    std::unique_ptr<rocksdb::Iterator> it(
        db_->NewIterator(rocksdb::ReadOptions(), cf(Cf::kArticles)));
    const std::string prefix = EncodeEditionKey(edition);
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
      batch.Put(cf(Cf::kPendingIndex), it->key(), "");
      ++*queued;
      if (batch.Count() >= kQueueBatchKeys) {
        RETURN_IF_ERROR(Write(&batch, ": index queue", /*logged=*/true));
        batch.Clear();
      }
    }
    RETURN_IF_ERROR(FromRocks(it->status(), dir_ + ": scan articles"));
  }
  std::string gen;
  AppendBigEndian64(&gen, 0);
  batch.Put(cf(Cf::kMeta), kIndexGenerationKey, gen);
  // Logged: the rebuild marks the emptied index as the store's once this returns.
  return Write(&batch, ": index queue", /*logged=*/true);
}

// ------------------------------------------------------------------ alignment records

Status Store::GetAlignment(uint32_t normal_edition, uint32_t simple_edition,
                           const std::string& name, pb::AlignmentRecord* out,
                           const Snapshot* snapshot) {
  rocksdb::PinnableSlice v;
  rocksdb::ReadOptions ro = ReadOpts(Raw(snapshot));
  // A record is read whole once a lookup: kept out of the block cache, its buffer goes back to
  // the pool for the next one (BlockBufferPool) instead of holding cache memory.
  ro.fill_cache = false;
  rocksdb::Status s = db_->Get(ro, cf(Cf::kAlignments),
                               AlignmentPrefix(normal_edition, simple_edition) + name, &v);
  if (s.IsNotFound()) return Status::NotFound("no alignment record \"" + name + "\"");
  RETURN_IF_ERROR(FromRocks(s, dir_ + ": alignments"));
  return ParseRecord(v, dir_, out);
}

Status Store::GetAlignmentKeep(uint32_t normal_edition, uint32_t simple_edition,
                               const std::string& name, pb::AlignmentKeep* out) {
  rocksdb::PinnableSlice v;
  rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), cf(Cf::kMeta),
                               KeepKey(AlignmentPrefix(normal_edition, simple_edition) + name), &v);
  if (s.IsNotFound()) return Status::NotFound("no keep record \"" + name + "\"");
  RETURN_IF_ERROR(FromRocks(s, dir_ + ": keep records"));
  if (!out->ParseFromArray(v.data(), static_cast<int>(v.size())))
    return Status::Corruption(dir_ + ": keep record of \"" + name + "\" does not parse");
  return Status::OK();
}

Status Store::ForEachAlignmentKeep(
    uint32_t normal_edition, uint32_t simple_edition,
    const std::function<Status(const std::string&, const pb::AlignmentKeep&)>& fn,
    const Snapshot* snapshot) {
  const std::string prefix = KeepKey(AlignmentPrefix(normal_edition, simple_edition));
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ReadOpts(Raw(snapshot)), cf(Cf::kMeta)));
  pb::AlignmentKeep keep;
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    if (!keep.ParseFromArray(it->value().data(), static_cast<int>(it->value().size())))
      return Status::Corruption(dir_ + ": a keep record does not parse");
    RETURN_IF_ERROR(fn(it->key().ToString().substr(prefix.size()), keep));
  }
  return FromRocks(it->status(), dir_ + ": scan keep records");
}

std::unique_ptr<AlignmentIterator> Store::NewAlignmentIterator(uint32_t normal_edition,
                                                               uint32_t simple_edition,
                                                               const std::string& name_prefix,
                                                               const Snapshot* snapshot) {
  return std::unique_ptr<AlignmentIterator>(new AlignmentIterator(
      this, AlignmentPrefix(normal_edition, simple_edition) + name_prefix, snapshot));
}

Status Store::ForEachAlignment(uint32_t normal_edition, uint32_t simple_edition,
                               const std::string& name_prefix,
                               const std::function<Status(const pb::AlignmentRecord&)>& fn,
                               const Snapshot* snapshot) {
  auto it = NewAlignmentIterator(normal_edition, simple_edition, name_prefix, snapshot);
  for (; it->Valid(); it->Next()) RETURN_IF_ERROR(fn(it->record()));
  return it->status();
}

std::unique_ptr<AlignmentWriter> Store::NewAlignmentWriter(uint32_t normal_edition,
                                                           uint32_t simple_edition) {
  return std::make_unique<AlignmentWriter>(this, normal_edition, simple_edition);
}

struct AlignmentIterator::Rep {
  Store* store;
  std::string prefix;  // edition pair and name prefix
  size_t name_offset;  // where the name starts in a key
  std::unique_ptr<rocksdb::Iterator> it;
  pb::AlignmentRecord record;
};

AlignmentIterator::AlignmentIterator(Store* store, std::string prefix, const Snapshot* snapshot)
    : rep_(std::make_unique<Rep>()) {
  rep_->store = store;
  rep_->prefix = std::move(prefix);
  rep_->name_offset = 8;
  rep_->it.reset(
      store->db_->NewIterator(ReadOpts(Store::Raw(snapshot)), store->cf(Store::Cf::kAlignments)));
  rep_->it->Seek(rep_->prefix);
  Load();
}

AlignmentIterator::~AlignmentIterator() = default;

void AlignmentIterator::Load() {
  valid_ = false;
  rocksdb::Iterator& it = *rep_->it;
  if (!it.Valid() || !it.key().starts_with(rep_->prefix)) {
    status_ = FromRocks(it.status(), rep_->store->dir() + ": scan alignments");
    return;
  }
  status_ = ParseRecord(it.value(), rep_->store->dir(), &rep_->record);
  if (!status_.ok()) return;
  name_.assign(it.key().data() + rep_->name_offset, it.key().size() - rep_->name_offset);
  valid_ = true;
}

void AlignmentIterator::Next() {
  if (!valid_) return;
  rep_->it->Next();
  Load();
}

const pb::AlignmentRecord& AlignmentIterator::record() const { return rep_->record; }

// ------------------------------------------------------------------ AlignmentWriter

struct AlignmentWriter::Rep {
  rocksdb::WriteBatch batch;
  int records = 0;  // put since the last commit
};

AlignmentWriter::AlignmentWriter(Store* store, uint32_t normal_edition, uint32_t simple_edition)
    : store_(store),
      prefix_(AlignmentPrefix(normal_edition, simple_edition)),
      rep_(std::make_unique<Rep>()) {}

AlignmentWriter::~AlignmentWriter() = default;

Status AlignmentWriter::Put(const std::string& name, const pb::AlignmentRecord& record) {
  if (store_->read_only()) return Status::InvalidArgument(store_->dir() + ": opened read-only");
  const std::string key = prefix_ + name;
  rep_->batch.Put(store_->cf(Store::Cf::kAlignments), key, record.SerializeAsString());
  // A keep record left from an earlier align run must not vouch for this record.
  rep_->batch.Delete(store_->cf(Store::Cf::kMeta), KeepKey(key));
  return MaybeFlush();
}

Status AlignmentWriter::PutWithKeep(const std::string& name, const std::string& record_bytes,
                                    const std::string& keep_bytes) {
  if (store_->read_only()) return Status::InvalidArgument(store_->dir() + ": opened read-only");
  const std::string key = prefix_ + name;
  rep_->batch.Put(store_->cf(Store::Cf::kAlignments), key, record_bytes);
  rep_->batch.Put(store_->cf(Store::Cf::kMeta), KeepKey(key), keep_bytes);
  return MaybeFlush();
}

Status AlignmentWriter::PutKeep(const std::string& name, const std::string& keep_bytes) {
  if (store_->read_only()) return Status::InvalidArgument(store_->dir() + ": opened read-only");
  rep_->batch.Put(store_->cf(Store::Cf::kMeta), KeepKey(prefix_ + name), keep_bytes);
  return MaybeFlush();
}

Status AlignmentWriter::MaybeFlush() {
  if (rep_->batch.GetDataSize() > kAlignmentBatchBytes ||
      (SmallBatches() && ++rep_->records >= kSmallBatchRecords))
    return Flush();
  return Status::OK();
}

Status AlignmentWriter::DeleteExcept(const std::string& name_prefix,
                                     const std::unordered_set<std::string>& keep, uint64_t* deleted,
                                     bool scan_keep_records) {
  if (store_->read_only()) return Status::InvalidArgument(store_->dir() + ": opened read-only");
  RETURN_IF_ERROR(Flush());  // the scan then sees every record put so far
  // Record key = prefix_ name; keep record key = KeepKey(record key), in "meta".
  const std::string prefix =
      scan_keep_records ? KeepKey(prefix_ + name_prefix) : prefix_ + name_prefix;
  const size_t name_at = prefix.size() - name_prefix.size();
  std::unique_ptr<rocksdb::Iterator> it(store_->db_->NewIterator(
      rocksdb::ReadOptions(),
      store_->cf(scan_keep_records ? Store::Cf::kMeta : Store::Cf::kAlignments)));
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    std::string name = it->key().ToString().substr(name_at);
    if (keep.count(name)) continue;
    const std::string key = prefix_ + name;
    rep_->batch.Delete(store_->cf(Store::Cf::kAlignments), key);
    rep_->batch.Delete(store_->cf(Store::Cf::kMeta), KeepKey(key));
    if (deleted) ++*deleted;
  }
  return FromRocks(it->status(), store_->dir() + ": scan alignments");
}

Status AlignmentWriter::Flush() {
  if (rep_->batch.Count() == 0) return Status::OK();
  CrashPoint();
  Status s = store_->Write(&rep_->batch, ": write alignments");
  rep_->batch.Clear();
  rep_->records = 0;
  CrashPoint();
  return s;
}

Status AlignmentWriter::PutPairingSummary(const pb::PairingSummary& summary) {
  RETURN_IF_ERROR(Flush());
  return store_->PutMeta(PairingKey(summary.normal_edition(), summary.simple_edition()),
                         summary.SerializeAsString());
}

// ------------------------------------------------------------------ pairing summaries

Status Store::GetPairingSummary(const std::string& normal_edition,
                                const std::string& simple_edition, pb::PairingSummary* out) {
  std::string value;
  RETURN_IF_ERROR(GetMeta(PairingKey(normal_edition, simple_edition), &value));
  if (!out->ParseFromString(value))
    return Status::Corruption(dir_ + ": pairing summary does not parse");
  return Status::OK();
}

Status Store::Pairings(std::vector<std::pair<std::string, std::string>>* out) {
  out->clear();
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf(Cf::kMeta)));
  const std::string prefix = kPairingPrefix;
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    std::string rest = it->key().ToString().substr(prefix.size());
    size_t slash = rest.find('/');
    if (slash != std::string::npos)
      out->emplace_back(rest.substr(0, slash), rest.substr(slash + 1));
  }
  return FromRocks(it->status(), dir_ + ": meta");
}

Status Store::EstimateCountKeys(uint64_t* keys) {
  *keys = 0;
  if (!db_->GetIntProperty(cf(Cf::kCounts), "rocksdb.estimate-num-keys", keys))
    return Status::Internal(dir_ + ": no key estimate for document frequencies");
  return Status::OK();
}

bool Store::ArticlesFitInBlockCache() {
  uint64_t bytes = 0;
  return db_->GetIntProperty(cf(Cf::kArticles), "rocksdb.total-sst-files-size", &bytes) &&
         bytes <= kBlockCacheBytes / 2;
}

Status Store::ForEachDocumentFrequency(
    uint32_t edition, const std::function<Status(const std::string&, int64_t)>& fn) {
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf(Cf::kCounts)));
  const std::string prefix = DfKey(edition, "");
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next())
    RETURN_IF_ERROR(fn(it->key().ToString().substr(prefix.size()), DecodeInt64(it->value())));
  return FromRocks(it->status(), dir_ + ": document frequencies");
}

}  // namespace aligndb
