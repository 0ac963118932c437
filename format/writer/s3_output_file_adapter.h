// S3 objects as the writer's OutputFile: a FileWriter writes an s3:// object through an
// S3OutputFile (remote/s3_output_file.h), which uploads it in parts as it grows.
//
// Close() (the FileWriter's Close) uploads the last part but does not make the object appear: the
// caller, which keeps its own handle on the S3OutputFile, commits it when the file is wanted (at
// once for parquet_export, at the transaction's commit for a write table, after every file for a
// partitioned export), or removes it. Remove() aborts the upload: no object, no parts left.
#pragma once

#include <memory>

#include "format/remote/s3_output_file.h"
#include "format/writer/output_file.h"

namespace pq {

std::unique_ptr<OutputFile> S3OutputFileAdapter(std::shared_ptr<remote::S3OutputFile> object);

}  // namespace pq
