#include "format/page/page_reader.h"

#include <algorithm>

#include "format/codec/codec.h"
#include "format/metadata/metadata_io.h"
#include "format/util/crc32.h"

namespace pq {

const Statistics* Page::statistics() const {
  if (header.data_page_header && header.data_page_header->statistics) {
    return &*header.data_page_header->statistics;
  }
  if (header.data_page_header_v2 && header.data_page_header_v2->statistics) {
    return &*header.data_page_header_v2->statistics;
  }
  return nullptr;
}

PageReader::PageReader(const RandomAccessFile& file, const ColumnMetaData& meta,
                       const ReaderOptions& options, std::string context, int64_t slack)
    : file_(file), meta_(meta), options_(options), context_(std::move(context)), slack_(slack) {}

Status PageReader::Fail(Status s, int page_ordinal) const {
  return std::move(s).WithContext(context_ + ", page " + std::to_string(page_ordinal));
}

Status PageReader::LoadChunk() {
  loaded_ = true;
  int64_t start = meta_.data_page_offset;
  // The dictionary page, when there is one, comes first. Some writers store 0 for "no dictionary".
  if (meta_.dictionary_page_offset && *meta_.dictionary_page_offset > 0 &&
      *meta_.dictionary_page_offset < start) {
    start = *meta_.dictionary_page_offset;
  }
  int64_t length = meta_.total_compressed_size;
  if (slack_ > 0 && start >= 0 && length >= 0 && start <= file_.size() && length <= file_.size() - start) {
    length = std::min(length + slack_, file_.size() - start);
  }
  if (start < 0 || length < 0 || start > file_.size() || length > file_.size() - start) {
    return Status::Corruption("column chunk range [" + std::to_string(start) + ", +" +
                              std::to_string(length) + ") is outside the file (size " +
                              std::to_string(file_.size()) + ")")
        .WithContext(context_);
  }
  auto chunk = file_.ReadAt(start, length);
  if (!chunk.ok()) return std::move(chunk).TakeStatus().WithContext(context_);
  chunk_ = std::move(chunk).value();
  bytes_read_ += length;
  return Status::OK();
}

Result<bool> PageReader::Next(Page* page) {
  if (!loaded_) PQ_RETURN_IF_ERROR(LoadChunk());
  const ReaderLimits& limits = options_.limits;
  while (true) {
    if (values_seen_ >= meta_.num_values && meta_.num_values >= 0 && pos_ < chunk_->size()) {
      // All values the metadata promises were read: whatever follows is padding, not pages.
      return false;
    }
    if (pos_ >= chunk_->size()) return false;
    const int ordinal = page_index_++;
    ByteSpan rest(chunk_->data() + pos_, chunk_->size() - pos_);
    PageHeader header;
    size_t header_size = 0;
    Status s = ReadPageHeader(rest, &header, &header_size);
    if (!s.ok()) return Fail(std::move(s).WithContext("page header"), ordinal);
    rest = rest.subspan(header_size);
    if (header.compressed_page_size < 0 || header.uncompressed_page_size < 0) {
      return Fail(Status::Corruption("negative page size"), ordinal);
    }
    if (static_cast<size_t>(header.compressed_page_size) > rest.size()) {
      return Fail(Status::Corruption("page of " + std::to_string(header.compressed_page_size) +
                                     " bytes runs past the column chunk (" +
                                     std::to_string(rest.size()) + " bytes left)"),
                  ordinal);
    }
    if (header.uncompressed_page_size > limits.max_page_size ||
        header.compressed_page_size > limits.max_page_size) {
      return Fail(Status::OutOfMemory("page claims " + std::to_string(header.uncompressed_page_size) +
                                      " bytes, over the page size limit"),
                  ordinal);
    }
    ByteSpan stored = rest.first(static_cast<size_t>(header.compressed_page_size));
    pos_ += header_size + stored.size();

    const bool is_data = header.type == PageType::kDataPage || header.type == PageType::kDataPageV2;
    const bool is_dict = header.type == PageType::kDictionaryPage;
    if (!is_data && !is_dict) continue;  // index pages and unknown page types are skipped

    if (header.crc && options_.verify_checksums) {
      uint32_t actual = Crc32(stored);
      if (actual != static_cast<uint32_t>(*header.crc)) {
        return Fail(Status::Checksum("page checksum mismatch (CRC-32 stored " +
                                     std::to_string(static_cast<uint32_t>(*header.crc)) +
                                     ", computed " + std::to_string(actual) +
                                     "); read with verify_checksums=0 to ignore"),
                    ordinal);
      }
    }

    page->header = header;
    page->type = header.type;
    page->owner = chunk_;
    page->owner2.reset();
    page->rep_levels = {};
    page->def_levels = {};
    ByteSpan compressed = stored;
    bool compressed_values = meta_.codec != CompressionCodec::kUncompressed;
    size_t uncompressed_size = static_cast<size_t>(header.uncompressed_page_size);

    if (is_dict) {
      if (!header.dictionary_page_header) {
        return Fail(Status::Corruption("dictionary page without a dictionary page header"), ordinal);
      }
      page->num_values = header.dictionary_page_header->num_values;
      page->encoding = header.dictionary_page_header->encoding;
      if (page->num_values < 0) return Fail(Status::Corruption("negative dictionary size"), ordinal);
      if (header.uncompressed_page_size > limits.max_dictionary_size) {
        return Fail(Status::OutOfMemory("dictionary page over the dictionary size limit"), ordinal);
      }
    } else if (header.type == PageType::kDataPage) {
      if (!header.data_page_header) {
        return Fail(Status::Corruption("data page without a data page header"), ordinal);
      }
      page->num_values = header.data_page_header->num_values;
      page->encoding = header.data_page_header->encoding;
      page->ordinal = data_page_ordinal_++;
    } else {
      if (!header.data_page_header_v2) {
        return Fail(Status::Corruption("data page v2 without a v2 header"), ordinal);
      }
      const DataPageHeaderV2& v2 = *header.data_page_header_v2;
      page->num_values = v2.num_values;
      page->encoding = v2.encoding;
      page->ordinal = data_page_ordinal_++;
      if (v2.repetition_levels_byte_length < 0 || v2.definition_levels_byte_length < 0) {
        return Fail(Status::Corruption("negative level byte length"), ordinal);
      }
      size_t levels = size_t(v2.repetition_levels_byte_length) + size_t(v2.definition_levels_byte_length);
      if (levels > stored.size() || levels > uncompressed_size) {
        return Fail(Status::Corruption("level byte lengths exceed the page size"), ordinal);
      }
      page->rep_levels = stored.first(size_t(v2.repetition_levels_byte_length));
      page->def_levels = stored.subspan(size_t(v2.repetition_levels_byte_length),
                                        size_t(v2.definition_levels_byte_length));
      compressed = stored.subspan(levels);
      uncompressed_size -= levels;
      if (!v2.is_compressed) compressed_values = false;
    }
    if (page->num_values < 0) return Fail(Status::Corruption("negative value count"), ordinal);
    if (is_data) values_seen_ += page->num_values;

    // A page whose stored values are empty is never handed to the codec.
    if (!compressed_values || compressed.empty()) {
      if (compressed.size() != uncompressed_size && !(compressed.empty() && compressed_values)) {
        return Fail(Status::Corruption("uncompressed page size " + std::to_string(uncompressed_size) +
                                       " differs from its stored size " +
                                       std::to_string(compressed.size())),
                    ordinal);
      }
      page->body = compressed;
      if (compressed.empty() && uncompressed_size != 0) {
        return Fail(Status::Corruption("empty page claims " + std::to_string(uncompressed_size) +
                                       " uncompressed bytes"),
                    ordinal);
      }
      return true;
    }
    auto out = std::make_shared<Buffer>(uncompressed_size);
    s = Decompress(meta_.codec, compressed, std::span<uint8_t>(out->data(), out->size()));
    if (!s.ok()) return Fail(std::move(s), ordinal);
    page->body = ByteSpan(out->data(), out->size());
    page->owner2 = std::move(out);
    return true;
  }
}

}  // namespace pq
