#include "format/column/column_reader.h"

#include <array>

#include "format/encoding/decoder.h"
#include "format/page/page_reader.h"

namespace pq {

namespace {

// A page may not claim more level entries than this; a few bytes of RLE can describe billions.
constexpr int64_t kMaxPageValues = int64_t{1} << 28;

template <typename T>
class TypedColumnChunkReader final : public ColumnChunkReader {
 public:
  TypedColumnChunkReader(std::shared_ptr<const FileReader> file, const SchemaNode* leaf,
                         const ColumnMetaData* meta, std::string context)
      : ColumnChunkReader(std::move(file), leaf),
        meta_(meta),
        context_(context),
        pages_(file_->file(), *meta, file_->options(), std::move(context), file_->chunk_size_slack()) {
    page_reader_ = &pages_;
    max_def_ = leaf->max_definition_level;
    max_rep_ = leaf->max_repetition_level;
  }

  Result<int64_t> ReadRecords(int64_t max_records, ColumnBatch* batch) override {
    return Consume(max_records, batch);
  }
  Result<int64_t> SkipRecords(int64_t n) override { return Consume(n, nullptr); }

 private:
  Status PageError(Status s) const {
    return std::move(s).WithContext(context_ + ", page " + std::to_string(page_.ordinal));
  }

  Status LoadDictionary() {
    if (page_.encoding != Encoding::kPlain && page_.encoding != Encoding::kPlainDictionary) {
      return PageError(Status::NotSupported("dictionary page encoding " +
                                            EncodingName(page_.encoding) + " is not supported"));
    }
    if (page_.num_values > static_cast<int64_t>(page_.body.size()) * 8) {
      return PageError(Status::Corruption("dictionary claims " + std::to_string(page_.num_values) +
                                          " values in " + std::to_string(page_.body.size()) +
                                          " bytes"));
    }
    PQ_ASSIGN_OR_RETURN(auto decoder, MakeDecoder<T>(leaf_->physical_type, Encoding::kPlain,
                                                     leaf_->type_length));
    PQ_RETURN_IF_ERROR(decoder->SetData(page_.body, page_.num_values));
    dictionary_.resize(static_cast<size_t>(page_.num_values));
    auto n = decoder->Decode(dictionary_.data(), page_.num_values);
    if (!n.ok()) return PageError(std::move(n).TakeStatus().WithContext("dictionary"));
    if (*n != page_.num_values) {
      return PageError(Status::Corruption("dictionary page holds fewer values than its header says"));
    }
    dictionary_owner_ = page_.owner2 ? page_.owner2 : page_.owner;
    has_dictionary_ = true;
    return Status::OK();
  }

  // Moves to the next data page with at least one level entry. Returns false at the end.
  Result<bool> NextDataPage() {
    while (true) {
      PQ_ASSIGN_OR_RETURN(bool more, pages_.Next(&page_));
      if (!more) return false;
      if (page_.type == PageType::kDictionaryPage) {
        if (seen_data_page_) {
          return PageError(Status::Corruption("dictionary page after a data page"));
        }
        PQ_RETURN_IF_ERROR(LoadDictionary());
        continue;
      }
      seen_data_page_ = true;
      ++pages_read_;
      if (page_.num_values == 0) continue;
      if (page_.num_values > kMaxPageValues) {
        return PageError(Status::OutOfMemory("page claims " + std::to_string(page_.num_values) +
                                             " values, over the limit"));
      }
      PQ_RETURN_IF_ERROR(StartPage());
      return true;
    }
  }

