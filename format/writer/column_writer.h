// ColumnChunkWriter: one leaf column of one row group, encoded into pages held in memory. The
// caller hands it whole records (definition and repetition levels and the non-null values); it cuts
// data pages on record boundaries, so every page starts a row as the OffsetIndex requires, and each
// page is levels, values (dictionary indices or the value encoding), compressed, with a CRC-32 of
// the stored bytes. Which encoding a chunk uses is decided per chunk, from its first values (the
// encoding trial, below), and Finish() returns the chunk with its metadata, page index and Bloom
// filter, offsets relative to its first byte: the file writer places it and shifts them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "format/bloom/bloom_hash_set.h"
#include "format/bloom/split_block_bloom_filter.h"
#include "format/codec/codec.h"
#include "format/crypto/column_encryptor.h"
#include "format/encoding/values.h"
#include "format/metadata/metadata.h"
#include "format/schema/schema.h"
#include "format/util/status.h"
#include "format/writer/statistics_builder.h"

namespace pq {

// Everything the column writer needs about one leaf, resolved once per file by the FileWriter.
struct ColumnWriteSettings {
  const SchemaNode* leaf = nullptr;  // must outlive the writer
  CompressionCodec codec = CompressionCodec::kUncompressed;
  int compression_level = kDefaultCompressionLevel;  // as given to Compress (codec.h)
  bool dictionary = true;                      // start with dictionary encoding (never for BOOLEAN)
  Encoding value_encoding = Encoding::kPlain;  // without dictionary, and after the fallback
  // The encoding trial: the chunk's first non-null values are held, not encoded, until trial_values
  // of them are in or the first page ends; then they are encoded every candidate way and compressed
  // with the chunk's codec, and the cheapest wins (KeepDictionary below): PLAIN, for INT32/INT64
  // also DELTA_BINARY_PACKED (the value encoding), and the dictionary when `dictionary`. A chunk
  // whose dictionary loses never builds one, unless the watch (DictionaryWatch below) finds repeats
  // later in the chunk. Off: both as given. A dictionary in use whose PLAIN
  // size passes dictionary_page_bytes is frozen (its page still written first) and the rest of the
  // chunk falls back to the value encoding.
  bool encoding_trial = false;
  int64_t trial_values = 16384;  // non-null values the trial holds at most
  // Records the chunk is expected to hold (the row group's row limit), for the trial's projection
  // of the dictionary; 0: unknown, the trial's own records.
  int64_t chunk_rows = 0;
  int64_t dictionary_page_bytes = int64_t{2} << 20;
  // A data page ends, on a record boundary, once it reaches page_bytes (encoded estimate) or
  // page_rows records.
  int64_t page_bytes = int64_t{1} << 20;
  int64_t page_rows = 20000;
  int data_page_version = 1;  // 1 or 2
  bool checksums = true;
  bool page_header_statistics = false;
  bool page_index = true;
  bool bloom_filter = false;
  double bloom_filter_fpp = 0.01;
  int64_t bloom_filter_max_bytes = int64_t{2} << 20;
  // Where the chunk gathers its distinct Bloom hashes (bloom_filter): a set the file writer keeps
  // per column and hands to each chunk in turn, so that its table is reused, not grown again for
  // every row group (one chunk at a time: the chunk empties it when it starts and when it
  // finishes). Null: the chunk's own set.
  std::shared_ptr<BloomHashSet> bloom_hashes;
  int64_t statistics_truncate_bytes = 64;
  // The chunk's encryptor (its key, file AAD, row group and column ordinals); nullopt: plaintext.
  // Encrypted (the Parquet spec "Parquet Modular Encryption"), every page and every page header is
  // a module (crypto/column_encryptor.h): the header's compressed_page_size is the page module's
  // size and its CRC covers that module; sizes in the metadata and the OffsetIndex count modules.
  // Data pages are numbered from 0 in the AADs, the dictionary page apart. The page index and Bloom
  // filter stay plaintext in ColumnChunkOutput: the file writer encrypts them as it writes them.
  std::optional<crypto::ColumnEncryptor> encryptor;
};

// A finished column chunk. Offsets (meta.data_page_offset, meta.dictionary_page_offset, page
// locations) are relative to bytes[0].
struct ColumnChunkOutput {
  Buffer bytes;
  ColumnMetaData meta;
  std::optional<ColumnIndex> column_index;  // nullopt: none for this chunk (or page_index off)
  std::optional<OffsetIndex> offset_index;  // nullopt when page_index is off
  std::optional<SplitBlockBloomFilter> bloom_filter;
};

class ColumnChunkWriter {
 public:
  // InvalidArgument / NotSupported for settings the leaf cannot take (an encoding illegal for its
  // type, a dictionary on BOOLEAN is simply not used).
  static Result<std::unique_ptr<ColumnChunkWriter>> Make(const ColumnWriteSettings& settings);
  virtual ~ColumnChunkWriter() = default;

  const SchemaNode& leaf() const { return *settings_.leaf; }
  // Records written so far.
  int64_t num_records() const { return num_records_; }
  // Bytes the chunk holds so far: finished pages plus the estimate of the page in progress and of
  // the dictionary.
  virtual int64_t buffered_bytes() const = 0;

  // Ends the chunk. The writer must not be used afterwards.
  virtual Result<ColumnChunkOutput> Finish() = 0;

