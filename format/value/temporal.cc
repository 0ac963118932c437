#include "format/value/temporal.h"

#include <array>
#include <charconv>
#include <cstring>

namespace pq {
namespace {

// Floor division and the matching non-negative remainder, for a positive divisor.
inline int64_t FloorDiv(int64_t v, int64_t d, int64_t* rem) {
  int64_t q = v / d;
  int64_t r = v % d;
  if (r < 0) {
    q -= 1;
    r += d;
  }
  *rem = r;
  return q;
}

// "00" to "99": two digits a copy.
constexpr std::array<char, 200> kDigitPairs = [] {
  std::array<char, 200> pairs{};
  for (int v = 0; v < 100; ++v) {
    pairs[static_cast<size_t>(2 * v)] = static_cast<char>('0' + v / 10);
    pairs[static_cast<size_t>(2 * v + 1)] = static_cast<char>('0' + v % 10);
  }
  return pairs;
}();

// `v` (< 100) as two digits.
inline char* Write2(unsigned v, char* p) {
  std::memcpy(p, kDigitPairs.data() + 2 * v, 2);
  return p + 2;
}

// `v` as exactly `width` digits (v < 10^width).
inline char* WriteFixed(uint64_t v, int width, char* p) {
  for (int i = width - 1; i >= 0; --i) {
    p[i] = static_cast<char>('0' + v % 10);
    v /= 10;
  }
  return p + width;
}

// At least `min_width` digits: zero-padded below that, as many as needed above.
inline char* WriteAtLeast(uint64_t v, int min_width, uint64_t pad_below, char* p) {
  if (v < pad_below) return WriteFixed(v, min_width, p);
  return std::to_chars(p, p + 24, v).ptr;
}

char* WriteYear(int64_t year, char* p) {
  uint64_t magnitude = static_cast<uint64_t>(year);
  if (year < 0) {
    *p++ = '-';
    magnitude = 0 - magnitude;
  }
  return WriteAtLeast(magnitude, 4, 10000, p);
}

// 'HH:MM:SS[.fraction]' for a non-negative count of units; hours may exceed 23 (durations). The
// unit is a template argument so that every division is by a constant (a multiplication), not a
// hardware divide: this runs once per value of a timestamp column.
template <TimeUnit kUnit>
char* WriteClockIn(uint64_t units, char* p) {
  constexpr uint64_t kPerSecond = static_cast<uint64_t>(UnitsPerSecond(kUnit));
  const uint64_t seconds = units / kPerSecond;
  const uint64_t fraction = units % kPerSecond;
  const uint64_t hours = seconds / 3600;
  p = hours < 100 ? Write2(static_cast<unsigned>(hours), p) : std::to_chars(p, p + 24, hours).ptr;
  *p++ = ':';
  p = Write2(static_cast<unsigned>(seconds / 60 % 60), p);
  *p++ = ':';
  p = Write2(static_cast<unsigned>(seconds % 60), p);
  if (fraction != 0) {
    *p++ = '.';
    p = WriteFixed(fraction, FractionDigits(kUnit), p);
  }
  return p;
}

char* WriteClock(uint64_t units, TimeUnit unit, char* p) {
  switch (unit) {
    case TimeUnit::kMillis: return WriteClockIn<TimeUnit::kMillis>(units, p);
    case TimeUnit::kMicros: return WriteClockIn<TimeUnit::kMicros>(units, p);
    case TimeUnit::kNanos: break;
  }
  return WriteClockIn<TimeUnit::kNanos>(units, p);
}

// Days since the epoch and nanoseconds into that day of an INT96 timestamp. The nanoseconds field
// is normalized into [0, one day) so a corrupt value still names one instant.
int64_t Int96Days(const Int96& value, int64_t* nanos_of_day) {
  const int64_t nanos =
      static_cast<int64_t>(uint64_t{value.value[0]} | (uint64_t{value.value[1]} << 32));
  const int64_t julian_day = static_cast<int32_t>(value.value[2]);
  return julian_day - kJulianDayOfUnixEpoch + FloorDiv(nanos, kNanosPerDay, nanos_of_day);
}

// days * units_per_day + units_of_day (0 <= units_of_day < units_per_day) without intermediate
// overflow: before 1970 the day's start can be below INT64_MIN while the instant is not.
bool CombineDaysAndUnits(int64_t days, int64_t units_of_day, int64_t units_per_day, int64_t* out) {
  if (days < 0 && units_of_day > 0) {
    days += 1;
    units_of_day -= units_per_day;
  }
  int64_t day_start;
  return !__builtin_mul_overflow(days, units_per_day, &day_start) &&
         !__builtin_add_overflow(day_start, units_of_day, out);
}

// A cursor over literal text for the ISO parsers.
class TextCursor {
 public:
  explicit TextCursor(std::string_view text) : text_(text) {}
  bool done() const { return pos_ == text_.size(); }
  bool Consume(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool PeekDigit() const { return pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9'; }
  // Exactly `n` digits.
  bool Digits(int n, int* out) {
    int v = 0;
    for (int i = 0; i < n; ++i) {
      if (!PeekDigit()) return false;
      v = v * 10 + (text_[pos_++] - '0');
    }
    *out = v;
    return true;
  }
  // Between min and max digits, as many as present.
  bool DigitRun(int min, int max, int64_t* out) {
    int64_t v = 0;
    int n = 0;
    while (PeekDigit()) {
      if (++n > max) return false;
      v = v * 10 + (text_[pos_++] - '0');
    }
    *out = v;
    return n >= min;
  }
  char Next() { return text_[pos_++]; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

// Years with up to 9 digits: days stay far inside int64 and every overflow is found later.
bool ParseDate(TextCursor* c, int64_t* days) {
  const bool negative = c->Consume('-');
  int64_t year;
  int month, day;
  if (!c->DigitRun(4, 9, &year)) return false;
  if (negative) year = -year;
  if (!c->Consume('-') || !c->Digits(2, &month) || !c->Consume('-') || !c->Digits(2, &day)) {
    return false;
  }
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month)) return false;
  *days = DaysFromCivil(year, month, day);
  return true;
}

// 'HH:MM[:SS[.f...]]' in `unit`; *exact becomes false when non-zero digits finer than the unit were
// dropped.
bool ParseClock(TextCursor* c, TimeUnit unit, int64_t* units, bool* exact) {
  int hour, minute, second = 0;
  if (!c->Digits(2, &hour) || !c->Consume(':') || !c->Digits(2, &minute)) return false;
  int64_t fraction = 0;
  *exact = true;
  if (c->Consume(':')) {
    if (!c->Digits(2, &second)) return false;
    if (c->Consume('.')) {
      if (!c->PeekDigit()) return false;
      const int width = FractionDigits(unit);
      int n = 0;
      while (c->PeekDigit()) {
        const int digit = c->Next() - '0';
        if (n < width) {
          fraction = fraction * 10 + digit;
        } else if (digit != 0) {
          *exact = false;
        }
        ++n;
      }
      for (; n < width; ++n) fraction *= 10;
    }
  }
  if (hour > 23 || minute > 59 || second > 59) return false;
  *units = (int64_t{hour} * 3600 + minute * 60 + second) * UnitsPerSecond(unit) + fraction;
  return true;
}

std::string Quoted(std::string_view text) {
  constexpr size_t kMaxShown = 64;
  std::string s = "'";
  s.append(text.substr(0, kMaxShown));
  if (text.size() > kMaxShown) s.append("...");
  s.push_back('\'');
  return s;
}

Status Inexact(std::string_view text, TimeUnit unit) {
  return Status::InvalidArgument("time " + Quoted(text) + " is finer than the column's unit (" +
                                 std::to_string(FractionDigits(unit)) + " fraction digits)");
}

}  // namespace

bool IsLeapYear(int64_t year) {
  return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
}

int DaysInMonth(int64_t year, int month) {
  static constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

// Days are counted in 400-year eras of 146097 days starting on March 1st, year 0, so the leap day
// is the last day of each (March-based) year and month lengths follow the 153-days-per-5-months
// pattern.
CivilDate CivilFromDays(int64_t days) {
  const int64_t shifted = days + 719468;  // days since 0000-03-01
  const int64_t era = (shifted >= 0 ? shifted : shifted - 146096) / 146097;
  const int64_t day_of_era = shifted - era * 146097;  // [0, 146096]
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) /
      365;  // [0, 399]
  const int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);  // [0, 365]
  const int64_t march_month = (5 * day_of_year + 2) / 153;                     // 0 = March
  CivilDate date;
  date.day = static_cast<int>(day_of_year - (153 * march_month + 2) / 5 + 1);
  date.month = static_cast<int>(march_month < 10 ? march_month + 3 : march_month - 9);
  date.year = year_of_era + era * 400 + (date.month <= 2 ? 1 : 0);
  return date;
}

int64_t DaysFromCivil(int64_t year, int month, int day) {
  const int64_t march_year = month <= 2 ? year - 1 : year;
  const int64_t era = (march_year >= 0 ? march_year : march_year - 399) / 400;
  const int64_t year_of_era = march_year - era * 400;  // [0, 399]
  const int64_t day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

namespace {
// 'YYYY-MM-DD' of day `days` at out; returns its end.
char* WriteCivilDate(int64_t days, char* out) {
  const CivilDate date = CivilFromDays(days);
  char* p = WriteYear(date.year, out);
  *p++ = '-';
  p = Write2(static_cast<unsigned>(date.month), p);
  *p++ = '-';
  return Write2(static_cast<unsigned>(date.day), p);
}
}  // namespace

char* WriteDate(int64_t days, char* out) {
  // The text of the last day written, per thread: a column of dates or timestamps holds runs of
  // the same day (sorted, or clustered), and the calendar arithmetic costs more than the copy.
  struct LastDay {
    int64_t days = 0;
    char text[kMaxTemporalTextLength];
    size_t size = 0;  // 0: empty
  };
  thread_local LastDay last;
  if (last.size != 0 && last.days == days) {
    std::memcpy(out, last.text, last.size);
    return out + last.size;
  }
  char* p = WriteCivilDate(days, out);
  last.days = days;
  last.size = static_cast<size_t>(p - out);
  std::memcpy(last.text, out, last.size);
  return p;
}

char* WriteTime(int64_t value, TimeUnit unit, char* out) {
  uint64_t magnitude = static_cast<uint64_t>(value);
  if (value < 0) {
    *out++ = '-';
    magnitude = 0 - magnitude;
  }
  return WriteClock(magnitude, unit, out);
}

namespace {
template <TimeUnit kUnit>
char* WriteTimestampIn(int64_t value, char* out) {
  int64_t units_of_day;
  const int64_t days = FloorDiv(value, UnitsPerSecond(kUnit) * kSecondsPerDay, &units_of_day);
  char* p = WriteDate(days, out);
  *p++ = ' ';
  return WriteClockIn<kUnit>(static_cast<uint64_t>(units_of_day), p);
}
}  // namespace

char* WriteTimestamp(int64_t value, TimeUnit unit, char* out) {
  switch (unit) {
    case TimeUnit::kMillis: return WriteTimestampIn<TimeUnit::kMillis>(value, out);
    case TimeUnit::kMicros: return WriteTimestampIn<TimeUnit::kMicros>(value, out);
    case TimeUnit::kNanos: break;
  }
  return WriteTimestampIn<TimeUnit::kNanos>(value, out);
}

namespace {
// The text of one day, kept while a batch repeats it: a column of dates or timestamps holds runs of
// the same day, and the calendar arithmetic costs more than the copy.
class DayText {
 public:
  // Appends day `days`'s text at p; returns its end.
  char* Write(int64_t days, char* p) {
    if (size_ == 0 || days != days_) {
      days_ = days;
      size_ = static_cast<size_t>(WriteCivilDate(days, text_) - text_);
    }
    if (size_ == 10) {  // 'YYYY-MM-DD': a fixed-size copy
      std::memcpy(p, text_, 10);
    } else {
      std::memcpy(p, text_, size_);
    }
    return p + size_;
  }

 private:
  int64_t days_ = 0;
  size_t size_ = 0;  // 0: none yet
  char text_[kMaxTemporalTextLength];
};

// Records the text from `start` to `end` in *text and puts a NUL after it; returns the next start.
inline char* EndText(char* start, char* end, ByteArray* text) {
  *text = ByteArray{reinterpret_cast<const uint8_t*>(start), static_cast<uint32_t>(end - start)};
  *end = '\0';
  return end + 1;
}

template <TimeUnit kUnit>
char* WriteTimestampsIn(const int64_t* values, size_t n, char* out, ByteArray* texts) {
  DayText day;
  char* p = out;
  for (size_t k = 0; k < n; ++k) {
    int64_t units_of_day;
    const int64_t days = FloorDiv(values[k], UnitsPerSecond(kUnit) * kSecondsPerDay, &units_of_day);
    char* end = day.Write(days, p);
    *end++ = ' ';
    end = WriteClockIn<kUnit>(static_cast<uint64_t>(units_of_day), end);
    p = EndText(p, end, &texts[k]);
  }
  return p;
}
}  // namespace

char* WriteDates(const int32_t* days, size_t n, char* out, ByteArray* texts) {
  DayText day;
  char* p = out;
  for (size_t k = 0; k < n; ++k) p = EndText(p, day.Write(days[k], p), &texts[k]);
  return p;
}

char* WriteTimestamps(const int64_t* values, size_t n, TimeUnit unit, char* out, ByteArray* texts) {
  switch (unit) {
    case TimeUnit::kMillis: return WriteTimestampsIn<TimeUnit::kMillis>(values, n, out, texts);
    case TimeUnit::kMicros: return WriteTimestampsIn<TimeUnit::kMicros>(values, n, out, texts);
    case TimeUnit::kNanos: break;
  }
  return WriteTimestampsIn<TimeUnit::kNanos>(values, n, out, texts);
}

char* WriteInt96Timestamp(const Int96& value, char* out) {
  int64_t nanos_of_day;
  const int64_t days = Int96Days(value, &nanos_of_day);
  char* p = WriteDate(days, out);
  *p++ = ' ';
  return WriteClock(static_cast<uint64_t>(nanos_of_day), TimeUnit::kNanos, p);
}

std::string FormatDate(int64_t days) {
  char buf[kMaxTemporalTextLength];
  return std::string(buf, WriteDate(days, buf));
}
std::string FormatTime(int64_t value, TimeUnit unit) {
  char buf[kMaxTemporalTextLength];
  return std::string(buf, WriteTime(value, unit, buf));
}
std::string FormatTimestamp(int64_t value, TimeUnit unit) {
  char buf[kMaxTemporalTextLength];
  return std::string(buf, WriteTimestamp(value, unit, buf));
}
std::string FormatInt96Timestamp(const Int96& value) {
  char buf[kMaxTemporalTextLength];
  return std::string(buf, WriteInt96Timestamp(value, buf));
}

bool Int96ToEpochNanos(const Int96& value, int64_t* nanos, double* approx) {
  int64_t nanos_of_day;
  const int64_t days = Int96Days(value, &nanos_of_day);
  if (CombineDaysAndUnits(days, nanos_of_day, kNanosPerDay, nanos)) return true;
  *approx = static_cast<double>(days) * static_cast<double>(kNanosPerDay) +
            static_cast<double>(nanos_of_day);
  return false;
}

Int96 EpochNanosToInt96(int64_t nanos) {
  int64_t nanos_of_day;
  const int64_t days = FloorDiv(nanos, kNanosPerDay, &nanos_of_day);
  Int96 v;
  v.value[0] = static_cast<uint32_t>(static_cast<uint64_t>(nanos_of_day));
  v.value[1] = static_cast<uint32_t>(static_cast<uint64_t>(nanos_of_day) >> 32);
  v.value[2] = static_cast<uint32_t>(days + kJulianDayOfUnixEpoch);
  return v;
}

Result<int32_t> ParseIsoDate(std::string_view text) {
  TextCursor c(text);
  int64_t days;
  if (!ParseDate(&c, &days) || !c.done()) {
    return Status::InvalidArgument("not an ISO date (YYYY-MM-DD): " + Quoted(text));
  }
  if (days < INT32_MIN || days > INT32_MAX) {
    return Status::InvalidArgument("date " + Quoted(text) + " is out of the DATE range");
  }
  return static_cast<int32_t>(days);
}

Result<int64_t> ParseIsoTimestamp(std::string_view text, TimeUnit unit, bool* exact) {
  TextCursor c(text);
  int64_t days;
  int64_t units_of_day = 0;
  bool is_exact = true;
  bool ok = ParseDate(&c, &days);
  if (ok && !c.done()) {
    ok = (c.Consume(' ') || c.Consume('T')) && ParseClock(&c, unit, &units_of_day, &is_exact);
    if (ok) c.Consume('Z');
    ok = ok && c.done();
  }
  if (!ok) {
    return Status::InvalidArgument("not an ISO timestamp (YYYY-MM-DD[ HH:MM[:SS[.fff]]]): " +
                                   Quoted(text));
  }
  if (!is_exact && exact == nullptr) return Inexact(text, unit);
  if (exact != nullptr) *exact = is_exact;
  int64_t value;
  if (!CombineDaysAndUnits(days, units_of_day, UnitsPerSecond(unit) * kSecondsPerDay, &value)) {
    return Status::InvalidArgument("timestamp " + Quoted(text) + " is out of range for its unit");
  }
  return value;
}

Result<int64_t> ParseIsoTimestampUtc(std::string_view text, TimeUnit unit) {
  // A zone is `[+-]HH:MM` at the very end, after a time of day (the date's own '-' come earlier).
  constexpr size_t kZone = 6;  // "+HH:MM"
  const size_t n = text.size();
  auto digit = [&](size_t i) { return text[i] >= '0' && text[i] <= '9'; };
  if (n <= 10 + kZone || (text[n - kZone] != '+' && text[n - kZone] != '-') || text[n - 3] != ':' ||
      !digit(n - 5) || !digit(n - 4) || !digit(n - 2) || !digit(n - 1) ||
      (text[10] != ' ' && text[10] != 'T')) {
    return ParseIsoTimestamp(text, unit);
  }
  const int hours = (text[n - 5] - '0') * 10 + (text[n - 4] - '0');
  const int minutes = (text[n - 2] - '0') * 10 + (text[n - 1] - '0');
  if (hours > 14 || minutes > 59) {
    return Status::InvalidArgument("time zone out of range in " + Quoted(text));
  }
  std::string_view local = text.substr(0, n - kZone);
  while (!local.empty() && local.back() == ' ') local.remove_suffix(1);
  if (!local.empty() && local.back() == 'Z') {
    return Status::InvalidArgument("two time zones in " + Quoted(text));
  }
  PQ_ASSIGN_OR_RETURN(int64_t value, ParseIsoTimestamp(local, unit));
  const int64_t offset = (int64_t{hours} * 60 + minutes) * 60 * UnitsPerSecond(unit);
  int64_t utc;
  if (__builtin_sub_overflow(value, text[n - kZone] == '+' ? offset : -offset, &utc)) {
    return Status::InvalidArgument("timestamp " + Quoted(text) + " is out of range for its unit");
  }
  return utc;
}

Result<int64_t> ParseIsoTimestampLocal(std::string_view text, TimeUnit unit) {
  if (!text.empty() && (text.back() == 'Z' || text.back() == 'z')) {
    return Status::InvalidArgument("a local timestamp has no time zone: " + Quoted(text));
  }
  return ParseIsoTimestamp(text, unit);
}

Result<int64_t> ParseIsoTime(std::string_view text, TimeUnit unit, bool* exact) {
  TextCursor c(text);
  int64_t units;
  bool is_exact = true;
  if (!ParseClock(&c, unit, &units, &is_exact) || !c.done()) {
    return Status::InvalidArgument("not an ISO time (HH:MM[:SS[.fff]]): " + Quoted(text));
  }
  if (!is_exact && exact == nullptr) return Inexact(text, unit);
  if (exact != nullptr) *exact = is_exact;
  return units;
}

}  // namespace pq