  Status StartPage() {
    const int64_t n = page_.num_values;
    ByteSpan values;
    level_pos_ = 0;
    page_levels_ = n;
    if (page_.type == PageType::kDataPage) {
      const DataPageHeader& h = *page_.header.data_page_header;
      ByteReader r(page_.body);
      if (max_rep_ > 0) {
        LevelDecoder d;
        Status s = d.InitV1(h.repetition_level_encoding, max_rep_, n, &r);
        if (!s.ok()) return PageError(std::move(s).WithContext("repetition levels"));
        PQ_RETURN_IF_ERROR(DecodeLevels(&d, &page_rep_, n, "repetition"));
      }
      if (max_def_ > 0) {
        LevelDecoder d;
        Status s = d.InitV1(h.definition_level_encoding, max_def_, n, &r);
        if (!s.ok()) return PageError(std::move(s).WithContext("definition levels"));
        PQ_RETURN_IF_ERROR(DecodeLevels(&d, &page_def_, n, "definition"));
      }
      values = r.rest();
    } else {
      if (max_rep_ > 0) {
        LevelDecoder d;
        Status s = d.InitV2(max_rep_, n, page_.rep_levels);
        if (!s.ok()) return PageError(std::move(s).WithContext("repetition levels"));
        PQ_RETURN_IF_ERROR(DecodeLevels(&d, &page_rep_, n, "repetition"));
      }
      if (max_def_ > 0) {
        LevelDecoder d;
        Status s = d.InitV2(max_def_, n, page_.def_levels);
        if (!s.ok()) return PageError(std::move(s).WithContext("definition levels"));
        PQ_RETURN_IF_ERROR(DecodeLevels(&d, &page_def_, n, "definition"));
      }
      values = page_.body;
    }
    if (max_rep_ > 0 && !started_ && page_rep_[0] != 0) {
      return PageError(Status::Corruption("first repetition level of the column chunk is not 0"));
    }
    int64_t non_null = n;
    if (max_def_ > 0) {
      non_null = 0;
      const int16_t* def = page_def_.data();
      for (int64_t i = 0; i < n; ++i) non_null += def[i] == max_def_;
    }
    page_values_left_ = non_null;
    values_owner_ = page_.owner2 ? page_.owner2 : page_.owner;
    const Encoding enc = page_.encoding;
    use_dictionary_ = enc == Encoding::kRleDictionary || enc == Encoding::kPlainDictionary;
    if (use_dictionary_) {
      if (!has_dictionary_) {
        return PageError(Status::Corruption("dictionary-encoded page but the chunk has no dictionary"));
      }
      Status s = index_decoder_.SetData(values, non_null);
      if (!s.ok()) return PageError(std::move(s));
      decoder_ = nullptr;
      return Status::OK();
    }
    size_t slot = static_cast<size_t>(enc);
    if (static_cast<int32_t>(enc) < 0 || slot >= decoders_.size()) {
      return PageError(Status::NotSupported("unknown encoding " + EncodingName(enc)));
    }
    if (!decoders_[slot]) {
      auto d = MakeDecoder<T>(leaf_->physical_type, enc, leaf_->type_length);
      if (!d.ok()) return PageError(std::move(d).TakeStatus());
      decoders_[slot] = std::move(d).value();
    }
    decoder_ = decoders_[slot].get();
    Status s = decoder_->SetData(values, non_null);
    if (!s.ok()) return PageError(std::move(s));
    return Status::OK();
  }

  Status DecodeLevels(LevelDecoder* d, PodVector<int16_t>* out, int64_t n, const char* what) {
    out->resize(static_cast<size_t>(n));
    auto got = d->Decode(out->data(), n);
    if (!got.ok()) return PageError(std::move(got).TakeStatus().WithContext(std::string(what) + " levels"));
    if (*got != n) {
      return PageError(Status::Corruption(std::string(what) + " levels end after " +
                                          std::to_string(*got) + " of " + std::to_string(n) +
                                          " values"));
    }
    return Status::OK();
  }

