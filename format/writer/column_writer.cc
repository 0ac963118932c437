#include "format/writer/column_writer.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstring>
#include <optional>
#include <type_traits>

#include "format/bloom/bloom_hash_set.h"
#include "format/encoding/encoder.h"
#include "format/geo/geospatial_statistics_builder.h"
#include "format/metadata/metadata_io.h"
#include "format/util/crc32.h"
#include "format/util/mix_hash.h"
#include "format/writer/distinct_counter.h"
#include "format/writer/page_index_builder.h"

namespace pq {

template <typename T>
bool IsValueTypeOf(PhysicalType type) {
  switch (type) {
    case PhysicalType::kBoolean:
      return std::is_same_v<T, uint8_t>;
    case PhysicalType::kInt32:
      return std::is_same_v<T, int32_t>;
    case PhysicalType::kInt64:
      return std::is_same_v<T, int64_t>;
    case PhysicalType::kInt96:
      return std::is_same_v<T, Int96>;
    case PhysicalType::kFloat:
      return std::is_same_v<T, float>;
    case PhysicalType::kDouble:
      return std::is_same_v<T, double>;
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      return std::is_same_v<T, ByteArray>;
  }
  return false;
}

DictionaryProjection ProjectDictionary(const DictionaryTrial& trial, double chunk_values) {
  DictionaryProjection p;
  if (trial.values <= 0 || trial.entries <= 0) return p;
  const double n = static_cast<double>(trial.values);
  const double e = static_cast<double>(trial.entries);
  const double chunk = std::max(chunk_values, n);
  const double second_half = n - std::floor(n / 2);
  const double growth =
      std::clamp(static_cast<double>(trial.second_half_new) / second_half, 0.0, 1.0);
  double added = 0;  // entries the rest of the chunk adds
  if (growth >= 1) {
    added = chunk - n;
  } else if (growth > 0) {
    const double domain = -0.75 * n / std::log(growth);
    added = domain * (std::exp(-n / domain) - std::exp(-chunk / domain));
  }
  p.entries = e + std::max(added, 0.0);
  p.page_bytes = p.entries * static_cast<double>(trial.plain_bytes) / e;
  // Index bit widths (RLE_DICTIONARY): of the trial's dictionary and of the chunk's.
  auto width = [](double entries) {
    return DictionaryIndexBitWidth(static_cast<uint64_t>(std::ceil(entries)));
  };
  const double index_scale =
      static_cast<double>(std::max(width(p.entries), 1)) / std::max(width(e), 1);
  p.cost = p.entries * static_cast<double>(trial.entries_cost) / e +
           chunk * static_cast<double>(trial.index_cost) / n * index_scale;
  return p;
}

bool KeepDictionary(const DictionaryTrial& trial, int64_t value_cost, double chunk_values,
                    int64_t dictionary_page_bytes) {
  if (trial.values <= 0) return false;
  // A low-cardinality column's dictionary stays whatever the sizes say (readers work on indices).
  if (trial.entries * kDictionaryReuse <= trial.values) return true;
  const DictionaryProjection p = ProjectDictionary(trial, chunk_values);
  if (p.page_bytes > static_cast<double>(dictionary_page_bytes)) return false;
  const double chunk = std::max(chunk_values, static_cast<double>(trial.values));
  const double value_bytes =
      static_cast<double>(value_cost) / static_cast<double>(trial.values) * chunk;
  // The margin pays for what readers gain from entries used more than once; without that reuse
  // (an all-distinct column) the dictionary must simply be smaller.
  const bool reused = chunk >= kToleranceReuse * p.entries;
  return p.cost <= (reused ? kDictionaryTolerance : 1.0) * value_bytes;
}

bool SwitchToDictionary(const DictionaryWatch& w, double chunk_values,
                        int64_t dictionary_page_bytes) {
  if (w.values <= 0 || w.entries <= 0 || w.window_values <= 0 || w.written_values <= 0 ||
      w.written_plain <= 0) {
    return false;
  }
  const double rest = chunk_values - static_cast<double>(w.values);
  if (rest <= 0) return false;
  const double growth = std::clamp(w.window_new / static_cast<double>(w.window_values), 0.0, 1.0);
  if (growth >= 1) return false;  // nothing but new values lately: no sign of repeats
  // Both counts of entries are estimates (DistinctCounter, within a few percent of all entries), so
  // a window that fell short of all-new by less than three such errors shows no repeats: noise alone
  // once switched an all-distinct column of doubles to a dictionary that overflowed 14 pages later.
  const double noise = 3 * DistinctCounter::kRelativeError * w.entries;
  if (w.window_new >= static_cast<double>(w.window_values) - noise) return false;
  // New entries the rest adds, for values drawn from D distinct ones: the window's rate at its
  // middle, m values in, is exp(-m/D) (ProjectDictionary).
  double added = 0;
  if (growth > 0) {
    const double middle = static_cast<double>(w.values) - static_cast<double>(w.window_values) / 2;
    const double domain = -middle / std::log(growth);
    added = domain *
            (std::exp(-static_cast<double>(w.values) / domain) - std::exp(-chunk_values / domain));
  }
  // The rest's entries: at most every value seen so far and every value to come.
  const double entries = std::min(w.entries + std::max(added, 0.0), w.entries + rest);
  const double entry_bytes =
      static_cast<double>(w.written_plain) / static_cast<double>(w.written_values);
  if (entries * entry_bytes > static_cast<double>(dictionary_page_bytes)) return false;
  const double stored_ratio =
      static_cast<double>(w.written_stored) / static_cast<double>(w.written_plain);
  const int width = std::max(DictionaryIndexBitWidth(static_cast<uint64_t>(std::ceil(entries))), 1);
  const double dictionary_cost = entries * entry_bytes * stored_ratio + rest * width / 8.0;
  const double value_cost =
      rest * static_cast<double>(w.written_stored) / static_cast<double>(w.written_values);
  const bool reused = rest >= kToleranceReuse * entries;
  return dictionary_cost <= (reused ? kDictionaryTolerance : 1.0) * value_cost;
}

template bool IsValueTypeOf<uint8_t>(PhysicalType);
template bool IsValueTypeOf<int32_t>(PhysicalType);
template bool IsValueTypeOf<int64_t>(PhysicalType);
template bool IsValueTypeOf<Int96>(PhysicalType);
template bool IsValueTypeOf<float>(PhysicalType);
template bool IsValueTypeOf<double>(PhysicalType);
template bool IsValueTypeOf<ByteArray>(PhysicalType);

namespace {

// Page sizes are i32 in the page header.
constexpr int64_t kMaxPageBytes = INT32_MAX;
// Records handed to the encoders between two "is the page full?" checks, at most; the first
// slice of a chunk, before anything is known of its record size, is smaller.
constexpr int64_t kMaxSliceRecords = 4096;
constexpr int64_t kFirstSliceRecords = 64;

template <typename T>
constexpr bool kHasDictionary = !std::is_same_v<T, uint8_t>;

// Value types DELTA_BINARY_PACKED takes (INT32, INT64): a candidate of the encoding trial.
template <typename T>
constexpr bool kHasDelta = std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>;

// DictionaryEncoder exists for every value type but BOOLEAN; the BOOLEAN writer holds a pointer
// type it never fills.
template <typename T>
using DictionaryEncoderFor =
    std::conditional_t<kHasDictionary<T>, DictionaryEncoder<T>, DictionaryEncoder<int32_t>>;

// out[r] = definition level of the r-th repeated field on the leaf's path (r = 1..max_rep): a
// repetition level r continues a list that exists, so its definition level reaches that field's.
std::vector<int16_t> RepeatedDefinitionLevels(const SchemaNode& leaf) {
  std::vector<int16_t> out(static_cast<size_t>(leaf.max_repetition_level) + 1, 0);
  for (const SchemaNode* n = &leaf; n != nullptr && !n->is_root(); n = n->parent) {
    if (n->is_repeated())
      out[static_cast<size_t>(n->max_repetition_level)] = n->max_definition_level;
  }
  return out;
}

std::vector<std::string> PathInSchema(const SchemaNode& leaf) {
  std::vector<std::string> path;
  for (const SchemaNode* n = &leaf; n != nullptr && !n->is_root(); n = n->parent)
    path.push_back(n->name);
  std::reverse(path.begin(), path.end());
  return path;
}

void Append(Buffer* out, ByteSpan bytes) {
  out->insert(out->end(), bytes.begin(), bytes.end());
}
void Append(Buffer* out, std::string_view bytes) {
  Append(out, AsBytes(bytes));
}

std::string PositionText(int64_t i) {
  return " at position " + std::to_string(i);
}

template <typename T>
class ColumnChunkWriterImpl final : public TypedColumnChunkWriter<T> {
  using Base = TypedColumnChunkWriter<T>;
  using Base::num_records_;
  using Base::settings_;

