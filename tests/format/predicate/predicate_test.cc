// The predicate model on its own: affinity, conversions, order, one value, a range of values,
// row ranges. The comparison rules are checked against SQLite itself in predicate_sqlite_test.cc;
// these are the worked examples, each from SQLite's documented behaviour.
#include "format/predicate/predicate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <set>

#include "format/predicate/sql_number.h"
#include "format/util/row_ranges.h"

namespace pq {
namespace {

PredicateTerm Term(PredicateOp op, std::vector<SqlValue> values = {}) {
  PredicateTerm t;
  t.field = 0;
  t.op = op;
  t.values = std::move(values);
  return t;
}

std::string RealText(double d) {
  char buf[kSqlNumberTextCapacity];
  const size_t n = FormatSqlReal(d, buf);
  return n == 0 ? "<unsure>" : std::string(buf, n);
}

TEST(SqlValueTest, RealNanIsNullAndCellsRoundTrip) {
  EXPECT_EQ(SqlValue::Real(std::nan("")).type, CellType::kNull);
  EXPECT_EQ(SqlValue::Real(1.5).d, 1.5);
  for (const SqlValue& v : {SqlValue::Null(), SqlValue::Integer(-7), SqlValue::Real(-0.25),
                            SqlValue::Text("abc"), SqlValue::Blob(std::string("\0x", 2))}) {
    const Cell c = v.AsCell();
    EXPECT_EQ(c.type, v.type);
    const SqlValue back = SqlValue::FromCell(c);
    EXPECT_EQ(back.type, v.type);
    EXPECT_EQ(back.i, v.i);
    EXPECT_EQ(back.d, v.d);
    EXPECT_EQ(back.bytes, v.bytes);
  }
}

TEST(AffinityTest, DeclaredTypesFollowSqlitesRules) {
  EXPECT_EQ(AffinityOfDeclaredType("INTEGER"), Affinity::kInteger);
  EXPECT_EQ(AffinityOfDeclaredType("bigint"), Affinity::kInteger);
  EXPECT_EQ(AffinityOfDeclaredType("POINT"), Affinity::kInteger);  // contains INT: rule 1 first
  EXPECT_EQ(AffinityOfDeclaredType("TEXT"), Affinity::kText);
  EXPECT_EQ(AffinityOfDeclaredType("varchar(10)"), Affinity::kText);
  EXPECT_EQ(AffinityOfDeclaredType("CLOB"), Affinity::kText);
  EXPECT_EQ(AffinityOfDeclaredType("BLOB"), Affinity::kBlob);
  EXPECT_EQ(AffinityOfDeclaredType(""), Affinity::kBlob);
  EXPECT_EQ(AffinityOfDeclaredType("REAL"), Affinity::kReal);
  EXPECT_EQ(AffinityOfDeclaredType("double precision"), Affinity::kReal);
  EXPECT_EQ(AffinityOfDeclaredType("FLOAT"), Affinity::kReal);
  EXPECT_EQ(AffinityOfDeclaredType("NUMERIC"), Affinity::kReal);
  EXPECT_EQ(AffinityOfDeclaredType("DECIMAL(10,2)"), Affinity::kReal);
}

TEST(SqlNumberTest, WhichTextsAreNumbers) {
  auto kind = [](std::string_view t) { return ParseSqlNumber(t).kind; };
  EXPECT_EQ(kind("5"), SqlNumberKind::kInteger);
  EXPECT_EQ(kind(" 5 "), SqlNumberKind::kInteger);
  EXPECT_EQ(kind("\t-5\n"), SqlNumberKind::kInteger);
  EXPECT_EQ(kind("+5"), SqlNumberKind::kInteger);
  EXPECT_EQ(kind("5.0"), SqlNumberKind::kReal);
  EXPECT_EQ(kind("5."), SqlNumberKind::kReal);
  EXPECT_EQ(kind(".5"), SqlNumberKind::kReal);
  EXPECT_EQ(kind("5e0"), SqlNumberKind::kReal);
  EXPECT_EQ(kind("1E-3"), SqlNumberKind::kReal);
  for (std::string_view t : {"", " ", "-", "+", ".", "e5", "5e", "5e+", "0x5", "5abc", "5 5", "1,5",
                             "--5", "inf", "NaN"}) {
    EXPECT_EQ(kind(t), SqlNumberKind::kNotNumeric) << "'" << t << "'";
  }
  // A NUL byte: SQLite 3.53 reads the text up to it, 3.40 finds no number.
  EXPECT_EQ(kind(std::string_view("5\0", 2)), SqlNumberKind::kUnsure);
  EXPECT_EQ(kind(std::string_view(" 5 \0x", 5)), SqlNumberKind::kUnsure);
  EXPECT_EQ(kind(std::string_view("\0" "5", 2)), SqlNumberKind::kNotNumeric);
  EXPECT_EQ(kind(std::string_view("x\0" "5", 3)), SqlNumberKind::kNotNumeric);
  EXPECT_EQ(ParseSqlNumber("1e5").d, 100000.0);
  EXPECT_EQ(ParseSqlNumber("-0.25").d, -0.25);
  // Integers exactly, to the edges of 64 bits; beyond, REAL.
  EXPECT_EQ(ParseSqlNumber("9007199254740993").i, 9007199254740993);
  EXPECT_EQ(ParseSqlNumber("9223372036854775807").i, std::numeric_limits<int64_t>::max());
  EXPECT_EQ(ParseSqlNumber("-9223372036854775808").i, std::numeric_limits<int64_t>::min());
  const SqlNumber big = ParseSqlNumber("9223372036854775808");
  EXPECT_EQ(big.kind, SqlNumberKind::kReal);
  EXPECT_EQ(big.d, 9223372036854775808.0);
  EXPECT_EQ(ParseSqlNumber("000000000000000000000042").i, 42);
  EXPECT_TRUE(std::isinf(ParseSqlNumber("1e400").d));
  EXPECT_EQ(ParseSqlNumber("1e-400").d, 0.0);
}

TEST(SqlNumberTest, RealsRenderAsSqlitePrintsThem) {
  EXPECT_EQ(RealText(1.0), "1.0");
  EXPECT_EQ(RealText(0.1), "0.1");
  EXPECT_EQ(RealText(100.0), "100.0");
  EXPECT_EQ(RealText(-2.5), "-2.5");
  EXPECT_EQ(RealText(1e20), "1.0e+20");
  EXPECT_EQ(RealText(1e15), "1.0e+15");
  EXPECT_EQ(RealText(1e14), "100000000000000.0");
  EXPECT_EQ(RealText(1.5e-5), "1.5e-05");
  EXPECT_EQ(RealText(1e-4), "0.0001");
  EXPECT_EQ(RealText(0.30000000000000004), "0.3");
  EXPECT_EQ(RealText(123456789012345678.0), "1.23456789012346e+17");
  EXPECT_EQ(RealText(1e300), "1.0e+300");
  EXPECT_EQ(RealText(0.0), "0.0");
  // Version-dependent renderings are reported, not guessed.
  EXPECT_EQ(RealText(-0.0), "<unsure>");
  EXPECT_EQ(RealText(std::numeric_limits<double>::infinity()), "<unsure>");
  char buf[kSqlNumberTextCapacity];
  EXPECT_EQ(std::string(buf, FormatSqlInteger(std::numeric_limits<int64_t>::min(), buf)),
            "-9223372036854775808");
}

TEST(ApplyAffinityTest, LiteralsAsAColumnSeesThem) {
  auto apply = [](const SqlValue& v, Affinity a) { return ApplyAffinity(v, a); };
  // Numeric affinity: numeric-looking text becomes a number, other text stays.
  SqlValue v = apply(SqlValue::Text(" 42 "), Affinity::kInteger);
  EXPECT_EQ(v.type, CellType::kInteger);
  EXPECT_EQ(v.i, 42);
  v = apply(SqlValue::Text("1e5"), Affinity::kInteger);  // an integral REAL: INTEGER here
  EXPECT_EQ(v.type, CellType::kInteger);
  EXPECT_EQ(v.i, 100000);
  v = apply(SqlValue::Text("4.2e1"), Affinity::kReal);
  EXPECT_EQ(v.type, CellType::kReal);
  EXPECT_EQ(v.d, 42.0);
  v = apply(SqlValue::Text("0x10"), Affinity::kInteger);
  EXPECT_EQ(v.type, CellType::kText);
  v = apply(SqlValue::Text("abc"), Affinity::kReal);
  EXPECT_EQ(v.type, CellType::kText);
  // TEXT affinity: numbers become their text.
  v = apply(SqlValue::Integer(-42), Affinity::kText);
  EXPECT_EQ(v.type, CellType::kText);
  EXPECT_EQ(v.bytes, "-42");
  v = apply(SqlValue::Real(1e20), Affinity::kText);
  EXPECT_EQ(v.bytes, "1.0e+20");
  v = apply(SqlValue::Real(4.5), Affinity::kText);
  EXPECT_EQ(v.bytes, "4.5");
  // BLOB affinity and the classes affinity never touches.
  EXPECT_EQ(apply(SqlValue::Text("5"), Affinity::kBlob).type, CellType::kText);
  EXPECT_EQ(apply(SqlValue::Blob("5"), Affinity::kInteger).type, CellType::kBlob);
  EXPECT_EQ(apply(SqlValue::Integer(5), Affinity::kReal).type, CellType::kInteger);
  bool exact = true;
  apply(SqlValue::Real(-0.0), Affinity::kText);
  ApplyAffinity(SqlValue::Real(-0.0), Affinity::kText, &exact);
  EXPECT_FALSE(exact);
}

TEST(CompareSqlTest, ClassesThenValuesExactly) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  EXPECT_LT(CompareSql(Cell::Null(), Cell::Integer(std::numeric_limits<int64_t>::min())), 0);
  EXPECT_LT(CompareSql(Cell::Real(1e300), Cell::Text("")), 0);
  EXPECT_LT(CompareSql(Cell::Text("\xff"), Cell::Blob("")), 0);
  EXPECT_EQ(CompareSql(Cell::Integer(5), Cell::Real(5.0)), 0);
  EXPECT_EQ(CompareSql(Cell::Real(-0.0), Cell::Integer(0)), 0);
  EXPECT_LT(CompareSql(Cell::Integer(5), Cell::Real(5.5)), 0);
  EXPECT_GT(CompareSql(Cell::Integer(-5), Cell::Real(-5.5)), 0);
  // Beyond 2^53 a double cannot hold every integer; the comparison is still exact.
  EXPECT_GT(CompareSql(Cell::Integer(9007199254740993), Cell::Real(9007199254740992.0)), 0);
  EXPECT_LT(CompareSql(Cell::Integer(max), Cell::Real(9223372036854775808.0)), 0);
  EXPECT_GT(CompareSql(Cell::Integer(max), Cell::Real(9223372036854774784.0)), 0);
  EXPECT_LT(CompareSql(Cell::Integer(max), Cell::Real(INFINITY)), 0);
  EXPECT_GT(CompareSql(Cell::Integer(std::numeric_limits<int64_t>::min()), Cell::Real(-INFINITY)),
            0);
  EXPECT_EQ(CompareSql(Cell::Integer(std::numeric_limits<int64_t>::min()),
                       Cell::Real(-9223372036854775808.0)),
            0);
  // Text and blobs: bytes, then length.
  EXPECT_LT(CompareSql(Cell::Text("ab"), Cell::Text("abc")), 0);
  EXPECT_LT(CompareSql(Cell::Text("abc"), Cell::Text("b")), 0);
  EXPECT_GT(CompareSql(Cell::Text("\xc3\xa9"), Cell::Text("z")), 0);  // unsigned bytes
  EXPECT_EQ(CompareSql(Cell::Blob(""), Cell::Blob("")), 0);
}

TEST(ValueSatisfiesTest, WorkedExamples) {
  const auto I = Affinity::kInteger, T = Affinity::kText, B = Affinity::kBlob;
  // WHERE id = '42' on an INTEGER column matches 42.
  EXPECT_TRUE(ValueSatisfies(Cell::Integer(42), Term(PredicateOp::kEq, {SqlValue::Text("42")}), I));
  EXPECT_TRUE(ValueSatisfies(Cell::Real(42.0), Term(PredicateOp::kEq, {SqlValue::Text("42")}), I));
  EXPECT_FALSE(
      ValueSatisfies(Cell::Integer(42), Term(PredicateOp::kEq, {SqlValue::Text("42")}), B));
  // A number is below any text that stays text.
  EXPECT_TRUE(
      ValueSatisfies(Cell::Integer(1000), Term(PredicateOp::kLt, {SqlValue::Text("abc")}), I));
  // TEXT column, INTEGER literal: compared as text.
  EXPECT_TRUE(ValueSatisfies(Cell::Text("9"), Term(PredicateOp::kGt, {SqlValue::Integer(10)}), T));
  EXPECT_FALSE(ValueSatisfies(Cell::Text("05"), Term(PredicateOp::kEq, {SqlValue::Integer(5)}), T));
  // NULL: only IS / IS NOT / IS NULL can be true.
  for (PredicateOp op : {PredicateOp::kEq, PredicateOp::kNe, PredicateOp::kLt, PredicateOp::kGe}) {
    EXPECT_FALSE(ValueSatisfies(Cell::Null(), Term(op, {SqlValue::Integer(1)}), I));
    EXPECT_FALSE(ValueSatisfies(Cell::Integer(1), Term(op, {SqlValue::Null()}), I));
  }
  EXPECT_TRUE(ValueSatisfies(Cell::Null(), Term(PredicateOp::kIs, {SqlValue::Null()}), I));
  EXPECT_TRUE(ValueSatisfies(Cell::Null(), Term(PredicateOp::kIsNot, {SqlValue::Integer(1)}), I));
  EXPECT_FALSE(ValueSatisfies(Cell::Null(), Term(PredicateOp::kIsNot, {SqlValue::Null()}), I));
  EXPECT_TRUE(ValueSatisfies(Cell::Null(), Term(PredicateOp::kIsNull), I));
  EXPECT_FALSE(ValueSatisfies(Cell::Null(), Term(PredicateOp::kIsNotNull), I));
  // IN: any equal value; NULLs in the list never match.
  const PredicateTerm in =
      Term(PredicateOp::kIn, {SqlValue::Null(), SqlValue::Text("7"), SqlValue::Real(8.5)});
  EXPECT_TRUE(ValueSatisfies(Cell::Integer(7), in, I));
  EXPECT_TRUE(ValueSatisfies(Cell::Real(8.5), in, I));
  EXPECT_FALSE(ValueSatisfies(Cell::Integer(8), in, I));
  EXPECT_FALSE(ValueSatisfies(Cell::Null(), in, I));
  EXPECT_FALSE(ValueSatisfies(Cell::Integer(1), Term(PredicateOp::kIn), I));
  // Prefix: text and blob bytes; numbers as their text.
  const PredicateTerm prefix = Term(PredicateOp::kPrefix, {SqlValue::Text("ab")});
  EXPECT_TRUE(ValueSatisfies(Cell::Text("abc"), prefix, T));
  EXPECT_FALSE(ValueSatisfies(Cell::Text("a"), prefix, T));
  EXPECT_FALSE(ValueSatisfies(Cell::Null(), prefix, T));
  EXPECT_TRUE(
      ValueSatisfies(Cell::Integer(123), Term(PredicateOp::kPrefix, {SqlValue::Text("12")}), I));
}

TEST(TermMatcherTest, AgreesWithValueSatisfiesOnRandomValues) {
  std::mt19937_64 rng(1);
  std::vector<SqlValue> pool = {
      SqlValue::Null(),         SqlValue::Integer(0),  SqlValue::Integer(5),
      SqlValue::Integer(-3),    SqlValue::Real(5.0),   SqlValue::Real(2.5),
      SqlValue::Text("5"),      SqlValue::Text(" 5"),  SqlValue::Text("2.5"),
      SqlValue::Text("abc"),    SqlValue::Text("5.0"), SqlValue::Text(""),
      SqlValue::Blob("5"),      SqlValue::Blob(""),    SqlValue::Real(1e20),
      SqlValue::Text("1.0e+20")};
  const PredicateOp ops[] = {PredicateOp::kEq,     PredicateOp::kNe,    PredicateOp::kLt,
                             PredicateOp::kLe,     PredicateOp::kGt,    PredicateOp::kGe,
                             PredicateOp::kIn,     PredicateOp::kIs,    PredicateOp::kIsNot,
                             PredicateOp::kIsNull, PredicateOp::kPrefix};
  for (int round = 0; round < 20000; ++round) {
    const Affinity a = static_cast<Affinity>(rng() % 4);
    PredicateTerm t = Term(ops[rng() % std::size(ops)]);
    const int n = t.op == PredicateOp::kIn ? static_cast<int>(rng() % 5) : 1;
    for (int i = 0; i < n; ++i) t.values.push_back(pool[rng() % pool.size()]);
    const TermMatcher m(t, a);
    for (const SqlValue& v : pool) {
      ASSERT_EQ(m.Matches(v.AsCell()), ValueSatisfies(v.AsCell(), t, a));
    }
  }
}

// ---- RangeMaySatisfy -------------------------------------------------------------------------

ValueRange Range(SqlValue min, SqlValue max, int64_t nulls = 0, int64_t values = 100) {
  ValueRange r;
  r.has_bounds = true;
  r.min = std::move(min);
  r.max = std::move(max);
  r.null_count = nulls;
  r.num_values = values;
  return r;
}

TEST(RangeMaySatisfyTest, ComparisonsAgainstBounds) {
  const auto I = Affinity::kInteger;
  const ValueRange r = Range(SqlValue::Integer(10), SqlValue::Integer(20));
  auto may = [&](PredicateOp op, SqlValue v) {
    return RangeMaySatisfy(r, Term(op, {std::move(v)}), I);
  };
  EXPECT_TRUE(may(PredicateOp::kEq, SqlValue::Integer(10)));
  EXPECT_TRUE(may(PredicateOp::kEq, SqlValue::Text("15")));
  EXPECT_TRUE(may(PredicateOp::kEq, SqlValue::Real(19.5)));
  EXPECT_FALSE(may(PredicateOp::kEq, SqlValue::Integer(21)));
  EXPECT_FALSE(may(PredicateOp::kEq, SqlValue::Real(9.999)));
  EXPECT_FALSE(may(PredicateOp::kEq, SqlValue::Text("abc")));  // numbers never equal text
  EXPECT_TRUE(may(PredicateOp::kLt, SqlValue::Text("abc")));   // and are all below it
  EXPECT_FALSE(may(PredicateOp::kGt, SqlValue::Text("abc")));
  EXPECT_FALSE(may(PredicateOp::kLt, SqlValue::Integer(10)));
  EXPECT_TRUE(may(PredicateOp::kLe, SqlValue::Integer(10)));
  EXPECT_FALSE(may(PredicateOp::kGt, SqlValue::Integer(20)));
  EXPECT_TRUE(may(PredicateOp::kGe, SqlValue::Real(20.0)));
  EXPECT_FALSE(may(PredicateOp::kEq, SqlValue::Null()));
  EXPECT_TRUE(may(PredicateOp::kNe, SqlValue::Integer(10)));
  EXPECT_FALSE(RangeMaySatisfy(Range(SqlValue::Integer(7), SqlValue::Real(7.0)),
                               Term(PredicateOp::kNe, {SqlValue::Text("7")}), I));
  EXPECT_FALSE(
      RangeMaySatisfy(r, Term(PredicateOp::kIn, {SqlValue::Integer(1), SqlValue::Null()}), I));
  EXPECT_TRUE(
      RangeMaySatisfy(r, Term(PredicateOp::kIn, {SqlValue::Integer(1), SqlValue::Integer(12)}), I));
  EXPECT_FALSE(RangeMaySatisfy(r, Term(PredicateOp::kIn), I));
}

TEST(RangeMaySatisfyTest, NullCounts) {
  const auto I = Affinity::kInteger;
  ValueRange no_nulls = Range(SqlValue::Integer(7), SqlValue::Integer(7), 0, 50);
  ValueRange some_nulls = Range(SqlValue::Integer(7), SqlValue::Integer(7), 3, 50);
  ValueRange all_nulls;
  all_nulls.null_count = 50;
  all_nulls.num_values = 50;
  ValueRange unknown;  // nothing known
  EXPECT_FALSE(RangeMaySatisfy(no_nulls, Term(PredicateOp::kIsNull), I));
  EXPECT_TRUE(RangeMaySatisfy(some_nulls, Term(PredicateOp::kIsNull), I));
  EXPECT_TRUE(RangeMaySatisfy(unknown, Term(PredicateOp::kIsNull), I));
  EXPECT_FALSE(RangeMaySatisfy(all_nulls, Term(PredicateOp::kIsNotNull), I));
  EXPECT_TRUE(RangeMaySatisfy(no_nulls, Term(PredicateOp::kIsNotNull), I));
  EXPECT_TRUE(RangeMaySatisfy(unknown, Term(PredicateOp::kIsNotNull), I));
  // IS NULL literal is IS NULL; IS NOT NULL literal is IS NOT NULL.
  EXPECT_FALSE(RangeMaySatisfy(no_nulls, Term(PredicateOp::kIs, {SqlValue::Null()}), I));
  EXPECT_FALSE(RangeMaySatisfy(all_nulls, Term(PredicateOp::kIsNot, {SqlValue::Null()}), I));
  // != never holds for NULLs; IS NOT does.
  EXPECT_FALSE(RangeMaySatisfy(some_nulls, Term(PredicateOp::kNe, {SqlValue::Integer(7)}), I));
  EXPECT_TRUE(RangeMaySatisfy(some_nulls, Term(PredicateOp::kIsNot, {SqlValue::Integer(7)}), I));
  EXPECT_FALSE(RangeMaySatisfy(no_nulls, Term(PredicateOp::kIsNot, {SqlValue::Integer(7)}), I));
  // Nothing but NULLs satisfies no comparison.
  for (PredicateOp op : {PredicateOp::kEq, PredicateOp::kNe, PredicateOp::kLt, PredicateOp::kIn,
                         PredicateOp::kIs, PredicateOp::kPrefix}) {
    EXPECT_FALSE(RangeMaySatisfy(all_nulls, Term(op, {SqlValue::Integer(1)}), I));
  }
  // An empty set satisfies nothing at all.
  ValueRange empty;
  empty.null_count = 0;
  empty.num_values = 0;
  EXPECT_FALSE(RangeMaySatisfy(empty, Term(PredicateOp::kIsNull), I));
  EXPECT_FALSE(RangeMaySatisfy(empty, Term(PredicateOp::kIsNot, {SqlValue::Integer(1)}), I));
}

TEST(RangeMaySatisfyTest, TextBoundsAndPrefixes) {
  const auto T = Affinity::kText;
  const ValueRange r = Range(SqlValue::Text("apple"), SqlValue::Text("melon"));
  EXPECT_TRUE(RangeMaySatisfy(r, Term(PredicateOp::kEq, {SqlValue::Text("banana")}), T));
  EXPECT_FALSE(RangeMaySatisfy(r, Term(PredicateOp::kEq, {SqlValue::Text("zebra")}), T));
  EXPECT_FALSE(RangeMaySatisfy(r, Term(PredicateOp::kEq, {SqlValue::Text("app")}), T));
  // An INTEGER literal compares as its text: '5' sorts after 'melon'? No: digits sort first.
  EXPECT_FALSE(RangeMaySatisfy(r, Term(PredicateOp::kEq, {SqlValue::Integer(5)}), T));
  EXPECT_TRUE(RangeMaySatisfy(r, Term(PredicateOp::kGt, {SqlValue::Integer(5)}), T));
  auto prefix = [&](const char* p, const ValueRange& range) {
    return RangeMaySatisfy(range, Term(PredicateOp::kPrefix, {SqlValue::Text(p)}), T);
  };
  EXPECT_TRUE(prefix("app", r));  // min starts with it
  EXPECT_TRUE(prefix("b", r));
  EXPECT_TRUE(prefix("mel", r));
  EXPECT_TRUE(prefix("", r));
  EXPECT_FALSE(prefix("ap", Range(SqlValue::Text("b"), SqlValue::Text("c"))));
  EXPECT_FALSE(prefix("mz", r));
  EXPECT_FALSE(prefix("a", Range(SqlValue::Text("b"), SqlValue::Text("c"))));
  EXPECT_TRUE(prefix("c", Range(SqlValue::Text("b"), SqlValue::Text("c"))));
  EXPECT_TRUE(prefix("bz", Range(SqlValue::Text("b"), SqlValue::Text("c"))));
  // Bounds of the wrong class for the affinity are not used.
  EXPECT_TRUE(RangeMaySatisfy(Range(SqlValue::Integer(1), SqlValue::Integer(2)),
                              Term(PredicateOp::kEq, {SqlValue::Text("9")}), T));
  EXPECT_TRUE(RangeMaySatisfy(Range(SqlValue::Text("1"), SqlValue::Text("2")),
                              Term(PredicateOp::kEq, {SqlValue::Integer(9)}), Affinity::kInteger));
  // Inverted bounds are distrusted.
  EXPECT_TRUE(RangeMaySatisfy(Range(SqlValue::Text("z"), SqlValue::Text("a")),
                              Term(PredicateOp::kEq, {SqlValue::Text("q")}), T));
}

// RangeMaySatisfy is sound: over random sets of values, whenever some value satisfies the term,
// the range of the set (its true min/max and null count) must say "may".
TEST(RangeMaySatisfyTest, NeverRulesOutASatisfyingValue) {
  std::mt19937_64 rng(8);
  const std::vector<SqlValue> ints = {SqlValue::Integer(-5),
                                      SqlValue::Integer(0),
                                      SqlValue::Integer(3),
                                      SqlValue::Integer(7),
                                      SqlValue::Real(2.5),
                                      SqlValue::Real(-0.0),
                                      SqlValue::Real(9007199254740992.0),
                                      SqlValue::Integer(9007199254740993)};
  const std::vector<SqlValue> texts = {
      SqlValue::Text(""),  SqlValue::Text("1"),  SqlValue::Text("10"), SqlValue::Text("2.5"),
      SqlValue::Text("a"), SqlValue::Text("ab"), SqlValue::Text("b"),  SqlValue::Text("1.0e+20")};
  std::vector<SqlValue> literals = ints;
  literals.insert(literals.end(), texts.begin(), texts.end());
  literals.push_back(SqlValue::Real(1e20));
  literals.push_back(SqlValue::Null());
  literals.push_back(SqlValue::Blob("a"));
  const PredicateOp ops[] = {PredicateOp::kEq,     PredicateOp::kNe,        PredicateOp::kLt,
                             PredicateOp::kLe,     PredicateOp::kGt,        PredicateOp::kGe,
                             PredicateOp::kIn,     PredicateOp::kIs,        PredicateOp::kIsNot,
                             PredicateOp::kIsNull, PredicateOp::kIsNotNull, PredicateOp::kPrefix};
  int pruned = 0;
  for (int round = 0; round < 30000; ++round) {
    const bool text = rng() % 2;
    const Affinity a = text ? Affinity::kText : (rng() % 2 ? Affinity::kInteger : Affinity::kReal);
    const auto& pool = text ? texts : ints;
    std::vector<SqlValue> set;
    const int n = static_cast<int>(rng() % 4);
    int nulls = 0;
    for (int i = 0; i < n; ++i) set.push_back(pool[rng() % pool.size()]);
    if (rng() % 3 == 0) nulls = 1 + static_cast<int>(rng() % 2);
    ValueRange r;
    r.num_values = n + nulls;
    r.null_count = nulls;
    if (n > 0) {
      r.has_bounds = true;
      r.min = set[0];
      r.max = set[0];
      for (const SqlValue& v : set) {
        if (CompareSql(v.AsCell(), r.min.AsCell()) < 0) r.min = v;
        if (CompareSql(v.AsCell(), r.max.AsCell()) > 0) r.max = v;
      }
    }
    PredicateTerm t = Term(ops[rng() % std::size(ops)]);
    const int k = t.op == PredicateOp::kIn ? static_cast<int>(rng() % 3)
                  : t.op == PredicateOp::kIsNull || t.op == PredicateOp::kIsNotNull ? 0
                                                                                    : 1;
    for (int i = 0; i < k; ++i) t.values.push_back(literals[rng() % literals.size()]);
    bool any = false;
    for (const SqlValue& v : set) any |= ValueSatisfies(v.AsCell(), t, a);
    if (nulls > 0) any |= ValueSatisfies(Cell::Null(), t, a);
    const bool may = RangeMaySatisfy(r, t, a);
    if (any) {
      ASSERT_TRUE(may) << "round " << round;
    }
    pruned += !may;
  }
  EXPECT_GT(pruned, 5000);  // and it does prune
}

// ---- RowRanges --------------------------------------------------------------------------------

std::vector<std::pair<int64_t, int64_t>> Pairs(const RowRanges& r) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const RowRange& x : r.ranges()) out.emplace_back(x.begin, x.end);
  return out;
}

