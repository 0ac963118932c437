// Dates, times and timestamps as text, and ISO text back to the stored integers (the Parquet spec,
// "Temporal Types": DATE days since 1970-01-01, TIME units since midnight, TIMESTAMP units since
// the epoch, INT96 nanoseconds of the day then a Julian day number). The text forms are chosen so
// that SQLite's date and time functions read them ('YYYY-MM-DD', 'HH:MM:SS[.fraction]', 'YYYY-MM-DD
// HH:MM:SS[.fraction]', the fraction 3, 6 or 9 digits by unit and only when not zero), and so that,
// for years 0000..9999 and times within one day, comparing two texts of a column byte-wise gives
// the order of the stored integers: pruning relies on that. The calendar is the proleptic Gregorian
// one with astronomical year numbering (year 0 is 1 BC).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "format/encoding/values.h"
#include "format/metadata/metadata.h"
#include "format/util/status.h"

namespace pq {

// Julian day number of 1970-01-01.
inline constexpr int64_t kJulianDayOfUnixEpoch = 2440588;
inline constexpr int64_t kSecondsPerDay = 86400;
inline constexpr int64_t kNanosPerDay = kSecondsPerDay * 1000000000;

// Units per second: 1000, 1000000, 1000000000.
inline constexpr int64_t UnitsPerSecond(TimeUnit unit) {
  return unit == TimeUnit::kMillis ? 1000 : unit == TimeUnit::kMicros ? 1000000 : 1000000000;
}
// Digits of a fraction of a second in `unit`: 3, 6, 9.
inline constexpr int FractionDigits(TimeUnit unit) {
  return unit == TimeUnit::kMillis ? 3 : unit == TimeUnit::kMicros ? 6 : 9;
}

// A day of the proleptic Gregorian calendar.
struct CivilDate {
  int64_t year = 1970;
  int month = 1;  // 1..12
  int day = 1;    // 1..31
};

// The calendar day `days` days after 1970-01-01 (negative: before). Total for every int64 below
// +-2^61 (far beyond any day a Parquet value can name).
CivilDate CivilFromDays(int64_t days);
// Days from 1970-01-01 to year-month-day; the fields must be a real date (month 1..12, day valid)
// and |year| < 2^40.
int64_t DaysFromCivil(int64_t year, int month, int day);
bool IsLeapYear(int64_t year);
int DaysInMonth(int64_t year, int month);

// Every text below fits in this many bytes.
inline constexpr size_t kMaxTemporalTextLength = 64;

// Writers for the hot path: they write the text at `out`, which must have room for
// kMaxTemporalTextLength bytes, and return the end of what they wrote. No allocation, no locale.
// Years after 9999 print with as many digits as they need ('10000-01-01'), years before 0 with a
// '-' and at least four digits ('-0001-12-31'): outside what SQLite's date functions read and
// outside the range where text order is time order. A TIME outside one day (the spec forbids it, a
// corrupt file may hold it) prints as a signed duration: '-00:00:00.001', '25:00:00'.
char* WriteDate(int64_t days, char* out);
char* WriteTime(int64_t value, TimeUnit unit, char* out);
char* WriteTimestamp(int64_t value, TimeUnit unit, char* out);
char* WriteInt96Timestamp(const Int96& value, char* out);
// A batch's texts, the same as the writers' above: each value's text is written at the end of the
// previous one's, followed by a NUL, and texts[k] is set to value k's text (without the NUL). `out`
// must have room for n * (kMaxTemporalTextLength + 1) bytes; returns the end of what was written.
char* WriteDates(const int32_t* days, size_t n, char* out, ByteArray* texts);
char* WriteTimestamps(const int64_t* values, size_t n, TimeUnit unit, char* out, ByteArray* texts);

// The same as std::string, for tests, messages and metadata functions.
std::string FormatDate(int64_t days);
std::string FormatTime(int64_t value, TimeUnit unit);
std::string FormatTimestamp(int64_t value, TimeUnit unit);
std::string FormatInt96Timestamp(const Int96& value);

// An INT96 timestamp as nanoseconds since 1970-01-01 00:00:00: true and *nanos when the instant
// fits in an int64 (years 1677..2262), else false and *approx, the nearest double to the instant.
bool Int96ToEpochNanos(const Int96& value, int64_t* nanos, double* approx);
// The INT96 for nanoseconds since the epoch (nanos of day in [0, 86400e9)).
Int96 EpochNanosToInt96(int64_t nanos);

// The parsers (for pushdown of ISO literals and for writing) take the forms above plus what people
// type: ['-']YYYY[Y...]-MM-DD [(' ' | 'T') HH:MM[:SS[.f...]] ['Z']], every field in range (no leap
// seconds; 'Z' means nothing here). A text parses to the integer that prints back as the same
// instant; whether the literal is the exact text the column would hold (SQLite compares TEXT
// columns as text) is for the caller to check by formatting the parsed value and comparing.
//
// ISO text to days since 1970-01-01. Only a date: 'YYYY-MM-DD'. InvalidArgument on anything else or
// a day outside the int32 range.
Result<int32_t> ParseIsoDate(std::string_view text);
// ISO text to a TIMESTAMP value in `unit`. A date alone means midnight. Fraction digits finer than
// the unit must be zeros unless `exact` is given: then the value is truncated to the unit (which,
// the fraction being positive, is the largest value not after the text) and *exact says whether
// anything was dropped. InvalidArgument when the text is malformed or the instant overflows int64
// in `unit`.
Result<int64_t> ParseIsoTimestamp(std::string_view text, TimeUnit unit, bool* exact = nullptr);
// ParseIsoTimestamp, and after the time of day a time zone as SQLite's date functions take it:
// optional spaces, then `Z` or `+HH:MM` / `-HH:MM` (hours up to 14, minutes up to 59), which is
// subtracted to give UTC ('2024-01-01 10:00+02:00' is 08:00 UTC). For values written to a UTC
// TIMESTAMP; comparisons with stored text never use it (SQLite compares such text as text).
Result<int64_t> ParseIsoTimestampUtc(std::string_view text, TimeUnit unit);
// ParseIsoTimestamp without the trailing `Z` it tolerates (nor `z`): for values written to a
// local (not UTC-adjusted) TIMESTAMP, which has no zone, so a text naming one is refused rather than
// stored as its local time. Comparisons with stored text keep ParseIsoTimestamp.
Result<int64_t> ParseIsoTimestampLocal(std::string_view text, TimeUnit unit);
// ISO time of day 'HH:MM[:SS[.f...]]' to units since midnight (same fraction rule as timestamps).
Result<int64_t> ParseIsoTime(std::string_view text, TimeUnit unit, bool* exact = nullptr);

}  // namespace pq