 public:
  explicit ColumnChunkWriterImpl(const ColumnWriteSettings& settings)
      : Base(settings),
        leaf_(*settings.leaf),
        max_def_(leaf_.max_definition_level),
        max_rep_(leaf_.max_repetition_level),
        repeated_def_(RepeatedDefinitionLevels(leaf_)),
        stats_format_(MakeStatisticsFormat(settings)),
        def_enc_(max_def_),
        rep_enc_(max_rep_),
        page_def_hist_(static_cast<size_t>(max_def_) + 1, 0),
        page_rep_hist_(static_cast<size_t>(max_rep_) + 1, 0),
        page_stats_(stats_format_.order),
        chunk_def_hist_(page_def_hist_.size(), 0),
        chunk_rep_hist_(page_rep_hist_.size(), 0),
        column_index_(stats_format_, max_def_, max_rep_),
        hashes_(settings.bloom_hashes ? settings.bloom_hashes.get() : &own_hashes_) {
    if (!hashes_->empty()) hashes_->Reset();  // left by a chunk that failed
    const LogicalType::Kind kind = leaf_.logical_type.kind;
    if (leaf_.physical_type == PhysicalType::kByteArray &&
        (kind == LogicalType::Kind::kGeometry || kind == LogicalType::Kind::kGeography)) {
      geo_.emplace(kind == LogicalType::Kind::kGeometry);
    }
  }

  Status Init() {
    if (settings_.value_encoding == Encoding::kPlainDictionary ||
        settings_.value_encoding == Encoding::kRleDictionary) {
      return Status::InvalidArgument("a dictionary encoding is not a value encoding");
    }
    if (settings_.page_bytes <= 0 || settings_.page_rows <= 0 ||
        settings_.dictionary_page_bytes <= 0) {
      return Status::InvalidArgument("page and dictionary limits must be positive");
    }
    if (settings_.data_page_version != 1 && settings_.data_page_version != 2) {
      return Status::InvalidArgument("data page version must be 1 or 2");
    }
    PQ_ASSIGN_OR_RETURN(value_enc_, MakeEncoder<T>(leaf_.physical_type, settings_.value_encoding,
                                                   leaf_.type_length));
    if constexpr (kHasDictionary<T>) {
      if (settings_.dictionary) {
        PQ_ASSIGN_OR_RETURN(dict_,
                            DictionaryEncoder<T>::Make(leaf_.physical_type, leaf_.type_length));
        dict_mode_ = true;
      }
    }
    if (settings_.encoding_trial) {
      if (settings_.trial_values <= 0) {
        return Status::InvalidArgument("the encoding trial needs a positive number of values");
      }
      // A trial needs two candidates: the dictionary and a value encoding, or PLAIN and
      // DELTA_BINARY_PACKED.
      in_trial_ = dict_mode_ || (kHasDelta<T> && settings_.value_encoding == Encoding::kPlain);
    }
    return Status::OK();
  }

  int64_t buffered_bytes() const override {
    int64_t n =
        static_cast<int64_t>(data_pages_.size() + dictionary_page_.size()) + EstimatedPageBytes();
    if constexpr (kHasDictionary<T>) {
      if (dict_mode_) n += dict_->dictionary_byte_size();
    }
    return n;
  }

  Status Write(int64_t num_levels, const int16_t* def_levels, const int16_t* rep_levels,
               const T* values, int64_t num_values) override {
    if (!failure_.ok()) return failure_;
    if (finished_) return Status::InvalidArgument("column chunk already finished");
    PQ_RETURN_IF_ERROR(Validate(num_levels, def_levels, rep_levels, values, num_values));
    if constexpr (std::is_same_v<T, ByteArray>) {
      if (geo_) {
        for (int64_t i = 0; i < num_values; ++i)
          geo_->Update(ByteSpan(values[i].ptr, values[i].len));
      }
    }
    Status s = WriteChecked(num_levels, def_levels, rep_levels, values);
    if (!s.ok()) failure_ = s;
    return s;
  }

