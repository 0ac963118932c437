// GZIP (codec 2): gzip members (RFC 1952), possibly several concatenated in one page.
// The Parquet spec "Compression / GZIP"; zlib is authoritative. Some writers emit one member per
// buffer flush, so the decoder keeps inflating member after member until the input is consumed.
// zlib-wrapped (RFC 1950) members are accepted as well: zlib detects the header (windowBits 15+32).
#include <zlib.h>

#include <memory>

#include "format/codec/codec_impl.h"

namespace pq::codec_internal {
namespace {

constexpr const char* kName = "GZIP";
constexpr int kMaxWindowBits = 15;
constexpr int kDetectGzipOrZlibHeader = 32;  // added to windowBits for inflate
constexpr int kWriteGzipHeader = 16;         // added to windowBits for deflate
constexpr int kDefaultMemLevel = 8;

// One inflate stream per thread, reset for each page and each member: inflateInit allocates the
// state and a 32 KiB window, which would otherwise be paid for every page.
class Inflater {
 public:
  Inflater() = default;
  ~Inflater() {
    if (initialized_) inflateEnd(&stream_);
  }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;

  // The stream, reset to expect the start of a member; null if zlib could not allocate it.
  // Initialized on first use (and retried after a failed allocation).
  z_stream* Fresh() {
    if (!initialized_) {
      stream_ = z_stream{};
      initialized_ = inflateInit2(&stream_, kMaxWindowBits + kDetectGzipOrZlibHeader) == Z_OK;
      if (!initialized_) return nullptr;
    }
    if (inflateReset(&stream_) != Z_OK) return nullptr;
    return &stream_;
  }

 private:
  z_stream stream_{};  // zalloc/zfree/opaque null: zlib's default allocator
  bool initialized_ = false;
};

Status GzipDecompress(ByteSpan input, std::span<uint8_t> output) {
  thread_local Inflater inflater;
  z_stream* z = inflater.Fresh();
  if (z == nullptr) return Status::OutOfMemory("GZIP: cannot allocate an inflate stream");
  // Sizes fit uInt: the factory caps both at INT32_MAX.
  z->next_in = const_cast<Bytef*>(input.data());
  z->avail_in = static_cast<uInt>(input.size());
  z->next_out = NonNullOut(output);
  z->avail_out = static_cast<uInt>(output.size());
  for (;;) {
    int rc = inflate(z, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      if (z->avail_in == 0) break;
      // Another member follows (or trailing bytes, which its header check rejects).
      if (inflateReset(z) != Z_OK) return InvalidData(kName, "cannot reset the inflate stream");
      continue;
    }
    if (rc == Z_OK) continue;  // progress was made; the next call either continues or reports
    if (rc == Z_BUF_ERROR) {   // no progress possible: out of input or out of room
      if (z->avail_in == 0) return InvalidData(kName, "data is truncated");
      return LargerThanExpected(kName, output.size());
    }
    if (rc == Z_MEM_ERROR) return Status::OutOfMemory("GZIP: out of memory while inflating");
    return InvalidData(kName, z->msg != nullptr ? z->msg : "corrupt deflate stream");
  }
  size_t produced = output.size() - z->avail_out;
  if (produced != output.size()) return SizeMismatch(kName, produced, output.size());
  return Status::OK();
}

Status GzipCompress(ByteSpan input, int level, std::vector<uint8_t>* out) {
  z_stream z{};
  if (deflateInit2(&z, level, Z_DEFLATED, kMaxWindowBits + kWriteGzipHeader, kDefaultMemLevel,
                   Z_DEFAULT_STRATEGY) != Z_OK) {
    return Status::OutOfMemory("GZIP: cannot allocate a deflate stream");
  }
  std::unique_ptr<z_stream, int (*)(z_stream*)> end_on_exit(&z, deflateEnd);
  // deflateBound covers the gzip header and trailer, so one Z_FINISH call completes the member.
  out->resize(deflateBound(&z, static_cast<uLong>(input.size())));
  z.next_in = const_cast<Bytef*>(NonNull(input));
  z.avail_in = static_cast<uInt>(input.size());
  z.next_out = out->data();
  z.avail_out = static_cast<uInt>(out->size());
  int rc = deflate(&z, Z_FINISH);
  if (rc != Z_STREAM_END) {
    return Status::InvalidArgument("GZIP: deflate failed (" + std::to_string(rc) + ")");
  }
  out->resize(out->size() - z.avail_out);
  return Status::OK();
}

}  // namespace

const CodecImpl kGzipCodec = {
    .name = kName,
    .decompress = GzipDecompress,
    .compress = GzipCompress,
    .has_levels = true,
    .min_level = 1,
    .max_level = 9,
    .default_level = 6,
    .max_ratio = 1032,  // deflate: a 258-byte match in as little as 2 bits
};

}  // namespace pq::codec_internal
