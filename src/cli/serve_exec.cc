// serve, in the aligndb executable: runs aligndb-serve, built beside it, with the same arguments
// (`aligndb serve --help` included). The HTTP server library, and the TLS libraries Debian builds
// it with, are linked into aligndb-serve only: loaded at every start, they cost each of the other
// commands about 13 ms (docs/benchmarks.md, "Start of a command").
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <climits>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"

namespace aligndb::cli {
namespace {

// The directory of the running executable (not of argv[0], which may be a bare name on PATH);
// empty when /proc/self/exe cannot be read: then no program is run from some other directory.
std::string ExecutableDir() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return "";
  std::string self(buf, static_cast<size_t>(n));
  size_t slash = self.rfind('/');
  return slash == std::string::npos ? "" : self.substr(0, slash);
}

Runner WireServeExec(CLI::App* cmd) {
  cmd->prefix_command();  // every argument after `serve` is aligndb-serve's to check
  cmd->set_help_flag();   // --help too
  return [](const Invocation& inv) -> Status {
    const std::string dir = ExecutableDir();
    if (dir.empty())
      return Status::IOError(
          "serve: cannot find aligndb's own directory (/proc/self/exe), where aligndb-serve is");
    const std::string path = dir + "/aligndb-serve";
    std::vector<std::string> args = inv.args;  // "serve", then its options
    std::vector<char*> argv;
    std::string argv0 = dir + "/aligndb";  // the usage line names aligndb
    argv.push_back(argv0.data());
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::cout.flush();
    execv(path.c_str(), argv.data());
    return Status::IOError(path + ": " + std::strerror(errno) +
                           " (`aligndb serve` runs this program, built and installed beside aligndb)");
  };
}

}  // namespace

std::vector<Command> ServeCommands() {
  return {
      {"serve", "Look at alignments in a browser: a read-only HTTP viewer and JSON API",
       WireServeExec},
  };
}

}  // namespace aligndb::cli
