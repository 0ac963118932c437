#include "ext/version_function.h"

#include <string>

#include "format/codec/codec.h"
#include "format/crypto/aes_cipher.h"
#include "format/util/json_writer.h"

namespace pq::ext {
namespace {

void AppendMember(std::string_view name, std::string_view value, std::string* out) {
  if (out->size() > 1) out->push_back(',');
  AppendJsonString(name, out);
  out->push_back(':');
  AppendJsonString(value, out);
}

void VersionFunction(sqlite3_context* ctx, int /*argc*/, sqlite3_value** /*argv*/) {
  GuardedFunction(ctx, [&]() {
    std::string json = "{";
    AppendMember("parquet", PQ_VERSION, &json);
    AppendMember("sqlite", sqlite3_libversion(), &json);
    for (const auto& [name, version] : CodecLibraryVersions()) AppendMember(name, version, &json);
    AppendMember("openssl", crypto::OpenSslVersion(), &json);
    json.push_back('}');
    sqlite3_result_text(ctx, json.data(), static_cast<int>(json.size()), SQLITE_TRANSIENT);
  });
}

}  // namespace

int RegisterVersionFunction(sqlite3* db) {
  return sqlite3_create_function_v2(db, "parquet_version", 0,
                                    SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nullptr,
                                    VersionFunction, nullptr, nullptr, nullptr);
}

}  // namespace pq::ext
