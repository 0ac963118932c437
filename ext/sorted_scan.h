// SortedRows: the rows of one scan of the `parquet` table, held in memory and handed out ordered by
// one column, so that SQLite needs no sorter for `ORDER BY col`, `GROUP BY col` or `DISTINCT col`
// (parquet_vtab.cc consumes such an ORDER BY in xBestIndex when the data fits `sort_memory`). The
// scan appends every surviving row, the projected values exactly as xColumn would hand them to
// SQLite and where the row came from; Sort() puts them in order. Storage is columnar, with no
// allocation per value, and the sort is a counting sort on the ranks of the distinct keys.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ext/row_array.h"
#include "format/value/cell.h"

namespace pq::ext {

// One column's values, one per row, appended in row order: one 8-byte word per row (an INTEGER,
// the bits of a REAL, or for TEXT and BLOB the end of the row's bytes in one arena), plus one tag
// byte per row only once the column holds more than one storage class (NULLs included).
class ValueColumn {
 public:
  void Append(const Cell& v);
  void AppendNull() { Append(Cell::Null()); }
  // Appends `n` numbers as Append would append Cell::Real(values[i]) (`real`, a NaN being NULL) or
  // Cell::Integer(values[i]) each; without a per-value dispatch while the column holds only them.
  template <typename T>
  void AppendNumbers(const T* values, size_t n, bool real);
  // Row `row`'s value. Bytes point into this column: valid until the next Append or Clear.
  Cell Get(size_t row) const;
  size_t size() const { return words_.size(); }
  // The rows' words when every row is a number of one class (no NULL, TEXT or BLOB): row i's
  // INTEGER, or the bits of its REAL, as *type says. Null otherwise. Valid until the next change.
  const uint64_t* UniformNumbers(CellType* type) const {
    if (bytes_mode_ || !tags_.empty() || (uniform_ != CellType::kInteger && uniform_ != CellType::kReal)) return nullptr;
    *type = uniform_;
    return words_.data();
  }
  void Reserve(size_t rows) { words_.reserve(rows); }
  // Reorders the rows: row i becomes the former row order[i] (`order` a permutation of the rows).
  void Permute(const RowArray<uint32_t>& order);
  // The same reordering for the order of a counting sort: row r goes to the next place of its
  // key's rank (next_place[rank_of_key[key_of_row[r]]], from each rank's first place). False,
  // with nothing changed, for a column of TEXT or BLOB (Permute reorders those). Key is uint8_t or
  // uint32_t (KeyColumn::VisitKeys).
  template <typename Key>
  bool ScatterByRank(std::span<const Key> key_of_row, const std::vector<uint32_t>& rank_of_key,
                     std::vector<uint32_t> next_place);
  // Heap bytes held (capacities).
  int64_t MemoryBytes() const;
  void Clear();

 private:
  static bool IsBytes(CellType t) { return t == CellType::kText || t == CellType::kBlob; }
  // From numbers to bytes: every number so far moves into the arena as its 8 bytes.
  void SwitchToBytes();
  CellType TypeOf(size_t row) const { return tags_.empty() ? uniform_ : static_cast<CellType>(tags_[row]); }

