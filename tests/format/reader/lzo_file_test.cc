// A Parquet file with an LZO page, built here byte by byte: the page's bytes are hadoop-lzo's
// framing (as parquet-java writes LZO pages) around an LZO1X block written out instruction by
// instruction, so reading it checks the reader against the formats themselves, not against our
// own writer. Also: the same page with its framing broken is an error naming the file, row group,
// column, page and codec.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "format/metadata/metadata_io.h"
#include "format/file/file_reader.h"
#include "format/reader/table_scanner.h"

namespace pq {
namespace {

// Four INT64 values 1, 2, 1, 2 (PLAIN: 32 bytes little endian) as one LZO1X block:
//   0x21                   first byte 17 + n: a run of n = 16 literal bytes follows
//   01 00 .. 00 02 00 .. 00  the literals: the values 1 and 2
//   0x2E 0x3C 0x00         M3 match: 0x20 | (length 16 - 2), then the distance 16 as
//                          (16 - 1) << 2, little endian: copy the 16 bytes before
//   0x11 0x00 0x00         the end-of-stream marker
// and the framing of Hadoop's BlockCompressorStream: the block's uncompressed size (32), then the
// chunk's compressed size (23), both big endian.
const std::vector<uint8_t> kLzoPage = {
    0x00, 0x00, 0x00, 0x20,                          // block: 32 bytes uncompressed
    0x00, 0x00, 0x00, 0x17,                          // chunk: 23 bytes of LZO1X
    0x21,                                            // 16 literals
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 1
    0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 2
    0x2E, 0x3C, 0x00,                                // match: length 16, distance 16
    0x11, 0x00, 0x00,                                // end of stream
};
constexpr int64_t kRows = 4;
constexpr int32_t kPlainSize = 32;

std::string BuildFile(const std::vector<uint8_t>& page) {
  std::string file = "PAR1";
  ColumnMetaData meta;
  meta.type = PhysicalType::kInt64;
  meta.path_in_schema = {"x"};
  meta.codec = CompressionCodec::kLzo;
  meta.num_values = kRows;
  meta.encodings = {Encoding::kPlain};
  meta.data_page_offset = static_cast<int64_t>(file.size());
  PageHeader h;
  h.type = PageType::kDataPage;
  h.uncompressed_page_size = kPlainSize;
  h.compressed_page_size = static_cast<int32_t>(page.size());
  h.data_page_header.emplace();
  h.data_page_header->num_values = static_cast<int32_t>(kRows);
  h.data_page_header->encoding = Encoding::kPlain;
  std::string header;
  WritePageHeader(h, &header);
  file += header;
  file.append(page.begin(), page.end());
  meta.total_compressed_size = static_cast<int64_t>(file.size()) - meta.data_page_offset;
  meta.total_uncompressed_size = static_cast<int64_t>(header.size()) + kPlainSize;

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
  chunk.file_offset = meta.data_page_offset;
  chunk.meta_data = meta;
  rg.columns.push_back(chunk);
  footer.row_groups.push_back(rg);
  std::string footer_bytes;
  WriteFileMetaData(footer, &footer_bytes);
  file += footer_bytes;
  const uint32_t n = static_cast<uint32_t>(footer_bytes.size());
  file.append(reinterpret_cast<const char*>(&n), 4);
  file += "PAR1";
  return file;
}

// The values of column x, or the first error.
Result<std::vector<int64_t>> ReadAll(const std::string& bytes) {
  PQ_ASSIGN_OR_RETURN(auto reader,
                      FileReader::Open(RandomAccessFile::FromBytes("lzo.parquet", bytes), ReaderOptions{}));
  PQ_ASSIGN_OR_RETURN(auto scanner, TableScanner::Make(reader, {0}, {0}, ValueOptions{}));
  std::vector<int64_t> values;
  std::string scratch;
  while (true) {
    PQ_ASSIGN_OR_RETURN(int64_t n, scanner->NextBatch());
    if (n == 0) break;
    for (int64_t r = 0; r < n; ++r) {
      SqlValue v = SqlValue::FromCell(scanner->GetCell(0, r, &scratch));
      values.push_back(v.i);
    }
  }
  return values;
}

TEST(LzoFileTest, HandBuiltHadoopLzoPageReads) {
  auto values = ReadAll(BuildFile(kLzoPage));
  ASSERT_TRUE(values.ok()) << values.status().ToString();
  EXPECT_EQ(*values, (std::vector<int64_t>{1, 2, 1, 2}));
  // The codec column of the metadata names it.
  auto reader = FileReader::Open(RandomAccessFile::FromBytes("lzo.parquet", BuildFile(kLzoPage)),
                                 ReaderOptions{});
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->metadata().row_groups[0].columns[0].meta_data->codec, CompressionCodec::kLzo);
}

TEST(LzoFileTest, BrokenFramingIsAnErrorNamingWhere) {
  std::vector<uint8_t> page = kLzoPage;
  page[7] = 0x16;  // the chunk claims 22 bytes: its end marker is cut
  auto values = ReadAll(BuildFile(page));
  ASSERT_FALSE(values.ok());
  const std::string m = values.status().ToString();
  EXPECT_NE(m.find("lzo.parquet"), std::string::npos) << m;
  EXPECT_NE(m.find("row group 0"), std::string::npos) << m;
  EXPECT_NE(m.find("'x'"), std::string::npos) << m;
  EXPECT_NE(m.find("LZO page is invalid"), std::string::npos) << m;

  page = kLzoPage;
  page[3] = 0x21;  // the block claims 33 bytes, one more than the page header
  values = ReadAll(BuildFile(page));
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.status().ToString().find("LZO"), std::string::npos) << values.status().ToString();

  page = kLzoPage;
  page[26] = 0x40;  // the match reaches 17 bytes back, before the block's first byte
  values = ReadAll(BuildFile(page));
  ASSERT_FALSE(values.ok());
}

}  // namespace
}  // namespace pq
