// `aligndb serve`: a read-only HTTP server over the database, for looking at alignments in a
// browser and reading them as JSON (docs/viewer.md lists the pages and the API).
//
// The database is opened read-only, as lookup and export open it, so the server runs beside a
// writer. A read-only open sees the database as it was when opened; the server reopens it when
// its files changed (checked at most every `refresh_ms`), and every request reads one view, each
// read through its own snapshot. Requests run on a fixed pool of threads, with bounded request
// sizes and socket timeouts.
#ifndef ALIGNDB_SERVE_SERVER_H_
#define ALIGNDB_SERVE_SERVER_H_

#include <memory>
#include <string>

#include "aligndb/status.h"

namespace aligndb::serve {

struct ServeOptions {
  // The database directory. Required.
  std::string db;
  // Address to listen on. Default: 127.0.0.1 (this machine only).
  std::string host = "127.0.0.1";
  // TCP port, 0 to 65535; 0 picks a free port. Default: 8080.
  int port = 8080;
  // Threads answering requests (a fixed pool), 0 (one per core) to 256. Default: 8.
  int threads = 8;
  // Least time between two checks for changes of the database's files. Default: 200 ms.
  int refresh_ms = 200;
};

class Server {
 public:
  explicit Server(ServeOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Opens the database and binds the port. InvalidArgument for a port or thread count out of
  // range; the store's status when the database cannot be opened; IOError naming host and port
  // when the port cannot be bound (taken by another process, or an address not of this machine).
  Status Start();
  // The bound port (after Start) and the URL of the home page, "http://HOST:PORT/".
  int port() const;
  std::string url() const;
  // Serves requests until Stop(); call after a successful Start.
  Status Run();
  // Stops Run() (from any thread): the listening socket closes and running requests finish.
  void Stop();

 private:
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

}  // namespace aligndb::serve

#endif  // ALIGNDB_SERVE_SERVER_H_
