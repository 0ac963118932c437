// S3OutputFile: the writer's output (the shape of writer/output_file.h's OutputFile) as an S3
// object that appears whole or not at all: a single PutObject for a small file, else a multipart
// upload that is aborted at once on any failure, so no parts are left behind and an object already
// under the key is untouched until the upload completes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "format/remote/s3_client.h"
#include "format/util/byte_reader.h"

namespace pq::remote {

struct S3OutputOptions {
  // S3 wants at least 5 MiB for every part but the last (s3rver, in tests, takes any size).
  int64_t part_size = int64_t{16} << 20;
};

// Bytes are buffered up to a part size. A file that never fills a part is stored with one
// PutObject at Close(); a larger one becomes a multipart upload: created when the first part is
// full, each full part uploaded as it fills, the last part and CompleteMultipartUpload at Close().
// Any failure aborts the upload at once (AbortMultipartUpload), so no parts are left behind, and
// every later call returns that failure; Remove(), and the destructor of a file neither closed nor
// removed, abort too. Until CompleteMultipartUpload (or the single PutObject) succeeds, no object
// exists under the key, and an object already there is untouched. Part sizes start at `part_size`
// and double every 1000 parts, so S3's 10,000-part limit is never reached.
class S3OutputFile {
 public:
  static Result<std::unique_ptr<S3OutputFile>> Create(std::shared_ptr<S3Client> client, std::string bucket,
                                                      std::string key, S3OutputOptions options = {});
  ~S3OutputFile();
  S3OutputFile(const S3OutputFile&) = delete;
  S3OutputFile& operator=(const S3OutputFile&) = delete;

  Status Append(ByteSpan data);
  // Bytes appended so far: the offset the next Append writes at.
  int64_t position() const { return position_; }
  // Cuts the object back to its first `position` bytes while they are still buffered (not yet in an
  // uploaded part); InvalidArgument naming the object, which is then unusable, otherwise.
  Status Truncate(int64_t position);
  // Stores what is buffered and makes the object appear; on failure nothing appears.
  Status Close();
  // Uploads the last part of a multipart upload; no more Append. The object does not appear yet.
  Status Finish();
  // Makes the object appear (Finish first if needed): CompleteMultipartUpload, or the PutObject of
  // a file of less than a part. On failure nothing appears.
  Status Commit();
  // Gives up: aborts the upload (errors ignored: this is the cleanup path); no object appears.
  // Nothing once committed.
  void Remove();
  // Deletes the object a Commit made (best effort: the cleanup of a partly published export).
  void DeleteCommitted();
  bool committed() const { return committed_; }
  // "s3://bucket/key".
  std::string path() const { return "s3://" + bucket_ + "/" + key_; }
  // Parts uploaded so far (0 for a file still in one buffer).
  int parts_uploaded() const { return static_cast<int>(etags_.size()); }

 private:
  S3OutputFile(std::shared_ptr<S3Client> client, std::string bucket, std::string key, S3OutputOptions options)
      : client_(std::move(client)), bucket_(std::move(bucket)), key_(std::move(key)), options_(options) {}
  int64_t CurrentPartSize() const;
  // Uploads the buffer as the next part (creating the upload first when needed).
  Status UploadBuffer();
  // Aborts the upload, if one was started; keeps `failure` for every later call.
  Status Fail(Status failure);

  std::shared_ptr<S3Client> client_;
  std::string bucket_;
  std::string key_;
  S3OutputOptions options_;
  std::string buffer_;
  int64_t position_ = 0;
  std::string upload_id_;  // empty until the first part
  std::vector<std::string> etags_;
  Status failure_;
  bool finished_ = false;   // committed or removed: nothing more happens
  bool committed_ = false;  // the object appeared
  bool sealed_ = false;     // Finish done: no more Append
};

}  // namespace pq::remote
