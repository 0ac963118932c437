#include "ext/scan_stats.h"

#include <algorithm>
#include <cctype>

namespace pq::ext {

namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// Lookup order of a schema for a bare table name: temp, main, then the rest.
int SchemaRank(std::string_view schema) {
  if (EqualsIgnoreCase(schema, "temp")) return 0;
  if (EqualsIgnoreCase(schema, "main")) return 1;
  return 2;
}

void ScanStatsFunction(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  GuardedFunction(ctx, [&] {
    auto* registry = static_cast<std::shared_ptr<ScanStatsRegistry>*>(sqlite3_user_data(ctx));
    const unsigned char* name = argc == 1 ? sqlite3_value_text(argv[0]) : nullptr;
    if (name == nullptr) {
      sqlite3_result_error(ctx, "parquet_scan_stats requires a table name", -1);
      return;
    }
    std::string_view table(reinterpret_cast<const char*>(name),
                           static_cast<size_t>(sqlite3_value_bytes(argv[0])));
    const ScanRecord* record = (*registry)->Find(table);
    if (record == nullptr) {
      std::string msg = "parquet_scan_stats: no parquet table named '" + std::string(table) +
                        "' is open on this connection";
      sqlite3_result_error(ctx, msg.c_str(), static_cast<int>(msg.size()));
      return;
    }
    if (record->scan_id == 0) {
      sqlite3_result_null(ctx);
      return;
    }
    std::string json = ScanCountersJson(record->counters);
    sqlite3_result_text64(ctx, json.data(), json.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  });
}

void DeleteRegistryHandle(void* p) {
  std::unique_ptr<std::shared_ptr<ScanStatsRegistry>>(static_cast<std::shared_ptr<ScanStatsRegistry>*>(p));
}

}  // namespace

std::string ScanCountersJson(const ScanCounters& c) {
  std::string out = "{";
  for (const ScanCounterField& f : kScanCounterFields) {
    if (out.size() > 1) out += ',';
    out += '"';
    out += f.name;
    out += "\":";
    out += std::to_string(c.*f.member);
  }
  return out + "}";
}

std::shared_ptr<ScanRecord> ScanStatsRegistry::Add(std::string schema, std::string table) {
  auto record = std::make_shared<ScanRecord>();
  record->schema = std::move(schema);
  record->table = std::move(table);
  records_.push_back(record);
  return record;
}

void ScanStatsRegistry::Remove(const ScanRecord* record) {
  records_.erase(std::remove_if(records_.begin(), records_.end(),
                                [record](const auto& r) { return r.get() == record; }),
                 records_.end());
}

const ScanRecord* ScanStatsRegistry::Find(std::string_view name) const {
  std::string_view schema;
  std::string_view table = name;
  size_t dot = name.find('.');
  // A table name may itself hold a dot: "schema.t" is split only when the whole name is not a table.
  bool whole_is_table = std::any_of(records_.begin(), records_.end(),
                                    [&](const auto& r) { return EqualsIgnoreCase(r->table, name); });
  if (dot != std::string_view::npos && !whole_is_table) {
    schema = name.substr(0, dot);
    table = name.substr(dot + 1);
  }
  const ScanRecord* best = nullptr;
  // Later records win among equals: a table reconnected after a schema change replaces its old self.
  for (const auto& r : records_) {
    if (!EqualsIgnoreCase(r->table, table)) continue;
    if (!schema.empty() && !EqualsIgnoreCase(r->schema, schema)) continue;
    if (best == nullptr || SchemaRank(r->schema) <= SchemaRank(best->schema)) best = r.get();
  }
  return best;
}

int RegisterScanStatsFunction(sqlite3* db, std::shared_ptr<ScanStatsRegistry> registry) {
  auto handle = std::make_unique<std::shared_ptr<ScanStatsRegistry>>(std::move(registry));
  // sqlite3_create_function_v2 calls the destructor itself when registration fails.
  return sqlite3_create_function_v2(db, "parquet_scan_stats", 1, SQLITE_UTF8, handle.release(),
                                    ScanStatsFunction, nullptr, nullptr, DeleteRegistryHandle);
}

}  // namespace pq::ext
