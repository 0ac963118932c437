// KeyGlob: a glob over object keys ("sales/**/*.parquet"), with the rules of local paths. An object
// store has no folders, only keys with '/' in them, so a glob is matched against listed keys
// instead of walked: ListPrefix() is the key text before the first glob character (what to ask
// ListObjectsV2 for), and Matches() decides each listed key.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pq::remote {

// The rules are those of the local glob (ext/dataset.cc): the key is cut at '/' into segments,
// empty segments are dropped ("a//b" is "a/b"); each pattern segment is matched with fnmatch(3) and
// FNM_PERIOD (`*`, `?`, `[...]` within one segment, a leading '.' only matched by a '.' written in
// the pattern); `**` matches zero or more folder segments (never the last segment, the file name,
// and never a folder whose name starts with '.'); "**/**" is "**"; a trailing `**` means every file
// below ("**/*").
//
// True when `text` holds a glob character: '*', '?' or '['.
bool HasGlobChars(std::string_view text);

class KeyGlob {
 public:
  explicit KeyGlob(std::string_view pattern);

  // The longest literal start of the pattern: every matching key starts with it.
  const std::string& ListPrefix() const { return list_prefix_; }
  bool Matches(std::string_view key) const;

 private:
  std::vector<std::string> segments_;
  std::string list_prefix_;
};

}  // namespace pq::remote