  Result<ColumnChunkOutput> Finish() override {
    if (!failure_.ok()) return failure_;
    if (finished_) return Status::InvalidArgument("column chunk already finished");
    finished_ = true;
    PQ_RETURN_IF_ERROR(FlushPage());
    if (in_trial_) PQ_RETURN_IF_ERROR(EndTrial());  // a chunk without levels: nothing to go by
    watching_ = false;
    if constexpr (kHasDictionary<T>) {
      if (dict_mode_) PQ_RETURN_IF_ERROR(FreezeDictionary());
    }
    ColumnChunkOutput out;
    const int64_t dict_size = static_cast<int64_t>(dictionary_page_.size());
    out.bytes.reserve(dictionary_page_.size() + data_pages_.size());
    Append(&out.bytes, ByteSpan(dictionary_page_));
    Append(&out.bytes, ByteSpan(data_pages_));
    Buffer().swap(dictionary_page_);
    Buffer().swap(data_pages_);

    ColumnMetaData& m = out.meta;
    m.type = leaf_.physical_type;
    if (has_dictionary_page_) m.encodings.push_back(Encoding::kPlain);
    if (max_def_ > 0 || max_rep_ > 0) m.encodings.push_back(Encoding::kRle);
    for (Encoding e : data_encodings_) {
      if (std::find(m.encodings.begin(), m.encodings.end(), e) == m.encodings.end())
        m.encodings.push_back(e);
    }
    m.path_in_schema = PathInSchema(leaf_);
    m.codec = settings_.codec;
    m.num_values = num_levels_total_;
    m.total_uncompressed_size = total_uncompressed_;
    m.total_compressed_size = total_compressed_;
    m.data_page_offset = dict_size;
    if (has_dictionary_page_) m.dictionary_page_offset = 0;
    Statistics stats = ToThriftStatistics(chunk_stats_, stats_format_);
    // Every value went through the dictionary (not after a fallback, nor in a chunk that switched
    // to it late): its size is the exact distinct count. Entries are distinct bit patterns, which
    // is value equality except for floating point (-0.0, NaNs) and BYTE_ARRAY decimals (sign
    // extension), so not for those.
    if (has_dictionary_page_ && !fell_back_ && !switched_ && !stats_format_.floating &&
        stats_format_.order != SortOrder::kSignedDecimalBytes) {
      stats.distinct_count = dictionary_entries_;
    }
    m.statistics = std::move(stats);
    m.encoding_stats.emplace();
    if (has_dictionary_page_)
      m.encoding_stats->push_back({PageType::kDictionaryPage, Encoding::kPlain, 1});
    m.encoding_stats->insert(m.encoding_stats->end(), page_encoding_stats_.begin(),
                             page_encoding_stats_.end());
    SizeStatistics size;
    if (leaf_.physical_type == PhysicalType::kByteArray)
      size.unencoded_byte_array_data_bytes = chunk_unencoded_;
    if (max_rep_ > 0) size.repetition_level_histogram = chunk_rep_hist_;
    if (max_def_ > 0) size.definition_level_histogram = chunk_def_hist_;
    m.size_statistics = std::move(size);
    if (geo_) m.geospatial_statistics = geo_->Finish();

    if (settings_.page_index) {
      offset_index_.Shift(dict_size);
      out.offset_index = offset_index_.index();
      out.column_index = column_index_.Finish();
    }
    if (settings_.bloom_filter) {
      SplitBlockBloomFilter filter(SplitBlockBloomFilter::OptimalNumBytes(
          hashes_->size(), settings_.bloom_filter_fpp, settings_.bloom_filter_max_bytes));
      hashes_->AddTo(&filter);
      hashes_->Reset();
      out.bloom_filter = std::move(filter);
    }
    return out;
  }

 private:
  static StatisticsFormat MakeStatisticsFormat(const ColumnWriteSettings& s) {
    StatisticsFormat f;
    f.order = ColumnSortOrder(*s.leaf);
    f.type = s.leaf->physical_type;
    f.utf8 = StatisticsAreUtf8(*s.leaf);
    f.truncate_bytes = static_cast<size_t>(std::max<int64_t>(s.statistics_truncate_bytes, 0));
    f.floating = s.leaf->physical_type == PhysicalType::kFloat ||
                 s.leaf->physical_type == PhysicalType::kDouble || f.order == SortOrder::kFloat16;
    return f;
  }

  Status Invalid(const std::string& what) const {
    return Status::InvalidArgument("column '" + leaf_.DottedPath() + "': " + what);
  }

  Status Validate(int64_t num_levels, const int16_t* def, const int16_t* rep, const T* values,
                  int64_t num_values) const {
    if (num_levels < 0 || num_values < 0) return Invalid("negative level or value count");
    if (num_values > 0 && values == nullptr) return Invalid("values missing");
    if (max_def_ == 0) {
      if (num_values != num_levels) {
        return Invalid(std::to_string(num_values) + " values for " + std::to_string(num_levels) +
                       " entries of a required column");
      }
    } else {
      if (num_levels > 0 && def == nullptr) return Invalid("definition levels missing");
      int64_t defined = 0;
      for (int64_t i = 0; i < num_levels; ++i) {
        if (def[i] < 0 || def[i] > max_def_) {
          return Invalid("definition level " + std::to_string(def[i]) + PositionText(i) +
                         " is outside [0, " + std::to_string(max_def_) + "]");
        }
        defined += def[i] == max_def_;
      }
      if (defined != num_values) {
        return Invalid(std::to_string(num_values) +
                       " values given where the definition levels hold " + std::to_string(defined));
      }
    }
    if (max_rep_ > 0 && num_levels > 0) {
      if (rep == nullptr) return Invalid("repetition levels missing");
      if (rep[0] != 0) return Invalid("the first repetition level must be 0 (a record boundary)");
      for (int64_t i = 0; i < num_levels; ++i) {
        const int16_t r = rep[i];
        if (r < 0 || r > max_rep_) {
          return Invalid("repetition level " + std::to_string(r) + PositionText(i) +
                         " is outside [0, " + std::to_string(max_rep_) + "]");
        }
        if (r > 0 && def[i] < repeated_def_[static_cast<size_t>(r)]) {
          return Invalid("repetition level " + std::to_string(r) + PositionText(i) +
                         " continues a list its definition level " + std::to_string(def[i]) +
                         " says is absent");
        }
      }
    }
    if constexpr (std::is_same_v<T, ByteArray>) {
      if (leaf_.physical_type == PhysicalType::kFixedLenByteArray) {
        for (int64_t i = 0; i < num_values; ++i) {
          if (static_cast<int64_t>(values[i].len) != leaf_.type_length) {
            return Invalid("value" + PositionText(i) + " is " + std::to_string(values[i].len) +
                           " bytes long, the column's fixed length is " +
                           std::to_string(leaf_.type_length));
          }
        }
      }
    }
    return Status::OK();
  }

