// Files that claim huge sizes: a page header saying a few hundred bytes decompress to a gigabyte, a
// dictionary or data page claiming two billion values, a row group claiming 2^60 rows, a column chunk
// larger than the file, a footer whose lists claim two billion elements. Each must fail with an error
// that says what is wrong, quickly, and without allocating what the file claims: every case runs in
// a child process whose peak resident memory (getrusage) may grow by at most kMemoryBoundMiB over
// what it held when it started (the parent's pages, which under the sanitizers are a few hundred
// MiB).
//
// The files are built here byte by byte (one INT64 column, PLAIN, one data page), so each claim is
// exactly the one under test and everything else is valid.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "format/codec/codec.h"
#include "format/file/file_reader.h"
#include "format/metadata/metadata_io.h"
#include "format/reader/table_scanner.h"

namespace pq {
namespace {

constexpr int64_t kRows = 1000;
// Growth of the child's peak RSS for any case; what the file claims is at least 1 GiB in every case.
constexpr int64_t kMemoryBoundMiB = 64;

// The resident set of this process now, in KiB (VmRSS of /proc/self/status), or 0.
int64_t ResidentKib() {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return 0;
  char line[256];
  int64_t kib = 0;
  while (std::fgets(line, sizeof(line), f)) {
    if (std::strncmp(line, "VmRSS:", 6) == 0) kib = std::strtoll(line + 6, nullptr, 10);
  }
  std::fclose(f);
  return kib;
}

struct Crafted {
  CompressionCodec codec = CompressionCodec::kUncompressed;
  bool dictionary = false;  // a dictionary page (PLAIN) and a data page of RLE_DICTIONARY indices
  std::function<void(PageHeader*)> edit_dictionary_header;
  std::function<void(PageHeader*)> edit_data_header;
  std::function<void(FileMetaData*)> edit_footer;
  std::function<void(std::string*)> edit_footer_bytes;  // after serialization
};

std::string Compressed(CompressionCodec codec, const std::string& plain) {
  if (codec == CompressionCodec::kUncompressed) return plain;
  std::vector<uint8_t> out;
  const auto* p = reinterpret_cast<const uint8_t*>(plain.data());
  Status s = Compress(codec, ByteSpan(p, plain.size()), kDefaultCompressionLevel, &out);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return std::string(out.begin(), out.end());
}

void AppendPage(PageHeader header, const std::string& plain, CompressionCodec codec,
                const std::function<void(PageHeader*)>& edit, std::string* file) {
  const std::string stored = Compressed(codec, plain);
  header.uncompressed_page_size = static_cast<int32_t>(plain.size());
  header.compressed_page_size = static_cast<int32_t>(stored.size());
  if (edit) edit(&header);
  std::string bytes;
  WritePageHeader(header, &bytes);
  *file += bytes;
  *file += stored;
}

// A valid file of kRows INT64 values 0..kRows-1, with the edits applied.
std::string CraftFile(const Crafted& c) {
  std::string file = "PAR1";
  ColumnMetaData meta;
  meta.type = PhysicalType::kInt64;
  meta.path_in_schema = {"x"};
  meta.codec = c.codec;
  meta.num_values = kRows;
  if (c.dictionary) {
    meta.dictionary_page_offset = static_cast<int64_t>(file.size());
    std::string entries;
    for (int64_t v = 0; v < kRows; ++v) entries.append(reinterpret_cast<const char*>(&v), 8);
    PageHeader h;
    h.type = PageType::kDictionaryPage;
    h.dictionary_page_header.emplace();
    h.dictionary_page_header->num_values = static_cast<int32_t>(kRows);
    AppendPage(h, entries, c.codec, c.edit_dictionary_header, &file);
    meta.encodings = {Encoding::kPlain, Encoding::kRleDictionary};
  } else {
    meta.encodings = {Encoding::kPlain};
  }
  meta.data_page_offset = static_cast<int64_t>(file.size());
  std::string values;
  if (c.dictionary) {
    // Bit width 10, then one bit-packed run of kRows values (kRows is a multiple of 8): index = row.
    values.push_back(10);
    const uint64_t groups = kRows / 8;
    for (uint64_t header = (groups << 1) | 1; ; header >>= 7) {  // ULEB128 run header
      if (header < 0x80) {
        values.push_back(static_cast<char>(header));
        break;
      }
      values.push_back(static_cast<char>((header & 0x7f) | 0x80));
    }
    uint64_t acc = 0;
    int bits = 0;
    for (int64_t v = 0; v < kRows; ++v) {
      acc |= static_cast<uint64_t>(v) << bits;
      bits += 10;
      while (bits >= 8) {
        values.push_back(static_cast<char>(acc & 0xff));
        acc >>= 8;
        bits -= 8;
      }
    }
  } else {
    for (int64_t v = 0; v < kRows; ++v) values.append(reinterpret_cast<const char*>(&v), 8);
  }
  PageHeader h;
  h.type = PageType::kDataPage;
  h.data_page_header.emplace();
  h.data_page_header->num_values = static_cast<int32_t>(kRows);
  h.data_page_header->encoding = c.dictionary ? Encoding::kRleDictionary : Encoding::kPlain;
  AppendPage(h, values, c.codec, c.edit_data_header, &file);
  const int64_t chunk_begin = meta.dictionary_page_offset.value_or(meta.data_page_offset);
  meta.total_compressed_size = static_cast<int64_t>(file.size()) - chunk_begin;
  meta.total_uncompressed_size = meta.total_compressed_size;

  FileMetaData footer;
  footer.version = 1;
  SchemaElement root;
  root.name = "schema";
  root.num_children = 1;
  SchemaElement x;
  x.name = "x";
  x.type = PhysicalType::kInt64;
  x.repetition_type = Repetition::kRequired;
  footer.schema = {root, x};
  footer.num_rows = kRows;
  RowGroup rg;
  rg.num_rows = kRows;
  rg.total_byte_size = meta.total_uncompressed_size;
  ColumnChunk chunk;
  chunk.file_offset = chunk_begin;
  chunk.meta_data = meta;
  rg.columns.push_back(chunk);
  footer.row_groups.push_back(rg);
  if (c.edit_footer) c.edit_footer(&footer);
  std::string footer_bytes;
  WriteFileMetaData(footer, &footer_bytes);
  if (c.edit_footer_bytes) c.edit_footer_bytes(&footer_bytes);
  file += footer_bytes;
  const uint32_t n = static_cast<uint32_t>(footer_bytes.size());
  file.append(reinterpret_cast<const char*>(&n), 4);
  file += "PAR1";
  return file;
}

// Opens and fully scans `bytes`: the first error, or "" with the row count in *rows.
std::string OpenAndScan(const std::string& bytes, int64_t* rows) {
  *rows = 0;
  auto file = FileReader::Open(RandomAccessFile::FromBytes("crafted.parquet", bytes), ReaderOptions{});
  if (!file.ok()) return file.status().ToString();
  std::shared_ptr<const FileReader> reader = std::move(file).value();
  std::vector<int> groups;
  for (int g = 0; g < reader->num_row_groups(); ++g) groups.push_back(g);
  auto scanner = TableScanner::Make(reader, {0}, groups, ValueOptions{});
  if (!scanner.ok()) return scanner.status().ToString();
  std::string scratch;
  while (true) {
    auto n = (*scanner)->NextBatch();
    if (!n.ok()) return n.status().ToString();
    if (*n == 0) break;
    for (int64_t r = 0; r < *n; ++r) {
      SqlValue v = SqlValue::FromCell((*scanner)->GetCell(0, r, &scratch));
      if (v.type != CellType::kInteger || v.i != *rows) {
        return "row " + std::to_string(*rows) + " has a wrong value";
      }
      ++*rows;
    }
  }
  return "";
}

struct Outcome {
  std::string error;  // "" when the scan succeeded
  int64_t rows = 0;
  int64_t peak_rss_kib = 0;  // growth of the peak over the resident set at the start
  double seconds = 0;
};

// Runs OpenAndScan in a child process and reports what it returned and its peak memory.
Outcome RunInChild(const std::string& bytes) {
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    const int64_t start_kib = ResidentKib();
    struct timespec t0, t1;
    ::clock_gettime(CLOCK_MONOTONIC, &t0);
    int64_t rows = 0;
    std::string error = OpenAndScan(bytes, &rows);
    ::clock_gettime(CLOCK_MONOTONIC, &t1);
    struct rusage ru;
    ::getrusage(RUSAGE_SELF, &ru);
    const double seconds = static_cast<double>(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    std::string out = std::to_string(ru.ru_maxrss - start_kib) + "\n" + std::to_string(rows) + "\n" +
                      std::to_string(seconds) + "\n" + error;
    size_t done = 0;
    while (done < out.size()) {
      ssize_t w = ::write(fds[1], out.data() + done, out.size() - done);
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
  Outcome o;
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the child crashed (status " << status << ")";
  size_t a = got.find('\n'), b = got.find('\n', a + 1), c = got.find('\n', b + 1);
  if (a == std::string::npos || b == std::string::npos || c == std::string::npos) {
    ADD_FAILURE() << "no report from the child: '" << got << "'";
    return o;
  }
  o.peak_rss_kib = std::stoll(got.substr(0, a));
  o.rows = std::stoll(got.substr(a + 1, b - a - 1));
  o.seconds = std::stod(got.substr(b + 1, c - b - 1));
  o.error = got.substr(c + 1);
  return o;
}

// The baseline: the unedited file scans, in every codec the test uses.
TEST(HugeClaimsTest, TheCraftedFilesAreValid) {
  for (CompressionCodec codec : {CompressionCodec::kUncompressed, CompressionCodec::kSnappy,
                                 CompressionCodec::kGzip, CompressionCodec::kBrotli,
                                 CompressionCodec::kZstd, CompressionCodec::kLz4Raw}) {
    for (bool dictionary : {false, true}) {
      Crafted c;
      c.codec = codec;
      c.dictionary = dictionary;
      int64_t rows = 0;
      EXPECT_EQ(OpenAndScan(CraftFile(c), &rows), "") << static_cast<int>(codec) << " " << dictionary;
      EXPECT_EQ(rows, kRows);
    }
  }
}

struct Claim {
  const char* what;
  Crafted file;
  std::vector<const char*> error_mentions;  // each must appear in the error
};

std::vector<Claim> Claims() {
  std::vector<Claim> claims;
  const int32_t kGiB = int32_t{1} << 30;
  const int32_t kMax32 = std::numeric_limits<int32_t>::max();
  for (CompressionCodec codec : {CompressionCodec::kSnappy, CompressionCodec::kGzip, CompressionCodec::kBrotli,
                                 CompressionCodec::kZstd, CompressionCodec::kLz4Raw}) {
    Claim c{"a data page of a few KB claiming to decompress to 1 GiB", {}, {"page"}};
    c.file.codec = codec;
    c.file.edit_data_header = [kGiB](PageHeader* h) { h->uncompressed_page_size = kGiB - 1; };
    claims.push_back(c);
    Claim d{"a dictionary page claiming to decompress to 1 GiB", {}, {"page"}};
    d.file.codec = codec;
    d.file.dictionary = true;
    d.file.edit_dictionary_header = [kGiB](PageHeader* h) { h->uncompressed_page_size = kGiB - 1; };
    claims.push_back(d);
  }
  {
    Claim c{"a page claiming 2^31-1 uncompressed bytes", {}, {"page"}};
    c.file.codec = CompressionCodec::kZstd;
    c.file.edit_data_header = [kMax32](PageHeader* h) { h->uncompressed_page_size = kMax32; };
    claims.push_back(c);
  }
  {
    Claim c{"an uncompressed page claiming 2^31-1 stored bytes", {}, {"page"}};
    c.file.edit_data_header = [kMax32](PageHeader* h) {
      h->uncompressed_page_size = kMax32;
      h->compressed_page_size = kMax32;
    };
    claims.push_back(c);
  }
  {
    Claim c{"a dictionary claiming 2^31-1 entries", {}, {"dictionary"}};
    c.file.dictionary = true;
    c.file.edit_dictionary_header = [kMax32](PageHeader* h) { h->dictionary_page_header->num_values = kMax32; };
    claims.push_back(c);
  }
  {
    Claim c{"a data page claiming 2^31-1 values", {}, {"page"}};
    c.file.edit_data_header = [kMax32](PageHeader* h) { h->data_page_header->num_values = kMax32; };
    claims.push_back(c);
  }
  {
    Claim c{"a row group claiming 2^60 rows", {}, {}};
    c.file.edit_footer = [](FileMetaData* f) {
      f->row_groups[0].num_rows = int64_t{1} << 60;
      f->num_rows = int64_t{1} << 60;
    };
    claims.push_back(c);
  }
  {
    Claim c{"a column chunk claiming 1 TiB", {}, {}};
    c.file.edit_footer = [](FileMetaData* f) {
      f->row_groups[0].columns[0].meta_data->total_compressed_size = int64_t{1} << 40;
      f->row_groups[0].columns[0].meta_data->num_values = int64_t{1} << 40;
    };
    claims.push_back(c);
  }
  {
    // The footer's schema list (field 2) claims 2^31-1 elements: its list header is replaced.
    Claim c{"a footer list claiming 2^31-1 elements", {}, {}};
    c.file.edit_footer_bytes = [](std::string* bytes) {
      // version (field 1, i32 1): 0x15 0x02; then field 2, a list: 0x19 followed by the header.
      ASSERT_GE(bytes->size(), 4u);
      ASSERT_EQ(static_cast<uint8_t>((*bytes)[2]), 0x19);
      std::string huge = std::string("\x15\x02\x19\xfc\xff\xff\xff\xff\x07", 9);
      *bytes = huge + bytes->substr(4);
    };
    claims.push_back(c);
  }
  return claims;
}

TEST(HugeClaimsTest, FailFastWithAClearErrorAndBoundedMemory) {
  int64_t worst_kib = 0;
  double slowest = 0;
  for (const Claim& claim : Claims()) {
    SCOPED_TRACE(std::string(claim.what) + ", codec " + std::to_string(static_cast<int>(claim.file.codec)));
    const std::string bytes = CraftFile(claim.file);
    const Outcome o = RunInChild(bytes);
    EXPECT_NE(o.error, "") << "the scan succeeded with " << o.rows << " rows";
    for (const char* m : claim.error_mentions) {
      EXPECT_NE(o.error.find(m), std::string::npos) << "error '" << o.error << "' should mention " << m;
    }
    EXPECT_NE(o.error.find("crafted.parquet"), std::string::npos) << "error '" << o.error << "' names no file";
    EXPECT_LT(o.peak_rss_kib, kMemoryBoundMiB * 1024) << "error '" << o.error << "'";
    EXPECT_LT(o.seconds, 5.0) << "error '" << o.error << "'";
    worst_kib = std::max(worst_kib, o.peak_rss_kib);
    slowest = std::max(slowest, o.seconds);
    std::printf("[huge claims] %-60s peak +%5.1f MiB, %.3f s: %s\n", claim.what, o.peak_rss_kib / 1024.0,
                o.seconds, o.error.c_str());
  }
  // The baseline for the figure above: the same process scanning the valid file.
  Crafted valid;
  valid.codec = CompressionCodec::kZstd;
  const Outcome ok = RunInChild(CraftFile(valid));
  EXPECT_EQ(ok.error, "");
  EXPECT_EQ(ok.rows, kRows);
  std::printf("[huge claims] worst peak growth %.1f MiB, slowest %.3f s; a valid file: +%.1f MiB\n",
              worst_kib / 1024.0, slowest, ok.peak_rss_kib / 1024.0);
}

}  // namespace
}  // namespace pq
