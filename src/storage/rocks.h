// Storage-private helpers: RocksDB status conversion and the key codecs of docs/storage.md.
// Included only by the storage layer's own sources.
#ifndef ALIGNDB_STORAGE_ROCKS_H_
#define ALIGNDB_STORAGE_ROCKS_H_

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <string>
#include <string_view>

#include "aligndb/status.h"
#include "aligndb/version.h"
#include "storage/store.h"

namespace aligndb {

inline constexpr const char* kToolVersion = ALIGNDB_VERSION;

// Whether `s` says that another process (or this one) holds the database's LOCK file.
bool IsLockHeld(const rocksdb::Status& s);

// Converts a RocksDB status; `context` names the database or record.
Status FromRocks(const rocksdb::Status& s, const std::string& context);

inline rocksdb::WriteOptions WriteOpts() { return rocksdb::WriteOptions(); }
inline rocksdb::ReadOptions ReadOpts(const rocksdb::Snapshot* snapshot) {
  rocksdb::ReadOptions ro;
  ro.snapshot = snapshot;
  return ro;
}

std::string EncodeInt64(int64_t v);
int64_t DecodeInt64(const rocksdb::Slice& s);
// Key of the document frequency of `token` in `edition` ("counts" CF).
std::string DfKey(uint32_t edition, std::string_view token);

// Big-endian key encoding (so that numeric order equals byte order).
std::string EncodeEditionKey(uint32_t edition);
std::string EncodePageKey(uint32_t edition, uint64_t page_id);
void AppendBigEndian32(std::string* out, uint32_t v);
void AppendBigEndian64(std::string* out, uint64_t v);
uint32_t DecodeBigEndian32(const char* p);
uint64_t DecodeBigEndian64(const char* p);

// Key prefix of the alignment records of an edition pair ("alignments" CF): the record's name
// follows it.
std::string AlignmentPrefix(uint32_t normal_edition, uint32_t simple_edition);

}  // namespace aligndb

#endif  // ALIGNDB_STORAGE_ROCKS_H_
