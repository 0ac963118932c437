// Option parsing shared by the virtual table (`key=value` module arguments) and parquet_export (one
// `key=value, ...` string). Unknown and duplicate keys are errors that name the key.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "format/util/status.h"

namespace pq::ext {

// `s` without leading and trailing white space.
std::string_view TrimSpace(std::string_view s);
// `s` with ASCII letters in lower case (SQLite's case-insensitive names compare this way).
std::string LowerAscii(std::string_view s);

// Removes SQL quoting: 'a''b' -> a'b, "x" -> x, [x] -> x, `x` -> x; anything else is trimmed.
std::string Dequote(std::string_view s);
// An option's name as written in a list (`footer_key`, `"footer_key"`, `[FOOTER_KEY]`): unquoted,
// lower-case. OptionList keys options by it, and the check for secrets (secret_options.h) reads names
// the same way.
std::string OptionName(std::string_view written);

// The items of a comma-separated list, split at the commas outside quotes (each character of
// `quotes` opens a quote that the same character closes) and, with `brackets`, outside parentheses
// and angle brackets (type names such as DECIMAL(9,2) and MAP<TEXT, INTEGER>); each item trimmed,
// empty ones dropped. A quote still open at the end runs to the end: the last item holds it, and
// *unclosed (when given) is set. The one splitter of options, partition_by's names and the export's
// column lists.
std::vector<std::string_view> SplitList(std::string_view text, std::string_view quotes, bool brackets,
                                        bool* unclosed = nullptr);

// Parsed options in the order given, keys lower-cased.
class OptionList {
 public:
  // Adds "key=value" (value may be quoted). Errors on a missing '=', an empty key, a duplicate key.
  Status Add(std::string_view key_equals_value);
  // Parses "k1=v1, k2='v, 2'" (commas inside quotes kept).
  static Result<OptionList> ParseList(std::string_view text);

  // Errors naming the first key that is not in `known`.
  Status CheckKnown(const std::vector<std::string_view>& known, std::string_view what) const;

  bool Has(std::string_view key) const;
  // Typed accessors: absent keys give the default; malformed values are InvalidArgument naming the key.
  Result<bool> GetBool(std::string_view key, bool def) const;
  Result<int64_t> GetInt(std::string_view key, int64_t def, int64_t min, int64_t max) const;
  std::string GetString(std::string_view key, std::string def) const;
  // One of `choices` (case-insensitive), returned lower-cased.
  Result<std::string> GetChoice(std::string_view key, std::string def,
                                const std::vector<std::string_view>& choices) const;

  const std::vector<std::pair<std::string, std::string>>& items() const { return items_; }

 private:
  const std::string* Find(std::string_view key) const;
  std::vector<std::pair<std::string, std::string>> items_;
};

}  // namespace pq::ext
