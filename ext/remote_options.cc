#include "ext/remote_options.h"

#include <chrono>
#include <string>
#include <thread>

namespace pq::ext {

const std::vector<std::string_view> kRemoteOptionNames = {
    "s3_region",    "s3_endpoint",   "s3_access_key_id",   "s3_secret_access_key", "s3_session_token",
    "s3_url_style", "s3_use_ssl",    "s3_part_size",       "http_retries",         "http_timeout",
    "http_retry_wait_ms", "http_retry_backoff", "http_bearer_token", "http_headers", "http_ca_file"};

Result<std::vector<remote::Setting>> RemoteSettingsFromOptions(const OptionList& opts) {
  std::vector<remote::Setting> settings;
  for (const auto& [key, value] : opts.items()) {
    if (remote::IsRemoteSetting(key)) settings.emplace_back(key, value);
  }
  PQ_RETURN_IF_ERROR(remote::CheckSettings(settings));
  return settings;
}

namespace {

// sqlite3_is_interrupted of a SQLite library of 3.41 or later, or null. A module compiled with the
// headers of an older SQLite does not have the routine in its sqlite3_api_routines, but a newer
// library has it right after the last routine of 3.40 (routines are only ever appended).
using IsInterruptedFn = int (*)(sqlite3*);
IsInterruptedFn IsInterruptedRoutine() {
  if (sqlite3_libversion_number() < 3041000) return nullptr;
#if SQLITE_VERSION_NUMBER >= 3041000
  return sqlite3_api->is_interrupted;
#else
  const auto* after = reinterpret_cast<const char*>(sqlite3_api) + sizeof(sqlite3_api_routines);
  return *reinterpret_cast<const IsInterruptedFn*>(after);
#endif
}

}  // namespace

std::function<bool()> InterruptPoller(sqlite3* db) {
  const IsInterruptedFn is_interrupted = IsInterruptedRoutine();
  const std::thread::id owner = std::this_thread::get_id();
  return [db, is_interrupted, owner]() -> bool {
    if (is_interrupted != nullptr) return is_interrupted(db) != 0;
    // Only the thread running the connection's statement may run another on it.
    if (std::this_thread::get_id() != owner) return false;
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(db, "SELECT 1", -1, &stmt, nullptr);
    if (rc == SQLITE_OK) rc = sqlite3_step(stmt);
    sqlite3_finalize(stmt);
    return rc == SQLITE_INTERRUPT;
  };
}

std::function<bool()> PeriodicInterruptPoller(sqlite3* db) {
  using Clock = std::chrono::steady_clock;
  // Without sqlite3_is_interrupted each question runs a statement, which a trace shows: 4 a second.
  const Clock::duration period = IsInterruptedRoutine() != nullptr ? std::chrono::milliseconds(10)
                                                                   : std::chrono::milliseconds(250);
  return [poll = InterruptPoller(db), period, next = Clock::time_point()]() mutable -> bool {
    const Clock::time_point now = Clock::now();
    if (now < next) return false;
    next = now + period;
    return poll();
  };
}

std::shared_ptr<remote::RemoteAccess> MakeRemoteAccess(sqlite3* db,
                                                       std::shared_ptr<const remote::SettingsRegistry> registry,
                                                       std::vector<remote::Setting> settings) {
  return std::make_shared<remote::RemoteAccess>(std::move(registry), std::move(settings),
                                                remote::ProcessEnvironment(), InterruptPoller(db));
}

namespace {

// parquet_secret(OPTIONS): see remote_options.h.
void SecretFunction(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  GuardedFunction(ctx, [&] {
    auto* registry = static_cast<std::shared_ptr<remote::SettingsRegistry>*>(sqlite3_user_data(ctx));
    if (argc != 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) {
      sqlite3_result_null(ctx);
      return;
    }
    const unsigned char* text = sqlite3_value_text(argv[0]);
    if (text == nullptr) {
      sqlite3_result_error_nomem(ctx);
      return;
    }
    auto opts = OptionList::ParseList(reinterpret_cast<const char*>(text));
    if (!opts.ok()) return SetFunctionError(ctx, opts.status().WithContext("parquet_secret"));
    remote::ScopedSettings entry;
    for (const auto& [key, value] : opts->items()) {
      if (key == "scope") {
        entry.scope = value;
        continue;
      }
      if (!remote::IsRemoteSetting(key)) {
        return SetFunctionError(ctx, Status::InvalidArgument("parquet_secret: unknown setting '" + key +
                                                             "' (s3_... and http_... settings and scope)"));
      }
      entry.settings.emplace_back(key, value);
    }
    Status s = remote::CheckSettings(entry.settings);
    if (!s.ok()) return SetFunctionError(ctx, s.WithContext("parquet_secret"));
    if (entry.settings.empty()) {
      (*registry)->Unregister(entry.scope);
    } else {
      (*registry)->Register(std::move(entry));
    }
    sqlite3_result_int(ctx, 1);
  });
}

}  // namespace

int RegisterSecretFunction(sqlite3* db, std::shared_ptr<remote::SettingsRegistry> registry) {
  return sqlite3_create_function_v2(
      db, "parquet_secret", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY,
      new std::shared_ptr<remote::SettingsRegistry>(std::move(registry)), SecretFunction, nullptr, nullptr,
      [](void* p) { delete static_cast<std::shared_ptr<remote::SettingsRegistry>*>(p); });
}

}  // namespace pq::ext