  int64_t EstimatedPageBytes() const {
    int64_t n = def_enc_.EstimatedSize() + rep_enc_.EstimatedSize();
    if (in_trial_) return n + page_raw_bytes_;  // the held values, PLAIN
    if constexpr (kHasDictionary<T>) {
      if (dict_mode_) return n + dict_->EstimatedDataSize();
    }
    return n + value_enc_->EstimatedDataSize();
  }

  // Records to hand over before checking whether the page is full: what is left of the page by rows
  // and by bytes at the record size seen so far (encoded size or raw value size, the larger).
  int64_t SliceRecords() const {
    const int64_t rows_left = std::max<int64_t>(settings_.page_rows - page_rows_, 1);
    const int64_t est = EstimatedPageBytes();
    int64_t per_record = record_bytes_;
    if (page_rows_ > 0)
      per_record = std::max<int64_t>(std::max(est, page_raw_bytes_) / page_rows_, 1);
    const int64_t by_bytes = per_record > 0
                                 ? std::max<int64_t>((settings_.page_bytes - est) / per_record, 1)
                                 : kFirstSliceRecords;
    return std::clamp<int64_t>(std::min(rows_left, by_bytes), 1, kMaxSliceRecords);
  }

  // PLAIN size of a value, what a slice is measured in before it is encoded.
  static int64_t RawSize(const T& v) {
    if constexpr (std::is_same_v<T, ByteArray>) {
      return int64_t{v.len} + 4;
    } else {
      (void)v;
      return static_cast<int64_t>(sizeof(T));
    }
  }

  // Hands the records over in slices: at most SliceRecords() records and no more raw value bytes
  // than the page has room for. A record that would overflow a page holding other records starts
  // the next page instead, so a page passes page_bytes only when one record alone does.
  Status WriteChecked(int64_t num_levels, const int16_t* def, const int16_t* rep, const T* values) {
    int64_t lpos = 0, vpos = 0;
    while (lpos < num_levels) {
      const int64_t want = SliceRecords();
      const int64_t budget = std::max<int64_t>(settings_.page_bytes - EstimatedPageBytes(), 1);
      int64_t lend = lpos, records = 0, nvals = 0;
      if (max_rep_ == 0 && max_def_ == 0 && !std::is_same_v<T, ByteArray>) {
        records = std::min({want, std::max<int64_t>(budget / static_cast<int64_t>(sizeof(T)), 1),
                            num_levels - lpos});
        lend = lpos + records;
        nvals = records;
      } else {
        int64_t bytes = 0;
        // Where the last record taken starts, to give it back when it overflows.
        int64_t record_level = lpos, record_nvals = 0;
        const bool page_has_records = page_rows_ > 0;
        auto overflowed = [&] { return bytes > budget && (records > 1 || page_has_records); };
        for (; lend < num_levels; ++lend) {
          if (max_rep_ == 0 || rep[lend] == 0) {
            if (records > 0 && overflowed()) break;
            if (records == want || (records > 0 && bytes >= budget)) break;
            ++records;
            record_level = lend;
            record_nvals = nvals;
          }
          if (max_def_ == 0 || def[lend] == max_def_) {
            bytes += RawSize(values[vpos + nvals]);
            ++nvals;
          }
        }
        if (records > 0 && overflowed()) {
          lend = record_level;
          nvals = record_nvals;
          --records;
        }
        if (records == 0) {  // the next record does not fit beside what the page holds
          PQ_RETURN_IF_ERROR(FlushPage());
          continue;
        }
      }
      PQ_RETURN_IF_ERROR(PutSlice(max_def_ > 0 ? def + lpos : nullptr,
                                  max_rep_ > 0 ? rep + lpos : nullptr, lend - lpos,
                                  values != nullptr ? values + vpos : nullptr, nvals, records));
      lpos = lend;
      vpos += nvals;
      if (in_trial_ && static_cast<int64_t>(trial_values_.size()) >= settings_.trial_values) {
        PQ_RETURN_IF_ERROR(EndTrial());
      }
      if (page_rows_ >= settings_.page_rows || EstimatedPageBytes() >= settings_.page_bytes) {
        PQ_RETURN_IF_ERROR(FlushPage());
      }
      if constexpr (kHasDictionary<T>) {
        if (dict_mode_ && dict_->dictionary_byte_size() > settings_.dictionary_page_bytes) {
          PQ_RETURN_IF_ERROR(FallBack());
        }
      }
    }
    return Status::OK();
  }

  Status PutSlice(const int16_t* def, const int16_t* rep, int64_t n, const T* values, int64_t nvals,
                  int64_t records) {
    if (max_def_ > 0) {
      PQ_RETURN_IF_ERROR(def_enc_.Put(def, n));
      for (int64_t i = 0; i < n; ++i) ++page_def_hist_[static_cast<size_t>(def[i])];
    }
    if (max_rep_ > 0) {
      PQ_RETURN_IF_ERROR(rep_enc_.Put(rep, n));
      for (int64_t i = 0; i < n; ++i) ++page_rep_hist_[static_cast<size_t>(rep[i])];
    }
    if (nvals > 0) {
      bool via_dictionary = false;
      if (in_trial_) {
        HoldTrialValues(values, nvals);
        via_dictionary = true;  // encoded (and hashed) when the trial ends
      } else if constexpr (kHasDictionary<T>) {
        if (dict_mode_) {
          PQ_RETURN_IF_ERROR(dict_->Put(values, nvals));
          via_dictionary = true;
        }
      }
      if (!via_dictionary) {
        PQ_RETURN_IF_ERROR(value_enc_->Put(values, nvals));
        if (settings_.bloom_filter) AddHashes(values, nvals);
        if (watching_) CountDistinct(values, nvals);
      }
      page_values_ += nvals;
      chunk_values_ += nvals;
      page_stats_.Update(values, nvals);
      if constexpr (std::is_same_v<T, ByteArray>) {
        int64_t bytes = 0;
        for (int64_t i = 0; i < nvals; ++i) bytes += values[i].len;
        page_raw_bytes_ += bytes + 4 * nvals;
        if (leaf_.physical_type == PhysicalType::kByteArray) page_unencoded_ += bytes;
      } else {
        page_raw_bytes_ += nvals * static_cast<int64_t>(sizeof(T));
      }
    }
    page_stats_.AddNulls(n - nvals);
    page_levels_ += n;
    page_nulls_ += n - nvals;
    page_rows_ += records;
    num_records_ += records;
    return Status::OK();
  }

