#include "format/value/temporal.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace pq {
namespace {

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

Int96 MakeInt96(int64_t nanos_of_day, int32_t julian_day) {
  Int96 v;
  v.value[0] = static_cast<uint32_t>(static_cast<uint64_t>(nanos_of_day));
  v.value[1] = static_cast<uint32_t>(static_cast<uint64_t>(nanos_of_day) >> 32);
  v.value[2] = static_cast<uint32_t>(julian_day);
  return v;
}

TEST(TemporalTest, KnownDates) {
  EXPECT_EQ(FormatDate(0), "1970-01-01");
  EXPECT_EQ(FormatDate(-1), "1969-12-31");
  EXPECT_EQ(FormatDate(1), "1970-01-02");
  EXPECT_EQ(FormatDate(11016), "2000-02-29");
  EXPECT_EQ(FormatDate(11017), "2000-03-01");
  EXPECT_EQ(FormatDate(2932896), "9999-12-31");
  EXPECT_EQ(FormatDate(-719162), "0001-01-01");
  EXPECT_EQ(FormatDate(-141427), "1582-10-15");  // first Gregorian day; proleptic before it
  EXPECT_EQ(FormatDate(-141428), "1582-10-14");
}

TEST(TemporalTest, YearsOutsideFourDigits) {
  EXPECT_EQ(FormatDate(2932897), "10000-01-01");
  EXPECT_EQ(FormatDate(-719163), "0000-12-31");
  EXPECT_EQ(FormatDate(-719528), "0000-01-01");  // year 0 is a leap year: 366 days before 0001
  EXPECT_EQ(FormatDate(-719529), "-0001-12-31");
  EXPECT_EQ(FormatDate(-719528 - 365 * 10000 - 2425), "-10000-01-01");
  // The extremes of DATE (INT32) print and parse back.
  for (int64_t d : {int64_t{INT32_MIN}, int64_t{INT32_MAX}}) {
    const std::string text = FormatDate(d);
    auto back = ParseIsoDate(text);
    ASSERT_TRUE(back.ok()) << text << " " << back.status().ToString();
    EXPECT_EQ(*back, d) << text;
  }
  EXPECT_EQ(FormatDate(INT32_MAX), "5881580-07-11");
  EXPECT_EQ(FormatDate(INT32_MIN), "-5877641-06-23");
}

// Walking day by day, the calendar advances exactly as the Gregorian rules say.
TEST(TemporalTest, CivilFromDaysWalksTheCalendar) {
  CivilDate expected = CivilFromDays(-1000000);
  for (int64_t d = -1000000; d <= 1000000; ++d) {
    const CivilDate got = CivilFromDays(d);
    ASSERT_EQ(got.year, expected.year) << d;
    ASSERT_EQ(got.month, expected.month) << d;
    ASSERT_EQ(got.day, expected.day) << d;
    ASSERT_EQ(DaysFromCivil(got.year, got.month, got.day), d);
    // Next day by the rules.
    if (++expected.day > DaysInMonth(expected.year, expected.month)) {
      expected.day = 1;
      if (++expected.month > 12) {
        expected.month = 1;
        ++expected.year;
      }
    }
  }
}

// WriteDate keeps the last day's text per thread: repeated, alternating and negative days, and
// other threads, must each get their own day's text.
TEST(TemporalTest, RepeatedAndAlternatingDaysWriteTheirOwnText) {
  const std::vector<std::pair<int64_t, std::string>> days = {
      {0, "1970-01-01"}, {0, "1970-01-01"}, {1, "1970-01-02"}, {0, "1970-01-01"},
      {-1, "1969-12-31"}, {-1, "1969-12-31"}, {11016, "2000-02-29"}, {-719163, "0000-12-31"},
      {11016, "2000-02-29"}, {-1, "1969-12-31"}};
  for (const auto& [day, text] : days) {
    char buf[kMaxTemporalTextLength];
    EXPECT_EQ(std::string(buf, WriteDate(day, buf)), text) << day;
  }
  EXPECT_EQ(FormatTimestamp(86399999, TimeUnit::kMillis), "1970-01-01 23:59:59.999");
  EXPECT_EQ(FormatTimestamp(86400000, TimeUnit::kMillis), "1970-01-02 00:00:00");
  EXPECT_EQ(FormatTimestamp(86399999, TimeUnit::kMillis), "1970-01-01 23:59:59.999");
  // Two threads walking different days at once.
  auto walk = [](int64_t first, bool* ok) {
    for (int64_t d = first; d < first + 20000; ++d) {
      char buf[kMaxTemporalTextLength];
      const CivilDate c = CivilFromDays(d);
      char expected[32];
      std::snprintf(expected, sizeof expected, "%04lld-%02d-%02d", static_cast<long long>(c.year),
                    c.month, c.day);
      if (std::string(buf, WriteDate(d, buf)) != expected) *ok = false;
      if (std::string(buf, WriteDate(d, buf)) != expected) *ok = false;
    }
  };
  bool ok1 = true, ok2 = true;
  std::thread t1(walk, int64_t{0}, &ok1), t2(walk, int64_t{-30000}, &ok2);
  t1.join();
  t2.join();
  EXPECT_TRUE(ok1);
  EXPECT_TRUE(ok2);
}

TEST(TemporalTest, LeapYears) {
  EXPECT_TRUE(IsLeapYear(2000));
  EXPECT_TRUE(IsLeapYear(2024));
  EXPECT_TRUE(IsLeapYear(0));
  EXPECT_TRUE(IsLeapYear(-4));
  EXPECT_FALSE(IsLeapYear(1900));
  EXPECT_FALSE(IsLeapYear(2023));
  EXPECT_FALSE(IsLeapYear(-1));
  EXPECT_EQ(DaysInMonth(2024, 2), 29);
  EXPECT_EQ(DaysInMonth(2100, 2), 28);
}

TEST(TemporalTest, TimesShowTheFractionOnlyWhenNotZero) {
  EXPECT_EQ(FormatTime(0, TimeUnit::kMillis), "00:00:00");
  EXPECT_EQ(FormatTime(1000, TimeUnit::kMillis), "00:00:01");
  EXPECT_EQ(FormatTime(45296789, TimeUnit::kMillis), "12:34:56.789");
  EXPECT_EQ(FormatTime(45296000, TimeUnit::kMillis), "12:34:56");
  EXPECT_EQ(FormatTime(45296000010, TimeUnit::kMicros), "12:34:56.000010");
  EXPECT_EQ(FormatTime(1, TimeUnit::kMicros), "00:00:00.000001");
  EXPECT_EQ(FormatTime(86399999999999, TimeUnit::kNanos), "23:59:59.999999999");
  EXPECT_EQ(FormatTime(500000000, TimeUnit::kNanos), "00:00:00.500000000");
}

TEST(TemporalTest, TimesOutsideOneDayPrintAsDurations) {
  EXPECT_EQ(FormatTime(-1, TimeUnit::kMillis), "-00:00:00.001");
  EXPECT_EQ(FormatTime(90000000, TimeUnit::kMillis), "25:00:00");
  EXPECT_EQ(FormatTime(360000000, TimeUnit::kMillis), "100:00:00");
  EXPECT_EQ(FormatTime(kInt64Min, TimeUnit::kNanos), "-2562047:47:16.854775808");
  EXPECT_EQ(FormatTime(kInt64Max, TimeUnit::kMicros), "2562047788:00:54.775807");
}

TEST(TemporalTest, Timestamps) {
  EXPECT_EQ(FormatTimestamp(0, TimeUnit::kMillis), "1970-01-01 00:00:00");
  EXPECT_EQ(FormatTimestamp(172800000, TimeUnit::kMillis), "1970-01-03 00:00:00");  // spec example
  EXPECT_EQ(FormatTimestamp(169200000, TimeUnit::kMillis), "1970-01-02 23:00:00");  // spec example
  EXPECT_EQ(FormatTimestamp(1700000000123, TimeUnit::kMillis), "2023-11-14 22:13:20.123");
  EXPECT_EQ(FormatTimestamp(1700000000000001, TimeUnit::kMicros), "2023-11-14 22:13:20.000001");
  EXPECT_EQ(FormatTimestamp(1700000000000000000, TimeUnit::kNanos), "2023-11-14 22:13:20");
  EXPECT_EQ(FormatTimestamp(951782400000000, TimeUnit::kMicros), "2000-02-29 00:00:00");
}

TEST(TemporalTest, NegativeTimestampsFloorToThePreviousDay) {
  EXPECT_EQ(FormatTimestamp(-1, TimeUnit::kMillis), "1969-12-31 23:59:59.999");
  EXPECT_EQ(FormatTimestamp(-1, TimeUnit::kMicros), "1969-12-31 23:59:59.999999");
  EXPECT_EQ(FormatTimestamp(-1, TimeUnit::kNanos), "1969-12-31 23:59:59.999999999");
  EXPECT_EQ(FormatTimestamp(-86400000, TimeUnit::kMillis), "1969-12-31 00:00:00");
  EXPECT_EQ(FormatTimestamp(-86400001, TimeUnit::kMillis), "1969-12-30 23:59:59.999");
  EXPECT_EQ(FormatTimestamp(-1500, TimeUnit::kMillis), "1969-12-31 23:59:58.500");
}

TEST(TemporalTest, TimestampExtremes) {
  EXPECT_EQ(FormatTimestamp(kInt64Min, TimeUnit::kNanos), "1677-09-21 00:12:43.145224192");
  EXPECT_EQ(FormatTimestamp(kInt64Max, TimeUnit::kNanos), "2262-04-11 23:47:16.854775807");
  EXPECT_EQ(FormatTimestamp(kInt64Max, TimeUnit::kMicros), "294247-01-10 04:00:54.775807");
  EXPECT_EQ(FormatTimestamp(kInt64Min, TimeUnit::kMicros), "-290308-12-21 19:59:05.224192");
  EXPECT_LE(FormatTimestamp(kInt64Min, TimeUnit::kMillis).size(), kMaxTemporalTextLength);
  EXPECT_LE(FormatTimestamp(kInt64Max, TimeUnit::kMillis).size(), kMaxTemporalTextLength);
}

// The texts of a batch, checked to sit one after another, each followed by a NUL.
std::vector<std::string> BatchTexts(const std::vector<ByteArray>& texts, const std::string& arena, const char* end) {
  std::vector<std::string> out;
  const char* next = arena.data();
  for (const ByteArray& t : texts) {
    const char* start = reinterpret_cast<const char*>(t.ptr);
    EXPECT_EQ(start, next);
    EXPECT_EQ(start[t.len], '\0');
    out.emplace_back(start, t.len);
    next = start + t.len + 1;
  }
  EXPECT_EQ(next, end);
  return out;
}

TEST(TemporalTest, BatchesWriteEachValuesText) {
  const std::vector<int64_t> stamps = {0,  -1, 86399999, 86400000, 86400000, 1700000000123, 1700000000000,
                                       -86400001, kInt64Max, kInt64Min, 951782400000, 951782400001};
  std::vector<ByteArray> texts(stamps.size());
  std::string arena(stamps.size() * (kMaxTemporalTextLength + 1), 'x');
  const char* end = WriteTimestamps(stamps.data(), stamps.size(), TimeUnit::kMillis, arena.data(), texts.data());
  const std::vector<std::string> expected = {
      "1970-01-01 00:00:00", "1969-12-31 23:59:59.999", "1970-01-01 23:59:59.999", "1970-01-02 00:00:00",
      "1970-01-02 00:00:00", "2023-11-14 22:13:20.123", "2023-11-14 22:13:20", "1969-12-30 23:59:59.999",
      FormatTimestamp(kInt64Max, TimeUnit::kMillis), FormatTimestamp(kInt64Min, TimeUnit::kMillis),
      "2000-02-29 00:00:00", "2000-02-29 00:00:00.001"};
  EXPECT_EQ(BatchTexts(texts, arena, end), expected);

  const std::vector<int32_t> days = {0, 0, 1, 0, -1, 11016, -719163, 11016, 2932897, -719529,
                                     std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
  texts.assign(days.size(), ByteArray{});
  end = WriteDates(days.data(), days.size(), arena.data(), texts.data());
  const std::vector<std::string> expected_days = {
      "1970-01-01", "1970-01-01", "1970-01-02", "1970-01-01", "1969-12-31", "2000-02-29", "0000-12-31",
      "2000-02-29", "10000-01-01", "-0001-12-31", FormatDate(std::numeric_limits<int32_t>::min()),
      FormatDate(std::numeric_limits<int32_t>::max())};
  EXPECT_EQ(BatchTexts(texts, arena, end), expected_days);

  // Random batches in every unit, with runs of one day and jumps between days, against the
  // single-value writers.
  std::mt19937_64 rng(7);
  for (TimeUnit unit : {TimeUnit::kMillis, TimeUnit::kMicros, TimeUnit::kNanos}) {
    std::vector<int64_t> values(3000);
    int64_t v = static_cast<int64_t>(rng() >> 8) - (int64_t{1} << 55);
    for (int64_t& x : values) {
      const uint64_t r = rng();
      v = r % 7 == 0 ? static_cast<int64_t>(r) : v + static_cast<int64_t>(r % 1000000);
      x = r % 11 == 0 ? v - v % UnitsPerSecond(unit) : v;
    }
    texts.assign(values.size(), ByteArray{});
    arena.assign(values.size() * (kMaxTemporalTextLength + 1), 'x');
    end = WriteTimestamps(values.data(), values.size(), unit, arena.data(), texts.data());
    const std::vector<std::string> got = BatchTexts(texts, arena, end);
    for (size_t k = 0; k < values.size(); ++k) ASSERT_EQ(got[k], FormatTimestamp(values[k], unit)) << values[k];
  }
}

TEST(TemporalTest, Int96Timestamps) {
  EXPECT_EQ(FormatInt96Timestamp(MakeInt96(0, 2440588)), "1970-01-01 00:00:00");
  EXPECT_EQ(FormatInt96Timestamp(MakeInt96(1, 2440589)), "1970-01-02 00:00:00.000000001");
  EXPECT_EQ(FormatInt96Timestamp(MakeInt96(45296789000000, 2458850)),
            "2020-01-01 12:34:56.789000000");
  EXPECT_EQ(FormatInt96Timestamp(MakeInt96(kNanosPerDay - 1, 2440587)),
            "1969-12-31 23:59:59.999999999");
  // Nanoseconds outside one day (corrupt) still name one instant.
  EXPECT_EQ(FormatInt96Timestamp(MakeInt96(kNanosPerDay, 2440588)), "1970-01-02 00:00:00");
  EXPECT_EQ(FormatInt96Timestamp(MakeInt96(-1, 2440588)), "1969-12-31 23:59:59.999999999");
  // Julian day 0 is 4714-11-24 BC (proleptic Gregorian), astronomical year -4713.
  EXPECT_EQ(FormatInt96Timestamp(MakeInt96(0, 0)), "-4713-11-24 00:00:00");
}

TEST(TemporalTest, Int96ToEpochNanos) {
  int64_t nanos = 0;
  double approx = 0;
  ASSERT_TRUE(Int96ToEpochNanos(MakeInt96(0, 2440588), &nanos, &approx));
  EXPECT_EQ(nanos, 0);
  ASSERT_TRUE(Int96ToEpochNanos(MakeInt96(5, 2440587), &nanos, &approx));
  EXPECT_EQ(nanos, -kNanosPerDay + 5);
  ASSERT_TRUE(Int96ToEpochNanos(MakeInt96(45296789000000, 2458850), &nanos, &approx));
  EXPECT_EQ(nanos, 1577882096789000000);
  EXPECT_FALSE(Int96ToEpochNanos(MakeInt96(0, 0), &nanos, &approx));
  EXPECT_EQ(approx, -2440588.0 * 86400e9);
  EXPECT_FALSE(Int96ToEpochNanos(MakeInt96(0, INT32_MAX), &nanos, &approx));
  EXPECT_GT(approx, 9.3e18);
  // Round trip through EpochNanosToInt96 over the whole int64 range.
  std::mt19937_64 rng(42);
  for (int i = 0; i < 10000; ++i) {
    const int64_t n = static_cast<int64_t>(rng());
    const Int96 v = EpochNanosToInt96(n);
    ASSERT_TRUE(Int96ToEpochNanos(v, &nanos, &approx)) << n;
    ASSERT_EQ(nanos, n);
    ASSERT_EQ(FormatInt96Timestamp(v), FormatTimestamp(n, TimeUnit::kNanos));
  }
  for (int64_t n : {kInt64Min, kInt64Max}) {
    ASSERT_TRUE(Int96ToEpochNanos(EpochNanosToInt96(n), &nanos, &approx));
    EXPECT_EQ(nanos, n);
  }
}

TEST(TemporalTest, ParseIsoDate) {
  EXPECT_EQ(*ParseIsoDate("1970-01-01"), 0);
  EXPECT_EQ(*ParseIsoDate("2000-02-29"), 11016);
  EXPECT_EQ(*ParseIsoDate("1969-12-31"), -1);
  EXPECT_EQ(*ParseIsoDate("9999-12-31"), 2932896);
  EXPECT_EQ(*ParseIsoDate("0000-01-01"), -719528);
  EXPECT_EQ(*ParseIsoDate("-0001-12-31"), -719529);
  EXPECT_EQ(*ParseIsoDate("10000-01-01"), 2932897);
}

TEST(TemporalTest, ParseIsoDateRejects) {
  for (const char* bad : {"",
                          "2020",
                          "2020-01",
                          "2020-1-01",
                          "2020-01-1",
                          "20-01-01",
                          "2020-13-01",
                          "2020-00-10",
                          "2020-01-00",
                          "2020-02-30",
                          "2021-02-29",
                          "1900-02-29",
                          "2020-04-31",
                          "2020-01-01 ",
                          "2020-01-01 00:00:00",
                          "2020/01/01",
                          " 2020-01-01",
                          "+2020-01-01",
                          "2020-01-01Z",
                          "9999999999-01-01",
                          "6000000-01-01"}) {
    auto r = ParseIsoDate(bad);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) {
      EXPECT_TRUE(r.status().IsInvalidArgument()) << bad;
    }
  }
}

TEST(TemporalTest, ParseIsoTimestampForms) {
  const TimeUnit ms = TimeUnit::kMillis;
  EXPECT_EQ(*ParseIsoTimestamp("1970-01-01", ms), 0);
  EXPECT_EQ(*ParseIsoTimestamp("1970-01-02", ms), 86400000);
  EXPECT_EQ(*ParseIsoTimestamp("1970-01-01 00:00:01", ms), 1000);
  EXPECT_EQ(*ParseIsoTimestamp("1970-01-01T00:00:01", ms), 1000);
  EXPECT_EQ(*ParseIsoTimestamp("1970-01-01T00:00:01Z", ms), 1000);
  EXPECT_EQ(*ParseIsoTimestamp("1970-01-01 00:01", ms), 60000);
  EXPECT_EQ(*ParseIsoTimestamp("1970-01-01 00:00:00.5", ms), 500);
  EXPECT_EQ(*ParseIsoTimestamp("1970-01-01 00:00:00.5", TimeUnit::kMicros), 500000);
  EXPECT_EQ(*ParseIsoTimestamp("1970-01-01 00:00:00.5", TimeUnit::kNanos), 500000000);
  EXPECT_EQ(*ParseIsoTimestamp("1969-12-31 23:59:59.999", ms), -1);
  EXPECT_EQ(*ParseIsoTimestamp("2023-11-14 22:13:20.123", ms), 1700000000123);
  // Zeros beyond the unit are fine.
  EXPECT_EQ(*ParseIsoTimestamp("1970-01-01 00:00:00.123000", ms), 123);
  EXPECT_EQ(*ParseIsoTimestamp("1677-09-21 00:12:43.145224192", TimeUnit::kNanos), kInt64Min);
  EXPECT_EQ(*ParseIsoTimestamp("2262-04-11 23:47:16.854775807", TimeUnit::kNanos), kInt64Max);
}

TEST(TemporalTest, ParseIsoTimestampFinerThanTheUnit) {
  auto strict = ParseIsoTimestamp("1970-01-01 00:00:00.1234", TimeUnit::kMillis);
  ASSERT_FALSE(strict.ok());
  EXPECT_TRUE(strict.status().IsInvalidArgument());
  bool exact = true;
  auto truncated = ParseIsoTimestamp("1970-01-01 00:00:00.1239", TimeUnit::kMillis, &exact);
  ASSERT_TRUE(truncated.ok());
  EXPECT_EQ(*truncated, 123);
  EXPECT_FALSE(exact);
  // Truncation of a positive fraction is the floor also before 1970.
  truncated = ParseIsoTimestamp("1969-12-31 23:59:59.9999", TimeUnit::kMillis, &exact);
  EXPECT_EQ(*truncated, -1);
  EXPECT_FALSE(exact);
  truncated = ParseIsoTimestamp("1969-12-31 23:59:59.999", TimeUnit::kMillis, &exact);
  EXPECT_EQ(*truncated, -1);
  EXPECT_TRUE(exact);
}

TEST(TemporalTest, ParseIsoTimestampUtcSubtractsTheZone) {
  const TimeUnit ms = TimeUnit::kMillis;
  // Without a zone, the same as ParseIsoTimestamp (Z included).
  EXPECT_EQ(*ParseIsoTimestampUtc("1970-01-01 00:00:01", ms), 1000);
  EXPECT_EQ(*ParseIsoTimestampUtc("1970-01-01T00:00:01Z", ms), 1000);
  EXPECT_EQ(*ParseIsoTimestampUtc("1970-01-02", ms), 86400000);
  // 10:00 at +02:00 is 08:00 UTC; -05:30 adds five and a half hours; spaces before the zone.
  EXPECT_EQ(*ParseIsoTimestampUtc("1970-01-01 10:00:00+02:00", ms), 8 * 3600000);
  EXPECT_EQ(*ParseIsoTimestampUtc("1970-01-01T10:00:00.5-05:30", ms), 15 * 3600000 + 1800000 + 500);
  EXPECT_EQ(*ParseIsoTimestampUtc("1970-01-01 00:30  +01:00", ms), -1800000);
  EXPECT_EQ(*ParseIsoTimestampUtc("1970-01-01 00:00+14:00", ms), -14 * 3600000);
  EXPECT_EQ(*ParseIsoTimestampUtc("1970-01-01 00:00-00:00", TimeUnit::kNanos), 0);
  // The fraction rule and the range stay those of the unit.
  EXPECT_FALSE(ParseIsoTimestampUtc("1970-01-01 00:00:00.1234+01:00", ms).ok());
  EXPECT_FALSE(ParseIsoTimestampUtc("1677-09-21 00:12:43.145224192+00:01", TimeUnit::kNanos).ok());
  EXPECT_EQ(*ParseIsoTimestampUtc("1677-09-21 00:13:43.145224192+00:01", TimeUnit::kNanos), kInt64Min);
  for (const char* bad : {"1970-01-01 10:00+15:00", "1970-01-01 10:00+02:60", "1970-01-01+02:00",
                          "1970-01-01 10:00Z+02:00", "1970-01-01 10:00+2:00", "1970-01-01 10:00+0200",
                          "1970-01-01 10:00+02:00 ", "+02:00"}) {
    EXPECT_FALSE(ParseIsoTimestampUtc(bad, ms).ok()) << bad;
  }
}

// A local timestamp has no zone: the 'Z' ParseIsoTimestamp passes over (for comparisons with stored
// text) is refused, in either case, as any other zone is.
TEST(TemporalTest, ParseIsoTimestampLocalRefusesZones) {
  const TimeUnit ms = TimeUnit::kMillis;
  EXPECT_EQ(*ParseIsoTimestampLocal("1970-01-01 00:00:01", ms), 1000);
  EXPECT_EQ(*ParseIsoTimestampLocal("1970-01-01T00:00:01.5", ms), 1500);
  EXPECT_EQ(*ParseIsoTimestampLocal("1970-01-02", ms), 86400000);
  for (const char* bad : {"1970-01-01 00:00:01Z", "1970-01-01T00:00:01z", "1970-01-01 00:00Z",
                          "1970-01-01 00:00:01+00:00", "1970-01-01 00:00:01-05:30", "1970-01-01Z"}) {
    EXPECT_FALSE(ParseIsoTimestampLocal(bad, ms).ok()) << bad;
  }
  EXPECT_EQ(ParseIsoTimestampLocal("1970-01-01 00:00:01Z", ms).status().message(),
            "a local timestamp has no time zone: '1970-01-01 00:00:01Z'");
  // ParseIsoTimestamp itself still passes over the 'Z'.
  EXPECT_EQ(*ParseIsoTimestamp("1970-01-01 00:00:01Z", ms), 1000);
}

TEST(TemporalTest, ParseIsoTimestampRejects) {
  for (const char* bad :
       {"", "1970-01-01 ", "1970-01-01T", "1970-01-01 1", "1970-01-01 12", "1970-01-01 12:0",
        "1970-01-01 24:00:00", "1970-01-01 23:60:00", "1970-01-01 23:59:60", "1970-01-01 1:00:00",
        "1970-01-01 12:00:00.", "1970-01-01 12:00:00.5x", "1970-01-01 12:00:00+01:00",
        "1970-01-01 12:00:00 Z", "1970-01-01 12:00:00ZZ", "1970-01-01x12:00:00",
        "1970-02-30 00:00:00", "12:00:00", "1970-01-01  12:00:00"}) {
    auto r = ParseIsoTimestamp(bad, TimeUnit::kMicros);
    EXPECT_FALSE(r.ok()) << bad;
  }
  // Out of the int64 range of the unit.
  EXPECT_FALSE(ParseIsoTimestamp("2262-04-11 23:47:16.854775808", TimeUnit::kNanos).ok());
  EXPECT_FALSE(ParseIsoTimestamp("1677-09-21 00:12:43.145224191", TimeUnit::kNanos).ok());
  EXPECT_FALSE(ParseIsoTimestamp("3000-01-01", TimeUnit::kNanos).ok());
  EXPECT_TRUE(ParseIsoTimestamp("3000-01-01", TimeUnit::kMicros).ok());
  EXPECT_FALSE(ParseIsoTimestamp("999999999-01-01", TimeUnit::kMillis).ok());
}

TEST(TemporalTest, ParseIsoTime) {
  EXPECT_EQ(*ParseIsoTime("00:00:00", TimeUnit::kMillis), 0);
  EXPECT_EQ(*ParseIsoTime("12:34:56.789", TimeUnit::kMillis), 45296789);
  EXPECT_EQ(*ParseIsoTime("12:34", TimeUnit::kMicros), 45240000000);
  EXPECT_EQ(*ParseIsoTime("23:59:59.999999999", TimeUnit::kNanos), 86399999999999);
  EXPECT_FALSE(ParseIsoTime("24:00:00", TimeUnit::kMillis).ok());
  EXPECT_FALSE(ParseIsoTime("12:34:56.7891", TimeUnit::kMillis).ok());
  EXPECT_FALSE(ParseIsoTime("1970-01-01 12:34:56", TimeUnit::kMillis).ok());
  EXPECT_FALSE(ParseIsoTime("-00:00:01", TimeUnit::kMillis).ok());
}

// Formatting then parsing gives the value back, for random values of every unit.
TEST(TemporalTest, FormatParseRoundTrips) {
  std::mt19937_64 rng(7);
  for (TimeUnit unit : {TimeUnit::kMillis, TimeUnit::kMicros, TimeUnit::kNanos}) {
    const int64_t day = UnitsPerSecond(unit) * kSecondsPerDay;
    for (int i = 0; i < 20000; ++i) {
      int64_t v = static_cast<int64_t>(rng());
      if (i % 4 == 1) v %= 100 * 366 * day;           // within a century of 1970
      if (i % 4 == 2) v -= v % UnitsPerSecond(unit);  // no fraction
      if (unit != TimeUnit::kNanos && i % 4 == 3) v %= int64_t{10000} * 366 * day;
      const std::string text = FormatTimestamp(v, unit);
      bool exact = false;
      auto back = ParseIsoTimestamp(text, unit, &exact);
      ASSERT_TRUE(back.ok()) << text << ": " << back.status().ToString();
      ASSERT_EQ(*back, v) << text;
      ASSERT_TRUE(exact);
      const int64_t t = ((v % day) + day) % day;
      auto time_back = ParseIsoTime(FormatTime(t, unit), unit);
      ASSERT_TRUE(time_back.ok());
      ASSERT_EQ(*time_back, t);
    }
  }
  for (int32_t d = -800000; d < 3000000; d += 997) {
    ASSERT_EQ(*ParseIsoDate(FormatDate(d)), d);
  }
}

// Text order equals integer order for years 0000..9999 (what text comparisons of a column rely on).
TEST(TemporalTest, TextOrderMatchesValueOrderWithinFourDigitYears) {
  std::mt19937_64 rng(3);
  const int64_t lo = *ParseIsoTimestamp("0000-01-01", TimeUnit::kMicros);
  const int64_t hi = *ParseIsoTimestamp("9999-12-31 23:59:59.999999", TimeUnit::kMicros);
  std::uniform_int_distribution<int64_t> dist(lo, hi);
  for (int i = 0; i < 20000; ++i) {
    int64_t a = dist(rng);
    int64_t b = i % 2 ? a + static_cast<int64_t>(rng() % 2000000) - 1000000 : dist(rng);
    if (i % 3 == 0) a -= a % 1000000;
    b = std::clamp(b, lo, hi);
    const std::string ta = FormatTimestamp(a, TimeUnit::kMicros);
    const std::string tb = FormatTimestamp(b, TimeUnit::kMicros);
    ASSERT_EQ(a < b, ta < tb) << ta << " " << tb;
    ASSERT_EQ(a == b, ta == tb);
  }
}

}  // namespace
}  // namespace pq
