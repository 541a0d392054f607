// One error type for all of aligndb. An OK Status is a null pointer and costs nothing;
// a failed one carries a code and a one-line message that names the file and the position
// (byte offset or line) where one is known. RocksDB statuses, Xapian errors and parse errors
// are all converted to this type at the boundary of the module that meets them.
#ifndef ALIGNDB_STATUS_H_
#define ALIGNDB_STATUS_H_

#include <memory>
#include <string>
#include <string_view>

namespace aligndb {

class [[nodiscard]] Status {
 public:
  enum class Code {
    kOk = 0,
    kNotFound = 1,
    kInvalidArgument = 2,  // bad command-line or API input
    kCorruption = 3,       // bad input data: a corrupt file, malformed XML/JSON, bad UTF-8
    kIOError = 4,          // the file system failed (missing file, full disk, ...)
    kBusy = 5,             // another process holds the database
    kInternal = 6,
  };

  Status() = default;
  Status(const Status& other) { *this = other; }
  Status& operator=(const Status& other) {
    rep_ = other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr;
    return *this;
  }
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;

  static Status OK() { return Status(); }
  static Status NotFound(std::string_view msg) { return Status(Code::kNotFound, msg); }
  static Status InvalidArgument(std::string_view msg) {
    return Status(Code::kInvalidArgument, msg);
  }
  static Status Corruption(std::string_view msg) { return Status(Code::kCorruption, msg); }
  static Status IOError(std::string_view msg) { return Status(Code::kIOError, msg); }
  static Status Busy(std::string_view msg) { return Status(Code::kBusy, msg); }
  static Status Internal(std::string_view msg) { return Status(Code::kInternal, msg); }

  bool ok() const { return rep_ == nullptr; }
  Code code() const { return rep_ ? rep_->code : Code::kOk; }
  bool IsNotFound() const { return code() == Code::kNotFound; }
  const std::string& message() const;
  // "Corruption: <message>" or "OK".
  std::string ToString() const;

  // Returns a copy whose message is "<prefix>: <message>".
  Status WithPrefix(std::string_view prefix) const;

 private:
  struct Rep {
    Code code;
    std::string message;
  };
  Status(Code code, std::string_view msg)
      : rep_(std::make_unique<Rep>(Rep{code, std::string(msg)})) {}
  std::unique_ptr<Rep> rep_;
};

}  // namespace aligndb

#define ALIGNDB_CONCAT_INNER_(a, b) a##b
#define ALIGNDB_CONCAT_(a, b) ALIGNDB_CONCAT_INNER_(a, b)
// Returns from the calling function when `expr` yields a failed Status.
#define RETURN_IF_ERROR(expr)                                                          \
  do {                                                                                 \
    ::aligndb::Status ALIGNDB_CONCAT_(_st_, __LINE__) = (expr);                        \
    if (!ALIGNDB_CONCAT_(_st_, __LINE__).ok()) return ALIGNDB_CONCAT_(_st_, __LINE__); \
  } while (0)

#endif  // ALIGNDB_STATUS_H_
