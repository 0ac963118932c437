#include "format/writer/file_writer.h"

#include <algorithm>
#include <climits>

#include "format/bloom/split_block_bloom_filter.h"
#include "format/crypto/key_wrapper.h"
#include "format/metadata/metadata_io.h"
#include "format/writer/column_writer.h"
#include "format/writer/converted_type.h"
#include "format/writer/output_file.h"

#ifndef PQ_BUILD_ID
#define PQ_BUILD_ID "dev"
#endif

namespace pq {
namespace {

constexpr char kMagic[] = "PAR1";

Status AppendString(OutputFile* file, const std::string& s) {
  return file->Append(AsBytes(s));
}

// Leaves whose dotted path is `name` or lies under the node `name`.
Result<std::vector<int>> LeavesNamed(const Schema& schema, const std::string& name,
                                     const char* option) {
  std::vector<int> out;
  for (int i = 0; i < schema.num_leaves(); ++i) {
    const std::string path = schema.leaf(i).DottedPath();
    if (path == name || (path.size() > name.size() && path.compare(0, name.size(), name) == 0 &&
                         path[name.size()] == '.')) {
      out.push_back(i);
    }
  }
  if (out.empty())
    return Status::InvalidArgument(std::string(option) + ": no column named '" + name + "'");
  return out;
}

}  // namespace

std::string DefaultCreatedBy() {
  return std::string("sqlite-parquet version ") + PQ_VERSION + " (build " PQ_BUILD_ID ")";
}

struct FileWriter::ColumnState {
  ColumnWriteSettings settings;
};

struct FileWriter::PendingIndexes {
  std::vector<std::optional<ColumnIndex>> column_indexes;  // per leaf
  std::vector<std::optional<OffsetIndex>> offset_indexes;
};

struct FileWriter::PendingBloom {
  size_t row_group = 0;
  int leaf = 0;
  std::string bytes;  // header + bitset
};

Result<std::unique_ptr<FileWriter>> FileWriter::Open(const std::string& path,
                                                     std::vector<SchemaElement> schema,
                                                     WriterOptions options) {
  return Open(path, [&path]() { return OutputFile::Create(path); }, std::move(schema), std::move(options));
}

Result<std::unique_ptr<FileWriter>> FileWriter::Open(const std::string& path, const OutputMaker& make_output,
                                                     std::vector<SchemaElement> schema,
                                                     WriterOptions options) {
  std::unique_ptr<FileWriter> w(new FileWriter());
  w->path_ = path;
  AddConvertedTypes(&schema);
  if (schema.empty() || schema[0].type.has_value()) {
    return Status::InvalidArgument("schema: the first element must be the root group");
  }
  auto made = Schema::Make(schema);
  if (!made.ok()) return Status::InvalidArgument("schema: " + made.status().message());
  w->schema_ = std::move(made).value();
  const Schema& s = *w->schema_;
  if (s.num_leaves() == 0) return Status::InvalidArgument("schema: no columns");

  // Options.
  PQ_ASSIGN_OR_RETURN(int level,
                      ValidateCompressionLevel(options.codec, options.compression_level));
  (void)level;  // Compress takes the level as given; this only checks it
  if (options.row_group_rows <= 0 || options.row_group_bytes <= 0) {
    return Status::InvalidArgument("row group limits must be positive");
  }
  if (options.page_bytes <= 0 || options.page_rows <= 0)
    return Status::InvalidArgument("page limits must be positive");
  if (options.data_page_version != 1 && options.data_page_version != 2) {
    return Status::InvalidArgument("data_page_version must be 1 or 2, not " +
                                   std::to_string(options.data_page_version));
  }
  if (options.dictionary_page_bytes <= 0)
    return Status::InvalidArgument("dictionary page limit must be positive");
  if (!(options.bloom_filter_fpp > 0.0 && options.bloom_filter_fpp < 1.0)) {
    return Status::InvalidArgument("bloom_fpp must be between 0 and 1 (exclusive)");
  }
  if (options.bloom_filter_max_bytes < SplitBlockBloomFilter::kMinBytes) {
    return Status::InvalidArgument("Bloom filter size limit must be at least 32 bytes");
  }
  if (options.statistics_truncate_bytes < 0)
    return Status::InvalidArgument("statistics truncation must be >= 0");
  for (const SortingColumn& c : options.sorting_columns) {
    if (c.column_idx < 0 || c.column_idx >= s.num_leaves()) {
      return Status::InvalidArgument("sorting column index " + std::to_string(c.column_idx) +
                                     " is not a column");
    }
  }
  if (options.created_by.empty()) options.created_by = DefaultCreatedBy();

  w->columns_.resize(static_cast<size_t>(s.num_leaves()));
  for (int i = 0; i < s.num_leaves(); ++i) {
    ColumnWriteSettings& c = w->columns_[static_cast<size_t>(i)].settings;
    c.leaf = &s.leaf(i);
    c.codec = options.codec;
    c.compression_level = options.compression_level;
    c.dictionary = options.dictionary && s.leaf(i).physical_type != PhysicalType::kBoolean;
    c.value_encoding = Encoding::kPlain;
    c.encoding_trial = options.encoding_trial;
    c.dictionary_page_bytes = options.dictionary_page_bytes;
    c.chunk_rows = options.row_group_rows;
    c.page_bytes = options.page_bytes;
    c.page_rows = options.page_rows;
    c.data_page_version = options.data_page_version;
    c.checksums = options.checksums;
    c.page_header_statistics = options.page_header_statistics;
    c.page_index = options.page_index;
    c.bloom_filter_fpp = options.bloom_filter_fpp;
    c.bloom_filter_max_bytes = options.bloom_filter_max_bytes;
    c.statistics_truncate_bytes = options.statistics_truncate_bytes;
  }
  for (const auto& [name, encoding] : options.column_encodings) {
    PQ_ASSIGN_OR_RETURN(std::vector<int> leaves, LeavesNamed(s, name, "encoding"));
    for (int i : leaves) {
      ColumnWriteSettings& c = w->columns_[static_cast<size_t>(i)].settings;
      c.encoding_trial = false;  // the encoding asked for, as asked
      if (encoding == Encoding::kRleDictionary || encoding == Encoding::kPlainDictionary) {
        if (s.leaf(i).physical_type == PhysicalType::kBoolean) {
          return Status::InvalidArgument("encoding: column '" + s.leaf(i).DottedPath() +
                                         "' is BOOLEAN, which has no dictionary encoding");
        }
        c.dictionary = true;
        c.value_encoding = Encoding::kPlain;
      } else {
        c.dictionary = false;
        c.value_encoding = encoding;
      }
    }
  }
  for (const std::string& name : options.bloom_filter_columns) {
    PQ_ASSIGN_OR_RETURN(std::vector<int> leaves, LeavesNamed(s, name, "bloom_filter"));
    for (int i : leaves) {
      if (s.leaf(i).physical_type == PhysicalType::kBoolean) {
        return Status::InvalidArgument("bloom_filter: column '" + s.leaf(i).DottedPath() +
                                       "' is BOOLEAN, which has no Bloom filter");
      }
      w->columns_[static_cast<size_t>(i)].settings.bloom_filter = true;
      w->columns_[static_cast<size_t>(i)].settings.bloom_hashes = std::make_shared<BloomHashSet>();
    }
  }
  if (options.encryption) {
    // Column keys by leaf path, a group's key going to every leaf under it.
    crypto::EncryptionConfig config = *options.encryption;
    std::map<std::string, crypto::ColumnKeySpec, std::less<>> by_leaf;
    for (const auto& [name, spec] : config.column_keys) {
      PQ_ASSIGN_OR_RETURN(std::vector<int> leaves, LeavesNamed(s, name, "column_keys"));
      for (int i : leaves) {
        if (!by_leaf.emplace(s.leaf(i).DottedPath(), spec).second) {
          return Status::InvalidArgument("column_keys: column '" + s.leaf(i).DottedPath() +
                                         "' is given more than one key");
        }
      }
    }
    config.column_keys = std::move(by_leaf);
    if (config.key_wrapping) {
      // Fresh data keys for this file, wrapped with the master keys (PKMT1 key material).
      PQ_ASSIGN_OR_RETURN(crypto::WrappedFileKeys wrapped, crypto::WrapFileKeys(std::move(config)));
      config = std::move(wrapped.config);
      w->external_key_material_ = std::move(wrapped.external_material);
    }
    auto encryptor = crypto::FileEncryptor::Make(std::move(config));
    if (!encryptor.ok()) {
      return Status::InvalidArgument("encryption: " + encryptor.status().message());
    }
    w->encryptor_ = std::move(encryptor).value();
  }
  w->options_ = std::move(options);
  w->elements_ = std::move(schema);
  // The first row group's writers check every column's settings before the file exists.
  PQ_RETURN_IF_ERROR(w->EnsureWriters());

  PQ_ASSIGN_OR_RETURN(w->file_, make_output());
  Status st = AppendString(w->file_.get(), w->encryptor_ ? w->encryptor_->magic() : kMagic);
  if (!st.ok()) {
    w->Abort();
    return st;
  }
  return w;
}

FileWriter::~FileWriter() {
  if (!closed_) Abort();
}

Status FileWriter::CheckOpen() const {
  if (closed_) return Status::InvalidArgument("'" + path_ + "' is already closed");
  if (aborted_) return Status::InvalidArgument("writing '" + path_ + "' was abandoned");
  return failure_;
}

Status FileWriter::Fail(Status s) {
  if (failure_.ok()) failure_ = s;
  return s;
}

Status FileWriter::EnsureWriters() {
  if (!writers_.empty()) return Status::OK();
  writers_.reserve(columns_.size());
  const size_t row_group = metadata_.row_groups.size();
  for (size_t i = 0; i < columns_.size(); ++i) {
    const ColumnState& c = columns_[i];
    ColumnWriteSettings settings = c.settings;
    auto encryptor = ColumnEncryptorFor(row_group, i);
    if (!encryptor.ok()) {
      writers_.clear();
      return std::move(encryptor).TakeStatus();
    }
    settings.encryptor = std::move(encryptor).value();
    auto made = ColumnChunkWriter::Make(settings);
    if (!made.ok()) {
      writers_.clear();
      return std::move(made).TakeStatus().WithContext("column '" + c.settings.leaf->DottedPath() +
                                                      "'");
    }
    writers_.push_back(std::move(made).value());
  }
  return Status::OK();
}

Status FileWriter::StartRowGroup() {
  PQ_RETURN_IF_ERROR(CheckOpen());
  return EnsureWriters();
}

template <typename T>
Status FileWriter::WriteColumn(int leaf, int64_t num_levels, const int16_t* def_levels,
                               const int16_t* rep_levels, const T* values, int64_t num_values) {
  PQ_RETURN_IF_ERROR(CheckOpen());
  if (leaf < 0 || leaf >= schema_->num_leaves()) {
    return Status::InvalidArgument("column index " + std::to_string(leaf) + " is out of range");
  }
  const SchemaNode& node = schema_->leaf(leaf);
  if (!IsValueTypeOf<T>(node.physical_type)) {
    return Status::InvalidArgument("column '" + node.DottedPath() + "' is " +
                                   PhysicalTypeName(node.physical_type) +
                                   "; values of another type were given");
  }
  PQ_RETURN_IF_ERROR(EnsureWriters());
  auto* writer = static_cast<TypedColumnChunkWriter<T>*>(writers_[static_cast<size_t>(leaf)].get());
  return writer->Write(num_levels, def_levels, rep_levels, values, num_values);
}

template Status FileWriter::WriteColumn<uint8_t>(int, int64_t, const int16_t*, const int16_t*,
                                                 const uint8_t*, int64_t);
template Status FileWriter::WriteColumn<int32_t>(int, int64_t, const int16_t*, const int16_t*,
                                                 const int32_t*, int64_t);
template Status FileWriter::WriteColumn<int64_t>(int, int64_t, const int16_t*, const int16_t*,
                                                 const int64_t*, int64_t);
template Status FileWriter::WriteColumn<Int96>(int, int64_t, const int16_t*, const int16_t*,
                                               const Int96*, int64_t);
template Status FileWriter::WriteColumn<float>(int, int64_t, const int16_t*, const int16_t*,
                                               const float*, int64_t);
template Status FileWriter::WriteColumn<double>(int, int64_t, const int16_t*, const int16_t*,
                                                const double*, int64_t);
template Status FileWriter::WriteColumn<ByteArray>(int, int64_t, const int16_t*, const int16_t*,
                                                   const ByteArray*, int64_t);

int64_t FileWriter::row_group_rows() const {
  return writers_.empty() ? 0 : writers_[0]->num_records();
}

int64_t FileWriter::buffered_bytes() const {
  int64_t n = 0;
  for (const auto& w : writers_) n += w->buffered_bytes();
  return n;
}

Status FileWriter::CheckAligned() const {
  for (size_t i = 1; i < writers_.size(); ++i) {
    if (writers_[i]->num_records() != writers_[0]->num_records()) {
      return Status::InvalidArgument("column '" + writers_[i]->leaf().DottedPath() + "' holds " +
                                     std::to_string(writers_[i]->num_records()) +
                                     " rows of the row group, column '" +
                                     writers_[0]->leaf().DottedPath() + "' holds " +
                                     std::to_string(writers_[0]->num_records()));
    }
  }
  return Status::OK();
}

Status FileWriter::EndBatch() {
  PQ_RETURN_IF_ERROR(CheckOpen());
  PQ_RETURN_IF_ERROR(CheckAligned());
  if (row_group_rows() >= options_.row_group_rows || buffered_bytes() >= options_.row_group_bytes) {
    return EndRowGroup();
  }
  return Status::OK();
}

Status FileWriter::EndRowGroup() {
  PQ_RETURN_IF_ERROR(CheckOpen());
  PQ_RETURN_IF_ERROR(CheckAligned());
  if (row_group_rows() == 0) return Status::OK();
  Status s = FinishRowGroup();
  if (!s.ok()) return Fail(std::move(s));
  return Status::OK();
}

Result<FileWriter::Boundary> FileWriter::MarkBoundary() {
  PQ_RETURN_IF_ERROR(EndRowGroup());
  Status s = WritePendingBlooms();
  if (!s.ok()) return Fail(std::move(s));
  Boundary b;
  b.row_groups = metadata_.row_groups.size();
  b.position = file_->position();
  return b;
}

Status FileWriter::TruncateTo(const Boundary& boundary) {
  PQ_RETURN_IF_ERROR(CheckOpen());
  if (boundary.row_groups > metadata_.row_groups.size() || boundary.position > file_->position()) {
    return Status::InvalidArgument("'" + path_ + "': cannot take back to a place past the end");
  }
  writers_.clear();  // the current row group's chunks, in memory
  metadata_.row_groups.resize(boundary.row_groups);
  metadata_.num_rows = 0;
  for (const RowGroup& rg : metadata_.row_groups) metadata_.num_rows += rg.num_rows;
  indexes_.resize(boundary.row_groups);
  // Filters still pending belong to the row groups taken back: MarkBoundary wrote the others.
  std::vector<PendingBloom> kept;
  pending_bloom_bytes_ = 0;
  for (PendingBloom& b : blooms_) {
    if (b.row_group >= boundary.row_groups) continue;
    pending_bloom_bytes_ += static_cast<int64_t>(b.bytes.size());
    kept.push_back(std::move(b));
  }
  blooms_ = std::move(kept);
  Status s = file_->Truncate(boundary.position);
  if (!s.ok()) return Fail(std::move(s));
  return Status::OK();
}

Status FileWriter::FinishRowGroup() {
  const size_t rg_index = metadata_.row_groups.size();
  const std::string rg_context = "row group " + std::to_string(rg_index);
  RowGroup rg;
  rg.num_rows = row_group_rows();
  rg.total_byte_size = 0;
  rg.total_compressed_size = 0;
  PendingIndexes indexes;
  for (size_t i = 0; i < writers_.size(); ++i) {
    const std::string context = rg_context + ", column '" + writers_[i]->leaf().DottedPath() + "'";
    auto finished = writers_[i]->Finish();
    if (!finished.ok()) return std::move(finished).TakeStatus().WithContext(context);
    ColumnChunkOutput out = std::move(finished).value();
    writers_[i].reset();
    const int64_t pos = file_->position();
    PQ_RETURN_IF_ERROR(file_->Append(out.bytes));
    ColumnMetaData& m = out.meta;
    m.data_page_offset += pos;
    if (m.dictionary_page_offset) *m.dictionary_page_offset += pos;
    if (out.offset_index) {
      for (PageLocation& p : out.offset_index->page_locations) p.offset += pos;
    }
    ColumnChunk chunk;
    chunk.file_offset = pos;
    rg.total_byte_size += m.total_uncompressed_size;
    *rg.total_compressed_size += m.total_compressed_size;
    if (i == 0) rg.file_offset = pos;
    chunk.meta_data = std::move(m);
    rg.columns.push_back(std::move(chunk));
    indexes.column_indexes.push_back(std::move(out.column_index));
    indexes.offset_indexes.push_back(std::move(out.offset_index));
    if (out.bloom_filter) {
      PendingBloom b;
      b.row_group = rg_index;
      b.leaf = static_cast<int>(i);
      PQ_ASSIGN_OR_RETURN(std::optional<crypto::ColumnEncryptor> encryptor,
                          ColumnEncryptorFor(rg_index, i));
      if (encryptor) {
        // Two modules: the header, then the bitset.
        std::string header;
        WriteBloomFilterHeader(out.bloom_filter->header(), &header);
        PQ_RETURN_IF_ERROR(encryptor->EncryptBloomFilterHeader(AsBytes(header), &b.bytes));
        PQ_RETURN_IF_ERROR(encryptor->EncryptBloomFilterBitset(out.bloom_filter->bitset(), &b.bytes));
      } else {
        out.bloom_filter->Serialize(&b.bytes);
      }
      pending_bloom_bytes_ += static_cast<int64_t>(b.bytes.size());
      blooms_.push_back(std::move(b));
    }
  }
  writers_.clear();
  if (rg_index <= static_cast<size_t>(INT16_MAX)) rg.ordinal = static_cast<int16_t>(rg_index);
  if (!options_.sorting_columns.empty()) rg.sorting_columns = options_.sorting_columns;
  metadata_.num_rows += rg.num_rows;
  metadata_.row_groups.push_back(std::move(rg));
  indexes_.push_back(std::move(indexes));
  if (pending_bloom_bytes_ > options_.bloom_filter_buffer_bytes)
    PQ_RETURN_IF_ERROR(WritePendingBlooms());
  return Status::OK();
}

Status FileWriter::WritePendingBlooms() {
  for (PendingBloom& b : blooms_) {
    ColumnMetaData& m =
        *metadata_.row_groups[b.row_group].columns[static_cast<size_t>(b.leaf)].meta_data;
    m.bloom_filter_offset = file_->position();
    m.bloom_filter_length = static_cast<int32_t>(b.bytes.size());
    PQ_RETURN_IF_ERROR(AppendString(file_.get(), b.bytes));
  }
  blooms_.clear();
  pending_bloom_bytes_ = 0;
  return Status::OK();
}

Status FileWriter::WriteTail() {
  PQ_RETURN_IF_ERROR(WritePendingBlooms());
  std::string bytes;
  for (size_t rg = 0; rg < indexes_.size(); ++rg) {
    for (size_t c = 0; c < indexes_[rg].column_indexes.size(); ++c) {
      const auto& index = indexes_[rg].column_indexes[c];
      if (!index) continue;
      bytes.clear();
      WriteColumnIndex(*index, &bytes);
      PQ_ASSIGN_OR_RETURN(std::optional<crypto::ColumnEncryptor> encryptor,
                          ColumnEncryptorFor(rg, c));
      if (encryptor) {
        std::string module;
        PQ_RETURN_IF_ERROR(encryptor->EncryptColumnIndex(AsBytes(bytes), &module));
        bytes.swap(module);
      }
      ColumnChunk& chunk = metadata_.row_groups[rg].columns[c];
      chunk.column_index_offset = file_->position();
      chunk.column_index_length = static_cast<int32_t>(bytes.size());
      PQ_RETURN_IF_ERROR(AppendString(file_.get(), bytes));
    }
  }
  for (size_t rg = 0; rg < indexes_.size(); ++rg) {
    for (size_t c = 0; c < indexes_[rg].offset_indexes.size(); ++c) {
      const auto& index = indexes_[rg].offset_indexes[c];
      if (!index) continue;
      bytes.clear();
      WriteOffsetIndex(*index, &bytes);
      PQ_ASSIGN_OR_RETURN(std::optional<crypto::ColumnEncryptor> encryptor,
                          ColumnEncryptorFor(rg, c));
      if (encryptor) {
        std::string module;
        PQ_RETURN_IF_ERROR(encryptor->EncryptOffsetIndex(AsBytes(bytes), &module));
        bytes.swap(module);
      }
      ColumnChunk& chunk = metadata_.row_groups[rg].columns[c];
      chunk.offset_index_offset = file_->position();
      chunk.offset_index_length = static_cast<int32_t>(bytes.size());
      PQ_RETURN_IF_ERROR(AppendString(file_.get(), bytes));
    }
  }
  indexes_.clear();

  metadata_.version = 1;  // parquet.thrift: writers should always write 1
  metadata_.schema = elements_;
  metadata_.key_value_metadata = options_.key_value_metadata;
  metadata_.has_key_value_metadata = !options_.key_value_metadata.empty();
  metadata_.created_by = options_.created_by;
  metadata_.column_orders.emplace(static_cast<size_t>(schema_->num_leaves()),
                                  ColumnOrder{ColumnOrder::Kind::kTypeDefinedOrder});
  bytes.clear();
  if (encryptor_) {
    PQ_RETURN_IF_ERROR(AppendEncryptedFooter(&bytes));
  } else {
    WriteFileMetaData(metadata_, &bytes);
    if (bytes.size() > UINT32_MAX) return Status::InvalidArgument("file metadata over 4 GiB");
    const uint32_t length = static_cast<uint32_t>(bytes.size());
    uint8_t le[4];
    StoreLE<uint32_t>(le, length);
    bytes.append(reinterpret_cast<const char*>(le), 4);
    bytes.append(kMagic, 4);
  }
  PQ_RETURN_IF_ERROR(AppendString(file_.get(), bytes));
  return file_->Close();
}

Result<std::optional<crypto::ColumnEncryptor>> FileWriter::ColumnEncryptorFor(size_t row_group,
                                                                              size_t leaf) const {
  if (!encryptor_) return std::optional<crypto::ColumnEncryptor>();
  return encryptor_->ForColumn(schema_->leaf(static_cast<int>(leaf)).DottedPath(),
                               static_cast<int64_t>(row_group), static_cast<int64_t>(leaf));
}

Status FileWriter::AppendEncryptedFooter(std::string* out) const {
  // metadata_ keeps every chunk's full meta_data (metadata()); the footer gets the chunks as the
  // mode wants them: crypto_metadata set, encrypted_column_metadata, meta_data dropped or stripped.
  FileMetaData footer = metadata_;
  for (size_t rg = 0; rg < footer.row_groups.size(); ++rg) {
    std::vector<ColumnChunk>& chunks = footer.row_groups[rg].columns;
    for (size_t c = 0; c < chunks.size(); ++c) {
      PQ_RETURN_IF_ERROR(encryptor_->FinishColumnChunk(&chunks[c], static_cast<int64_t>(rg),
                                                       static_cast<int64_t>(c)));
    }
  }
  return encryptor_->WriteFooter(std::move(footer), out);
}

Status FileWriter::Close() {
  if (closed_ || aborted_) return CheckOpen();
  if (!failure_.ok()) {
    Status s = failure_;
    Abort();
    return s.WithContext(path_);
  }
  Status s = EndRowGroup();
  if (s.ok()) s = WriteTail();
  if (!s.ok()) {
    Abort();
    return s.WithContext(path_);
  }
  closed_ = true;
  return Status::OK();
}

int64_t FileWriter::bytes_written() const {
  return file_ ? file_->position() : 0;
}

void FileWriter::Abort() {
  if (closed_ || aborted_) return;
  aborted_ = true;
  writers_.clear();
  if (file_) file_->Remove();
}

}  // namespace pq
