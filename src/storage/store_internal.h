// Helpers shared by the modules that read and write RocksDB column families directly.
#ifndef ALIGNDB_STORAGE_STORE_INTERNAL_H_
#define ALIGNDB_STORAGE_STORE_INTERNAL_H_

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <string>
#include <string_view>

#include "aligndb/status.h"
#include "aligndb/version.h"
#include "storage/store.h"
#include "text/text.h"

namespace aligndb {

inline constexpr const char* kToolVersion = ALIGNDB_VERSION;

// Converts a RocksDB status; `context` names the database or record.
Status FromRocks(const rocksdb::Status& s, const std::string& context);

inline rocksdb::WriteOptions WriteOpts() { return rocksdb::WriteOptions(); }

std::string EncodeInt64(int64_t v);
int64_t DecodeInt64(const rocksdb::Slice& s);
// Key of the document frequency of `token` in `edition` ("counts" CF).
std::string DfKey(uint32_t edition, std::string_view token);

}  // namespace aligndb

#endif  // ALIGNDB_STORAGE_STORE_INTERNAL_H_
