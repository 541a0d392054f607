// Tests of a new database's deferred syncs, on real databases in temporary directories.
#include "storage/deferred_sync.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <limits>
#include <set>
#include <string>
#include <thread>

#include "aligndb.pb.h"
#include "storage/store.h"
#include "storage/store_fixtures.h"
#include "test_util.h"

namespace aligndb {
namespace {

using testing::MakeArticle;
using testing::OpenOrDie;
using testing::TempDir;

bool Marked(const std::string& dir) { return std::filesystem::exists(dir + "/" + kUnsyncedMarker); }

std::set<std::string> Files(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.insert(e.path().filename().string());
  return names;
}

// Writes one article to a new database in `dir` (left open in `*store`).
void CreateWithArticle(const std::string& dir, std::unique_ptr<Store>* store) {
  *store = OpenOrDie(dir);
  ASSERT_TRUE(*store);
  uint32_t ed = 0;
  ASSERT_TRUE((*store)->EditionId("enwiki", true, &ed).ok());
  ASSERT_TRUE((*store)->PutArticle(ed, MakeArticle(7, "River", 1, {{"The river flows."}})).ok());
}

void ExpectArticle(const std::string& dir, bool read_only = false) {
  auto store = OpenOrDie(dir, false, read_only);
  ASSERT_TRUE(store);
  uint32_t ed = 0;
  ASSERT_TRUE(store->EditionId("enwiki", false, &ed).ok());
  pb::Article a;
  Status s = store->GetArticle(ed, 7, &a);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(a.title(), "River");
}

// A finished database in `dir` whose marker says another boot of the machine created it.
void CreateWithForeignMarker(const std::string& dir) {
  {
    std::unique_ptr<Store> store;
    CreateWithArticle(dir, &store);
  }
  ASSERT_TRUE(WriteUnsyncedMarker(dir, "00000000-0000-0000-0000-000000000000").ok());
}

// Every open of `dir`, by a writer (which may create) and by a reader, is refused as damaged.
void ExpectRefusedAsDamaged(const std::string& dir) {
  for (bool read_only : {false, true}) {
    std::unique_ptr<Store> store;
    StoreOptions opts;
    opts.read_only = read_only;
    opts.create_if_missing = !read_only;
    Status s = Store::Open(opts, dir, &store);
    EXPECT_EQ(s.code(), Status::Code::kCorruption) << s.ToString();
    EXPECT_NE(s.ToString().find("restarted"), std::string::npos) << s.ToString();
  }
}

TEST(DeferredSyncTest, FileSystemSkipsSyncsOnlyWhileDeferring) {
  TempDir tmp;
  DeferredSyncFileSystem fs(rocksdb::FileSystem::Default());
  std::unique_ptr<rocksdb::FSWritableFile> f;
  ASSERT_TRUE(fs.NewWritableFile(tmp.Sub("f"), rocksdb::FileOptions(), &f, nullptr).ok());
  std::unique_ptr<rocksdb::FSDirectory> d;
  ASSERT_TRUE(fs.NewDirectory(tmp.path(), rocksdb::IOOptions(), &d, nullptr).ok());
  ASSERT_TRUE(f->Append("abc", rocksdb::IOOptions(), nullptr).ok());
  ASSERT_TRUE(f->Sync(rocksdb::IOOptions(), nullptr).ok());
  ASSERT_TRUE(d->Fsync(rocksdb::IOOptions(), nullptr).ok());
  EXPECT_EQ(fs.skipped_syncs(), 0u);
  fs.set_deferring(true);
  ASSERT_TRUE(f->Sync(rocksdb::IOOptions(), nullptr).ok());
  ASSERT_TRUE(f->Fsync(rocksdb::IOOptions(), nullptr).ok());
  ASSERT_TRUE(d->Fsync(rocksdb::IOOptions(), nullptr).ok());
  EXPECT_EQ(fs.skipped_syncs(), 3u);
  ASSERT_TRUE(f->Close(rocksdb::IOOptions(), nullptr).ok());
  EXPECT_EQ(testing::ReadFile(tmp.Sub("f")), "abc");  // writes still reach the file
}

// Descriptors of this process open on `dir`.
int OpenDescriptorsOf(const std::string& dir) {
  int n = 0;
  const auto target = std::filesystem::canonical(dir);
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    if (std::filesystem::read_symlink(e.path(), ec) == target) ++n;
  }
  return n;
}

// syncfs reports the write errors since its descriptor was opened: the file system holds the
// directory open from its creation, before RocksDB writes a file, to its destruction.
TEST(DeferredSyncTest, FileSystemHoldsTheDirectoryFromTheStart) {
  TempDir tmp;
  const std::string dir = tmp.Sub("db");
  std::filesystem::create_directories(dir);
  const int before = OpenDescriptorsOf(dir);
  {
    DeferredSyncFileSystem fs(rocksdb::FileSystem::Default(), dir);
    EXPECT_TRUE(fs.open_status().ok());
    EXPECT_EQ(OpenDescriptorsOf(dir), before + 1);
    Status s = fs.SyncFileSystem();
    EXPECT_TRUE(s.ok()) << s.ToString();
  }
  EXPECT_EQ(OpenDescriptorsOf(dir), before);
  // A directory that cannot be held is an error at once (the store then refuses to open), not
  // a later sync that could not report what it must.
  DeferredSyncFileSystem missing(rocksdb::FileSystem::Default(), tmp.Sub("none"));
  EXPECT_EQ(missing.open_status().code(), Status::Code::kIOError);
  Status s = missing.SyncFileSystem();
  EXPECT_EQ(s.code(), Status::Code::kIOError);
  EXPECT_NE(s.ToString().find(tmp.Sub("none")), std::string::npos) << s.ToString();
}

// A new database carries the marker (this boot's id) until Close has made it durable; a
// database opened again is written with syncs, unmarked.
TEST(DeferredSyncTest, NewDatabaseIsMarkedUntilClose) {
  TempDir tmp;
  const std::string dir = tmp.Sub("db");
  std::unique_ptr<Store> store;
  CreateWithArticle(dir, &store);
  ASSERT_TRUE(Marked(dir));
  EXPECT_TRUE(store->syncs_deferred());
  std::string boot, marked;
  ASSERT_TRUE(CurrentBootId(&boot).ok());
  bool present = false;
  ASSERT_TRUE(ReadUnsyncedMarker(dir, &present, &marked).ok());
  EXPECT_TRUE(present);
  EXPECT_EQ(marked, boot);
  Status s = store->Close();
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_FALSE(Marked(dir));
  store.reset();
  {
    auto again = OpenOrDie(dir, false);
    ASSERT_TRUE(again);
    EXPECT_FALSE(Marked(dir));
    EXPECT_FALSE(again->syncs_deferred());  // it held data before: every write synced
  }
  ExpectArticle(dir);
}

// A long first ingest is written without syncs only for its first max_deferred_seconds: the
// first write after that makes everything durable, removes the marker, and syncs from then on.
TEST(DeferredSyncTest, DeferralEndsAfterItsTimeWithEverythingDurable) {
  TempDir tmp;
  const std::string dir = tmp.Sub("db");
  StoreOptions opts;
  opts.create_if_missing = true;
  // Long enough that the first write lands within it on a loaded machine (CI runs tests side by
  // side); the second write is made after it, timed from before the open.
  opts.max_deferred_seconds = 2.0;
  const auto opened = std::chrono::steady_clock::now();
  std::unique_ptr<Store> store;
  ASSERT_TRUE(Store::Open(opts, dir, &store).ok());
  uint32_t ed = 0;
  ASSERT_TRUE(store->EditionId("enwiki", true, &ed).ok());
  ASSERT_TRUE(store->PutArticle(ed, MakeArticle(7, "River", 1, {{"The river flows."}})).ok());
  EXPECT_TRUE(store->syncs_deferred());  // within its time
  EXPECT_TRUE(Marked(dir));
  std::this_thread::sleep_until(opened + std::chrono::milliseconds(2100));
  ASSERT_TRUE(store->PutArticle(ed, MakeArticle(8, "Lake", 1, {{"The lake is still."}})).ok());
  EXPECT_FALSE(store->syncs_deferred());
  EXPECT_FALSE(Marked(dir));
  const uint64_t skipped = store->sync_file_system()->skipped_syncs();
  ASSERT_TRUE(store->FlushMemtables().ok());  // its table files and manifest record, synced
  EXPECT_EQ(store->sync_file_system()->skipped_syncs(), skipped);
  ASSERT_TRUE(store->Close().ok());
  ExpectArticle(dir);
  // The default keeps a short command's creation unsynced to its close.
  std::unique_ptr<Store> other;
  CreateWithArticle(tmp.Sub("db2"), &other);
  ASSERT_TRUE(other->PutArticle(ed, MakeArticle(8, "Lake", 1, {{"The lake is still."}})).ok());
  EXPECT_TRUE(other->syncs_deferred());
  // A limit past what a clock can hold (infinity, NaN) is clamped, not an overflow that ends
  // the deferral at once (infinity) or never starts it.
  opts.max_deferred_seconds = std::numeric_limits<double>::infinity();
  std::unique_ptr<Store> endless;
  ASSERT_TRUE(Store::Open(opts, tmp.Sub("db3"), &endless).ok());
  ASSERT_TRUE(endless->EditionId("enwiki", true, &ed).ok());
  ASSERT_TRUE(endless->PutArticle(ed, MakeArticle(7, "River", 1, {{"The river flows."}})).ok());
  EXPECT_TRUE(endless->syncs_deferred());
  ASSERT_TRUE(endless->Close().ok());
  EXPECT_FALSE(Marked(tmp.Sub("db3")));
}

// A creating process killed before Close (no destructor runs) leaves the marker; in the same
// boot the next writer reads everything it committed and makes it durable at its own close.
TEST(DeferredSyncTest, KilledCreationGoesOnInTheSameBoot) {
  TempDir tmp;
  const std::string dir = tmp.Sub("db");
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::unique_ptr<Store> store;
    CreateWithArticle(dir, &store);
    _exit(::testing::Test::HasFailure() ? 1 : 0);  // as kill -9: nothing closed or synced
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ASSERT_TRUE(Marked(dir));
  ExpectArticle(dir, /*read_only=*/true);  // a reader of this boot reads it as it is
  EXPECT_TRUE(Marked(dir));
  {
    auto writer = OpenOrDie(dir, false);
    ASSERT_TRUE(writer);
    EXPECT_TRUE(writer->syncs_deferred());  // still the creation's own work
    ASSERT_TRUE(writer->Close().ok());
  }
  EXPECT_FALSE(Marked(dir));  // the writer's close synced it
  ExpectArticle(dir);
}

// After a restart an unsynced database may be torn: every open refuses it with Corruption, and
// nothing in the directory is touched.
TEST(DeferredSyncTest, MarkerOfAnotherBootIsRefused) {
  TempDir tmp;
  const std::string dir = tmp.Sub("db");
  CreateWithForeignMarker(dir);
  const std::set<std::string> before = Files(dir);
  ExpectRefusedAsDamaged(dir);
  EXPECT_EQ(Files(dir), before);
  // Without the marker (the user's call to make) it opens as it was, with syncs.
  std::filesystem::remove(dir + "/" + kUnsyncedMarker);
  ExpectArticle(dir);
  auto writer = OpenOrDie(dir, false);
  ASSERT_TRUE(writer);
  EXPECT_FALSE(writer->syncs_deferred());
}

// A restart can lose even CURRENT's rename (its directory was not synced): still the damaged
// database of another boot, not "not an aligndb database".
TEST(DeferredSyncTest, TornCreationWithoutCurrentIsRefusedAsDamaged) {
  TempDir tmp;
  const std::string dir = tmp.Sub("db");
  CreateWithForeignMarker(dir);
  std::filesystem::remove(dir + "/CURRENT");
  ExpectRefusedAsDamaged(dir);
  EXPECT_TRUE(Marked(dir));
}

// A writer that opens a finished database while no creation is under way syncs as RocksDB does,
// also when it opened while the creator was closing (the marker gone once it holds the lock).
TEST(DeferredSyncTest, WriterOfAFinishedDatabaseSyncs) {
  TempDir tmp;
  const std::string dir = tmp.Sub("db");
  {
    std::unique_ptr<Store> store;
    CreateWithArticle(dir, &store);
    ASSERT_TRUE(store->Close().ok());
  }
  auto writer = OpenOrDie(dir, false);
  ASSERT_TRUE(writer);
  EXPECT_FALSE(writer->syncs_deferred());
  EXPECT_FALSE(Marked(dir));
}

// A creation stopped before its first key holds nothing: the marker is part of what the next
// writer removes before it creates the database again.
TEST(DeferredSyncTest, MarkerOfAnEmptyInterruptedCreationIsRemoved) {
  TempDir tmp;
  const std::string dir = tmp.Sub("db");
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(WriteUnsyncedMarker(dir, "00000000-0000-0000-0000-000000000000").ok());
  std::unique_ptr<Store> store;
  CreateWithArticle(dir, &store);
  ASSERT_TRUE(store->Close().ok());
  EXPECT_FALSE(Marked(dir));
  store.reset();
  ExpectArticle(dir);
}

}  // namespace
}  // namespace aligndb