  // kInteger/kReal (number mode): the value or its bits; NULL 0. Bytes mode: the end of the row's
  // bytes in arena_ (its start is the previous row's end), numbers stored there as 8 bytes.
  RowArray<uint64_t> words_;
  RowArray<uint8_t> tags_;  // per row CellType; empty while every row has uniform_
  CellType uniform_ = CellType::kNull;
  bool bytes_mode_ = false;
  std::string arena_;
};

// The ordering column: distinct values stored once (found through an open-addressing hash table),
// a key id per row: one byte while there are at most 256 distinct values (the ids of a GROUP BY's
// few groups take a quarter of the memory, and of the reads when sorting), four from the 257th on.
// Sorting sorts the distinct values in CompareSql's order, ranks them (values CompareSql finds
// equal, such as 1 and 1.0 or -0.0 and 0.0, share a rank) and places the rows by a counting sort on
// their key's rank: O(rows + k log k) for k distinct keys. The counting sort is stable, so rows of
// one rank keep scan order, which is rowid order: `ORDER BY col, rowid` is satisfied too.
class KeyColumn {
 public:
  void Append(const Cell& v);
  // Append for a TEXT or BLOB value whose bytes stay at their address, unchanged, until the next
  // ForgetAddresses() (a batch's dictionary or pages): a value at an address and length seen since
  // then is the same value, found without hashing it (a dictionary-encoded column repeats a few).
  void AppendAtStableAddress(const Cell& v) {
    const SeenBytes& seen = seen_[SeenSlot(v)];
    if (seen.data == v.bytes.data() && seen.size == v.bytes.size() && seen.type == v.type && seen.data != nullptr) {
      PushKey(seen.key);
      return;
    }
    AppendAtNewAddress(v);
  }
  void ForgetAddresses() { seen_.fill(SeenBytes()); }
  // Room for `rows` rows (pages never written are never touched).
  void Reserve(size_t rows) {
    reserved_ = rows;
    if (wide_) {
      if (wide_keys_.size() < rows) wide_keys_.resize(rows);
    } else if (narrow_keys_.size() < rows) {
      narrow_keys_.resize(rows);
    }
  }
  Cell Get(size_t row) const { return distinct_.Get(KeyOfRow(row)); }
  size_t size() const { return rows_; }
  size_t distinct_count() const { return distinct_.size(); }
  uint32_t KeyOfRow(size_t row) const { return wide_ ? wide_keys_[row] : narrow_keys_[row]; }
  // fn(keys) with keys the rows' key ids, a std::span<const uint8_t> or std::span<const uint32_t>.
  template <typename Fn>
  decltype(auto) VisitKeys(Fn&& fn) const {
    return wide_ ? fn(std::span<const uint32_t>(wide_keys_.data(), rows_))
                 : fn(std::span<const uint8_t>(narrow_keys_.data(), rows_));
  }
  Cell Distinct(uint32_t key) const { return distinct_.Get(key); }
  void Permute(const RowArray<uint32_t>& order);
  // Forgets the key of every row (the distinct values stay): for an order that no longer needs them.
  void ReleaseRows() {
    narrow_keys_ = {};
    wide_keys_ = {};
    rows_ = 0;
  }
  // Keeps a NUL-terminated copy of every distinct TEXT value without a NUL byte inside, for
  // CString: SQLite takes such a text without scanning it for NULs or copying it twice.
  void MakeCStrings();
  // The distinct value `key` NUL-terminated when MakeCStrings kept it so, else null.
  const char* CString(uint32_t key) const {
    return key < c_string_at_.size() && c_string_at_[key] >= 0 ? c_strings_.data() + c_string_at_[key] : nullptr;
  }
  int64_t MemoryBytes() const;
  void Clear();

 private:
  static constexpr uint32_t kNarrowKeys = 256;  // key ids a byte holds
  struct SeenBytes {
    const char* data = nullptr;
    size_t size = 0;
    uint32_t key = 0;
    CellType type = CellType::kNull;  // kText or kBlob: the same bytes are two keys
  };
  static constexpr int kSeenBits = 8;
  // Every bit of the address and the length decides the entry: entries of a dictionary sit a few
  // bytes apart, and picking by bits 3 and up put neighbours of 7 bytes or fewer in one entry,
  // where two keys met in turn kept evicting each other.
  static size_t SeenSlot(const Cell& v) {
    const uint64_t address = reinterpret_cast<uintptr_t>(v.bytes.data()) ^ (uint64_t{v.bytes.size()} << 48);
    return static_cast<size_t>((address * 0x9E3779B97F4A7C15ULL) >> (64 - kSeenBits));
  }
  // The next row's key (the arrays are kept sized ahead of the rows, so that this is a store).
  void PushKey(uint32_t key) {
    if (rows_ == (wide_ ? wide_keys_.size() : narrow_keys_.size())) MakeRoom();
    if (wide_) {
      wide_keys_[rows_++] = key;
    } else {
      narrow_keys_[rows_++] = static_cast<uint8_t>(key);
    }
  }
  void MakeRoom();
  void AppendAtNewAddress(const Cell& v);
  // A new distinct value: its key id (the keys of the rows turn wide at the 257th).
  uint32_t AddDistinct(const Cell& v, uint64_t hash);
  void Grow();

  // The rows' key ids, [0, rows_) of one of: narrow_keys_ while !wide_, wide_keys_ from the 257th
  // distinct value on. Their size is room (default-initialized: not written, not touched).
  RowArray<uint8_t> narrow_keys_;
  RowArray<uint32_t> wide_keys_;
  size_t rows_ = 0;
  bool wide_ = false;
  size_t reserved_ = 0;  // rows reserved for (kept when the keys turn wide)
  ValueColumn distinct_;
  std::vector<uint64_t> distinct_hash_;  // per distinct value, its hash (rehashing)
  std::vector<uint32_t> slots_;          // open addressing: key id + 1, 0 = empty; size a power of 2
  std::array<SeenBytes, size_t{1} << kSeenBits> seen_{};  // by address: AppendAtStableAddress's cache
  std::string c_strings_;              // MakeCStrings: the copies, each followed by a NUL
  std::vector<int64_t> c_string_at_;   // per distinct value: its copy's offset, or -1
};

// Where a row came from. Positions are kept as runs of consecutive rowids in one file (a scan
// without filter has one run per file), so rowid, file_row_number, filename and partition columns
// cost nothing per row.
struct RowOrigin {
  size_t file = 0;     // index of the file in the scan's snapshot
  int64_t rowid = 0;   // the row's rowid (its position in the whole dataset)
};

class SortedRows {
 public:
  // Forgets every row; `value_columns` value columns are kept besides the key. `expected_rows`:
  // room is reserved for that many rows in every column (an upper bound avoids growing them).
  void Reset(size_t value_columns, size_t expected_rows);