 protected:
  explicit ColumnChunkWriter(const ColumnWriteSettings& settings) : settings_(settings) {}
  ColumnWriteSettings settings_;
  int64_t num_records_ = 0;
};

// The typed face: T is the value type of the leaf's physical type (values.h).
template <typename T>
class TypedColumnChunkWriter : public ColumnChunkWriter {
 public:
  // Appends whole records: `num_levels` level entries, `def_levels` (ignored, may be null, when
  // the max definition level is 0), `rep_levels` (likewise for repetition), and the `num_values`
  // non-null values, one per definition level equal to the max.
  // Checked before anything is written (InvalidArgument, the chunk unchanged): levels within
  // range, the first repetition level 0, a repetition level r > 0 only where the definition level
  // reaches the r-th repeated field, num_values matching the levels, FIXED_LEN_BYTE_ARRAY values of
  // type_length bytes. Other failures (a page over 2 GiB, a codec error) leave the chunk unusable.
  virtual Status Write(int64_t num_levels, const int16_t* def_levels, const int16_t* rep_levels,
                       const T* values, int64_t num_values) = 0;

 protected:
  using ColumnChunkWriter::ColumnChunkWriter;
};

// What the encoding trial measured of the dictionary over its n values.
struct DictionaryTrial {
  int64_t values = 0;           // n: the trial's non-null values
  int64_t entries = 0;          // distinct values among them
  int64_t second_half_new = 0;  // entries first seen in the second half (values n/2..n-1)
  int64_t plain_bytes = 0;      // the entries' PLAIN size (the dictionary page body)
  int64_t entries_cost = 0;     // the entries PLAIN, compressed with the chunk's codec
  int64_t index_cost = 0;       // the n indices (RLE_DICTIONARY), compressed
};

// The dictionary of a whole chunk of `chunk_values` non-null values, projected from the trial
// (chunk_values below the trial's values count as those). It is costed for the whole chunk, not for
// the trial's values alone: a sample of 16,384 values from a domain of 100,000 sees almost only new
// entries, yet over a row group of 1,000,000 rows every entry is used ten times. For values drawn
// uniformly from D distinct ones, the rate of new entries after k values is exp(-k/D); the trial's
// second half (at about 3/4 of its n values) added them at rate g, so D = -0.75 n / ln(g), and N
// chunk values add D (exp(-n/D) - exp(-N/D)) entries to the trial's. The entries cost the trial's
// compressed bytes per entry, the N indices its compressed bytes per index scaled to the final bit
// width. A trial whose second half added only new entries (g = 1) projects N entries.
struct DictionaryProjection {
  double entries = 0;     // distinct values in the chunk
  double page_bytes = 0;  // the dictionary page's PLAIN size
  double cost = 0;        // compressed bytes of the entries and of chunk_values indices
};
DictionaryProjection ProjectDictionary(const DictionaryTrial& trial, double chunk_values);

// A projected dictionary whose entries are used kToleranceReuse times each on average is kept when
// its PLAIN page fits and it costs at most kDictionaryTolerance times the best value encoding:
// readers evaluate a filter once per entry, prune row groups by the dictionary and decode narrow
// indices, which is worth a file a little larger. One with less reuse (an all-distinct column,
// whose indices compress to almost nothing) is kept only when it costs less. A chunk that ends
// early (the last row group) may get a dictionary its few rows do not repay: the writer cannot know
// the rows to come.
inline constexpr double kDictionaryTolerance = 1.25;
inline constexpr double kToleranceReuse = 2;
// The trial keeps a dictionary whose entries its values used this many times on average.
inline constexpr int64_t kDictionaryReuse = 16;

// The encoding trial's rule: keep the dictionary for a chunk of `chunk_values` non-null values
// when the trial's values cost `value_cost` compressed bytes in the best value encoding.
bool KeepDictionary(const DictionaryTrial& trial, int64_t value_cost, double chunk_values,
                    int64_t dictionary_page_bytes);

// The watch. A trial can only see repeats within its first values: a column whose first 100,000
// values are distinct and which then repeats them (a name per id modulo 100,000, a cycle of codes)
// looks all-distinct to it. So when the trial drops the dictionary of a chunk that has far more
// values to come, and its value encoding costs more than bare dictionary indices would, the writer
// goes on writing the value encoding while counting the chunk's distinct values (DistinctCounter,
// 4 KiB). At each page end it projects, from the rate at which the latest quarter of the values
// (4,096 at least) still brought new ones, the dictionary the rest of the chunk would need, and
// switches to a dictionary for the rest of the chunk when SwitchToDictionary says so: the chunk
// then holds the pages written so far in the value encoding and the rest as RLE_DICTIONARY, the
// dictionary page first (each data page names its encoding; encoding_stats counts both). The watch
// ends once the distinct values seen could no longer fit dictionary_page_bytes.
struct DictionaryWatch {
  int64_t values = 0;             // the chunk's non-null values so far
  double entries = 0;             // distinct values among them (estimated)
  int64_t window_values = 0;      // the latest of those values
  double window_new = 0;          // entries first seen among them (estimated)
  int64_t written_values = 0;     // values in the pages written so far, in the value encoding
  int64_t written_plain = 0;      // their PLAIN bytes (a dictionary entry's size)
  int64_t written_stored = 0;     // their pages' stored (compressed) bytes
};
// True when a dictionary holding the projected entries of the rest of a chunk of `chunk_values`
// values (page within dictionary_page_bytes), its entries compressed as well as the written pages
// and one index per value at the projected bit width, costs at most what the value encoding would
// cost the rest at the written pages' rate, with the margin of KeepDictionary (kDictionaryTolerance
// when each entry would be used kToleranceReuse times).
bool SwitchToDictionary(const DictionaryWatch& watch, double chunk_values,
                        int64_t dictionary_page_bytes);

// True when T is the value type of physical type `type` (values.h).
template <typename T>
bool IsValueTypeOf(PhysicalType type);

}  // namespace pq
