#include "ext/options.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace pq::ext {

std::string_view TrimSpace(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string LowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string Dequote(std::string_view s) {
  s = TrimSpace(s);
  if (s.size() < 2) return std::string(s);
  char open = s.front();
  char close = open == '[' ? ']' : open;
  if ((open != '\'' && open != '"' && open != '`' && open != '[') || s.back() != close) {
    return std::string(s);
  }
  std::string out;
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    out.push_back(s[i]);
    if (s[i] == close && open != '[' && i + 2 < s.size() && s[i + 1] == close) ++i;
  }
  return out;
}

std::string OptionName(std::string_view written) { return LowerAscii(Dequote(written)); }

Status OptionList::Add(std::string_view kv) {
  size_t eq = kv.find('=');
  if (eq == std::string_view::npos) {
    // The text is shown back only when it looks like an option's name (lower-case letters and '_',
    // and, without a '_', shorter than a 16-byte key): anything else may be a key or a credential
    // typed without its name, and secrets never reach a message.
    const std::string_view text = TrimSpace(kv);
    const bool word = !text.empty() && text.size() <= 32 &&
                      (text.size() < 16 || text.find('_') != std::string_view::npos) &&
                      std::all_of(text.begin(), text.end(), [](char c) {
                        return (c >= 'a' && c <= 'z') || c == '_';
                      });
    if (!word) {
      // A second path (parquet('a.parquet', 'b.parquet')): said without echoing the text.
      const std::string lower = LowerAscii(std::string(Dequote(text)));
      const bool path = lower.size() > 8 && lower.compare(lower.size() - 8, 8, ".parquet") == 0;
      return Status::InvalidArgument(
          path ? "an option is not of the form key=value: it looks like a second path, and several files go in the "
                 "first argument, comma-separated ('a.parquet, b.parquet') or as a glob ('data/*.parquet')"
               : "an option is not of the form key=value");
    }
    return Status::InvalidArgument("option '" + std::string(text) + "' is not of the form key=value");
  }
  // 'key=value' as one quoted string: SQLite hands the quotes over, and the name would not be known.
  const std::string_view whole = TrimSpace(kv);
  if (whole.size() >= 2 && (whole[0] == '\'' || whole[0] == '"') && whole.back() == whole[0] &&
      kv.substr(0, eq).find(whole[0], whole.data() - kv.data() + 1) == std::string_view::npos) {
    const std::string name = OptionName(whole.substr(1, whole.find('=') - 1));
    const bool word = !name.empty() && name.size() <= 32 && std::all_of(name.begin(), name.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
    return Status::InvalidArgument(
        (word ? "option '" + name + "' is written inside quotes" : std::string("an option is written inside quotes")) +
        ": write each option as key=value, not in quotes as a whole (the value may be quoted: key='value')");
  }
  std::string key = OptionName(kv.substr(0, eq));
  if (key.empty()) return Status::InvalidArgument("option with an empty name");
  if (Find(key)) return Status::InvalidArgument("option '" + key + "' is given more than once");
  items_.emplace_back(key, Dequote(kv.substr(eq + 1)));
  return Status::OK();
}

std::vector<std::string_view> SplitList(std::string_view text, std::string_view quotes, bool brackets,
                                        bool* unclosed) {
  std::vector<std::string_view> items;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    const bool end = i == text.size();
    const char c = end ? ',' : text[i];
    if (quote && !end) {
      if (c == quote) quote = 0;
      continue;
    }
    if (!end && quotes.find(c) != std::string_view::npos) {
      quote = c;
    } else if (brackets && !end && (c == '(' || c == '<')) {
      ++depth;
    } else if (brackets && !end && (c == ')' || c == '>')) {
      --depth;
    } else if (c == ',' && (depth <= 0 || end)) {
      std::string_view item = TrimSpace(text.substr(start, i - start));
      if (!item.empty()) items.push_back(item);
      start = i + 1;
    }
  }
  if (unclosed != nullptr) *unclosed = quote != 0;
  return items;
}

Result<OptionList> OptionList::ParseList(std::string_view text) {
  OptionList list;
  bool unclosed = false;
  std::vector<std::string_view> items = SplitList(text, "'\"", false, &unclosed);
  // The item with the open quote is not an option: the options before it are, then the quote is
  // the error.
  if (unclosed) items.pop_back();
  for (std::string_view item : items) PQ_RETURN_IF_ERROR(list.Add(item));
  // The options are not shown: they may hold a key or a credential.
  if (unclosed) return Status::InvalidArgument("unterminated quote in the options");
  return list;
}

const std::string* OptionList::Find(std::string_view key) const {
  for (const auto& [k, v] : items_) {
    if (k == key) return &v;
  }
  return nullptr;
}

bool OptionList::Has(std::string_view key) const { return Find(key) != nullptr; }

Status OptionList::CheckKnown(const std::vector<std::string_view>& known, std::string_view what) const {
  for (const auto& [k, v] : items_) {
    if (std::find(known.begin(), known.end(), k) == known.end()) {
      return Status::InvalidArgument("unknown " + std::string(what) + " option '" + k + "'");
    }
  }
  return Status::OK();
}

Result<bool> OptionList::GetBool(std::string_view key, bool def) const {
  const std::string* v = Find(key);
  if (!v) return def;
  std::string s = LowerAscii(*v);
  if (s == "1" || s == "true" || s == "on" || s == "yes") return true;
  if (s == "0" || s == "false" || s == "off" || s == "no") return false;
  return Status::InvalidArgument("option '" + std::string(key) + "' expects a boolean (0/1), not '" + *v + "'");
}

Result<int64_t> OptionList::GetInt(std::string_view key, int64_t def, int64_t min, int64_t max) const {
  const std::string* v = Find(key);
  if (!v) return def;
  int64_t out = 0;
  auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
  if (ec != std::errc() || p != v->data() + v->size()) {
    return Status::InvalidArgument("option '" + std::string(key) + "' expects an integer, not '" + *v + "'");
  }
  if (out < min || out > max) {
    return Status::InvalidArgument("option '" + std::string(key) + "' must be between " +
                                   std::to_string(min) + " and " + std::to_string(max));
  }
  return out;
}

std::string OptionList::GetString(std::string_view key, std::string def) const {
  const std::string* v = Find(key);
  return v ? *v : def;
}

Result<std::string> OptionList::GetChoice(std::string_view key, std::string def,
                                          const std::vector<std::string_view>& choices) const {
  const std::string* v = Find(key);
  if (!v) return def;
  std::string s = LowerAscii(*v);
  if (std::find(choices.begin(), choices.end(), s) != choices.end()) return s;
  std::string list;
  for (auto c : choices) list += (list.empty() ? "" : ", ") + std::string(c);
  return Status::InvalidArgument("option '" + std::string(key) + "' must be one of " + list + ", not '" +
                                 *v + "'");
}

}  // namespace pq::ext