  KeyColumn& key() { return key_; }
  const KeyColumn& key() const { return key_; }
  // Where value column k's values go, appended after the rows' keys (the key of each row is
  // appended first): Append and AppendNumbers as ValueColumn's.
  class ValueSink {
   public:
    void Append(const Cell& v);
    template <typename T>
    void AppendNumbers(const T* values, size_t n, bool real);

   private:
    friend class SortedRows;
    ValueSink(SortedRows* rows, size_t k) : rows_(rows), k_(k) {}
    SortedRows* rows_;
    size_t k_;
  };
  ValueSink Values(size_t k) { return ValueSink(this, k); }
  // Records the origin of the next row (rows are counted by this call).
  void AddOrigin(size_t file, int64_t rowid);
  // The origins of the next `count` rows: consecutive rowids from `rowid`.
  void AddOrigins(size_t file, int64_t rowid, int64_t count);
  int64_t rows() const { return rows_; }

  // Orders the rows by the key, ascending or descending; rows of equal keys keep the order they
  // were appended in. Every column must hold rows() values. Called once, after the last row.
  // Afterwards the i-th row of the order is read at i (KeyAt, ValueAt, NumberRun), in sequence:
  // partitioned columns are already in order, the others are reordered (one at a time, so for a
  // while a column's words are held twice).
  void Sort(bool descending);
  // The key of the i-th row of the order (after Sort); *c_string, when asked for, is the key
  // NUL-terminated when it is a TEXT without a NUL byte (KeyColumn::CString), else null. Reading
  // the rows in order costs no search.
  Cell KeyAt(size_t i, const char** c_string = nullptr) const;
  // KeyAt's *c_string alone (the Cell is not made) and its length: xColumn's path for keys kept as
  // C strings. Its data() is null for a key not kept so.
  std::string_view CStringAt(size_t i) const {
    if (!rank_end_.empty()) return c_string_of_rank_[RankOf(i)];
    const uint32_t key = key_.KeyOfRow(i);
    const char* c_string = key_.CString(key);
    return c_string == nullptr ? std::string_view() : std::string_view(c_string, key_.Distinct(key).bytes.size());
  }
  // Where the i-th row of the order came from (after Sort).
  RowOrigin OriginAt(int64_t i) const;
  // Value column k's value of the i-th row of the order (after Sort).
  Cell ValueAt(size_t k, size_t i) const;
  // The rows of the order from the i-th (after Sort, i < rows()) that every value column holding
  // numbers of one class (no NULL, TEXT or BLOB) keeps at consecutive addresses: their count
  // (at least 1), and in words[k] column k's words from row i on (its INTEGERs, or the bits of its
  // REALs, as *types[k] says), or null for a column of other values (ValueAt hands those out).
  // `words` and `types` have a slot per value column. When RunsOfOneKey(), a run never passes
  // the end of its key's rows.
  size_t NumberRun(size_t i, const uint64_t** words, CellType* types) const;
  // After Sort: every row of a NumberRun has the same key, KeyAt(i): when no two keys share a rank,
  // and there are at most kScatterRanks (many keys of a few rows each would make runs of a few rows,
  // each costing the cursor a call; their rows then come in one run, each with its own key).
  bool RunsOfOneKey() const { return !rank_end_.empty() && rank_end_.size() <= kScatterRanks; }
  // The value columns are kept partitioned by key (after Sort: they were never reordered).
  bool partitioned() const { return partitioned_; }
  // Before Sort: every value column to a ValueColumn in scan order (8 bytes a row); partitioned()
  // false. The partitions take a block of 256 values or more per key and column, cut from chunks of
  // growing size, so a few thousand rows of 256 keys may hold a few MiB there: more than the
  // estimate that let the plan sort here counts, or a small max_memory holds, which these columns fit.
  void Departition();

  // Heap bytes held (capacities), including what Sort will need for its order.
  int64_t MemoryBytes() const;

 private:
  struct Run {
    int64_t first_row = 0;  // stored row of the run's first row
    int64_t rowid = 0;      // its rowid; the run's rows have consecutive rowids
    size_t file = 0;
  };
  // At most this many ranks, Sort writes each column's values to their places (ValueColumn::
  // ScatterByRank) rather than gathering them in order: one write stream per rank.
  static constexpr uint32_t kScatterRanks = 256;

