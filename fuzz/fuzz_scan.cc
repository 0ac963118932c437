// Fuzz target: a whole file, opened from memory and scanned completely (every field, nested ones
// assembled into JSON, every cell converted), the way the virtual table reads it. Input: a Parquet
// file (seeds: the conformance files).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "format/file/file_reader.h"
#include "format/reader/table_scanner.h"

namespace {

pq::Status ScanAll(std::string bytes) {
  pq::ReaderOptions options;
  // A fuzzer-made size field must not ask for gigabytes.
  options.limits.max_page_size = int64_t{16} << 20;
  options.limits.max_dictionary_size = int64_t{16} << 20;
  PQ_ASSIGN_OR_RETURN(auto file, pq::FileReader::Open(
                                     pq::RandomAccessFile::FromBytes("fuzz.parquet", std::move(bytes)), options));
  std::vector<int> fields;
  for (size_t f = 0; f < file->schema().fields().size(); ++f) fields.push_back(static_cast<int>(f));
  std::vector<int> groups;
  for (int g = 0; g < file->num_row_groups(); ++g) groups.push_back(g);
  PQ_ASSIGN_OR_RETURN(auto scanner, pq::TableScanner::Make(file, fields, groups, pq::ValueOptions{}));
  std::string scratch;
  for (int batches = 0; batches < 1000; ++batches) {
    PQ_ASSIGN_OR_RETURN(int64_t n, scanner->NextBatch());
    if (n == 0) break;
    for (size_t f = 0; f < fields.size(); ++f) {
      for (int64_t r = 0; r < n; ++r) {
        pq::Cell c = scanner->GetCell(static_cast<int>(f), r, &scratch);
        volatile size_t sum = 0;  // touch the bytes: a dangling view shows up under ASan
        for (char ch : c.bytes) sum = sum + static_cast<unsigned char>(ch);
        (void)sum;
      }
    }
  }
  return pq::Status::OK();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)ScanAll(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