  // Reads (batch != null) or skips up to max_records whole records.
  Result<int64_t> Consume(int64_t max_records, ColumnBatch* batch) {
    int64_t records = 0;
    while (true) {
      if (level_pos_ == page_levels_) {
        if (max_rep_ == 0 && records == max_records) break;
        PQ_ASSIGN_OR_RETURN(bool more, NextDataPage());
        if (!more) break;
      }
      const int64_t avail = page_levels_ - level_pos_;
      int64_t take;
      if (max_rep_ == 0) {
        take = std::min(avail, max_records - records);
        records += take;
      } else {
        const int16_t* rep = page_rep_.data() + level_pos_;
        take = 0;
        while (take < avail) {
          if (rep[take] == 0) {
            if (records == max_records) break;
            ++records;
          }
          ++take;
        }
      }
      if (take == 0) break;
      started_ = true;
      int64_t non_null = take;
      if (max_def_ > 0) {
        non_null = 0;
        const int16_t* def = page_def_.data() + level_pos_;
        for (int64_t i = 0; i < take; ++i) non_null += def[i] == max_def_;
      }
      if (non_null > page_values_left_) {
        return PageError(Status::Corruption("levels promise more values than the page holds"));
      }
      if (batch) {
        PQ_RETURN_IF_ERROR(AppendLevels(batch, take));
        PQ_RETURN_IF_ERROR(DecodeValues(batch, non_null));
      } else {
        PQ_RETURN_IF_ERROR(SkipValues(non_null));
      }
      page_values_left_ -= non_null;
      level_pos_ += take;
      if (take < avail) break;  // stopped at the start of a record past the limit
    }
    if (batch) batch->num_records += records;
    return records;
  }

  Status AppendLevels(ColumnBatch* batch, int64_t take) {
    const size_t n = static_cast<size_t>(take);
    if (max_def_ > 0) {
      std::memcpy(batch->def_levels.extend(n), page_def_.data() + level_pos_, n * sizeof(int16_t));
      if (max_rep_ == 0) {
        int32_t* vi = batch->value_index.extend(n);
        int32_t next = static_cast<int32_t>(batch->num_values);
        const int16_t* def = page_def_.data() + level_pos_;
        for (size_t i = 0; i < n; ++i) {
          bool present = def[i] == max_def_;
          vi[i] = present ? next : -1;
          next += present;
        }
      }
    }
    if (max_rep_ > 0) {
      std::memcpy(batch->rep_levels.extend(n), page_rep_.data() + level_pos_, n * sizeof(int16_t));
    }
    batch->num_levels += take;
    return Status::OK();
  }

  Status DecodeValues(ColumnBatch* batch, int64_t n) {
    batch->type = leaf_->physical_type;
    if (n == 0) return Status::OK();
    PodVector<T>& out = batch->values<T>();
    T* dst = out.extend(static_cast<size_t>(n));
    if (use_dictionary_) {
      indices_.resize(static_cast<size_t>(n));
      auto got = index_decoder_.Decode(indices_.data(), n, static_cast<uint32_t>(dictionary_.size()));
      if (!got.ok()) return PageError(std::move(got).TakeStatus());
      if (*got != n) return PageError(Status::Corruption("page holds fewer values than its levels say"));
      const T* dict = dictionary_.data();
      const uint32_t* idx = indices_.data();
      for (int64_t i = 0; i < n; ++i) dst[i] = dict[idx[i]];
      if constexpr (std::is_same_v<T, ByteArray>) PinOnce(batch, dictionary_owner_);
    } else {
      auto got = decoder_->Decode(dst, n);
      if (!got.ok()) return PageError(std::move(got).TakeStatus());
      if (*got != n) return PageError(Status::Corruption("page holds fewer values than its levels say"));
      if constexpr (std::is_same_v<T, ByteArray>) {
        BufferPtr storage = decoder_->storage();
        PinOnce(batch, storage ? storage : values_owner_);
      }
    }
    batch->num_values += n;
    values_decoded_ += n;
    return Status::OK();
  }

  static void PinOnce(ColumnBatch* batch, const BufferPtr& buffer) {
    if (!buffer) return;
    if (batch->pins.empty() || batch->pins.back() != buffer) batch->pins.push_back(buffer);
  }