TEST(RowRangesTest, AddMergesOverlappingAndAdjacentInAnyOrder) {
  RowRanges r;
  r.Add(10, 20);
  r.Add(30, 40);
  r.Add(20, 25);  // adjacent to the first
  r.Add(0, 5);    // before all
  r.Add(5, 5);    // empty: ignored
  using P = std::vector<std::pair<int64_t, int64_t>>;
  EXPECT_EQ(Pairs(r), (P{{0, 5}, {10, 25}, {30, 40}}));
  r.Add(3, 31);  // swallows three
  EXPECT_EQ(Pairs(r), (P{{0, 40}}));
  EXPECT_EQ(r.row_count(), 40);
  EXPECT_EQ(Pairs(RowRanges::All(7)), (P{{0, 7}}));
  EXPECT_TRUE(RowRanges::All(0).empty());
}

TEST(RowRangesTest, IntersectAndUnionMatchASetOfRows) {
  std::mt19937_64 rng(4);
  for (int round = 0; round < 2000; ++round) {
    RowRanges a, b;
    std::set<int64_t> sa, sb;
    for (int i = 0; i < static_cast<int>(rng() % 6); ++i) {
      const int64_t begin = static_cast<int64_t>(rng() % 100);
      const int64_t end = begin + static_cast<int64_t>(rng() % 15);
      a.Add(begin, end);
      for (int64_t x = begin; x < end; ++x) sa.insert(x);
    }
    for (int i = 0; i < static_cast<int>(rng() % 6); ++i) {
      const int64_t begin = static_cast<int64_t>(rng() % 100);
      const int64_t end = begin + static_cast<int64_t>(rng() % 15);
      b.Add(begin, end);
      for (int64_t x = begin; x < end; ++x) sb.insert(x);
    }
    auto rows = [](const RowRanges& r) {
      std::set<int64_t> s;
      int64_t last_end = -1;
      for (const RowRange& x : r.ranges()) {
        EXPECT_LT(x.begin, x.end);
        EXPECT_GT(x.begin, last_end);  // sorted, disjoint, not adjacent
        last_end = x.end;
        for (int64_t y = x.begin; y < x.end; ++y) s.insert(y);
      }
      return s;
    };
    EXPECT_EQ(rows(a), sa);
    EXPECT_EQ(a.row_count(), static_cast<int64_t>(sa.size()));
    std::set<int64_t> inter, uni = sa;
    for (int64_t x : sa) {
      if (sb.count(x)) inter.insert(x);
    }
    uni.insert(sb.begin(), sb.end());
    ASSERT_EQ(rows(a.Intersect(b)), inter);
    ASSERT_EQ(rows(a.Union(b)), uni);
  }
}

}  // namespace
}  // namespace pq