  void AddHashes(const T* values, int64_t n) {
    if constexpr (!std::is_same_v<T, uint8_t>) {
      uint64_t batch[256];
      bool zero = false;
      for (int64_t start = 0; start < n; start += 256) {
        const int64_t m = std::min<int64_t>(256, n - start);
        for (int64_t i = 0; i < m; ++i) {
          batch[i] = BloomHash(values[start + i]);
          if constexpr (std::is_floating_point_v<T>) zero |= values[start + i] == 0;
        }
        hashes_->InsertMany(batch, m);
      }
      if (zero) HashBothZeros();
    } else {
      (void)values, (void)n;
    }
  }

  // The spec hashes a value's bits, so -0.0 and +0.0 have different hashes, and a reader probing
  // for a zero must probe both. Ours does; not every one does (hyparquet probes +0.0 only and
  // skipped a row group holding -0.0). A chunk holding either zero gets both hashes: a row group
  // that holds a value equal to 0 then passes a probe for either, at the cost of one more hash.
  void HashBothZeros() {
    if constexpr (std::is_floating_point_v<T>) {
      hashes_->Insert(BloomHash(static_cast<T>(0.0)));
      hashes_->Insert(BloomHash(static_cast<T>(-0.0)));
    }
  }

  Status CompressPage(ByteSpan in, Buffer* out) {
    if (settings_.codec == CompressionCodec::kUncompressed) {
      out->assign(in.begin(), in.end());
      return Status::OK();
    }
    return Compress(settings_.codec, in, settings_.compression_level, out);
  }

  Status CheckPageSize(int64_t bytes) const {
    if (bytes > kMaxPageBytes) {
      return Invalid("a page of " + std::to_string(bytes) +
                     " bytes is over the format's limit of 2 GiB");
    }
    return Status::OK();
  }

  // What EmitPage appended: the header (or header module) and the page (or page module).
  struct EmittedPage {
    size_t header_size = 0;
    size_t page_size = 0;
  };

  // Appends a page (header + stored bytes) to `out`. In an encrypted chunk the page becomes a page
  // module and the header a header module; `dictionary` and data_pages_emitted_ name them in the
  // AADs.
  Result<EmittedPage> EmitPage(PageHeader* header, ByteSpan stored, int64_t uncompressed_size,
                               bool dictionary, Buffer* out) {
    PQ_RETURN_IF_ERROR(CheckPageSize(uncompressed_size));
    PQ_RETURN_IF_ERROR(CheckPageSize(static_cast<int64_t>(stored.size())));
    header->uncompressed_page_size = static_cast<int32_t>(uncompressed_size);
    if (!settings_.encryptor) {
      header->compressed_page_size = static_cast<int32_t>(stored.size());
      if (settings_.checksums) header->crc = static_cast<int32_t>(Crc32(stored));
      std::string h;
      WritePageHeader(*header, &h);
      Append(out, h);
      Append(out, stored);
      return EmittedPage{h.size(), stored.size()};
    }
    const crypto::ColumnEncryptor& encryptor = *settings_.encryptor;
    const int64_t ordinal = dictionary ? 0 : data_pages_emitted_;
    page_module_.clear();
    PQ_RETURN_IF_ERROR(encryptor.EncryptPage(stored, dictionary, ordinal, &page_module_));
    PQ_RETURN_IF_ERROR(CheckPageSize(static_cast<int64_t>(page_module_.size())));
    const ByteSpan module = AsBytes(page_module_);
    header->compressed_page_size = static_cast<int32_t>(module.size());
    if (settings_.checksums) header->crc = static_cast<int32_t>(Crc32(module));
    std::string h;
    WritePageHeader(*header, &h);
    std::string header_module;
    PQ_RETURN_IF_ERROR(
        encryptor.EncryptPageHeader(AsBytes(h), dictionary, ordinal, &header_module));
    Append(out, header_module);
    Append(out, module);
    return EmittedPage{header_module.size(), module.size()};
  }

