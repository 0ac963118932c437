// Several connections, each on its own thread, read the same Parquet files while another connection
// exports new files, including over a file the readers have open. Every read must give the exact
// answer of a complete file (old or new), never an error or garbage. Run under ASan/UBSan by
// `make test-asan` (the extension is loaded into each connection).
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "tests/ext/sqlite_test_util.h"

namespace pq::testing {
namespace {

namespace fs = std::filesystem;

// Rows id = 1..n shifted by `shift`: count n, sum n(n+1)/2 + shift*n.
std::string ExportSql(const std::string& path, int64_t rows, int64_t shift) {
  return "SELECT parquet_export('" + path + "', 'WITH RECURSIVE g(value) AS (SELECT 1 UNION ALL " +
         "SELECT value + 1 FROM g WHERE value < " + std::to_string(rows) + ") SELECT value + " +
         std::to_string(shift) + " AS id, printf(''v%d'', value % 101) AS s FROM g', " +
         "'row_group_size=5000, page_size=4096')";
}

std::string Expected(int64_t rows, int64_t shift) {
  return std::to_string(rows) + "|" + std::to_string(rows * (rows + 1) / 2 + shift * rows);
}

class ConcurrencyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("pq-concurrency-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

TEST_F(ConcurrencyTest, ReadersWhileAnotherConnectionExports) {
  const bool sanitized = std::getenv("PQ_SANITIZED") != nullptr;
  const int64_t rows = 20000;
  const int readers = 4;
  const int rounds = sanitized ? 6 : 20;
  {
    TestDb db;
    ASSERT_EQ(db.load_error(), "");
    ASSERT_TRUE(db.Query(ExportSql(Path("fixed.parquet"), rows, 0)).ok);
    ASSERT_TRUE(db.Query(ExportSql(Path("replaced.parquet"), rows, 0)).ok);
  }

  std::atomic<bool> writer_done{false};
  std::atomic<int64_t> latest_shift{0};
  std::vector<std::string> failures(readers + 1);
  std::vector<std::thread> threads;
  for (int r = 0; r < readers; ++r) {
    threads.emplace_back([&, r] {
      TestDb db;
      if (!db.load_error().empty()) {
        failures[r] = db.load_error();
        return;
      }
      std::string err = db.Exec("CREATE VIRTUAL TABLE temp.f USING parquet('" + Path("fixed.parquet") + "')");
      if (!err.empty()) {
        failures[r] = err;
        return;
      }
      for (int i = 0; i < rounds * 4 && failures[r].empty(); ++i) {
        QueryResult a = db.Query("SELECT count(*), sum(id) FROM f");
        if (!a.ok || a.rows.size() != 1 || *a.rows[0][0] + "|" + *a.rows[0][1] != Expected(rows, 0)) {
          failures[r] = "fixed file: " + (a.ok ? *a.rows[0][0] + "|" + *a.rows[0][1] : a.error);
          break;
        }
        QueryResult b = db.Query("SELECT count(*) FROM f WHERE s = 'v7' AND id > 100");
        if (!b.ok || *b.rows[0][0] != "197") failures[r] = "filtered: " + (b.ok ? *b.rows[0][0] : b.error);
        // A fresh table on the file being replaced: whole old or whole new content.
        QueryResult c = db.Query("SELECT count(*) FROM parquet_metadata('" + Path("replaced.parquet") + "')");
        if (!c.ok) failures[r] = "metadata of the replaced file: " + c.error;
        db.Exec("DROP TABLE IF EXISTS temp.h");
        std::string e = db.Exec("CREATE VIRTUAL TABLE temp.h USING parquet('" + Path("replaced.parquet") + "')");
        if (!e.empty()) {
          failures[r] = "open replaced: " + e;
          break;
        }
        QueryResult d = db.Query("SELECT count(*), sum(id), min(id) - 1 FROM h");
        if (!d.ok) {
          failures[r] = "replaced: " + d.error;
          break;
        }
        const int64_t shift = std::stoll(*d.rows[0][2]);
        if (*d.rows[0][0] + "|" + *d.rows[0][1] != Expected(rows, shift) || shift > latest_shift.load()) {
          failures[r] = "replaced file read as a partial or unknown version: " + *d.rows[0][0] + "|" +
                        *d.rows[0][1] + " shift " + std::to_string(shift);
        }
      }
    });
  }
  threads.emplace_back([&] {
    TestDb db;
    for (int i = 1; i <= rounds; ++i) {
      QueryResult a = db.Query(ExportSql(Path("out-" + std::to_string(i) + ".parquet"), rows, i));
      // Publish the shift before the rename can be seen, so readers never see an unknown one.
      latest_shift.store(i);
      QueryResult b = db.Query(ExportSql(Path("replaced.parquet"), rows, i));
      if (!a.ok || !b.ok) {
        failures[readers] = "export: " + a.error + b.error;
        break;
      }
    }
    writer_done = true;
  });
  for (auto& t : threads) t.join();
  for (int r = 0; r <= readers; ++r) EXPECT_EQ(failures[r], "") << "thread " << r;
  EXPECT_TRUE(writer_done.load());

  // Afterwards every exported file reads completely.
  TestDb db;
  for (int i = 1; i <= rounds; ++i) {
    QueryResult q = db.Query("SELECT count(*) FROM parquet_metadata('" + Path("out-" + std::to_string(i) + ".parquet") + "')");
    ASSERT_TRUE(q.ok) << q.error;
  }
  ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE temp.all_out USING parquet('" + Path("out-*.parquet") + "')"), "");
  QueryResult all = db.Query("SELECT count(*) FROM all_out");
  ASSERT_TRUE(all.ok) << all.error;
  EXPECT_EQ(*all.rows[0][0], std::to_string(rows * rounds));
}

}  // namespace
}  // namespace pq::testing
