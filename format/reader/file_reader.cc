#include "format/reader/file_reader.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <list>

#include "format/crypto/file_decryptor.h"
#include "format/crypto/module_aad.h"
#include "format/metadata/metadata_io.h"
#include "format/page/buffer_pool.h"

namespace pq {

namespace {
constexpr char kMagic[] = "PAR1";
constexpr char kEncryptedMagic[] = "PARE";
constexpr int64_t kMagicSize = 4;
// The largest dictionary page header an old parquet-mr could have left out of a chunk's size.
constexpr int64_t kOldParquetMrSlack = 100;

// "parquet-mr" with no version, or "parquet-mr version X.Y.Z" below 1.2.9.
bool WrittenByOldParquetMr(const std::optional<std::string>& created_by) {
  if (!created_by) return false;
  const std::string& s = *created_by;
  if (s.rfind("parquet-mr", 0) != 0) return false;
  size_t v = s.find("version ");
  if (v == std::string::npos) return true;
  int major = 0, minor = 0, patch = 0;
  if (std::sscanf(s.c_str() + v + 8, "%d.%d.%d", &major, &minor, &patch) < 2) return true;
  if (major != 1) return major < 1;
  if (minor != 2) return minor < 2;
  return patch < 9;
}
}  // namespace

// The RandomAccessFiles holding a descriptor, least recently read first (file_reader.h, "Open
// files"). Lock order: a file's mu_, then the list's mutex; the list only try_locks a file to close
// it, and passes over one that is busy reading.
class OpenFileList {
 public:
  static OpenFileList& Get() {
    static OpenFileList* list = new OpenFileList();  // never destroyed: files may outlive statics
    return *list;
  }
  // A quarter of the process's descriptor limit, between 16 and 512: room for everything else.
  OpenFileList() {
    struct rlimit rl;
    if (::getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
      max_ = std::clamp<size_t>(static_cast<size_t>(rl.rlim_cur / 4), 16, 512);
    }
  }
  // The process is out of descriptors: closes the least recently read half of those held here
  // (as Opened does) so that an open can be tried again. False when none could be closed.
  bool ShedHalf() {
    std::lock_guard<std::mutex> lock(mu_);
    return CloseLeastRecent(files_.size() / 2, nullptr) > 0;
  }
  // `f` (its mu_ held by the caller) just opened a descriptor: note it, then close the least
  // recently read others while more than the limit are open.
  void Opened(const RandomAccessFile* f) {
    std::lock_guard<std::mutex> lock(mu_);
    files_.push_back(f);
    pos_[f] = std::prev(files_.end());
    CloseLeastRecent(max_, f);
  }
  // `f` was read: it becomes the most recently used.
  void Touched(const RandomAccessFile* f) {
    std::lock_guard<std::mutex> lock(mu_);
    auto p = pos_.find(f);
    if (p != pos_.end()) files_.splice(files_.end(), files_, p->second);
  }
  // `f` closes its descriptor itself (destruction; its mu_ held or no reader left).
  void Closed(const RandomAccessFile* f) {
    std::lock_guard<std::mutex> lock(mu_);
    auto p = pos_.find(f);
    if (p == pos_.end()) return;
    files_.erase(p->second);
    pos_.erase(p);
  }
  void SetMax(size_t n) {
    std::lock_guard<std::mutex> lock(mu_);
    max_ = std::max<size_t>(n, 1);
  }
  size_t max() {
    std::lock_guard<std::mutex> lock(mu_);
    return max_;
  }
  size_t open() {
    std::lock_guard<std::mutex> lock(mu_);
    return files_.size();
  }

 private:
  // Closes the descriptors of the least recently read files, `except` and files busy reading
  // passed over, until at most `keep` are held. mu_ held. Returns how many it closed.
  size_t CloseLeastRecent(size_t keep, const RandomAccessFile* except) {
    size_t closed = 0;
    for (auto it = files_.begin(); files_.size() > keep && it != files_.end();) {
      const RandomAccessFile* victim = *it;
      if (victim == except || !victim->mu_.try_lock()) {
        ++it;
        continue;
      }
      ::close(victim->fd_);
      victim->fd_ = -1;
      victim->mu_.unlock();
      pos_.erase(victim);
      it = files_.erase(it);
      ++closed;
    }
    return closed;
  }