  Status FlushPage() {
    if (page_levels_ == 0) return Status::OK();
    if (in_trial_) PQ_RETURN_IF_ERROR(EndTrial());
    if (page_levels_ > INT32_MAX) return Invalid("a page holds more than 2^31-1 level entries");
    Buffer values;
    Encoding encoding = Encoding::kRleDictionary;
    bool via_dictionary = false;
    if constexpr (kHasDictionary<T>) {
      if (dict_mode_) {
        values = dict_->FlushIndices();
        via_dictionary = true;
      }
    }
    if (!via_dictionary) {
      values = value_enc_->FlushValues();
      encoding = value_enc_->encoding();
    }
    ValueStatistics ps = page_stats_.Take();
    const bool with_stats = settings_.page_header_statistics || !settings_.page_index;

    PageHeader header;
    int64_t uncompressed_size = 0;
    if (settings_.data_page_version == 1) {
      Buffer body = rep_enc_.FlushV1();
      Append(&body, ByteSpan(def_enc_.FlushV1()));
      Append(&body, ByteSpan(values));
      uncompressed_size = static_cast<int64_t>(body.size());
      PQ_RETURN_IF_ERROR(CompressPage(body, &stored_));
      header.type = PageType::kDataPage;
      DataPageHeader d;
      d.num_values = static_cast<int32_t>(page_levels_);
      d.encoding = encoding;
      d.definition_level_encoding = Encoding::kRle;
      d.repetition_level_encoding = Encoding::kRle;
      if (with_stats) d.statistics = ToThriftStatistics(ps, stats_format_);
      header.data_page_header = std::move(d);
    } else {
      Buffer rep = rep_enc_.FlushV2();
      Buffer def = def_enc_.FlushV2();
      // An empty value section is stored as is: nothing for a codec to decode.
      const bool compressed = settings_.codec != CompressionCodec::kUncompressed && !values.empty();
      if (compressed) {
        PQ_RETURN_IF_ERROR(CompressPage(values, &scratch_));
      } else {
        scratch_.assign(values.begin(), values.end());
      }
      stored_.clear();
      Append(&stored_, ByteSpan(rep));
      Append(&stored_, ByteSpan(def));
      Append(&stored_, ByteSpan(scratch_));
      uncompressed_size = static_cast<int64_t>(rep.size() + def.size() + values.size());
      header.type = PageType::kDataPageV2;
      DataPageHeaderV2 d;
      d.num_values = static_cast<int32_t>(page_levels_);
      d.num_nulls = static_cast<int32_t>(page_nulls_);
      d.num_rows = static_cast<int32_t>(page_rows_);
      d.encoding = encoding;
      d.definition_levels_byte_length = static_cast<int32_t>(def.size());
      d.repetition_levels_byte_length = static_cast<int32_t>(rep.size());
      d.is_compressed = compressed;
      if (with_stats) d.statistics = ToThriftStatistics(ps, stats_format_);
      header.data_page_header_v2 = std::move(d);
    }
    const int64_t offset = static_cast<int64_t>(data_pages_.size());
    PQ_ASSIGN_OR_RETURN(EmittedPage emitted,
                        EmitPage(&header, stored_, uncompressed_size, false, &data_pages_));
    ++data_pages_emitted_;
    const size_t header_size = emitted.header_size;
    const int64_t page_size = static_cast<int64_t>(emitted.header_size + emitted.page_size);
    if (page_size > kMaxPageBytes) return CheckPageSize(page_size);
    offset_index_.AddPage(offset, static_cast<int32_t>(page_size), page_first_row_,
                          leaf_.physical_type == PhysicalType::kByteArray
                              ? std::optional<int64_t>(page_unencoded_)
                              : std::nullopt);
    column_index_.AddPage(ps, page_def_hist_, page_rep_hist_);
    chunk_stats_.Merge(ps, stats_format_.order, stats_format_.type);
    for (size_t i = 0; i < page_def_hist_.size(); ++i) chunk_def_hist_[i] += page_def_hist_[i];
    for (size_t i = 0; i < page_rep_hist_.size(); ++i) chunk_rep_hist_[i] += page_rep_hist_[i];
    CountPage(header.type, encoding);
    total_uncompressed_ += static_cast<int64_t>(header_size) + uncompressed_size;
    total_compressed_ += page_size;
    num_levels_total_ += page_levels_;
    chunk_unencoded_ += page_unencoded_;
    record_bytes_ = std::max<int64_t>(
        std::max(uncompressed_size, page_raw_bytes_) / std::max<int64_t>(page_rows_, 1), 1);
    if (watching_ && !finished_) PQ_RETURN_IF_ERROR(WatchPageEnd(page_size));

    page_levels_ = page_nulls_ = page_rows_ = page_unencoded_ = page_raw_bytes_ = page_values_ = 0;
    std::fill(page_def_hist_.begin(), page_def_hist_.end(), 0);
    std::fill(page_rep_hist_.begin(), page_rep_hist_.end(), 0);
    page_first_row_ = num_records_;
    return Status::OK();
  }

  void CountPage(PageType type, Encoding encoding) {
    if (std::find(data_encodings_.begin(), data_encodings_.end(), encoding) ==
        data_encodings_.end()) {
      data_encodings_.push_back(encoding);
    }
    for (PageEncodingStats& s : page_encoding_stats_) {
      if (s.page_type == type && s.encoding == encoding) {
        ++s.count;
        return;
      }
    }
    page_encoding_stats_.push_back({type, encoding, 1});
  }

  // Writes the dictionary page (kept apart: it goes first in the chunk) and drops the dictionary.
  Status FreezeDictionary() {
    if constexpr (kHasDictionary<T>) {
      Buffer body = dict_->DictionaryPage();
      if (settings_.bloom_filter) HashDictionary(body);
      PQ_RETURN_IF_ERROR(CompressPage(body, &stored_));
      PageHeader header;
      header.type = PageType::kDictionaryPage;
      DictionaryPageHeader d;
      d.num_values = dict_->num_entries();
      d.encoding = Encoding::kPlain;
      header.dictionary_page_header = d;
      PQ_ASSIGN_OR_RETURN(
          EmittedPage emitted,
          EmitPage(&header, stored_, static_cast<int64_t>(body.size()), true, &dictionary_page_));
      total_uncompressed_ += static_cast<int64_t>(emitted.header_size + body.size());
      total_compressed_ += static_cast<int64_t>(emitted.header_size + emitted.page_size);
      dictionary_entries_ = dict_->num_entries();
      has_dictionary_page_ = true;
      dict_mode_ = false;
      dict_.reset();
    }
    return Status::OK();
  }

  // Bloom hashes of the dictionary's entries, from their PLAIN encoding.
  void HashDictionary(const Buffer& plain) {
    if constexpr (std::is_same_v<T, ByteArray>) {
      size_t pos = 0;
      if (leaf_.physical_type == PhysicalType::kFixedLenByteArray) {
        const size_t width = static_cast<size_t>(leaf_.type_length);
        for (; width > 0 && pos + width <= plain.size(); pos += width) {
          hashes_->Insert(BloomHash(ByteSpan(plain.data() + pos, width)));
        }
      } else {
        while (plain.size() - pos >= 4) {
          const uint32_t len = LoadLE<uint32_t>(plain.data() + pos);
          pos += 4;
          if (len > plain.size() - pos) break;  // cannot happen: our own encoding
          hashes_->Insert(BloomHash(ByteSpan(plain.data() + pos, len)));
          pos += len;
        }
      }
    } else if constexpr (!std::is_same_v<T, uint8_t>) {
      for (size_t pos = 0; pos + sizeof(T) <= plain.size(); pos += sizeof(T)) {
        T v;
        std::memcpy(&v, plain.data() + pos, sizeof(T));
        hashes_->Insert(BloomHash(v));
        if constexpr (std::is_floating_point_v<T>) {
          if (v == 0) HashBothZeros();
        }
      }
    } else {
      (void)plain;
    }
  }

  // The watch (column_writer.h). Starts on the trial's n values, the chunk's first.
  void StartWatch(const T* values, int64_t n) {
    if constexpr (kHasDictionary<T>) {
      watching_ = true;
      distinct_.Reset();
      watch_points_.clear();
      watch_ = DictionaryWatch{};
      const int64_t half = n / 2;
      CountDistinct(values, half);
      watch_points_.push_back({chunk_values_ - (n - half), distinct_.Estimate()});
      CountDistinct(values + half, n - half);
      watch_points_.push_back({chunk_values_, distinct_.Estimate()});
    } else {
      (void)values, (void)n;
    }
  }

  void CountDistinct(const T* values, int64_t n) {
    for (int64_t i = 0; i < n; ++i) distinct_.Add(WatchHash(values[i]));
  }