  // While the key has at most kPartitionKeys distinct values and every value column holds numbers
  // of one class, each value column is kept partitioned by the rows' key: the values of one key
  // in scan order, in blocks of growing size. Sort then needs to reorder nothing (when no two
  // keys share a rank): the rows of the order are the keys' partitions in rank order, and each
  // value is written once, where it is read from, not appended and then copied to its place (into
  // a second array of 8 bytes per row, 80 MB a column for 10,000,000 rows, which the process would
  // take fresh from the kernel, which zeroes it).
  // The first value that breaks the condition turns the columns into ValueColumns in scan order
  // (Departition).
  static constexpr size_t kPartitionKeys = 256;
  static constexpr int kFirstBlockBits = 8;  // a key's first block: 256 values
  static constexpr int kBlockDoublings = 6;  // the blocks' sizes double up to 16,384 values
  struct Partition {                // one key's values of one column
    std::vector<uint64_t*> blocks;  // in block_chunks_
    uint64_t* next = nullptr;       // in the last block: where the next value goes
    uint64_t* limit = nullptr;      // the last block's end
  };
  struct PartitionedColumn {
    CellType type = CellType::kNull;  // kInteger or kReal once a value is in
    size_t rows = 0;                  // appended so far
    std::vector<Partition> by_key;    // indexed by key id
  };
  // Block j's capacity and its first value's offset in its partition.
  static size_t BlockCapacity(size_t j) { return size_t{1} << (kFirstBlockBits + std::min<size_t>(j, kBlockDoublings)); }
  static size_t BlockStart(size_t j);
  // The block holding a partition's value at `offset`.
  static size_t BlockOf(size_t offset);
  void AddBlock(Partition& p);
  // Appends to column k's partitions the numbers of the rows from its next row on, while they
  // are numbers of its class: how many were appended.
  template <typename T>
  size_t AppendPartitioned(size_t k, const T* values, size_t n, bool real);
  // Column k's word of the i-th row of the order (partitioned, after Sort).
  const uint64_t* PartitionedWord(size_t k, size_t i) const;
  bool partitioned_ = false;
  size_t expected_rows_ = 0;
  // The blocks are cut from chunks of growing size, up to 8 MiB: few allocations, and those of
  // 4 MiB and more in huge pages, as a column's RowArray would be; reading a block then costs no
  // more than reading that array.
  static constexpr size_t kFirstChunkWords = size_t{1} << 13;
  static constexpr size_t kLastChunkWords = size_t{1} << 20;
  std::vector<MappedWords> block_chunks_;
  size_t chunk_used_ = 0;                      // words of block_chunks_.back() cut into blocks
  static constexpr size_t kBlockGapWords = 8;  // after each block: one cache line
  std::vector<PartitionedColumn> partitions_;  // per value column, while partitioned_
  int64_t partition_bytes_ = 0;                // the blocks' bytes

  KeyColumn key_;
  std::vector<ValueColumn> columns_;  // per value column, unless partitioned_
  std::vector<Run> runs_;
  int64_t rows_ = 0;
  // The order: the stored row of the i-th row in order. Only OriginAt needs it once every value
  // column was scattered and the key's rows need no reordering; it is then made by the first
  // OriginAt, from the key's rows, each key's rank and each rank's first place (kept for that).
  mutable RowArray<uint32_t> order_;
  mutable std::vector<uint32_t> order_rank_;
  mutable std::vector<uint32_t> order_place_;
  // Per distinct key, how many rows have it.
  std::vector<uint32_t> CountRowsOfKeys() const;
  // Fills order_ by a counting sort of the key's rows: row r goes to next_place[rank[key of r]]++.
  void BuildOrder(const std::vector<uint32_t>& rank, std::vector<uint32_t> next_place) const;
  // After Sort, when no two distinct keys share a rank (no 1 beside 1.0, no -0.0 beside 0.0): the
  // rows of the i-th rank are the order's rows rank_end_[i-1] .. rank_end_[i] - 1, all of key
  // key_of_rank_[i], and the key's rows are not reordered. Empty otherwise (the key's rows are).
  std::vector<uint32_t> rank_end_;
  std::vector<uint32_t> key_of_rank_;
  std::vector<std::string_view>
      c_string_of_rank_;  // key_.CString of each rank's key, with its length
  // The last rank RankOf found (rows are mostly read in order) and its rows, [rank_first_,
  // rank_first_ + rank_rows_).
  mutable size_t rank_cursor_ = 0;
  mutable size_t rank_first_ = 0;
  mutable size_t rank_rows_ = 0;
  // The rank of the i-th row of the order (rank_end_ not empty): the last one's (one compare), or
  // the next, or a search.
  size_t RankOf(size_t i) const {
    if (i - rank_first_ < rank_rows_) return rank_cursor_;
    return FindRank(i);
  }
  size_t FindRank(size_t i) const;
};

}  // namespace pq::ext
