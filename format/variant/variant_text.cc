#include "format/variant/variant_text.h"

#include <cmath>

#include "format/util/json_writer.h"
#include "format/value/temporal.h"
#include "format/value/uuid_text.h"

namespace pq::variant {

namespace {

void AppendQuoted(const char* begin, const char* end, std::string* out) {
  out->push_back('"');
  out->append(begin, static_cast<size_t>(end - begin));
  out->push_back('"');
}

}  // namespace

void AppendDoubleJson(double v, std::string* out) {
  if (std::isnan(v)) {
    out->append("\"NaN\"");
  } else if (std::isinf(v)) {
    out->append(v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
  } else {
    AppendJsonDouble(v, out);
  }
}

void AppendDateJson(int64_t days, std::string* out) {
  char buf[kMaxTemporalTextLength];
  AppendQuoted(buf, WriteDate(days, buf), out);
}

void AppendTimeJson(int64_t micros, std::string* out) {
  char buf[kMaxTemporalTextLength];
  AppendQuoted(buf, WriteTime(micros, TimeUnit::kMicros, buf), out);
}

void AppendTimestampJson(int64_t value, TimeUnit unit, std::string* out) {
  char buf[kMaxTemporalTextLength];
  AppendQuoted(buf, WriteTimestamp(value, unit, buf), out);
}

void AppendUuidJson(const uint8_t* bytes, std::string* out) {
  char buf[kUuidTextLength];
  AppendQuoted(buf, WriteUuidText(bytes, buf), out);
}

}  // namespace pq::variant
