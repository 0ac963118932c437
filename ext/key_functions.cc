#include "ext/key_functions.h"

#include <string>

namespace pq::ext {
namespace {

void DeleteRegistryHandle(void* p) {
  delete static_cast<std::shared_ptr<crypto::KeyRegistry>*>(p);
}

std::string ValueBytes(sqlite3_value* v) {
  const void* data = sqlite3_value_blob(v);
  const int n = sqlite3_value_bytes(v);
  if (data == nullptr || n <= 0) return std::string();
  return std::string(static_cast<const char*>(data), static_cast<size_t>(n));
}

// parquet_add_key(ID, KEY)
void AddKeyFunction(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  GuardedFunction(ctx, [&]() {
    if (argc != 2) {
      SetFunctionError(ctx, Status::InvalidArgument("parquet_add_key takes (key id, key)"));
      return;
    }
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
      sqlite3_result_null(ctx);
      return;
    }
    auto* registry = static_cast<std::shared_ptr<crypto::KeyRegistry>*>(sqlite3_user_data(ctx));
    std::string id = ValueBytes(argv[0]);
    if (id.empty()) {
      SetFunctionError(ctx, Status::InvalidArgument("parquet_add_key: the key id is empty"));
      return;
    }
    std::string key;
    if (sqlite3_value_type(argv[1]) == SQLITE_BLOB) {
      key = ValueBytes(argv[1]);  // raw key bytes; Add checks the size
    } else {
      auto parsed = crypto::ParseKeyText(ValueBytes(argv[1]));
      if (!parsed.ok()) {
        SetFunctionError(ctx, Status::InvalidArgument("parquet_add_key: " +
                                                      parsed.status().message()));
        return;
      }
      key = std::move(parsed).value();
    }
    Status s = (*registry)->Add(std::move(id), std::move(key));
    if (!s.ok()) {
      SetFunctionError(ctx, Status::InvalidArgument("parquet_add_key: " + s.message()));
      return;
    }
    sqlite3_result_int(ctx, 1);
  });
}

}  // namespace

int RegisterKeyFunctions(sqlite3* db, std::shared_ptr<crypto::KeyRegistry> registry) {
  auto handle = std::make_unique<std::shared_ptr<crypto::KeyRegistry>>(std::move(registry));
  // sqlite3_create_function_v2 calls the destructor itself when registration fails.
  return sqlite3_create_function_v2(db, "parquet_add_key", 2, SQLITE_UTF8 | SQLITE_DIRECTONLY,
                                    handle.release(), AddKeyFunction, nullptr, nullptr,
                                    DeleteRegistryHandle);
}

}  // namespace pq::ext
