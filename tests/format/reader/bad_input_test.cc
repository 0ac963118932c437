// Bad input never crashes: every conformance file, truncated at many offsets and with bytes flipped,
// opens and scans to either an error or valid rows. Run under the sanitizers (make test-asan), this is
// what proves "no crash, no out-of-bounds read, no unbounded allocation" for damaged files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "format/file/file_reader.h"
#include "format/reader/table_scanner.h"

namespace pq {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> ConformanceFiles() {
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(std::string(PQ_TESTDATA_DIR) + "/parquet-testing")) {
    std::string p = e.path().string();
    if (e.is_regular_file() && p.size() > 8 && p.substr(p.size() - 8) == ".parquet") files.push_back(p);
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Opens and scans every field of every row group; returns the status (OK or the first error).
Status ScanAll(std::string name, std::string bytes) {
  ReaderOptions options;
  // Keep a damaged size field from asking for gigabytes while the sanitizers watch.
  options.limits.max_page_size = int64_t{64} << 20;
  options.limits.max_dictionary_size = int64_t{64} << 20;
  PQ_ASSIGN_OR_RETURN(auto file, FileReader::Open(RandomAccessFile::FromBytes(name, std::move(bytes)), options));
  std::vector<int> fields;
  for (size_t f = 0; f < file->schema().fields().size(); ++f) fields.push_back(static_cast<int>(f));
  std::vector<int> groups;
  for (int g = 0; g < file->num_row_groups(); ++g) groups.push_back(g);
  auto scanner = TableScanner::Make(file, fields, groups, ValueOptions{});
  if (!scanner.ok()) return scanner.status();
  std::string scratch;
  while (true) {
    PQ_ASSIGN_OR_RETURN(int64_t n, (*scanner)->NextBatch());
    if (n == 0) break;
    for (size_t f = 0; f < fields.size(); ++f) {
      for (int64_t r = 0; r < n; ++r) {
        Cell c = (*scanner)->GetCell(static_cast<int>(f), r, &scratch);
        // Touch the bytes so that a dangling view would be caught by the sanitizers.
        volatile size_t sum = 0;
        for (char ch : c.bytes) sum = sum + static_cast<unsigned char>(ch);
        (void)sum;
      }
    }
  }
  return Status::OK();
}

bool Sanitized() { return std::getenv("PQ_SANITIZED") != nullptr; }

TEST(BadInputTest, IntactFilesScan) {
  for (const std::string& f : ConformanceFiles()) {
    SCOPED_TRACE(f);
    Status s = ScanAll(f, ReadAll(f));
    // Corrupt checksums, and the shredded Variant cases that cases.json marks as errors (plus the
    // invalid case-043, which this reader refuses).
    bool expected_failure = f.find("corrupt-checksum") != std::string::npos;
    for (const char* bad : {"case-040.parquet", "case-042.parquet", "case-087.parquet", "case-043-INVALID.parquet"}) {
      expected_failure = expected_failure || (f.find("shredded_variant") != std::string::npos && f.ends_with(bad));
    }
    EXPECT_EQ(s.ok(), !expected_failure) << s.ToString();
  }
}

TEST(BadInputTest, TruncatedFilesFailCleanly) {
  const int cuts = Sanitized() ? 24 : 64;
  for (const std::string& f : ConformanceFiles()) {
    SCOPED_TRACE(f);
    std::string bytes = ReadAll(f);
    std::vector<size_t> offsets;
    for (int i = 0; i < cuts; ++i) offsets.push_back(bytes.size() * static_cast<size_t>(i) / static_cast<size_t>(cuts));
    for (size_t k = 1; k <= 16 && k < bytes.size(); ++k) offsets.push_back(bytes.size() - k);
    for (size_t cut : offsets) {
      Status s = ScanAll(f, bytes.substr(0, cut));
      EXPECT_FALSE(s.ok()) << "truncated at " << cut << " of " << bytes.size();
    }
    // The data cut short but the footer kept: offsets in the footer now point past the end or into
    // the footer itself. Either an error or, when the cut removed nothing that is read, valid rows.
    uint32_t footer_len = 0;
    std::memcpy(&footer_len, bytes.data() + bytes.size() - 8, 4);
    size_t tail = size_t{footer_len} + 8;
    if (tail < bytes.size()) {
      size_t data_end = bytes.size() - tail;
      for (int i = 0; i < cuts; ++i) {
        size_t cut = 4 + (data_end - 4) * static_cast<size_t>(i) / static_cast<size_t>(cuts);
        Status s = ScanAll(f, bytes.substr(0, cut) + bytes.substr(data_end));
        (void)s;
      }
    }
  }
}

// A file that starts with the magic but does not end with it was cut short (a copy or a download not
// finished): the message says so; bytes with no magic at all are not a Parquet file.
TEST(BadInputTest, ACutShortFileIsNamedSo) {
  const std::string bytes = ReadAll(ConformanceFiles().front());
  ASSERT_GT(bytes.size(), 100u);
  for (const size_t cut : {size_t{12}, bytes.size() / 2, bytes.size() - 1}) {
    SCOPED_TRACE(cut);
    Status s = ScanAll("cut.parquet", bytes.substr(0, cut));
    EXPECT_EQ(s.message(),
              "cut.parquet: no PAR1 magic at the end, though the file starts with one: it is cut short (truncated, "
              "or still being written)");
  }
  Status s = ScanAll("notes.txt", "these are notes, not a Parquet file at all");
  EXPECT_EQ(s.message(), "notes.txt: not a Parquet file: no PAR1 magic at the end");
}

TEST(BadInputTest, FlippedBytesNeverCrash) {
  const int flips = Sanitized() ? 40 : 150;
  std::mt19937_64 rng(20261121);
  int errors = 0, scans = 0;
  for (const std::string& f : ConformanceFiles()) {
    SCOPED_TRACE(f);
    std::string bytes = ReadAll(f);
    if (bytes.size() < 16) continue;
    // The 98 shredded Variant cases are small and alike: fewer flips each.
    const int file_flips = f.find("shredded_variant") != std::string::npos ? flips / 4 : flips;
    for (int i = 0; i < file_flips; ++i) {
      std::string damaged = bytes;
      // Half the flips land in the footer, where one byte changes the meaning of everything after it.
      size_t footer_start = bytes.size() > 4096 ? bytes.size() - 4096 : 0;
      size_t pos = (i % 2) ? footer_start + rng() % (bytes.size() - footer_start) : rng() % bytes.size();
      damaged[pos] = static_cast<char>(damaged[pos] ^ static_cast<char>(1 + rng() % 255));
      Status s = ScanAll(f, std::move(damaged));
      errors += !s.ok();
      ++scans;
    }
  }
  // Most damage is detected somewhere; the point of the test is that none of it crashes.
  EXPECT_GT(errors, scans / 10);
}

// Damage found by FlippedBytesNeverCrash: one byte of a shredded Variant file's footer (offset 496,
// XOR 90) once made the Variant assembler read past a leaf's decoded values.
TEST(BadInputTest, ShreddedVariantFooterFlip) {
  std::string bytes = ReadAll(std::string(PQ_TESTDATA_DIR) + "/parquet-testing/shredded_variant/case-038.parquet");
  ASSERT_GT(bytes.size(), 496u);
  bytes[496] = static_cast<char>(bytes[496] ^ 90);
  Status s = ScanAll("case-038.parquet", std::move(bytes));
  EXPECT_FALSE(s.ok());
}

}  // namespace
}  // namespace pq
