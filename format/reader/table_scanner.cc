#include "format/reader/table_scanner.h"

#include <optional>

namespace pq {

struct TableScanner::FieldState {
  const SchemaNode* node = nullptr;
  bool nested = false;
  int first_leaf = 0;
  int num_leaves = 0;
  std::vector<std::unique_ptr<ColumnChunkReader>> readers;  // one per leaf under the field
  std::vector<ColumnBatch> batches;
  std::vector<LeafConverter> converters;
  std::unique_ptr<NestedJsonAssembler> assembler;
  JsonColumn json;
};

TableScanner::~TableScanner() = default;

namespace {

bool IsNestedField(const SchemaNode& node) { return !node.is_leaf || node.is_repeated(); }

template <typename Fn>
auto VisitValue(const ColumnBatch& b, int64_t k, Fn&& fn) {
  switch (b.type) {
    case PhysicalType::kBoolean: return fn(b.bools[k]);
    case PhysicalType::kInt32: return fn(b.i32[k]);
    case PhysicalType::kInt64: return fn(b.i64[k]);
    case PhysicalType::kInt96: return fn(b.i96[k]);
    case PhysicalType::kFloat: return fn(b.f32[k]);
    case PhysicalType::kDouble: return fn(b.f64[k]);
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray: return fn(b.bytes[k]);
  }
  return fn(b.i64[k]);
}

}  // namespace

Result<std::string> TableScanner::DeclaredType(const Schema& schema, int field,
                                               const ValueOptions& opts) {
  const SchemaNode& node = *schema.fields()[field];
  if (IsNestedField(node)) return std::string("TEXT");
  PQ_ASSIGN_OR_RETURN(LeafConverter c, LeafConverter::Make(node, opts));
  return std::string(c.declared_type());
}

Result<std::unique_ptr<TableScanner>> TableScanner::Make(std::shared_ptr<const FileReader> file,
                                                         std::vector<int> fields,
                                                         std::vector<int> row_groups,
                                                         const ValueOptions& value_options,
                                                         int64_t batch_rows) {
  std::unique_ptr<TableScanner> s(new TableScanner());
  s->file_ = std::move(file);
  s->row_groups_ = std::move(row_groups);
  s->value_options_ = value_options;
  s->batch_rows_ = batch_rows > 0 ? batch_rows : 2048;
  const Schema& schema = s->file_->schema();
  int64_t start = 0;
  for (const RowGroup& rg : s->file_->metadata().row_groups) {
    s->row_group_starts_.push_back(start);
    start += rg.num_rows;
  }
  for (int f : fields) {
    if (f < 0 || f >= static_cast<int>(schema.fields().size())) {
      return Status::InvalidArgument("no field " + std::to_string(f));
    }
    auto st = std::make_unique<FieldState>();
    st->node = schema.fields()[f];
    st->nested = IsNestedField(*st->node);
    auto [first, count] = schema.LeafRange(*st->node);
    st->first_leaf = first;
    st->num_leaves = count;
    st->batches.resize(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
      PQ_ASSIGN_OR_RETURN(LeafConverter c, LeafConverter::Make(schema.leaf(first + i), value_options));
      st->converters.push_back(std::move(c));
    }
    if (st->nested) {
      PQ_ASSIGN_OR_RETURN(st->assembler, NestedJsonAssembler::Make(schema, *st->node));
    }
    s->fields_.push_back(std::move(st));
  }
  return s;
}

Status TableScanner::OpenRowGroup(int row_group) {
  CloseRowGroup();
  current_row_group_ = row_group;
  row_group_rows_left_ = file_->metadata().row_groups[row_group].num_rows;
  row_group_first_row_ = row_group_starts_[row_group];
  next_row_ = row_group_first_row_;
  for (auto& f : fields_) {
    for (int i = 0; i < f->num_leaves; ++i) {
      PQ_ASSIGN_OR_RETURN(auto r, ColumnChunkReader::Make(file_, row_group, f->first_leaf + i));
      f->readers.push_back(std::move(r));
    }
  }
  ++stats_.row_groups_read;
  return Status::OK();
}

void TableScanner::CloseRowGroup() {
  for (auto& f : fields_) {
    for (auto& r : f->readers) {
      stats_.pages_read += r->pages_read();
      stats_.bytes_read += r->bytes_read();
      stats_.values_decoded += r->values_decoded();
    }
    f->readers.clear();
  }
  current_row_group_ = -1;
}

Result<int64_t> TableScanner::NextBatch() {
  batch_rows_read_ = 0;
  while (row_group_rows_left_ == 0) {
    if (next_row_group_ >= row_groups_.size()) {
      CloseRowGroup();
      return 0;
    }
    PQ_RETURN_IF_ERROR(OpenRowGroup(row_groups_[next_row_group_++]));
  }
  const int64_t want = std::min(batch_rows_, row_group_rows_left_);
  for (auto& f : fields_) {
    for (int i = 0; i < f->num_leaves; ++i) {
      ColumnBatch& b = f->batches[i];
      b.Clear();
      PQ_ASSIGN_OR_RETURN(int64_t got, f->readers[i]->ReadRecords(want, &b));
      if (got != want) {
        return Status::Corruption("column chunk ends after " +
                                  std::to_string(next_row_ - row_group_first_row_ + got) +
                                  " rows, the row group has " +
                                  std::to_string(file_->metadata().row_groups[current_row_group_].num_rows))
            .WithContext(ColumnContext(*file_, current_row_group_, f->readers[i]->leaf()));
      }
    }
    if (f->nested) {
      std::vector<LeafLevels> leaves(static_cast<size_t>(f->num_leaves));
      for (int i = 0; i < f->num_leaves; ++i) {
        const ColumnBatch& b = f->batches[i];
        const LeafConverter& conv = f->converters[i];
        const SchemaNode& leaf = file_->schema().leaf(f->first_leaf + i);
        leaves[i].def_levels = leaf.max_definition_level > 0 ? b.def_levels.data() : nullptr;
        leaves[i].rep_levels = leaf.max_repetition_level > 0 ? b.rep_levels.data() : nullptr;
        leaves[i].num_levels = b.num_levels;
        leaves[i].num_values = b.num_values;
        leaves[i].append_value_json = [&b, &conv](int64_t k, std::string* out) {
          VisitValue(b, k, [&](const auto& v) { conv.AppendJson(v, out); });
        };
        leaves[i].value_bytes = [&b](int64_t k) {
          return VisitValue(b, k, [](const auto& v) { return LeafValueBytes(v); });
        };
      }
      f->json.Clear();
      Status s = f->assembler->Assemble(leaves, want, &f->json);
      if (!s.ok()) {
        return std::move(s).WithContext(file_->path() + ", row group " +
                                        std::to_string(current_row_group_) + ", column '" +
                                        f->node->DottedPath() + "'");
      }
    }
  }
  batch_first_row_ = next_row_;
  batch_rows_read_ = want;
  next_row_ += want;
  row_group_rows_left_ -= want;
  stats_.rows_produced += want;
  return want;
}

Result<int64_t> TableScanner::SkipRows(int64_t n) {
  int64_t skipped = 0;
  while (skipped < n) {
    if (row_group_rows_left_ == 0) {
      if (next_row_group_ >= row_groups_.size()) break;
      int rg = row_groups_[next_row_group_];
      int64_t rows = file_->metadata().row_groups[rg].num_rows;
      if (n - skipped >= rows) {  // skip the whole row group without opening it
        ++next_row_group_;
        skipped += rows;
        next_row_ = row_group_starts_[rg] + rows;
        continue;
      }
      ++next_row_group_;
      PQ_RETURN_IF_ERROR(OpenRowGroup(rg));
    }
    int64_t take = std::min(n - skipped, row_group_rows_left_);
    for (auto& f : fields_) {
      for (auto& r : f->readers) {
        PQ_ASSIGN_OR_RETURN(int64_t got, r->SkipRecords(take));
        if (got != take) {
          return Status::Corruption("column chunk ends early")
              .WithContext(ColumnContext(*file_, current_row_group_, r->leaf()));
        }
      }
    }
    row_group_rows_left_ -= take;
    next_row_ += take;
    skipped += take;
  }
  return skipped;
}

Cell TableScanner::GetCell(int slot, int64_t row, std::string* scratch) const {
  const FieldState& f = *fields_[static_cast<size_t>(slot)];
  if (f.nested) {
    if (f.json.is_null[static_cast<size_t>(row)]) return Cell{};
    Cell c;
    c.type = CellType::kText;
    c.bytes = f.json.at(row);
    return c;
  }
  const ColumnBatch& b = f.batches[0];
  int64_t k = row;
  if (f.node->max_definition_level > 0) {
    k = b.value_index[static_cast<size_t>(row)];
    if (k < 0) return Cell{};
  }
  const LeafConverter& conv = f.converters[0];
  return VisitValue(b, k, [&](const auto& v) { return conv.Convert(v, scratch); });
}

}  // namespace pq