  // At the end of a page written in the value encoding while watching: ends the watch when the
  // distinct values could no longer fit a dictionary page, switches to a dictionary for the rest of
  // the chunk when SwitchToDictionary says so.
  Status WatchPageEnd(int64_t page_size) {
    if constexpr (kHasDictionary<T>) {
      watch_.written_values += page_values_;
      watch_.written_plain += page_raw_bytes_;
      watch_.written_stored += page_size;
      const double entries = distinct_.Estimate();
      if (watch_.written_values > 0 && entries * static_cast<double>(watch_.written_plain) /
                                               static_cast<double>(watch_.written_values) >
                                           static_cast<double>(settings_.dictionary_page_bytes)) {
        watching_ = false;
        watch_points_.clear();
        return Status::OK();
      }
      const WatchPoint now{chunk_values_, entries};
      // The window: from the latest point at least a quarter of the values (4,096 at least) back.
      const int64_t reach = std::max<int64_t>(4096, chunk_values_ / 4);
      std::optional<WatchPoint> from;  // a copy: the push_back below may move the points
      for (const WatchPoint& p : watch_points_) {
        if (p.values <= chunk_values_ - reach) from = p;
      }
      watch_points_.push_back(now);
      if (!from) return Status::OK();
      watch_.values = now.values;
      watch_.entries = now.entries;
      watch_.window_values = now.values - from->values;
      watch_.window_new = std::max(now.entries - from->entries, 0.0);
      const int64_t records = std::max<int64_t>(num_records_, 1);
      const double chunk_values = settings_.chunk_rows > records
                                      ? static_cast<double>(settings_.chunk_rows) *
                                            static_cast<double>(chunk_values_) /
                                            static_cast<double>(records)
                                      : static_cast<double>(chunk_values_);
      if (!SwitchToDictionary(watch_, chunk_values, settings_.dictionary_page_bytes)) {
        return Status::OK();
      }
      PQ_ASSIGN_OR_RETURN(dict_,
                          DictionaryEncoder<T>::Make(leaf_.physical_type, leaf_.type_length));
      dict_mode_ = true;
      switched_ = true;
      watching_ = false;
      watch_points_.clear();
    } else {
      (void)page_size;
    }
    return Status::OK();
  }

  // A hash of a value's bits for the distinct count (never stored).
  static uint64_t WatchHash(const T& v) {
    if constexpr (std::is_same_v<T, ByteArray>) {
      return HashBytes(v.ptr, v.len);
    } else if constexpr (sizeof(T) <= sizeof(uint64_t)) {
      uint64_t bits = 0;
      std::memcpy(&bits, &v, sizeof(T));
      return MixHash64(bits ^ 0x9e3779b97f4a7c15ULL);
    } else {
      return HashBytes(&v, sizeof(T));
    }
  }

  // Keeps a copy of values put during the trial (ByteArray bytes in trial_bytes_).
  void HoldTrialValues(const T* values, int64_t n) {
    if constexpr (std::is_same_v<T, ByteArray>) {
      for (int64_t i = 0; i < n; ++i) {
        trial_bytes_.insert(trial_bytes_.end(), values[i].ptr, values[i].ptr + values[i].len);
        trial_values_.push_back(ByteArray{nullptr, values[i].len});
      }
    } else {
      trial_values_.insert(trial_values_.end(), values, values + n);
    }
  }

  // Bytes `in` takes once compressed with the chunk's codec.
  Result<int64_t> CompressedSize(ByteSpan in) {
    if (settings_.codec == CompressionCodec::kUncompressed || in.empty()) {
      return static_cast<int64_t>(in.size());
    }
    PQ_RETURN_IF_ERROR(Compress(settings_.codec, in, settings_.compression_level, &scratch_));
    return static_cast<int64_t>(scratch_.size());
  }

  // Compressed bytes of `values` in `encoder`'s encoding; leaves the encoder empty.
  Result<int64_t> TrialSize(TypedEncoder<T>* encoder, const std::vector<T>& values) {
    PQ_RETURN_IF_ERROR(encoder->Put(values.data(), static_cast<int64_t>(values.size())));
    const Buffer encoded = encoder->FlushValues();
    return CompressedSize(encoded);
  }

  // Ends the trial (column_writer.h): picks the value encoding and keeps or drops the dictionary
  // by the compressed size of the held values in each, then encodes them the chosen way. Without
  // held values (the first page all null, or an empty chunk) the settings stand as given.
  Status EndTrial() {
    in_trial_ = false;
    std::vector<T> values = std::move(trial_values_);
    trial_values_ = {};
    Buffer bytes = std::move(trial_bytes_);
    trial_bytes_ = {};
    if constexpr (std::is_same_v<T, ByteArray>) {
      size_t pos = 0;
      for (ByteArray& v : values) {
        v.ptr = bytes.data() + pos;
        pos += v.len;
      }
    }
    const int64_t n = static_cast<int64_t>(values.size());
    if (n == 0) return Status::OK();

    PQ_ASSIGN_OR_RETURN(int64_t value_cost, TrialSize(value_enc_.get(), values));
    if constexpr (kHasDelta<T>) {
      if (value_enc_->encoding() == Encoding::kPlain) {
        PQ_ASSIGN_OR_RETURN(
            std::unique_ptr<TypedEncoder<T>> delta,
            MakeEncoder<T>(leaf_.physical_type, Encoding::kDeltaBinaryPacked, leaf_.type_length));
        PQ_ASSIGN_OR_RETURN(int64_t delta_cost, TrialSize(delta.get(), values));
        if (delta_cost < value_cost) {
          value_enc_ = std::move(delta);
          value_cost = delta_cost;
        }
      }
    }
    if constexpr (kHasDictionary<T>) {
      if (dict_mode_) {
        const int64_t half = n / 2;
        PQ_RETURN_IF_ERROR(dict_->Put(values.data(), half));
        const int64_t entries_at_half = dict_->num_entries();
        PQ_RETURN_IF_ERROR(dict_->Put(values.data() + half, n - half));
        DictionaryTrial trial;
        trial.values = n;
        trial.entries = dict_->num_entries();
        trial.second_half_new = trial.entries - entries_at_half;
        trial.plain_bytes = dict_->dictionary_byte_size();
        PQ_ASSIGN_OR_RETURN(trial.index_cost, CompressedSize(dict_->PeekIndices()));
        PQ_ASSIGN_OR_RETURN(trial.entries_cost, CompressedSize(dict_->DictionaryPage()));
        // The chunk's non-null values: the row group's rows at the trial's values per record.
        const int64_t records = std::max<int64_t>(num_records_, 1);
        const double chunk_values = settings_.chunk_rows > records
                                        ? static_cast<double>(settings_.chunk_rows) *
                                              static_cast<double>(n) / static_cast<double>(records)
                                        : static_cast<double>(n);
        if (KeepDictionary(trial, value_cost, chunk_values, settings_.dictionary_page_bytes)) {
          return Status::OK();
        }
        // The watch (column_writer.h): worth it only with much of the chunk to come, and when the
        // value encoding costs more than bare indices of the trial's dictionary would.
        const int index_bits =
            std::max(DictionaryIndexBitWidth(static_cast<uint64_t>(trial.entries)), 1);
        if (chunk_values >= 2.0 * static_cast<double>(n) &&
            static_cast<double>(value_cost) * 8 > static_cast<double>(n) * index_bits &&
            trial.plain_bytes <= settings_.dictionary_page_bytes) {
          StartWatch(values.data(), n);
        }
        dict_.reset();
        dict_mode_ = false;
      }
    }
    PQ_RETURN_IF_ERROR(value_enc_->Put(values.data(), n));
    if (settings_.bloom_filter) AddHashes(values.data(), n);
    return Status::OK();
  }

