#include "format/remote/s3_output_file.h"

#include <algorithm>

namespace pq::remote {

Result<std::unique_ptr<S3OutputFile>> S3OutputFile::Create(std::shared_ptr<S3Client> client, std::string bucket,
                                                           std::string key, S3OutputOptions options) {
  if (options.part_size <= 0) return Status::InvalidArgument("the S3 part size must be above 0");
  if (key.empty() || key.back() == '/') {
    return Status::InvalidArgument("s3://" + bucket + "/" + key + " names no object to write");
  }
  return std::unique_ptr<S3OutputFile>(
      new S3OutputFile(std::move(client), std::move(bucket), std::move(key), options));
}

S3OutputFile::~S3OutputFile() {
  if (!finished_) Remove();
}

int64_t S3OutputFile::CurrentPartSize() const {
  const int doublings = std::min<int>(static_cast<int>(etags_.size()) / 1000, 20);
  return options_.part_size << doublings;
}

Status S3OutputFile::Fail(Status failure) {
  if (!upload_id_.empty()) {
    (void)client_->AbortMultipartUpload(bucket_, key_, upload_id_);
    upload_id_.clear();
  }
  buffer_.clear();
  buffer_.shrink_to_fit();
  failure_ = failure;
  return failure;
}

Status S3OutputFile::UploadBuffer() {
  if (upload_id_.empty()) {
    auto id = client_->CreateMultipartUpload(bucket_, key_);
    if (!id.ok()) return Fail(id.status());
    upload_id_ = *id;
  }
  const int part_number = static_cast<int>(etags_.size()) + 1;
  std::string part;
  part.swap(buffer_);
  auto etag = client_->UploadPart(bucket_, key_, upload_id_, part_number, std::move(part));
  if (!etag.ok()) return Fail(etag.status());
  etags_.push_back(*etag);
  return Status::OK();
}

Status S3OutputFile::Append(ByteSpan data) {
  if (!failure_.ok()) return failure_;
  if (finished_ || sealed_) return Status::InvalidArgument(path() + " is already closed");
  while (!data.empty()) {
    const int64_t part = CurrentPartSize();
    // A full part is uploaded only once more bytes come, so the last part is never empty.
    if (static_cast<int64_t>(buffer_.size()) >= part) {
      PQ_RETURN_IF_ERROR(UploadBuffer());
      continue;
    }
    if (buffer_.capacity() < static_cast<size_t>(part)) buffer_.reserve(static_cast<size_t>(part));
    const size_t take = std::min(data.size(), static_cast<size_t>(part) - buffer_.size());
    buffer_.append(reinterpret_cast<const char*>(data.data()), take);
    data = data.subspan(take);
    position_ += static_cast<int64_t>(take);
  }
  return Status::OK();
}

Status S3OutputFile::Truncate(int64_t position) {
  if (!failure_.ok()) return failure_;
  if (finished_ || sealed_) return Status::InvalidArgument(path() + " is already closed");
  const int64_t buffered_from = position_ - static_cast<int64_t>(buffer_.size());
  if (position < 0 || position > position_) {
    return Status::InvalidArgument("cannot cut " + path() + " back to " + std::to_string(position) +
                                   " bytes: it has " + std::to_string(position_));
  }
  if (position < buffered_from) {
    // Parts already uploaded cannot be changed: the upload is given up.
    return Fail(Status::InvalidArgument(
        "cannot take back the bytes of " + path() + " after offset " + std::to_string(position) +
        ": they are in parts already uploaded (s3_part_size)"));
  }
  buffer_.resize(static_cast<size_t>(position - buffered_from));
  position_ = position;
  return Status::OK();
}

Status S3OutputFile::Close() { return Commit(); }

Status S3OutputFile::Finish() {
  if (!failure_.ok()) return failure_;
  if (finished_ || sealed_) return Status::OK();
  if (!upload_id_.empty() && !buffer_.empty()) PQ_RETURN_IF_ERROR(UploadBuffer());
  sealed_ = true;
  return Status::OK();
}

Status S3OutputFile::Commit() {
  if (!failure_.ok()) return failure_;
  if (finished_) return Status::OK();
  PQ_RETURN_IF_ERROR(Finish());
  Status done;
  if (upload_id_.empty() && etags_.empty()) {
    done = client_->PutObject(bucket_, key_, std::move(buffer_));
    if (!done.ok()) return Fail(done);
  } else {
    done = client_->CompleteMultipartUpload(bucket_, key_, upload_id_, etags_);
    if (!done.ok()) return Fail(done);
    upload_id_.clear();
  }
  finished_ = true;
  committed_ = true;
  return Status::OK();
}

void S3OutputFile::DeleteCommitted() {
  if (committed_) (void)client_->DeleteObject(bucket_, key_);
  committed_ = false;
}

void S3OutputFile::Remove() {
  if (finished_) return;
  finished_ = true;
  if (failure_.ok()) (void)Fail(Status::IOError(path() + ": the upload was given up"));
}

}  // namespace pq::remote
