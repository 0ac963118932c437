#include "format/remote/key_glob.h"

#include <fnmatch.h>

namespace pq::remote {

namespace {

std::vector<std::string> SplitSegments(std::string_view text) {
  std::vector<std::string> segments;
  size_t start = 0;
  while (start <= text.size()) {
    size_t slash = text.find('/', start);
    if (slash == std::string_view::npos) slash = text.size();
    if (slash > start) segments.emplace_back(text.substr(start, slash - start));
    start = slash + 1;
  }
  return segments;
}

}  // namespace

bool HasGlobChars(std::string_view text) {
  return text.find_first_of("*?[") != std::string_view::npos;
}

KeyGlob::KeyGlob(std::string_view pattern) {
  for (std::string& segment : SplitSegments(pattern)) {
    if (segment == "**" && !segments_.empty() && segments_.back() == "**") continue;
    segments_.push_back(std::move(segment));
  }
  if (!segments_.empty() && segments_.back() == "**") segments_.push_back("*");
  // A backslash escapes the next character for fnmatch: the literal start ends there too.
  list_prefix_ = std::string(pattern.substr(0, pattern.find_first_of("*?[\\")));
}

bool KeyGlob::Matches(std::string_view key) const {
  const std::vector<std::string> names = SplitSegments(key);
  const size_t p_count = segments_.size();
  const size_t k_count = names.size();
  if (p_count == 0 || k_count == 0) return false;
  // can[i][j]: pattern segments i.. match key segments j.. . Filled from the end, so `**` costs
  // (pattern x key) steps however many there are.
  std::vector<std::vector<char>> can(p_count + 1, std::vector<char>(k_count + 1, 0));
  can[p_count][k_count] = 1;
  for (size_t i = p_count; i-- > 0;) {
    const std::string& segment = segments_[i];
    for (size_t j = k_count + 1; j-- > 0;) {
      if (segment == "**") {
        // Zero folders, or one more folder (not the file name, not a hidden folder).
        bool ok = can[i + 1][j] != 0;
        if (!ok && j + 1 < k_count && names[j][0] != '.') ok = can[i][j + 1] != 0;
        can[i][j] = ok ? 1 : 0;
      } else if (j < k_count) {
        // A folder segment must be followed by more key; the last pattern segment by none.
        const bool last = i + 1 == p_count;
        if (last != (j + 1 == k_count)) continue;
        if (!last && (names[j] == "." || names[j] == "..")) continue;
        if (::fnmatch(segment.c_str(), names[j].c_str(), FNM_PERIOD) == 0) can[i][j] = can[i + 1][j + 1];
      }
    }
  }
  return can[0][0] != 0;
}

}  // namespace pq::remote