  // The dictionary grew past its limit: end the page of indices, freeze the dictionary and go on
  // with the value encoding.
  Status FallBack() {
    PQ_RETURN_IF_ERROR(FlushPage());
    PQ_RETURN_IF_ERROR(FreezeDictionary());
    fell_back_ = true;
    return Status::OK();
  }

  const SchemaNode& leaf_;
  const int16_t max_def_;
  const int16_t max_rep_;
  const std::vector<int16_t> repeated_def_;
  const StatisticsFormat stats_format_;
  LevelEncoder def_enc_;
  LevelEncoder rep_enc_;
  std::unique_ptr<DictionaryEncoderFor<T>> dict_;
  std::unique_ptr<TypedEncoder<T>> value_enc_;
  bool dict_mode_ = false;       // values go through dict_
  bool in_trial_ = false;        // values are held in trial_values_ (column_writer.h)
  std::vector<T> trial_values_;  // ByteArray: lengths only, the bytes in trial_bytes_
  Buffer trial_bytes_;
  bool fell_back_ = false;  // the dictionary overflowed; later pages use value_enc_
  // The watch (column_writer.h): the trial dropped the dictionary, distinct_ counts the values.
  struct WatchPoint {
    int64_t values;  // chunk_values_ then
    double entries;  // distinct_'s estimate then
  };
  bool watching_ = false;
  bool switched_ = false;  // the watch switched the chunk to a dictionary after value pages
  DistinctCounter distinct_;
  std::vector<WatchPoint> watch_points_;  // at the trial's half, its end and each page end
  DictionaryWatch watch_;
  bool has_dictionary_page_ = false;  // dictionary_page_ holds the frozen dictionary
  bool finished_ = false;
  Status failure_;  // a failure that left the chunk unusable
  int32_t dictionary_entries_ = 0;
  Buffer dictionary_page_;          // header + stored bytes
  Buffer data_pages_;               // headers + stored bytes of the data pages so far
  Buffer stored_;                   // scratch: one page's stored bytes
  Buffer scratch_;                  // scratch: v2 compressed values
  std::string page_module_;         // scratch: one encrypted page module
  int64_t data_pages_emitted_ = 0;  // data pages so far: the next one's ordinal in the AADs

  // The page in progress.
  int64_t page_levels_ = 0;
  int64_t page_nulls_ = 0;
  int64_t page_values_ = 0;  // non-null values
  int64_t page_rows_ = 0;
  int64_t page_unencoded_ = 0;  // BYTE_ARRAY value bytes without length prefixes
  int64_t page_raw_bytes_ = 0;  // PLAIN size of the values, for slicing
  int64_t page_first_row_ = 0;
  std::vector<int64_t> page_def_hist_;
  std::vector<int64_t> page_rep_hist_;
  StatisticsBuilder<T> page_stats_;

  // The chunk.
  std::vector<int64_t> chunk_def_hist_;
  std::vector<int64_t> chunk_rep_hist_;
  ValueStatistics chunk_stats_;
  // GEOMETRY and GEOGRAPHY leaves: their GeospatialStatistics (geospatial_statistics_builder.h).
  std::optional<geo::GeospatialStatisticsBuilder> geo_;
  int64_t num_levels_total_ = 0;
  int64_t chunk_values_ = 0;  // non-null values
  int64_t chunk_unencoded_ = 0;
  int64_t total_uncompressed_ = 0;  // headers + uncompressed page bytes
  int64_t total_compressed_ = 0;    // headers + stored page bytes
  int64_t record_bytes_ = 0;        // bytes per record of the last page (0 before the first)
  std::vector<Encoding> data_encodings_;
  std::vector<PageEncodingStats> page_encoding_stats_;
  ColumnIndexBuilder column_index_;
  OffsetIndexBuilder offset_index_;
  BloomHashSet own_hashes_;
  BloomHashSet* hashes_;  // distinct Bloom hashes of the chunk's values: settings' or own_hashes_
};

template <typename T>
Result<std::unique_ptr<ColumnChunkWriter>> MakeTyped(const ColumnWriteSettings& settings) {
  auto writer = std::make_unique<ColumnChunkWriterImpl<T>>(settings);
  PQ_RETURN_IF_ERROR(writer->Init());
  return std::unique_ptr<ColumnChunkWriter>(std::move(writer));
}

}  // namespace

Result<std::unique_ptr<ColumnChunkWriter>> ColumnChunkWriter::Make(
    const ColumnWriteSettings& settings) {
  if (settings.leaf == nullptr || !settings.leaf->is_leaf) {
    return Status::InvalidArgument("column writer needs a leaf column");
  }
  switch (settings.leaf->physical_type) {
    case PhysicalType::kBoolean: {
      ColumnWriteSettings s = settings;
      s.dictionary = false;
      return MakeTyped<uint8_t>(s);
    }
    case PhysicalType::kInt32:
      return MakeTyped<int32_t>(settings);
    case PhysicalType::kInt64:
      return MakeTyped<int64_t>(settings);
    case PhysicalType::kInt96:
      return MakeTyped<Int96>(settings);
    case PhysicalType::kFloat:
      return MakeTyped<float>(settings);
    case PhysicalType::kDouble:
      return MakeTyped<double>(settings);
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      return MakeTyped<ByteArray>(settings);
  }
  return Status::NotSupported("unknown physical type");
}

}  // namespace pq