  Status SkipValues(int64_t n) {
    if (n == 0) return Status::OK();
    auto got = use_dictionary_ ? index_decoder_.Skip(n) : decoder_->Skip(n);
    if (!got.ok()) return PageError(std::move(got).TakeStatus());
    if (*got != n) return PageError(Status::Corruption("page holds fewer values than its levels say"));
    return Status::OK();
  }

  const ColumnMetaData* meta_;
  std::string context_;
  PageReader pages_;
  Page page_;
  int16_t max_def_ = 0;
  int16_t max_rep_ = 0;
  bool started_ = false;
  bool seen_data_page_ = false;
  PodVector<int16_t> page_def_;
  PodVector<int16_t> page_rep_;
  int64_t level_pos_ = 0;
  int64_t page_levels_ = 0;
  int64_t page_values_left_ = 0;
  BufferPtr values_owner_;
  // Dictionary of the chunk, decoded once.
  bool has_dictionary_ = false;
  PodVector<T> dictionary_;
  BufferPtr dictionary_owner_;
  bool use_dictionary_ = false;
  DictionaryIndexDecoder index_decoder_;
  PodVector<uint32_t> indices_;
  // One decoder per encoding, made on first use.
  std::array<std::unique_ptr<TypedDecoder<T>>, 11> decoders_;
  TypedDecoder<T>* decoder_ = nullptr;
};

}  // namespace

std::string ColumnContext(const FileReader& file, int row_group, const SchemaNode& leaf) {
  return file.path() + ", row group " + std::to_string(row_group) + ", column '" +
         leaf.DottedPath() + "'";
}

int64_t ColumnChunkReader::bytes_read() const {
  return page_reader_ ? page_reader_->bytes_read() : 0;
}

Result<std::unique_ptr<ColumnChunkReader>> ColumnChunkReader::Make(
    std::shared_ptr<const FileReader> file, int row_group, int leaf) {
  if (row_group < 0 || row_group >= file->num_row_groups() || leaf < 0 ||
      leaf >= file->schema().num_leaves()) {
    return Status::InvalidArgument("no column chunk (" + std::to_string(row_group) + ", " +
                                   std::to_string(leaf) + ")");
  }
  const SchemaNode& node = file->schema().leaf(leaf);
  std::string context = ColumnContext(*file, row_group, node);
  auto meta_result = file->ColumnMeta(row_group, leaf);
  if (!meta_result.ok()) return std::move(meta_result).TakeStatus().WithContext(context);
  const ColumnMetaData* meta = *meta_result;
  if (meta->type != node.physical_type) {
    return Status::Corruption("column chunk type " + PhysicalTypeName(meta->type) +
                              " differs from the schema's " + PhysicalTypeName(node.physical_type))
        .WithContext(context);
  }
  std::unique_ptr<ColumnChunkReader> r;
  switch (node.physical_type) {
    case PhysicalType::kBoolean:
      r.reset(new TypedColumnChunkReader<uint8_t>(file, &node, meta, context));
      break;
    case PhysicalType::kInt32:
      r.reset(new TypedColumnChunkReader<int32_t>(file, &node, meta, context));
      break;
    case PhysicalType::kInt64:
      r.reset(new TypedColumnChunkReader<int64_t>(file, &node, meta, context));
      break;
    case PhysicalType::kInt96:
      r.reset(new TypedColumnChunkReader<Int96>(file, &node, meta, context));
      break;
    case PhysicalType::kFloat:
      r.reset(new TypedColumnChunkReader<float>(file, &node, meta, context));
      break;
    case PhysicalType::kDouble:
      r.reset(new TypedColumnChunkReader<double>(file, &node, meta, context));
      break;
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      r.reset(new TypedColumnChunkReader<ByteArray>(file, &node, meta, context));
      break;
  }
  if (!r) return Status::Corruption("unknown physical type").WithContext(context);
  return r;
}

}  // namespace pq
