// JsonReader: reads JSON text (RFC 8259), the counterpart of json_writer.h. The shredder of nested
// columns (writer/json_shredder.h) walks a document with it piece by piece, and IsValidJson checks
// one with it (the JSON columns of an export). It stands at a position of the text; each read
// consumes one well-formed piece or fails with InvalidArgument "invalid JSON at offset N: what", N
// where it stopped.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "format/util/status.h"

namespace pq {

struct JsonReader {
  // How deep arrays and objects may nest; deeper is refused rather than risking the stack.
  static constexpr int kMaxDepth = 1000;

  std::string_view text;  // the document
  size_t pos = 0;         // where the reader stands
  // A \u escape of half a surrogate pair without its other half is an error (strings are decoded
  // to UTF-8), unless this is set: IsValidJson takes it, as the JSON columns always have.
  bool lone_surrogates_ok = false;

  void SkipSpace();
  // After white space: consumes `close` (of an empty array or object) when it is there.
  bool ConsumeClose(char close);
  // What follows a value inside an array or object (after white space): ',' (another value
  // follows) or `close` (the end), either one consumed; or neither, pos left at what is there.
  enum class AfterValue { kComma, kClose, kNeither };
  AfterValue ReadAfterValue(char close);
  // After white space: whether a string (an object member's name) starts here.
  bool AtString();
  // After white space: consumes `c`, else the error "expected <what>".
  Status Expect(char c, const char* what);
  // The string whose opening quote is at pos: *value unescaped (a view of the text when it holds
  // no escape, else of *scratch), *raw as written, quotes included.
  Status ReadString(std::string_view* value, std::string* scratch, std::string_view* raw);
  // The number at pos, as written.
  Status ReadNumber(std::string_view* raw);
  // `word` (true, false, null) at pos.
  Status ReadLiteral(std::string_view word);
  // After white space: one value of any kind, `depth` levels down already.
  Status SkipValue(int depth);
  // "invalid JSON at offset <pos>: <what>".
  Status Error(const std::string& what) const;

 private:
  std::string scratch_;  // the strings SkipValue reads
};

// The length of the number -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? at s[i...]; 0 when there
// is none.
size_t JsonNumberLength(std::string_view s, size_t i);
// Whether `s` is exactly one such number.
bool IsJsonNumber(std::string_view s);

// Whether `text` is one JSON value surrounded by white space only.
bool IsValidJson(std::string_view text);

}  // namespace pq
