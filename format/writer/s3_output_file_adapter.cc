#include "format/writer/s3_output_file_adapter.h"

#include <string>
#include <utility>

namespace pq {

namespace {

class S3Output final : public OutputFile {
 public:
  explicit S3Output(std::shared_ptr<remote::S3OutputFile> object)
      : object_(std::move(object)), path_(object_->path()) {}
  Status Append(ByteSpan data) override { return object_->Append(data); }
  int64_t position() const override { return object_->position(); }
  Status Truncate(int64_t position) override { return object_->Truncate(position); }
  Status Close() override { return object_->Finish(); }
  void Remove() override { object_->Remove(); }
  const std::string& path() const override { return path_; }

 private:
  std::shared_ptr<remote::S3OutputFile> object_;
  std::string path_;
};

}  // namespace

std::unique_ptr<OutputFile> S3OutputFileAdapter(std::shared_ptr<remote::S3OutputFile> object) {
  return std::make_unique<S3Output>(std::move(object));
}

}  // namespace pq
