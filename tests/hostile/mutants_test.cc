// Mutants of valid files (mutator.h) through the engine, from fixed seeds: every mutant must open
// and scan to rows or an error, within a bounded peak memory and time, and when its full scan gives
// rows, the pushed-down scan of an equality must give exactly those of them that satisfy it. All run
// in one child process whose growth over its starting resident set is measured (VmHWM) and bounded;
// it stops itself past PQ_HOSTILE_KILL_MIB (1024 by default). PQ_MUTANTS sets how many (400, or 120
// under the sanitizers), PQ_MUTANT_SEED the first seed.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "tests/hostile/mutator.h"

namespace pq::hostile {
namespace {

int64_t StatusKib(const char* field) {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return 0;
  char line[256];
  int64_t kib = 0;
  const size_t n = std::strlen(field);
  while (std::fgets(line, sizeof(line), f)) {
    if (std::strncmp(line, field, n) == 0) kib = std::strtoll(line + n, nullptr, 10);
  }
  std::fclose(f);
  return kib;
}

uint64_t EnvNumber(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

TEST(MutantsTest, EveryMutantAnswersOrFailsWithinBounds) {
  const bool sanitized = std::getenv("PQ_SANITIZED") != nullptr;
  const uint64_t count = EnvNumber("PQ_MUTANTS", sanitized ? 120 : 400);
  const uint64_t first_seed = EnvNumber("PQ_MUTANT_SEED", 1);
  const int64_t kill_mib = static_cast<int64_t>(EnvNumber("PQ_HOSTILE_KILL_MIB", 1024));
  const double max_seconds = sanitized ? 300 : 60;
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    ::alarm(static_cast<unsigned>(max_seconds) * 2);
    const int64_t start_kib = StatusKib("VmRSS:");
    std::atomic<bool> stop{false};
    std::thread watchdog([&] {
      while (!stop.load()) {
        if (StatusKib("VmRSS:") - start_kib > kill_mib * 1024) ::_exit(3);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    });
    const auto t0 = std::chrono::steady_clock::now();
    int64_t failed = 0, answered = 0;
    std::string report;
    for (uint64_t seed = first_seed; seed < first_seed + count; ++seed) {
      RandomChooser chooser(seed);
      bool lies = false;
      const std::string bytes = MutantFile(chooser, &lies);
      const MutantOutcome o = CheckMutant(bytes, lies);
      if (o.error.empty()) {
        ++answered;
      } else {
        ++failed;
      }
      if (o.disagree) report += "seed " + std::to_string(seed) + ": " + o.detail + "\n";
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    stop = true;
    watchdog.join();
    const double growth = static_cast<double>(StatusKib("VmHWM:") - start_kib) / 1024.0;
    const std::string out = std::to_string(growth) + "\n" + std::to_string(seconds) + "\n" +
                            std::to_string(answered) + "\n" + std::to_string(failed) + "\n" + report;
    for (size_t done = 0; done < out.size();) {
      const ssize_t w = ::write(fds[1], out.data() + done, out.size() - done);
      if (w <= 0) break;
      done += static_cast<size_t>(w);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string got;
  char buf[4096];
  ssize_t r;
  while ((r = ::read(fds[0], buf, sizeof(buf))) > 0) got.append(buf, static_cast<size_t>(r));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << "the mutants' process did not finish (status " << status << ")";
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t at; lines.size() < 4 && (at = got.find('\n', start)) != std::string::npos; start = at + 1) {
    lines.push_back(got.substr(start, at - start));
  }
  ASSERT_EQ(lines.size(), 4u) << got;
  const double growth = std::stod(lines[0]), seconds = std::stod(lines[1]);
  const std::string disagreements = got.substr(start);
  std::printf("[mutants] %llu mutants from seed %llu: %s answered, %s failed; peak +%.1f MiB, %.2f s\n",
              static_cast<unsigned long long>(count), static_cast<unsigned long long>(first_seed),
              lines[2].c_str(), lines[3].c_str(), growth, seconds);
  EXPECT_EQ(disagreements, "") << "pushed-down scans that disagree with full scans";
  EXPECT_LT(growth, sanitized ? 576 : 192);
  EXPECT_LT(seconds, max_seconds);
  EXPECT_GT(std::stoll(lines[2]), 0) << "no mutant was readable: the mutations say too little";
}

}  // namespace
}  // namespace pq::hostile
