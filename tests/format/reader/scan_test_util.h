// Helpers for the TableScanner tests: a test table written with the project's writer (flat columns of
// several kinds, optional ones with NULLs, a LIST column), read back row by row as owned values.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "format/predicate/predicate.h"
#include "format/reader/table_scanner.h"
#include "tests/format/writer/writer_test_util.h"

namespace pq::testing {

// Leaves: 0 id INT64 required (the row number), 1 opt_i32 INT32 optional, 2 name STRING optional,
// 3 dbl DOUBLE required, 4 tags.list.element (tags: optional LIST of optional INT32).
// Fields: 0 id, 1 opt_i32, 2 name, 3 dbl, 4 tags.
inline std::vector<SchemaElement> TestSchema() {
  return {Root(5),
          Leaf("id", PhysicalType::kInt64, Repetition::kRequired),
          Leaf("opt_i32", PhysicalType::kInt32, Repetition::kOptional),
          Leaf("name", PhysicalType::kByteArray, Repetition::kOptional, Logical(LogicalType::Kind::kString)),
          Leaf("dbl", PhysicalType::kDouble, Repetition::kRequired),
          Group("tags", Repetition::kOptional, 1, Logical(LogicalType::Kind::kList)),
          Group("list", Repetition::kRepeated, 1),
          Leaf("element", PhysicalType::kInt32, Repetition::kOptional)};
}

inline std::vector<LeafData> TestTable(int64_t rows) {
  std::vector<LeafData> d(5);
  for (int64_t r = 0; r < rows; ++r) {
    d[0].i64.push_back(r);
    const bool i32_null = r % 7 == 0;
    d[1].def.push_back(i32_null ? 0 : 1);
    if (!i32_null) d[1].i32.push_back(static_cast<int32_t>((r * 37) % 1000 - 500));
    const bool name_null = r % 5 == 0;
    d[2].def.push_back(name_null ? 0 : 1);
    if (!name_null) d[2].bytes.push_back("name" + std::to_string(r % 13));
    d[3].f64.push_back(static_cast<double>(r) * 0.5);
    LeafData& t = d[4];
    if (r % 11 == 0) {  // null list
      t.def.push_back(0);
      t.rep.push_back(0);
    } else if (r % 11 == 1) {  // empty list
      t.def.push_back(1);
      t.rep.push_back(0);
    } else {
      const int n = static_cast<int>(r % 4) + 1;
      for (int j = 0; j < n; ++j) {
        t.rep.push_back(j == 0 ? 0 : 1);
        if ((r + j) % 9 == 0) {
          t.def.push_back(2);
        } else {
          t.def.push_back(3);
          t.i32.push_back(static_cast<int32_t>(r * 10 + j));
        }
      }
    }
  }
  return d;
}

struct TestFileOptions {
  int page_version = 1;
  bool dictionary = true;
  bool page_index = true;
  CompressionCodec codec = CompressionCodec::kSnappy;
  int64_t rows = 25'000;
  int64_t row_group_rows = 10'000;
  int64_t page_rows = 100;
};

inline std::string Describe(const TestFileOptions& o) {
  return "v" + std::to_string(o.page_version) + (o.dictionary ? " dict" : " plain") +
         (o.page_index ? " index" : " no-index") + (o.codec == CompressionCodec::kUncompressed ? " raw" : " snappy");
}

// Writes `table` (`rows` rows, handed to the writer `chunk` rows at a time) with options `w` to a
// fresh temporary file `name` and opens it; null (with a test failure) when that fails.
inline std::shared_ptr<const FileReader> WriteAndOpen(const std::vector<SchemaElement>& schema,
                                                      const std::vector<LeafData>& table, int64_t rows,
                                                      int64_t chunk, const WriterOptions& w,
                                                      const std::string& name) {
  const std::string path = TempPath(name);
  auto writer = FileWriter::Open(path, schema, w);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return nullptr;
  Status s = WriteTable(writer->get(), table, rows, chunk);
  EXPECT_TRUE(s.ok()) << s.ToString();
  s = (*writer)->Close();
  EXPECT_TRUE(s.ok()) << s.ToString();
  return OpenForTest(path);
}

// Writes the test table to a fresh temporary file and opens it.
inline std::shared_ptr<const FileReader> WriteTestFile(const TestFileOptions& o, const std::string& name) {
  WriterOptions w;
  w.codec = o.codec;
  w.row_group_rows = o.row_group_rows;
  w.page_rows = o.page_rows;
  w.data_page_version = o.page_version;
  w.dictionary = o.dictionary;
  w.page_index = o.page_index;
  return WriteAndOpen(TestSchema(), TestTable(o.rows), o.rows, 1000, w, name);
}

// A filter term on field `field`.
inline PredicateTerm Term(int field, PredicateOp op, std::vector<SqlValue> values = {}) {
  PredicateTerm t;
  t.field = field;
  t.op = op;
  t.values = std::move(values);
  return t;
}

// The affinity SQLite gives field `field` of `file` (its declared type as the table declares it).
inline Affinity AffinityOf(const FileReader& file, int field) {
  auto declared = TableScanner::DeclaredType(file.schema(), field, ValueOptions{});
  EXPECT_TRUE(declared.ok());
  return AffinityOfDeclaredType(declared.ok() ? *declared : "");
}

// One row as the scanner returns it: its file row number and the values of the fields, owned.
struct ScannedRow {
  int64_t row = -1;
  std::vector<SqlValue> values;
};

inline bool SameValue(const SqlValue& a, const SqlValue& b) {
  return a.type == b.type && a.i == b.i && (a.d == b.d || (a.d != a.d && b.d != b.d)) && a.bytes == b.bytes;
}

inline std::string ValueText(const SqlValue& v) {
  switch (v.type) {
    case CellType::kNull: return "NULL";
    case CellType::kInteger: return std::to_string(v.i);
    case CellType::kReal: return std::to_string(v.d);
    case CellType::kText: return "'" + v.bytes + "'";
    case CellType::kBlob: return "x'" + std::to_string(v.bytes.size()) + " bytes'";
  }
  return "?";
}

inline void ExpectSameRows(const std::vector<ScannedRow>& want, const std::vector<ScannedRow>& got,
                           const std::string& what) {
  ASSERT_EQ(want.size(), got.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(want[i].row, got[i].row) << what << ", row " << i;
    ASSERT_EQ(want[i].values.size(), got[i].values.size()) << what;
    for (size_t f = 0; f < want[i].values.size(); ++f) {
      ASSERT_TRUE(SameValue(want[i].values[f], got[i].values[f]))
          << what << ", file row " << want[i].row << ", slot " << f << ": want "
          << ValueText(want[i].values[f]) << ", got " << ValueText(got[i].values[f]);
    }
  }
}

// Reads every batch left in the scanner.
inline std::vector<ScannedRow> ReadRest(TableScanner* scanner, size_t num_fields) {
  std::vector<ScannedRow> rows;
  std::string scratch;
  while (true) {
    auto n = scanner->NextBatch();
    EXPECT_TRUE(n.ok()) << n.status().ToString();
    if (!n.ok() || *n == 0) break;
    EXPECT_EQ(*n, scanner->batch_size());
    EXPECT_EQ(scanner->batch_first_row(), scanner->RowNumber(0));
    for (int64_t r = 0; r < *n; ++r) {
      ScannedRow row;
      row.row = scanner->RowNumber(r);
      for (size_t f = 0; f < num_fields; ++f) {
        row.values.push_back(SqlValue::FromCell(scanner->GetCell(static_cast<int>(f), r, &scratch)));
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

// Bytes of the dictionary pages of `leaves` in row group `group`: from the chunk's start to its first
// data page (by the OffsetIndex when there is one, else by dictionary_page_offset).
inline int64_t DictionaryBytes(const FileReader& file, int group, const std::vector<int>& leaves) {
  int64_t n = 0;
  const std::string bytes = ReadWholeFile(file.path());
  for (int leaf : leaves) {
    const ColumnChunk& cc = file.metadata().row_groups[static_cast<size_t>(group)].columns[static_cast<size_t>(leaf)];
    const ColumnMetaData& m = *cc.meta_data;
    int64_t begin = m.data_page_offset;
    if (m.dictionary_page_offset && *m.dictionary_page_offset > 0 && *m.dictionary_page_offset < begin) {
      begin = *m.dictionary_page_offset;
    }
    if (cc.offset_index_offset) {
      n += ReadOffsetIndexOf(bytes, cc).page_locations.at(0).offset - begin;
    } else {
      n += m.data_page_offset - begin;
    }
  }
  return n;
}

inline std::vector<int> AllRowGroups(const FileReader& file) {
  std::vector<int> groups;
  for (int g = 0; g < file.num_row_groups(); ++g) groups.push_back(g);
  return groups;
}

inline std::vector<int> AllFields(const FileReader& file) {
  std::vector<int> fields;
  for (size_t f = 0; f < file.schema().fields().size(); ++f) fields.push_back(static_cast<int>(f));
  return fields;
}

// The rows of `rows` (read with `fields`, slot by slot) whose values satisfy every term of `filter`
// whose field is among `fields`, by SQLite's rules (ValueSatisfies), one row at a time: what a
// filtered scan must return.
inline std::vector<ScannedRow> Filtered(const FileReader& file, const std::vector<ScannedRow>& rows,
                                        const std::vector<int>& fields, const Predicate& filter) {
  std::vector<Affinity> affinity;
  for (const PredicateTerm& t : filter.terms) affinity.push_back(AffinityOf(file, t.field));
  std::vector<ScannedRow> out;
  for (const ScannedRow& row : rows) {
    bool keep = true;
    for (size_t i = 0; i < filter.terms.size(); ++i) {
      const PredicateTerm& t = filter.terms[i];
      for (size_t slot = 0; slot < fields.size(); ++slot) {
        if (fields[slot] == t.field) {
          keep = keep && ValueSatisfies(row.values[slot].AsCell(), t, affinity[i]);
          break;
        }
      }
    }
    if (keep) out.push_back(row);
  }
  return out;
}

// Every row of the file through the plain scanner (no plan, no filter).
inline std::vector<ScannedRow> FullScan(const std::shared_ptr<const FileReader>& file,
                                        const std::vector<int>& fields) {
  auto scanner = TableScanner::Make(file, fields, AllRowGroups(*file), ValueOptions{});
  EXPECT_TRUE(scanner.ok()) << scanner.status().ToString();
  if (!scanner.ok()) return {};
  return ReadRest(scanner->get(), fields.size());
}

// Every row of the file that passes `filter`, read with `fields` in batches of `batch_rows`.
inline std::vector<ScannedRow> ScanWithFilter(const std::shared_ptr<const FileReader>& file,
                                              const std::vector<int>& fields, const Predicate& filter,
                                              int64_t batch_rows = 2048) {
  ScanRequest request;
  request.fields = fields;
  auto plan = TableScanner::PlanAllRows(*file, AllRowGroups(*file));
  EXPECT_TRUE(plan.ok());
  if (!plan.ok()) return {};
  request.plan = *plan;
  request.filter = &filter;
  request.batch_rows = batch_rows;
  auto scanner = TableScanner::Make(file, std::move(request), ValueOptions{});
  EXPECT_TRUE(scanner.ok()) << scanner.status().ToString();
  if (!scanner.ok()) return {};
  return ReadRest(scanner->get(), fields.size());
}

}  // namespace pq::testing
