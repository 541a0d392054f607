// serve: the read-only viewer and JSON API over HTTP (serve/server.h, docs/viewer.md).
#include <jemalloc/jemalloc.h>
#include <pthread.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <string>
#include <thread>

#include "cli/command.h"
#include "cli/options.h"
#include "serve/server.h"

namespace aligndb::cli {
namespace {

// The viewer runs for days: memory freed after a large request goes back to the system after
// 10 s (jemalloc's default), where the other commands keep it for reuse (main.cc).
void ReturnFreedMemory() {
  ssize_t decay_ms = 10000;
  unsigned arenas = 0;
  size_t size = sizeof arenas;
  mallctl("arenas.dirty_decay_ms", nullptr, nullptr, &decay_ms, sizeof decay_ms);
  if (mallctl("arenas.narenas", &arenas, &size, nullptr, 0) != 0) return;
  for (unsigned i = 0; i < arenas; ++i)
    mallctl(("arena." + std::to_string(i) + ".dirty_decay_ms").c_str(), nullptr, nullptr,
            &decay_ms, sizeof decay_ms);
}

// Serves until SIGINT or SIGTERM. The signals are blocked in every thread and taken by one
// thread with sigwait, which stops the server: no work is done in a signal handler.
Status RunServe(const serve::ServeOptions& options) {
  ReturnFreedMemory();
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);  // inherited by the server's threads
  serve::Server server(options);
  RETURN_IF_ERROR(server.Start());
  std::printf("%s\n", server.url().c_str());  // tests and scripts read the port from here
  std::fflush(stdout);
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    server.Stop();
  });
  Status s = server.Run();
  pthread_kill(waiter.native_handle(), SIGTERM);  // ends the waiter when Run ended by itself
  waiter.join();
  return s;
}

Runner WireServe(CLI::App* cmd) {
  auto o = std::make_shared<serve::ServeOptions>();
  AddDbOption(cmd, &o->db);
  cmd->add_option("--host", o->host, "Address to listen on (default 127.0.0.1: this machine only)")
      ->capture_default_str()
      ->check(NonEmpty());
  cmd->add_option("--port", o->port, "TCP port; 0 picks a free one (the URL is printed)")
      ->capture_default_str();
  cmd->add_option("--threads", o->threads,
                  "Threads answering requests (a fixed pool); 0: one per core")
      ->capture_default_str()
      ->check(ThreadCount());
  return [o](const Invocation&) { return RunServe(*o); };
}

}  // namespace

std::vector<Command> ServeCommands() {
  return {
      {"serve", "Look at alignments in a browser: a read-only HTTP viewer and JSON API", WireServe},
  };
}

}  // namespace aligndb::cli
