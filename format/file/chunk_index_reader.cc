#include "format/file/chunk_index_reader.h"

#include <string>
#include <vector>

#include "format/crypto/aes_cipher.h"
#include "format/util/byte_reader.h"

namespace pq {
namespace {

// Bytes read first at a filter whose length the metadata does not give (the header module).
constexpr int64_t kBloomHeaderProbe = 256;
// The most an encrypted header module may claim.
constexpr int64_t kMaxHeaderModuleBytes = int64_t{1} << 20;

}  // namespace

Result<std::optional<SplitBlockBloomFilter>> ReadEncryptedBloomFilter(
    const RandomAccessFile& file, const ColumnMetaData& meta,
    const crypto::ColumnDecryptor& decryptor, int64_t* bytes_read) {
  using Filter = std::optional<SplitBlockBloomFilter>;
  if (!meta.bloom_filter_offset) return Filter();
  const int64_t offset = *meta.bloom_filter_offset;
  const int64_t size = file.size();
  // Reads [at, at + length), which must lie inside the file, and counts the bytes.
  auto read = [&](int64_t at, int64_t length, const char* what) -> Result<BufferPtr> {
    if (at < 0 || length < 0 || at > size || length > size - at) {
      return Status::Corruption(std::string(what) + " range [" + std::to_string(at) + ", +" +
                                std::to_string(length) + ") is outside the file (size " +
                                std::to_string(size) + ")");
    }
    PQ_ASSIGN_OR_RETURN(BufferPtr bytes, file.ReadAt(at, length));
    *bytes_read += length;
    return bytes;
  };
  if (offset < 0 || offset >= size) {
    return Status::Corruption("Bloom filter offset " + std::to_string(offset) +
                              " is outside the file (size " + std::to_string(size) + ")");
  }
  const int64_t overhead = static_cast<int64_t>(crypto::kGcmModuleOverhead);
  const int64_t max_length = SplitBlockBloomFilter::kMaxBytes + kBloomHeaderProbe + 2 * overhead;
  // Both modules in one read when the length is known, else the header module first.
  BufferPtr bytes;
  if (meta.bloom_filter_length) {
    const int64_t length = *meta.bloom_filter_length;
    if (length <= 0) return Status::Corruption("Bloom filter length is not positive");
    if (length > max_length) return Filter();  // over what any filter may hold: not read
    PQ_ASSIGN_OR_RETURN(bytes, read(offset, length, "Bloom filter"));
  } else {
    const int64_t probe = std::min(kBloomHeaderProbe, size - offset);
    PQ_ASSIGN_OR_RETURN(bytes, read(offset, probe, "Bloom filter header"));
    // The module's length field says how much to read when the probe was short (fewer than 4
    // bytes: the header's decryption below reports the truncation).
    if (bytes->size() >= 4) {
      const int64_t claimed = int64_t{LoadLE<uint32_t>(bytes->data())} + 4;
      if (claimed > static_cast<int64_t>(bytes->size())) {
        if (claimed > kMaxHeaderModuleBytes || claimed > size - offset) {
          return Status::Corruption("encrypted Bloom filter header claims " +
                                    std::to_string(claimed) + " bytes");
        }
        PQ_ASSIGN_OR_RETURN(bytes, read(offset, claimed, "Bloom filter header"));
      }
    }
  }
  const ByteSpan data(bytes->data(), bytes->size());
  BloomFilterHeader header;
  size_t header_size = 0;
  Status s = decryptor.ReadBloomFilterHeader(data, &header, &header_size);
  if (!s.ok()) return s;
  if (header.num_bytes <= 0 || header.num_bytes > SplitBlockBloomFilter::kMaxBytes) {
    return Status::Corruption("Bloom filter of " + std::to_string(header.num_bytes) + " bytes");
  }
  // The bitset module: its plaintext is num_bytes.
  const int64_t bitset_module = header.num_bytes + overhead;
  ByteSpan bitset_bytes = data.subspan(header_size);
  BufferPtr more;
  if (static_cast<int64_t>(bitset_bytes.size()) < bitset_module) {
    if (meta.bloom_filter_length) {
      return Status::Corruption("Bloom filter length " + std::to_string(*meta.bloom_filter_length) +
                                " leaves no room for its bitset");
    }
    PQ_ASSIGN_OR_RETURN(more, read(offset + static_cast<int64_t>(header_size), bitset_module,
                                   "Bloom filter bitset"));
    bitset_bytes = ByteSpan(more->data(), more->size());
  }
  std::vector<uint8_t> bitset;
  size_t bitset_size = 0;
  s = decryptor.DecryptBloomFilterBitset(bitset_bytes, &bitset, &bitset_size);
  if (!s.ok()) return s;
  if (static_cast<int64_t>(bitset.size()) != header.num_bytes) {
    return Status::Corruption("encrypted Bloom filter bitset holds " +
                              std::to_string(bitset.size()) + " bytes, its header says " +
                              std::to_string(header.num_bytes));
  }
  auto f = SplitBlockBloomFilter::FromHeader(header, ByteSpan(bitset.data(), bitset.size()));
  if (!f.ok()) return std::move(f).TakeStatus().WithContext("Bloom filter");
  return Filter(std::move(f).value());
}

}  // namespace pq
