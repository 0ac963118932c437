// The hostile files of hostile_files.h through the SQL interface, each probe in a child process
// of its own with limits on its peak memory and its time: every statement must give the answer or
// the error the case names, the process must not grow by more than the probe's bound (192 MiB
// unless it says otherwise; the tables are created with max_memory=64 or thereabouts) and must be
// done in its time. A child that passes PQ_HOSTILE_KILL_MIB of growth (1024 by default) is
// stopped at once, so that a regression cannot take the machine with it.
//
// The files are written by a child too (some take a few hundred MB to build), so that the test
// process itself stays small and each child starts from the same small resident set.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/ext/sqlite_test_util.h"
#include "tests/hostile/hostile_files.h"

namespace pq::hostile {
namespace {

namespace fs = std::filesystem;

bool Sanitized() { return std::getenv("PQ_SANITIZED") != nullptr; }

// A field of /proc/self/status ("VmRSS:", "VmHWM:") in KiB, or 0.
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

// Runs `fn` in a child process and returns what it wrote, or "" with *status its wait status.
template <typename Fn>
std::string InChild(Fn fn, int* status, double timeout_seconds) {
  int fds[2];
  if (::pipe(fds) != 0) return "";
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    ::alarm(static_cast<unsigned>(timeout_seconds) + 1);  // a hang ends in SIGALRM
    const std::string out = fn();
    size_t done = 0;
    while (done < out.size()) {
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
  ::waitpid(pid, status, 0);
  return got;
}

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
  return s;
}

std::string RowsText(const testing::QueryResult& r) {
  std::string out;
  for (size_t i = 0; i < r.rows.size(); ++i) {
    if (i) out += "\n";
    for (size_t j = 0; j < r.rows[i].size(); ++j) {
      if (j) out += "|";
      out += r.rows[i][j] ? *r.rows[i][j] : "NULL";
    }
  }
  return out;
}

struct ProbeOutcome {
  bool ran = false;        // the child reported
  std::string setup_error;  // a statement before the last failed
  bool ok = false;         // the last statement succeeded
  std::string text;        // its rows, or its error
  double growth_mib = 0;
  double seconds = 0;
  std::string died;        // how the child ended when it did not report
};

// Runs one probe in a child. The child stops itself when it grows past the kill bound.
ProbeOutcome RunProbe(const Probe& probe, const std::vector<std::string>& paths) {
  const int64_t kill_mib = std::getenv("PQ_HOSTILE_KILL_MIB") ? std::atoll(std::getenv("PQ_HOSTILE_KILL_MIB")) : 1024;
  const double timeout = probe.max_seconds * (Sanitized() ? 10 : 3) + 5;
  int status = 0;
  const std::string report = InChild(
      [&]() -> std::string {
        const int64_t start_kib = StatusKib("VmRSS:");
        std::atomic<bool> stop{false};
        std::thread watchdog([&] {
          while (!stop.load()) {
            if (StatusKib("VmRSS:") - start_kib > kill_mib * 1024) {
              std::fprintf(stderr, "hostile probe passed %lld MiB: stopped\n", static_cast<long long>(kill_mib));
              ::_exit(3);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
          }
        });
        const auto t0 = std::chrono::steady_clock::now();
        std::string out;
        {
          testing::TestDb db;
          std::string files;
          for (size_t i = 0; i < paths.size(); ++i) files += (i ? "," : "") + paths[i];
          std::string setup_error, text;
          bool ok = false;
          for (size_t i = 0; i < probe.sql.size(); ++i) {
            std::string sql = Replace(probe.sql[i], "{files}", files);
            for (size_t k = 0; k < paths.size(); ++k) sql = Replace(sql, "{f" + std::to_string(k) + "}", paths[k]);
            const testing::QueryResult r = db.Query(sql);
            if (i + 1 < probe.sql.size()) {
              if (!r.ok) {
                setup_error = sql + ": " + r.error;
                break;
              }
              continue;
            }
            ok = r.ok;
            text = r.ok ? RowsText(r) : r.error;
          }
          out = (setup_error.empty() ? "-" : setup_error) + "\x1f" + (ok ? "1" : "0") + "\x1f" + text;
        }
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        stop = true;
        watchdog.join();
        const double growth = static_cast<double>(StatusKib("VmHWM:") - start_kib) / 1024.0;
        return std::to_string(growth) + "\x1f" + std::to_string(seconds) + "\x1f" + out;
      },
      &status, timeout);
  ProbeOutcome o;
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t at; parts.size() < 4 && (at = report.find('\x1f', start)) != std::string::npos; start = at + 1) {
    parts.push_back(report.substr(start, at - start));
  }
  parts.push_back(report.substr(start));
  if (parts.size() != 5 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    o.died = WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                 : "exited with " + std::to_string(WEXITSTATUS(status));
    return o;
  }
  o.ran = true;
  o.growth_mib = std::stod(parts[0]);
  o.seconds = std::stod(parts[1]);
  if (parts[2] != "-") o.setup_error = parts[2];
  o.ok = parts[3] == "1";
  o.text = parts[4];
  return o;
}

// Writes a case's files under `dir` from a child process; their paths.
std::vector<std::string> WriteFiles(const HostileCase& c, const fs::path& dir) {
  int status = 0;
  const std::string listing = InChild(
      [&]() -> std::string {
        std::string out;
        const std::vector<std::string> files = c.files();
        for (size_t i = 0; i < files.size(); ++i) {
          const fs::path p = dir / ("f" + std::to_string(i) + ".parquet");
          std::ofstream(p, std::ios::binary).write(files[i].data(), static_cast<std::streamsize>(files[i].size()));
          out += p.string() + "\n";
        }
        return out;
      },
      &status, 600);
  std::vector<std::string> paths;
  size_t start = 0;
  for (size_t at; (at = listing.find('\n', start)) != std::string::npos; start = at + 1) {
    paths.push_back(listing.substr(start, at - start));
  }
  return paths;
}

class HostileFilesTest : public ::testing::TestWithParam<HostileCase> {};

TEST_P(HostileFilesTest, AnswersOrFailsWithinBounds) {
  const HostileCase& c = GetParam();
  {
    testing::TestDb db;
    ASSERT_EQ(db.load_error(), "");
  }
  const fs::path dir = fs::temp_directory_path() / ("pq_hostile_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::vector<std::string> paths = WriteFiles(c, dir);
  ASSERT_FALSE(paths.empty()) << "the files of " << c.id << " were not written";
  for (const Probe& probe : c.probes) {
    const std::string last = probe.sql.back();
    SCOPED_TRACE(c.id + " (finding " + std::to_string(c.finding) + "): " + last);
    const ProbeOutcome o = RunProbe(probe, paths);
    std::printf("[hostile] %-34s %-60.60s peak +%7.1f MiB %6.3f s: %s%s\n", c.id.c_str(), last.c_str(),
                o.growth_mib, o.seconds, o.ran ? (o.ok ? "rows " : "error ") : o.died.c_str(),
                o.ran ? o.text.substr(0, 300).c_str() : "");
    ASSERT_TRUE(o.ran) << "the probe did not finish: " << o.died;
    EXPECT_EQ(o.setup_error, "");
    if (!probe.error.empty()) {
      EXPECT_FALSE(o.ok) << "succeeded with rows '" << o.text.substr(0, 200) << "'";
      for (const std::string& m : probe.error) {
        EXPECT_NE(o.text.find(Replace(m, "{f0}", paths[0])), std::string::npos)
            << "the error '" << o.text << "' does not name " << m;
      }
    } else {
      EXPECT_TRUE(o.ok) << "failed: " << o.text;
      if (probe.rows) {
        EXPECT_EQ(o.text, *probe.rows);
      }
    }
    // Sanitizers double what a process holds and keep freed memory in quarantine.
    const double bound = static_cast<double>(probe.max_growth_mib) * (Sanitized() ? 3 : 1);
    EXPECT_LT(o.growth_mib, bound) << "peak memory grew by " << o.growth_mib << " MiB";
    EXPECT_LT(o.seconds, probe.max_seconds * (Sanitized() ? 10 : 1)) << "took " << o.seconds << " s";
  }
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Cases, HostileFilesTest, ::testing::ValuesIn(HostileCases()),
                         [](const ::testing::TestParamInfo<HostileCase>& param) {
                           std::string name = std::to_string(param.index) + "_";
                           for (char ch : param.param.id) name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
                           return name;
                         });

}  // namespace
}  // namespace pq::hostile