  std::mutex mu_;
  size_t max_ = 256;  // see the constructor
  std::list<const RandomAccessFile*> files_;
  std::map<const RandomAccessFile*, std::list<const RandomAccessFile*>::iterator> pos_;
};

void RandomAccessFile::SetMaxOpenFiles(size_t n) { OpenFileList::Get().SetMax(n); }
size_t RandomAccessFile::MaxOpenFiles() { return OpenFileList::Get().max(); }
size_t RandomAccessFile::OpenDescriptors() { return OpenFileList::Get().open(); }

namespace {
int64_t MtimeNs(const struct stat& st) { return int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec; }
}  // namespace

// open(2), once more after closing descriptors held here when the process has none left.
int OpenReadOnly(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 && (errno == EMFILE || errno == ENFILE) && OpenFileList::Get().ShedHalf()) {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  }
  return fd;
}

Result<std::unique_ptr<RandomAccessFile>> RandomAccessFile::Open(const std::string& path) {
  int fd = OpenReadOnly(path);
  if (fd < 0) return Status::IOError("cannot open '" + path + "': " + std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return Status::IOError("cannot stat '" + path + "': " + std::strerror(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return Status::IOError("'" + path + "' is a directory");
  }
  std::unique_ptr<RandomAccessFile> f(new RandomAccessFile(fd, path, st.st_size, MtimeNs(st),
                                                           static_cast<uint64_t>(st.st_dev),
                                                           static_cast<uint64_t>(st.st_ino)));
  std::lock_guard<std::mutex> lock(f->mu_);
  OpenFileList::Get().Opened(f.get());
  return f;
}

std::unique_ptr<RandomAccessFile> RandomAccessFile::FromBytes(std::string name, std::string bytes) {
  int64_t size = static_cast<int64_t>(bytes.size());
  std::unique_ptr<RandomAccessFile> f(new RandomAccessFile(-1, std::move(name), size, 0, 0, 0));
  f->memory_ = std::move(bytes);
  f->in_memory_ = true;
  return f;
}

RandomAccessFile::~RandomAccessFile() {
  if (in_memory_) return;
  std::lock_guard<std::mutex> lock(mu_);
  OpenFileList::Get().Closed(this);
  if (fd_ >= 0) ::close(fd_);
}

bool RandomAccessFile::descriptor_open() const {
  std::lock_guard<std::mutex> lock(mu_);
  return fd_ >= 0;
}

Status RandomAccessFile::Reopen() const {
  int fd = OpenReadOnly(path_);
  if (fd < 0) return Status::IOError("cannot open '" + path_ + "' again: " + std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0 || static_cast<uint64_t>(st.st_dev) != device_ ||
      static_cast<uint64_t>(st.st_ino) != inode_ || st.st_size != size_ || MtimeNs(st) != mtime_ns_) {
    ::close(fd);
    return Status::IOError("'" + path_ + "' changed while it was being read");
  }
  fd_ = fd;
  OpenFileList::Get().Opened(this);
  return Status::OK();
}

Status RandomAccessFile::ReadInto(int64_t offset, int64_t length, uint8_t* out) const {
  if (offset < 0 || length < 0 || offset > size_ || length > size_ - offset) {
    return Status::Corruption("byte range [" + std::to_string(offset) + ", +" +
                              std::to_string(length) + ") is outside the file (size " +
                              std::to_string(size_) + ")");
  }
  if (in_memory_) {
    if (length > 0) std::memcpy(out, memory_.data() + offset, static_cast<size_t>(length));
    return Status::OK();
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (fd_ < 0) {
    PQ_RETURN_IF_ERROR(Reopen());
  } else {
    OpenFileList::Get().Touched(this);
  }
  int64_t done = 0;
  while (done < length) {
    ssize_t n = ::pread(fd_, out + done, static_cast<size_t>(length - done), offset + done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::IOError("read of '" + path_ + "' failed: " + std::strerror(errno));
    }
    if (n == 0) return Status::IOError("'" + path_ + "' is shorter than when it was opened");
    done += n;
  }
  return Status::OK();
}

Result<BufferPtr> RandomAccessFile::ReadAt(int64_t offset, int64_t length) const {
  if (offset < 0 || length < 0 || offset > size_ || length > size_ - offset) {
    return Status::Corruption("byte range [" + std::to_string(offset) + ", +" +
                              std::to_string(length) + ") is outside the file (size " +
                              std::to_string(size_) + ")");
  }
  // A recycled buffer: fresh memory would be faulted in and zeroed before the read overwrites it.
  std::shared_ptr<Buffer> buf = AcquireExactPooledBuffer(static_cast<size_t>(length));
  PQ_RETURN_IF_ERROR(ReadInto(offset, length, buf->data()));
  return BufferPtr(std::move(buf));
}

int64_t MetadataMemoryLimit(const ReaderOptions& options) {
  if (options.memory && options.memory->limit() > 0) {
    return std::max(options.memory->limit(), kMinMetadataMemory);
  }
  return options.limits.max_metadata_memory;
}

int64_t PageIndexMemoryLimit(const ReaderOptions& options) {
  return std::min(kMaxPageIndexMemory, MetadataMemoryLimit(options) / 4);
}

Status OverMetadataLimit(Status s, const ReaderOptions& options) {
  if (s.code() != StatusCode::kOutOfMemory) return s;
  const std::string setting =
      options.memory && options.memory->limit() > 0
          ? options.memory->setting()
          : "the limit of " + std::to_string(options.limits.max_metadata_memory >> 20) +
                " MiB for a file's metadata outside a table";
  return Status(s.code(), s.message() + " (" + setting + ")");
}

Result<std::shared_ptr<FileReader>> FileReader::Open(const std::string& path,
                                                     const ReaderOptions& options) {
  PQ_ASSIGN_OR_RETURN(auto file, RandomAccessFile::Open(path));
  return Open(std::move(file), options);
}

Result<std::shared_ptr<FileReader>> FileReader::Open(std::unique_ptr<RandomAccessFile> file,
                                                     const ReaderOptions& options) {
  std::shared_ptr<FileReader> reader(new FileReader());
  reader->options_ = options;
  reader->dictionary_cache_ = std::make_unique<DictionaryCache>(options.dictionary_cache_bytes);
  reader->bloom_filter_cache_ = std::make_unique<BloomFilterCache>(options.bloom_filter_cache_bytes);
  // One budget for both kinds of page index.
  reader->offset_index_cache_ = std::make_unique<OffsetIndexCache>(options.page_index_cache_bytes / 2);
  reader->column_index_cache_ = std::make_unique<ColumnIndexCache>(options.page_index_cache_bytes / 2);
  reader->file_ = std::move(file);
  const RandomAccessFile& f = *reader->file_;
  const std::string& path = f.path();
  auto fail = [&path](Status s) { return std::move(s).WithContext(path); };
  if (f.size() < 2 * kMagicSize + 4) {
    return fail(Status::Corruption("not a Parquet file: " + std::to_string(f.size()) +
                                   " bytes is too small"));
  }
  uint8_t tail[8];
  PQ_RETURN_IF_ERROR(f.ReadInto(f.size() - 8, 8, tail));
  const bool encrypted_footer = std::memcmp(tail + 4, kEncryptedMagic, 4) == 0;
  if (!encrypted_footer && std::memcmp(tail + 4, kMagic, 4) != 0) {
    return fail(Status::Corruption("not a Parquet file: no PAR1 magic at the end"));
  }
  const char* magic = encrypted_footer ? kEncryptedMagic : kMagic;
  uint32_t footer_len = LoadLE<uint32_t>(tail);
  if (int64_t{footer_len} > f.size() - 2 * kMagicSize - 4) {
    return fail(Status::Corruption("footer length " + std::to_string(footer_len) +
                                   " does not fit in a file of " + std::to_string(f.size()) +
                                   " bytes"));
  }
  if (int64_t{footer_len} > options.limits.max_footer_size) {
    return fail(Status::OutOfMemory("footer of " + std::to_string(footer_len) +
                                    " bytes is over the limit"));
  }
  uint8_t head[4];
  PQ_RETURN_IF_ERROR(f.ReadInto(0, 4, head));
  if (std::memcmp(head, magic, 4) != 0) {
    return fail(Status::Corruption(std::string("not a Parquet file: no ") + magic +
                                   " magic at the start"));
  }
  reader->footer_length_ = footer_len;
  PQ_ASSIGN_OR_RETURN(BufferPtr footer, f.ReadAt(f.size() - 8 - footer_len, footer_len));
  const ByteSpan footer_bytes(footer->data(), footer->size());
  static const crypto::DecryptionConfig kNoKeys;
  const crypto::DecryptionConfig& keys = options.decryption ? *options.decryption : kNoKeys;
  if (encrypted_footer) {
    // FileCryptoMetaData, then FileMetaData as one module under the footer key.
    std::vector<uint8_t> plain;
    auto decryptor = crypto::FileDecryptor::ForEncryptedFooter(footer_bytes, keys, &plain);
    if (!decryptor.ok()) return fail(std::move(decryptor).TakeStatus());
    reader->decryptor_ = std::move(decryptor).value();
    Status s = ReadFileMetaData(ByteSpan(plain.data(), plain.size()), &reader->metadata_, nullptr,
                                MetadataMemoryLimit(options));
    if (!s.ok()) return fail(OverMetadataLimit(std::move(s), options).WithContext("decrypted footer"));
  } else {
    Status s = ReadFileMetaData(footer_bytes, &reader->metadata_, nullptr, MetadataMemoryLimit(options));
    if (!s.ok()) return fail(OverMetadataLimit(std::move(s), options).WithContext("footer"));
    if (reader->metadata_.encryption_algorithm) {
      // A plaintext footer followed by its signature: checked when the footer key is known.
      auto decryptor =
          crypto::FileDecryptor::ForPlaintextFooter(footer_bytes, reader->metadata_, keys);
      if (!decryptor.ok()) return fail(std::move(decryptor).TakeStatus());
      reader->decryptor_ = std::move(decryptor).value();
    }
  }
  auto schema = Schema::Make(reader->metadata_.schema);
  if (!schema.ok()) return fail(std::move(schema).TakeStatus().WithContext("schema"));
  reader->schema_ = std::move(schema).value();
  const FileMetaData& md = reader->metadata_;
  if (WrittenByOldParquetMr(md.created_by)) reader->chunk_size_slack_ = kOldParquetMrSlack;
  int64_t total_rows = 0;
  for (size_t rg = 0; rg < md.row_groups.size(); ++rg) {
    const RowGroup& g = md.row_groups[rg];
    if (g.columns.size() != static_cast<size_t>(reader->schema_->num_leaves())) {
      return fail(Status::Corruption("row group " + std::to_string(rg) + " has " +
                                     std::to_string(g.columns.size()) + " column chunks, the schema has " +
                                     std::to_string(reader->schema_->num_leaves()) + " leaf columns"));
    }
    if (g.num_rows < 0) {
      return fail(Status::Corruption("row group " + std::to_string(rg) + " has a negative row count"));
    }
    // Row numbers of the file are int64: the row groups' counts must sum within it.
    if (__builtin_add_overflow(total_rows, g.num_rows, &total_rows)) {
      return fail(Status::Corruption("row group " + std::to_string(rg) + " claims " +
                                     std::to_string(g.num_rows) +
                                     " rows: the row groups' counts sum past 2^63-1"));
    }
  }
  reader->DecryptColumnMetadata();
  return reader;
}

void FileReader::DecryptColumnMetadata() {
  for (size_t rg = 0; rg < metadata_.row_groups.size(); ++rg) {
    RowGroup& group = metadata_.row_groups[rg];
    const int64_t rg_ordinal = crypto::RowGroupOrdinal(group, static_cast<int64_t>(rg));
    for (size_t leaf = 0; leaf < group.columns.size(); ++leaf) {
      ColumnChunk& chunk = group.columns[leaf];
      if (!chunk.crypto_metadata) continue;  // a plaintext chunk reads as in any file
      const auto key = std::make_pair(static_cast<int>(rg), static_cast<int>(leaf));
      if (!decryptor_) {
        chunk_failures_[key] = Status::Corruption(
            "column '" + schema_->leaf(static_cast<int>(leaf)).DottedPath() +
            "' is encrypted but the file declares no encryption algorithm");
        continue;
      }
      auto meta = decryptor_->DecryptColumnMetaData(chunk, rg_ordinal, static_cast<int64_t>(leaf));
      if (!meta.ok()) {
        chunk_failures_[key] = std::move(meta).TakeStatus();
        continue;
      }
      chunk.meta_data = std::move(meta).value();
      chunk.encrypted_column_metadata.reset();  // decrypted once; not needed again
    }
  }
}

Result<std::optional<crypto::ColumnDecryptor>> FileReader::ChunkDecryptor(int row_group,
                                                                          int leaf) const {
  const RowGroup& group = metadata_.row_groups[static_cast<size_t>(row_group)];
  const ColumnChunk& chunk = group.columns[static_cast<size_t>(leaf)];
  if (!chunk.crypto_metadata) return std::optional<crypto::ColumnDecryptor>();
  if (auto it = chunk_failures_.find({row_group, leaf}); it != chunk_failures_.end()) {
    return it->second;
  }
  PQ_ASSIGN_OR_RETURN(crypto::ColumnDecryptor d,
                      decryptor_->ForColumn(chunk, crypto::RowGroupOrdinal(group, row_group), leaf,
                                            schema_->leaf(leaf).DottedPath()));
  return std::optional<crypto::ColumnDecryptor>(std::move(d));
}

Result<const ColumnMetaData*> FileReader::ColumnMeta(int row_group, int leaf) const {
  const ColumnChunk& chunk = metadata_.row_groups[row_group].columns[leaf];
  if (chunk.crypto_metadata) {
    if (auto it = chunk_failures_.find({row_group, leaf}); it != chunk_failures_.end()) {
      return it->second;
    }
  }
  if (!chunk.meta_data) return Status::Corruption("column chunk has no metadata");
  return &*chunk.meta_data;
}

}  // namespace pq
