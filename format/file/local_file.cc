#include "format/file/local_file.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <list>
#include <map>

namespace pq {

// The LocalFiles holding a descriptor, least recently read first (local_file.h, "Open
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
  void Opened(const LocalFile* f) {
    std::lock_guard<std::mutex> lock(mu_);
    files_.push_back(f);
    pos_[f] = std::prev(files_.end());
    CloseLeastRecent(max_, f);
  }
  // `f` was read: it becomes the most recently used.
  void Touched(const LocalFile* f) {
    std::lock_guard<std::mutex> lock(mu_);
    auto p = pos_.find(f);
    if (p != pos_.end()) files_.splice(files_.end(), files_, p->second);
  }
  // `f` closes its descriptor itself (destruction; its mu_ held or no reader left).
  void Closed(const LocalFile* f) {
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
  size_t CloseLeastRecent(size_t keep, const LocalFile* except) {
    size_t closed = 0;
    for (auto it = files_.begin(); files_.size() > keep && it != files_.end();) {
      const LocalFile* victim = *it;
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
  std::list<const LocalFile*> files_;
  std::map<const LocalFile*, std::list<const LocalFile*>::iterator> pos_;
};

void LocalFile::SetMaxOpenFiles(size_t n) { OpenFileList::Get().SetMax(n); }
size_t LocalFile::MaxOpenFiles() { return OpenFileList::Get().max(); }
size_t LocalFile::OpenDescriptors() { return OpenFileList::Get().open(); }

namespace {
int64_t MtimeNs(const struct stat& st) { return int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec; }
}  // namespace

// open(2), once more after closing descriptors held here when the process has none left.
// O_NONBLOCK: opening a FIFO must not wait for a writer (the caller refuses anything but a regular
// file, on which the flag changes nothing).
int OpenReadOnly(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0 && (errno == EMFILE || errno == ENFILE) && OpenFileList::Get().ShedHalf()) {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  }
  return fd;
}

// What a file that is not a regular file is, for messages.
const char* FileKindName(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

Result<std::unique_ptr<LocalFile>> LocalFile::Open(const std::string& path) {
  int fd = OpenReadOnly(path);
  if (fd < 0) return Status::IOError("cannot open '" + path + "': " + std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return Status::IOError("cannot stat '" + path + "': " + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    std::string why = "'" + path + "' is " + FileKindName(st.st_mode) + ", not a Parquet file";
    if (S_ISDIR(st.st_mode)) why += " (its files are read with a glob: '" + path + "/*.parquet')";
    return Status::IOError(why);
  }
  std::unique_ptr<LocalFile> f(new LocalFile(fd, path, st.st_size, MtimeNs(st), static_cast<uint64_t>(st.st_dev),
                                             static_cast<uint64_t>(st.st_ino)));
  std::lock_guard<std::mutex> lock(f->mu_);
  OpenFileList::Get().Opened(f.get());
  return f;
}

LocalFile::~LocalFile() {
  std::lock_guard<std::mutex> lock(mu_);
  OpenFileList::Get().Closed(this);
  if (fd_ >= 0) ::close(fd_);
}

bool LocalFile::descriptor_open() const {
  std::lock_guard<std::mutex> lock(mu_);
  return fd_ >= 0;
}

Status LocalFile::Reopen() const {
  int fd = OpenReadOnly(path());
  if (fd < 0) return Status::IOError("cannot open '" + path() + "' again: " + std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0 || static_cast<uint64_t>(st.st_dev) != device_ ||
      static_cast<uint64_t>(st.st_ino) != inode_ || st.st_size != size() || MtimeNs(st) != mtime_ns_) {
    ::close(fd);
    return Status::IOError("'" + path() + "' changed while it was being read");
  }
  fd_ = fd;
  OpenFileList::Get().Opened(this);
  return Status::OK();
}

Status LocalFile::ReadBytes(int64_t offset, int64_t length, uint8_t* out) const {
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
      return Status::IOError("read of '" + path() + "' failed: " + std::strerror(errno));
    }
    if (n == 0) return Status::IOError("'" + path() + "' is shorter than when it was opened");
    done += n;
  }
  return Status::OK();
}

bool LocalFile::Unchanged() const {
  struct stat st;
  if (::stat(path().c_str(), &st) != 0) return false;
  return st.st_size == size() && MtimeNs(st) == mtime_ns_ && static_cast<uint64_t>(st.st_ino) == inode_ &&
         static_cast<uint64_t>(st.st_dev) == device_;
}

}  // namespace pq
