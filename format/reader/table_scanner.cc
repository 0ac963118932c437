#include "format/reader/table_scanner.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <numeric>
#include <string_view>

#include "format/file/chunk_index_reader.h"
#include "format/file/memory_budget.h"
#include "format/predicate/batch_filter.h"
#include "format/util/json_writer.h"
#include "format/util/task_pool.h"

namespace pq {

struct TableScanner::FieldState {
  const SchemaNode* node = nullptr;
  bool nested = false;
  bool variant_blob = false;  // a VARIANT read as binary (ValueOptions::variant_binary): BLOB cells
  bool filter = false;  // a term of the filter reads it: decoded first, for every decoded row
  int probe_term = -1;  // the one term that reads this flat field, which may probe its dictionary
  int first_leaf = 0;
  int num_leaves = 0;
  std::vector<std::unique_ptr<ColumnChunkReader>> readers;  // one per leaf under the field
  std::vector<ColumnBatch> batches;
  std::vector<LeafConverter> converters;
  std::unique_ptr<NestedJsonAssembler> assembler;
  JsonColumn json;
  int64_t next_row = 0;              // row of the row group the readers stand at
  const int32_t* row_map = nullptr;  // batch row -> row of `batches`; null: the same
};

struct TableScanner::GroupPrefetch {
  size_t group = 0;  // entry of groups_ read ahead
  std::vector<ByteRange> ranges;
  std::vector<std::pair<size_t, size_t>> owners;  // per range: field slot, leaf of the field
  std::shared_ptr<MemoryBudget> budget;
  int64_t reserved = 0;
  std::atomic<bool> claimed{false};  // a worker took the read, or the scanner cancelled it
  std::atomic<bool> done{false};     // set (release) once status and bytes are final
  std::mutex mu;
  std::condition_variable finished;
  Status status;
  std::vector<BufferPtr> bytes;
};

TableScanner::~TableScanner() {
  if (prefetch_) DropPrefetch(*prefetch_);
}

namespace {

bool IsNestedField(const SchemaNode& node) { return !node.is_leaf || node.is_repeated(); }

// LeafLevels::max_value_json of a batch: the bound of its longest value, or, where that bound (6
// bytes a byte of TEXT) passes 1 MiB, the exact length of the long values' JSON, so that a long
// string asks the budget for what it writes and not six times that.
int64_t MaxValueJson(const ColumnBatch& b, const LeafConverter& conv) {
  if (b.type != PhysicalType::kByteArray && b.type != PhysicalType::kFixedLenByteArray) {
    return static_cast<int64_t>(conv.MaxJsonLength(sizeof(Int96)));
  }
  const ByteArray* values = b.bytes.data();
  auto n = static_cast<size_t>(std::max<int64_t>(b.num_values, 0));
  if (b.dictionary != nullptr) {
    values = static_cast<const ByteArray*>(b.dictionary);
    n = static_cast<size_t>(b.dictionary_size);
  }
  uint32_t longest = 0;
  for (size_t k = 0; k < n; ++k) longest = std::max(longest, values[k].len);
  constexpr size_t kExactAbove = size_t{1} << 20;
  size_t bound = conv.MaxJsonLength(longest);
  if (bound > kExactAbove && conv.kind() == LeafConverter::Kind::kText) {
    bound = kExactAbove;
    for (size_t k = 0; k < n; ++k) {
      if (conv.MaxJsonLength(values[k].len) > kExactAbove) bound = std::max(bound, JsonStringLength(values[k].view()));
    }
  }
  return static_cast<int64_t>(bound);
}

// A field that reads as a BLOB of Variant binaries under these options.
bool IsVariantBlob(const SchemaNode& node, const ValueOptions& opts) {
  return opts.variant_binary && !node.is_leaf && !node.is_repeated() &&
         node.logical_type.kind == LogicalType::Kind::kVariant;
}

// Survivors are few enough that reading the other fields run by run (skipping between runs) beats
// decoding the whole batch: each run costs a call per leaf, each skipped value a little less than
// a decoded one.
bool ReadRunByRun(size_t runs, int64_t decoded, int64_t survivors) {
  return static_cast<int64_t>(runs) * 32 <= decoded - survivors;
}

}  // namespace

Result<std::string> TableScanner::DeclaredType(const Schema& schema, int field,
                                               const ValueOptions& opts) {
  const SchemaNode& node = *schema.fields()[field];
  if (IsNestedField(node)) return std::string(IsVariantBlob(node, opts) ? "BLOB" : "TEXT");
  PQ_ASSIGN_OR_RETURN(LeafConverter c, LeafConverter::Make(node, opts));
  return std::string(c.declared_type());
}

Result<ScanPlan> TableScanner::PlanAllRows(const FileReader& file, const std::vector<int>& row_groups) {
  ScanPlan plan;
  for (int rg : row_groups) {
    if (rg < 0 || rg >= file.num_row_groups()) {
      return Status::InvalidArgument("no row group " + std::to_string(rg));
    }
    plan.row_groups.push_back(
        {rg, RowRanges::All(file.metadata().row_groups[static_cast<size_t>(rg)].num_rows)});
  }
  return plan;
}

Result<std::unique_ptr<TableScanner>> TableScanner::Make(std::shared_ptr<const FileReader> file,
                                                         std::vector<int> fields,
                                                         std::vector<int> row_groups,
                                                         const ValueOptions& value_options,
                                                         int64_t batch_rows) {
  ScanRequest request;
  request.fields = std::move(fields);
  PQ_ASSIGN_OR_RETURN(request.plan, PlanAllRows(*file, row_groups));
  request.batch_rows = batch_rows;
  return Make(std::move(file), std::move(request), value_options);
}

Result<std::unique_ptr<TableScanner>> TableScanner::Make(std::shared_ptr<const FileReader> file,
                                                         ScanRequest request,
                                                         const ValueOptions& value_options) {
  std::unique_ptr<TableScanner> s(new TableScanner());
  s->file_ = std::move(file);
  s->value_options_ = value_options;
  s->batch_rows_ = request.batch_rows > 0 ? std::min<int64_t>(request.batch_rows, INT32_MAX / 2)
                                          : 2048;
  s->interrupted_ = std::move(request.interrupted);
  s->max_value_bytes_ = request.max_value_bytes;
  const Schema& schema = s->file_->schema();
  const FileMetaData& meta = s->file_->metadata();
  int64_t start = 0;
  for (const RowGroup& rg : meta.row_groups) {
    s->row_group_starts_.push_back(start);
    start += rg.num_rows;
  }
  for (int f : request.fields) {
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
      auto c = LeafConverter::Make(schema.leaf(first + i), value_options);
      if (!c.ok()) {
        return std::move(c).TakeStatus().WithContext(s->file_->path() + ", column '" +
                                                     schema.leaf(first + i).DottedPath() + "'");
      }
      st->converters.push_back(std::move(c).value());
    }
    if (st->nested) {
      st->variant_blob = IsVariantBlob(*st->node, value_options);
      auto assembler = NestedJsonAssembler::Make(schema, *st->node, s->file_->options().memory,
                                                 st->variant_blob);
      if (!assembler.ok()) {
        return std::move(assembler).TakeStatus().WithContext(s->file_->path() + ", column '" +
                                                             st->node->DottedPath() + "'");
      }
      st->assembler = std::move(assembler).value();
    }
    s->fields_.push_back(std::move(st));
  }
  for (const RowGroupPlan& p : request.plan.row_groups) {
    if (p.row_group < 0 || p.row_group >= s->file_->num_row_groups()) {
      return Status::InvalidArgument("no row group " + std::to_string(p.row_group));
    }
    const int64_t rows = meta.row_groups[static_cast<size_t>(p.row_group)].num_rows;
    GroupPlan g;
    g.row_group = p.row_group;
    int64_t prev_end = 0;
    for (const RowRange& r : p.rows.ranges()) {
      if (r.begin < prev_end || r.end < r.begin) {
        return Status::InvalidArgument("row ranges of row group " + std::to_string(p.row_group) +
                                       " are not sorted and disjoint");
      }
      prev_end = r.end;
      const int64_t begin = std::max<int64_t>(r.begin, 0), end = std::min(r.end, rows);
      if (begin < end) g.spans.push_back({begin, end});
    }
    if (!g.spans.empty()) s->groups_.push_back(std::move(g));
  }
  if (request.filter) {
    for (const PredicateTerm& t : request.filter->terms) {
      for (size_t slot = 0; slot < request.fields.size(); ++slot) {
        if (request.fields[slot] != t.field) continue;
        Affinity affinity;
        if (static_cast<size_t>(t.field) < request.affinity.size()) {
          affinity = request.affinity[static_cast<size_t>(t.field)];
        } else {
          PQ_ASSIGN_OR_RETURN(std::string declared, DeclaredType(schema, t.field, value_options));
          affinity = AffinityOfDeclaredType(declared);
        }
        s->fields_[slot]->filter = true;
        TermMatcher matcher(t, affinity);
        const bool null_matches = matcher.Matches(Cell{});
        Term term{static_cast<int>(slot), std::move(matcher), null_matches, nullptr, {}, 0};
        s->terms_.push_back(std::move(term));
        break;
      }
    }
    // A flat field read by one term alone can have its dictionary indices probed for that term.
    std::vector<int> terms_of(s->fields_.size(), 0);
    for (const Term& t : s->terms_) ++terms_of[static_cast<size_t>(t.slot)];
    for (size_t i = 0; i < s->terms_.size(); ++i) {
      FieldState& f = *s->fields_[static_cast<size_t>(s->terms_[i].slot)];
      if (!f.nested && terms_of[static_cast<size_t>(s->terms_[i].slot)] == 1) f.probe_term = static_cast<int>(i);
    }
  }
  return s;
}

Result<bool> TableScanner::OpenNextGroup() {
  CloseGroup();
  if (next_group_ >= groups_.size()) return false;
  const GroupPlan& g = groups_[next_group_++];
  group_ = &g;
  group_rows_ = file_->metadata().row_groups[static_cast<size_t>(g.row_group)].num_rows;
  span_ = 0;
  pos_ = 0;
  group_planned_rows_ = 0;
  for (const RowRange& s : g.spans) group_planned_rows_ += s.end - s.begin;
  // Masks belong to the closed group's dictionaries (a new one may reuse their memory).
  for (Term& t : terms_) t.mask_dictionary = nullptr;
  if (file_->file().remote() && next_group_ - 1 >= offsets_prefetched_) {
    PQ_RETURN_IF_ERROR(PrefetchOffsetIndexes(next_group_ - 1));
  }
  for (auto& f : fields_) {
    f->next_row = 0;
    for (int i = 0; i < f->num_leaves; ++i) {
      PQ_ASSIGN_OR_RETURN(auto r, ColumnChunkReader::Make(file_, g.row_group, f->first_leaf + i));
      PQ_RETURN_IF_ERROR(r->PlanReads(g.spans));
      r->set_keep_dictionary_indices(f->filter && !f->nested);
      // A column only handed on (no filter reads it) as text: its values as C strings (Bytes).
      r->set_c_strings(!f->filter && !f->nested && !f->converters.empty() &&
                       f->converters[0].kind() == LeafConverter::Kind::kText);
      if (f->probe_term >= 0) {
        Term* t = &terms_[static_cast<size_t>(f->probe_term)];
        FieldState* field = f.get();
        r->set_dictionary_probe([this, t, field](const ColumnBatch& b) { return DictionaryProbeFor(*t, *field, b); });
      }
      f->readers.push_back(std::move(r));
    }
  }
  ++stats_.row_groups_read;
  others_fetched_ = true;
  if (file_->file().remote()) {
    // Every read is a round trip: the ranges of the row group's columns go out together. With a
    // filter over the whole row group, only its fields' now; the others once rows survive it
    // (Materialize), since often none does.
    const bool narrowed = group_planned_rows_ < group_rows_;
    const bool all = terms_.empty() || narrowed;
    PQ_RETURN_IF_ERROR(FetchTogether(all ? FieldSet::kAll : FieldSet::kFilter));
    others_fetched_ = all;
  }
  group_batches_ = 0;
  TakePrefetch();
  return true;
}

void TableScanner::PrefetchNextGroup() {
  const ReaderOptions& options = file_->options();
  if (!options.task_pool || file_->file().remote() || !terms_.empty() || next_group_ >= groups_.size()) return;
  const GroupPlan& next = groups_[next_group_];
  int64_t planned = 0;
  for (const RowRange& r : next.spans) planned += r.end - r.begin;
  if (planned < file_->metadata().row_groups[static_cast<size_t>(next.row_group)].num_rows) return;
  auto p = std::make_shared<GroupPrefetch>();
  p->group = next_group_;
  int64_t total = 0;
  for (size_t slot = 0; slot < fields_.size(); ++slot) {
    const FieldState& f = *fields_[slot];
    for (int i = 0; i < f.num_leaves; ++i) {
      // The ranges the group's own readers will plan; any problem is theirs to report.
      auto r = ColumnChunkReader::Make(file_, next.row_group, f.first_leaf + i);
      if (!r.ok() || !(*r)->PlanReads(next.spans).ok()) return;
      auto planned_ranges = (*r)->PlannedRanges();
      if (!planned_ranges.ok()) return;
      for (const ByteRange& b : *planned_ranges) {
        if (b.length <= 0) continue;
        p->ranges.push_back(b);
        p->owners.emplace_back(slot, static_cast<size_t>(i));
        total += b.length;
      }
    }
  }
  if (p->ranges.empty() || total > kMaxPrefetchBytes) return;
  p->budget = options.memory;
  if (p->budget) {
    // Far from the limit only: what the scan holds beyond it must never be what makes it fail.
    const int64_t limit = p->budget->limit();
    if (limit > 0 && total > limit / 16) return;
    if (!p->budget->Reserve(total, "reading the next row group ahead").ok()) return;
    if (limit > 0 && p->budget->used() > limit / 4) {
      p->budget->Release(total);
      return;
    }
  }
  p->reserved = total;
  prefetch_ = p;
  // The task holds no reference to the file: the last one would close the file, and with it the
  // pool, on the pool's own thread. The scanner holds it until the task is cancelled or done.
  const RandomAccessFile* file = &file_->file();
  options.task_pool->Submit([p, file] {
    if (!ClaimWork(p->claimed)) return;  // cancelled
    Status s = file->ReadRanges(p->ranges, &p->bytes);
    std::lock_guard<std::mutex> lock(p->mu);
    p->status = std::move(s);
    p->done.store(true, std::memory_order_release);
    p->finished.notify_all();
  });
}

void TableScanner::AwaitPrefetch(GroupPrefetch& p) {
  auto done = [&] { return p.done.load(std::memory_order_acquire); };
  if (SpinUntil(done)) return;
  std::unique_lock<std::mutex> lock(p.mu);
  p.finished.wait(lock, done);
}

void TableScanner::ReleasePrefetch(GroupPrefetch& p) {
  p.bytes.clear();
  if (p.budget) p.budget->Release(p.reserved);
  p.reserved = 0;
}

void TableScanner::DropPrefetch(GroupPrefetch& p) {
  if (!ClaimWork(p.claimed)) AwaitPrefetch(p);  // under way or done: its bytes are charged until they go
  ReleasePrefetch(p);
}

void TableScanner::TakePrefetch() {
  if (!prefetch_) return;
  std::shared_ptr<GroupPrefetch> p = std::move(prefetch_);
  if (ClaimWork(p->claimed)) {
    ReleasePrefetch(*p);  // no worker started it: the readers read for themselves
    return;
  }
  AwaitPrefetch(*p);
  // Another row group (the scan skipped this one), or a read that failed (the readers read again and
  // report what they find): nothing to hand over.
  if (p->group + 1 != next_group_ || !p->status.ok() || p->bytes.size() != p->ranges.size()) {
    ReleasePrefetch(*p);
    return;
  }
  for (size_t k = 0; k < p->ranges.size(); ++k) {
    const auto [slot, leaf] = p->owners[k];
    fields_[slot]->readers[leaf]->Provide(p->ranges[k].offset, ChargedBuffer(std::move(p->bytes[k]), p->budget));
  }
  p->reserved = 0;  // now charged to the buffers
}

Status TableScanner::PrefetchOffsetIndexes(size_t from) {
  // Enough for the indexes of thousands of chunks in one request; a scan cut short by a LIMIT
  // fetches at most this much for row groups it never opens.
  constexpr int64_t kBudget = int64_t{1} << 20;
  std::vector<int> leaves;
  for (const auto& f : fields_) {
    for (int i = 0; i < f->num_leaves; ++i) leaves.push_back(f->first_leaf + i);
  }
  std::vector<int> row_groups;
  int64_t bytes = 0;
  size_t end = from;
  for (; end < groups_.size(); ++end) {
    const RowGroup& rg = file_->metadata().row_groups[static_cast<size_t>(groups_[end].row_group)];
    int64_t b = 0;
    for (int leaf : leaves) {
      if (static_cast<size_t>(leaf) >= rg.columns.size()) continue;
      const ColumnChunk& c = rg.columns[static_cast<size_t>(leaf)];
      if (c.offset_index_length) b += std::max<int64_t>(*c.offset_index_length, 0);
    }
    if (!row_groups.empty() && bytes + b > kBudget) break;
    bytes += b;
    row_groups.push_back(groups_[end].row_group);
  }
  offsets_prefetched_ = end;
  return ChunkIndexReader::PrefetchOffsetIndexes(*file_, row_groups, leaves, &stats_.bytes_read)
      .WithContext(file_->path());
}

Status TableScanner::FetchTogether(FieldSet which) {
  std::vector<ByteRange> ranges;
  std::vector<ColumnChunkReader*> owners;
  for (auto& f : fields_) {
    if (which == FieldSet::kFilter && !f->filter) continue;
    if (which == FieldSet::kOthers && f->filter) continue;
    for (auto& r : f->readers) {
      PQ_ASSIGN_OR_RETURN(std::vector<ByteRange> planned, r->PlannedRanges());
      for (const ByteRange& b : planned) {
        if (b.length <= 0) continue;
        ranges.push_back(b);
        owners.push_back(r.get());
      }
    }
  }
  if (ranges.empty()) return Status::OK();
  int64_t total = 0;
  for (const ByteRange& b : ranges) total += b.length;
  // Charged to the table's memory budget like the readers' own reads; when it does not fit, the
  // readers read for themselves (and hit the limit there, with their own message, if at all).
  const std::shared_ptr<MemoryBudget>& budget = file_->options().memory;
  if (budget && !budget->Reserve(total, "reading a row group's column chunks").ok()) return Status::OK();
  std::vector<BufferPtr> bytes;
  Status read = file_->file().ReadRanges(ranges, &bytes);
  if (!read.ok()) {
    if (budget) budget->Release(total);
    return read.WithContext(file_->path() + ", row group " + std::to_string(group_->row_group));
  }
  for (size_t i = 0; i < ranges.size(); ++i) {
    owners[i]->Provide(ranges[i].offset, ChargedBuffer(std::move(bytes[i]), budget));
  }
  return Status::OK();
}

void TableScanner::CloseGroup() {
  if (!group_) return;
  stats_.rows_skipped += group_rows_ - pos_;
  for (auto& f : fields_) {
    for (auto& r : f->readers) {
      stats_.pages_read += r->pages_read();
      stats_.pages_skipped += r->pages_skipped();
      stats_.pages_from_cache += r->pages_from_cache();
      stats_.pages_read_ahead += r->pages_read_ahead();
      stats_.bytes_read += r->bytes_read();
      stats_.values_decoded += r->values_decoded();
    }
    f->readers.clear();
  }
  group_ = nullptr;
}

const ScanCounters& TableScanner::stats() const {
  live_stats_ = stats_;
  for (const auto& f : fields_) {
    for (const auto& r : f->readers) {
      live_stats_.pages_read += r->pages_read();
      live_stats_.pages_skipped += r->pages_skipped();
      live_stats_.pages_from_cache += r->pages_from_cache();
      live_stats_.pages_read_ahead += r->pages_read_ahead();
      live_stats_.bytes_read += r->bytes_read();
      live_stats_.values_decoded += r->values_decoded();
    }
  }
  return live_stats_;
}

Status TableScanner::ReadField(FieldState& f, std::span<const RowRange> spans) {
  for (ColumnBatch& b : f.batches) b.Clear();
  int64_t records = 0;
  for (const RowRange& s : spans) {
    const int64_t gap = s.begin - f.next_row;
    const int64_t want = s.end - s.begin;
    for (int i = 0; i < f.num_leaves; ++i) {
      ColumnChunkReader& r = *f.readers[static_cast<size_t>(i)];
      if (gap > 0) {
        PQ_ASSIGN_OR_RETURN(int64_t skipped, r.SkipRecords(gap));
        (void)skipped;  // a short skip shows in the position below
      }
      int64_t got = 0;
      if (r.position() == s.begin) {
        PQ_ASSIGN_OR_RETURN(got, r.ReadRecords(want, &f.batches[static_cast<size_t>(i)]));
      }
      if (got != want || r.position() != s.end) {
        return Status::Corruption("column chunk ends after " + std::to_string(r.position()) +
                                  " rows, the row group has " + std::to_string(group_rows_))
            .WithContext(ColumnContext(*file_, group_->row_group, r.leaf()));
      }
    }
    f.next_row = s.end;
    records += want;
  }
  if (!f.nested) return Status::OK();
  std::vector<LeafLevels> leaves(static_cast<size_t>(f.num_leaves));
  for (int i = 0; i < f.num_leaves; ++i) {
    const ColumnBatch& b = f.batches[static_cast<size_t>(i)];
    const LeafConverter& conv = f.converters[static_cast<size_t>(i)];
    const SchemaNode& leaf = file_->schema().leaf(f.first_leaf + i);
    LeafLevels& l = leaves[static_cast<size_t>(i)];
    l.def_levels = leaf.max_definition_level > 0 ? b.def_levels.data() : nullptr;
    l.rep_levels = leaf.max_repetition_level > 0 ? b.rep_levels.data() : nullptr;
    l.num_levels = b.num_levels;
    l.num_values = b.num_values;
    if (conv.kind() == LeafConverter::Kind::kInteger && b.type == PhysicalType::kInt64) {
      l.int64_values = b.i64.data();
    } else if (conv.kind() == LeafConverter::Kind::kInteger && b.type == PhysicalType::kInt32) {
      l.int32_values = b.i32.data();
    } else {
      l.append_value_json = [&b, &conv](int64_t k, std::string* out) {
        VisitValue(b, k, [&](const auto& v) { conv.AppendJson(v, out); });
      };
    }
    if (l.int64_values == nullptr && l.int32_values == nullptr) l.max_value_json = MaxValueJson(b, conv);
    l.value_bytes = [&b](int64_t k) {
      return VisitValue(b, k, [](const auto& v) { return LeafValueBytes(v); });
    };
  }
  f.json.Clear();
  f.assembler->set_max_record_bytes(max_value_bytes_);
  Status s = f.assembler->Assemble(leaves, records, &f.json);
  if (!s.ok()) {
    std::string where = file_->path() + ", row group " + std::to_string(group_->row_group) + ", column '" +
                        f.node->DottedPath() + "'";
    // The row of the record the error names: record k of the batch is the k-th row of the spans.
    int64_t k = f.assembler->failed_record();
    for (const RowRange& span : spans) {
      if (k < 0) break;
      if (k < span.end - span.begin) {
        where += ", row " + std::to_string(row_group_starts_[static_cast<size_t>(group_->row_group)] + span.begin + k);
        break;
      }
      k -= span.end - span.begin;
    }
    return std::move(s).WithContext(where);
  }
  return Status::OK();
}

namespace {

// The cell of row k of a field's batches (k indexes the rows read, not the batch's rows).
Cell FieldCell(const SchemaNode& node, bool nested, bool blob,
               const std::vector<ColumnBatch>& batches, const std::vector<LeafConverter>& converters,
               const JsonColumn& json, int64_t k, std::string* scratch) {
  if (nested) {
    if (json.is_null[static_cast<size_t>(k)]) return Cell{};
    Cell c;
    c.type = blob ? CellType::kBlob : CellType::kText;
    c.bytes = json.at(k);
    return c;
  }
  const ColumnBatch& b = batches[0];
  if (node.max_definition_level > 0 && !b.value_index.empty()) {  // empty: no NULL, slot k
    k = b.value_index[static_cast<size_t>(k)];
    if (k < 0) return Cell{};
  }
  const LeafConverter& conv = converters[0];
  return VisitValue(b, k, [&](const auto& v) { return conv.Convert(v, scratch); });
}

}  // namespace

bool TableScanner::EnsureDictionaryMask(Term& t, const FieldState& f, const ColumnBatch& b) {
  if (t.mask_dictionary == b.dictionary) return true;
  // One evaluation per entry pays when the entries are no more than the rows the plan reads.
  if (b.dictionary_size > group_planned_rows_ || b.dictionary_size > INT32_MAX) return false;
  t.mask_matches = BuildDictionaryMask(b, f.converters[0], t.matcher, &t.mask, &filter_scratch_);
  t.mask_dictionary = b.dictionary;
  t.mask_only = -1;
  if (t.mask_matches == 1) {
    t.mask_only = static_cast<const uint8_t*>(std::memchr(t.mask.data(), 1, t.mask.size())) - t.mask.data();
  }
  return true;
}

std::optional<ColumnChunkReader::DictionaryProbe> TableScanner::DictionaryProbeFor(
    Term& t, const FieldState& f, const ColumnBatch& b) {
  if (t.null_matches || !EnsureDictionaryMask(t, f, b)) return std::nullopt;
  // Every entry satisfying the term leaves nothing to find.
  if (t.mask_matches > 1 || t.mask_matches == b.dictionary_size) return std::nullopt;
  ColumnChunkReader::DictionaryProbe p;
  p.target = t.mask_only;
  p.other = static_cast<uint32_t>(std::find(t.mask.begin(), t.mask.end(), uint8_t{0}) - t.mask.begin());
  return p;
}

int64_t TableScanner::FilterByDictionary(Term& t, ColumnBatch& b, int32_t* sel, size_t n, bool dense) {
  const FieldState& f = *fields_[static_cast<size_t>(t.slot)];
  if (!EnsureDictionaryMask(t, f, b)) {
    b.GatherDictionary();
    return -1;
  }
  const int32_t* vi = b.value_index.empty() ? nullptr : b.value_index.data();  // empty: no NULL
  if (t.mask_matches == 0 && !t.null_matches) return 0;
  // A probed batch with no target has no row satisfying the term (probes are for terms NULL fails).
  if (b.probe_found == 0) return 0;
  if (t.mask_matches == b.dictionary_size && (!vi || t.null_matches)) {
    if (dense) std::iota(sel, sel + n, 0);
    return static_cast<int64_t>(n);
  }
  return static_cast<int64_t>(
      FilterByMask(sel, n, b.dict_indices.data(), vi, t.mask.data(), t.null_matches, dense, t.mask_only));
}

int64_t TableScanner::PendingRows() const {
  if (!pending_) return 0;
  return selected_all_ ? decoded_ : static_cast<int64_t>(selection_.size() - selection_begin_);
}

Result<bool> TableScanner::FillBatch() {
  segments_.clear();
  segment_first_.clear();
  decoded_ = 0;
  while (decoded_ < batch_rows_) {
    if (!group_ || span_ >= group_->spans.size()) {
      if (decoded_ > 0) break;  // a batch stays within one row group
      PQ_ASSIGN_OR_RETURN(bool opened, OpenNextGroup());
      if (!opened) return false;
      continue;
    }
    const RowRange& s = group_->spans[span_];
    const int64_t begin = std::max(pos_, s.begin);
    if (begin >= s.end) {
      ++span_;
      continue;
    }
    stats_.rows_skipped += begin - pos_;
    const int64_t take = std::min(s.end - begin, batch_rows_ - decoded_);
    if (!segments_.empty() && segments_.back().end == begin) {
      segments_.back().end += take;
    } else {
      segments_.push_back({begin, begin + take});
      segment_first_.push_back(decoded_);
    }
    decoded_ += take;
    pos_ = begin + take;
    if (pos_ == s.end) ++span_;
  }
  batch_group_first_row_ = row_group_starts_[static_cast<size_t>(group_->row_group)];
  selection_begin_ = 0;
  selected_all_ = true;
  pending_ = true;
  if (terms_.empty()) return true;

  for (auto& f : fields_) {
    if (f->filter) PQ_RETURN_IF_ERROR(ReadField(*f, segments_));
  }
  selection_.resize(static_cast<size_t>(decoded_));
  int32_t* sel = selection_.data();
  size_t n = static_cast<size_t>(decoded_);
  // sel[0..n) holds the surviving rows once sel_ready. Until a term drops a row they are all the
  // decoded rows, which the plain-value filter does not need written out (`dense`): the others
  // get them written first.
  bool sel_ready = false;
  auto ready = [&] {
    if (!sel_ready) std::iota(sel, sel + n, 0);
    sel_ready = true;
  };
  for (Term& t : terms_) {
    FieldState& f = *fields_[static_cast<size_t>(t.slot)];
    int64_t plain = -1;
    if (!f.nested) {
      ColumnBatch& b = f.batches[0];
      if (b.dictionary) {
        plain = FilterByDictionary(t, b, sel, n, /*dense=*/!sel_ready);
        if (plain >= 0) sel_ready = true;
      }
      if (!b.dictionary) {
        // A batch without NULL has value slot r for row r: no index needed.
        const bool has_null = f.node->max_definition_level > 0 && b.num_values != b.num_levels;
        const int32_t* vi = has_null ? b.value_index.data() : nullptr;
        plain = FilterPlainValues(b.type, ValueArray(b), vi, f.converters[0], t.matcher, sel, n,
                                  /*dense=*/!sel_ready);
        // It wrote out the rows it kept; when it kept them all, that is every row.
        if (plain >= 0) sel_ready = true;
      }
    }
    if (plain >= 0) {
      n = static_cast<size_t>(plain);
    } else {
      ready();
      size_t kept = 0;
      for (size_t i = 0; i < n; ++i) {
        const int32_t row = sel[i];
        Cell c = FieldCell(*f.node, f.nested, f.variant_blob, f.batches, f.converters, f.json, row, &filter_scratch_);
        if (t.matcher.Matches(c)) sel[kept++] = row;
      }
      n = kept;
    }
    if (n == 0) break;
  }
  selection_.resize(n);
  stats_.rows_filtered += decoded_ - static_cast<int64_t>(n);
  selected_all_ = static_cast<int64_t>(n) == decoded_;
  return true;
}

Status TableScanner::Materialize() {
  if (!others_fetched_) {
    others_fetched_ = true;
    PQ_RETURN_IF_ERROR(FetchTogether(FieldSet::kOthers));
  }
  const int64_t survivors = PendingRows();
  batch_selection_ = selected_all_ ? nullptr : selection_.data() + selection_begin_;
  bool run_by_run = false;
  if (batch_selection_) {
    // The surviving rows as spans of row group rows (selection and segments both increase).
    runs_.clear();
    size_t seg = 0;
    for (int64_t i = 0; i < survivors; ++i) {
      const int64_t d = batch_selection_[i];
      while (seg + 1 < segments_.size() && segment_first_[seg + 1] <= d) ++seg;
      const int64_t row = segments_[seg].begin + (d - segment_first_[seg]);
      if (!runs_.empty() && runs_.back().end == row) {
        ++runs_.back().end;
      } else {
        runs_.push_back({row, row + 1});
      }
    }
    run_by_run = ReadRunByRun(runs_.size(), decoded_, survivors);
  }
  for (auto& f : fields_) {
    if (f->filter) {
      // A dictionary-coded filter field gathers the values of the surviving rows only.
      ColumnBatch& b = f->batches[0];
      if (!f->nested && b.dictionary) {
        if (batch_selection_) {
          b.GatherDictionaryRows(batch_selection_, static_cast<size_t>(survivors));
        } else {
          b.GatherDictionary();
        }
      }
      f->row_map = batch_selection_;
    } else if (run_by_run) {
      PQ_RETURN_IF_ERROR(ReadField(*f, runs_));
      f->row_map = nullptr;
    } else {
      PQ_RETURN_IF_ERROR(ReadField(*f, segments_));
      f->row_map = batch_selection_;
    }
  }
  batch_size_ = survivors;
  batch_first_row_ = RowNumber(0);
  stats_.rows_produced += survivors;
  return Status::OK();
}

Result<int64_t> TableScanner::NextBatch() {
  batch_size_ = 0;
  batch_selection_ = nullptr;
  while (true) {
    if (!pending_) {
      PQ_ASSIGN_OR_RETURN(bool more, FillBatch());
      if (!more) return 0;
    }
    if (PendingRows() == 0) {
      pending_ = false;  // no row passed: the other fields will skip these rows when they next read
      PQ_RETURN_IF_ERROR(CheckInterrupt());
      continue;
    }
    Status s = Materialize();
    pending_ = false;
    PQ_RETURN_IF_ERROR(s);
    // From the row group's second batch on, the scan is not one that a LIMIT stops at once: worth
    // reading the next row group ahead for.
    if (++group_batches_ == 2) PrefetchNextGroup();
    return batch_size_;
  }
}

Status TableScanner::CheckInterrupt() const {
  if (interrupted_ && interrupted_()) return Status::Interrupted("'" + file_->path() + "': interrupted");
  return Status::OK();
}

Result<int64_t> TableScanner::SkipRows(int64_t n) {
  batch_size_ = 0;
  batch_selection_ = nullptr;
  int64_t skipped = 0;
  while (skipped < n) {
    if (pending_) {
      const int64_t left = PendingRows();
      const int64_t k = std::min(n - skipped, left);
      if (selected_all_ && k > 0) {
        selection_.resize(static_cast<size_t>(decoded_));
        std::iota(selection_.data(), selection_.data() + decoded_, 0);
        selected_all_ = false;
      }
      selection_begin_ += static_cast<size_t>(k);
      skipped += k;
      stats_.rows_skipped += k;
      if (k == left) pending_ = false;
      continue;
    }
    if (!terms_.empty()) {
      PQ_RETURN_IF_ERROR(CheckInterrupt());
      PQ_ASSIGN_OR_RETURN(bool more, FillBatch());
      if (!more) break;
      continue;
    }
    if (!group_ || span_ >= group_->spans.size()) {
      CloseGroup();
      // Row groups whose rows all go are passed without opening them.
      while (next_group_ < groups_.size()) {
        const GroupPlan& g = groups_[next_group_];
        int64_t wanted = 0;
        for (const RowRange& s : g.spans) wanted += s.end - s.begin;
        if (wanted > n - skipped) break;
        skipped += wanted;
        stats_.rows_skipped += file_->metadata().row_groups[static_cast<size_t>(g.row_group)].num_rows;
        ++next_group_;
      }
      if (skipped == n) break;
      PQ_ASSIGN_OR_RETURN(bool opened, OpenNextGroup());
      if (!opened) break;
      continue;
    }
    const RowRange& s = group_->spans[span_];
    const int64_t begin = std::max(pos_, s.begin);
    if (begin >= s.end) {
      ++span_;
      continue;
    }
    const int64_t take = std::min(s.end - begin, n - skipped);
    stats_.rows_skipped += begin + take - pos_;
    pos_ = begin + take;
    skipped += take;
    if (pos_ == s.end) ++span_;
  }
  return skipped;
}

int64_t TableScanner::RowNumber(int64_t row) const {
  const int64_t d = batch_selection_ ? batch_selection_[row] : row;
  size_t seg = 0;
  if (segments_.size() > 1) {
    seg = static_cast<size_t>(
        std::upper_bound(segment_first_.begin(), segment_first_.end(), d) - segment_first_.begin() - 1);
  }
  return batch_group_first_row_ + segments_[seg].begin + (d - segment_first_[seg]);
}

TableScanner::NumberColumn TableScanner::Numbers(int slot) const {
  NumberColumn out;
  const FieldState& f = *fields_[static_cast<size_t>(slot)];
  if (f.nested || f.batches.empty() || f.converters.empty()) return out;
  const ColumnBatch& b = f.batches[0];
  const LeafConverter::Kind kind = f.converters[0].kind();
  using K = NumberColumn::Kind;
  if (b.type == PhysicalType::kInt32 && kind == LeafConverter::Kind::kInteger) {
    out.kind = K::kInt32;
    out.values = b.i32.data();
  } else if (b.type == PhysicalType::kInt64 && kind == LeafConverter::Kind::kInteger) {
    out.kind = K::kInt64;
    out.values = b.i64.data();
  } else if (b.type == PhysicalType::kFloat && kind == LeafConverter::Kind::kReal) {
    out.kind = K::kFloat;
    out.values = b.f32.data();
  } else if (b.type == PhysicalType::kDouble && kind == LeafConverter::Kind::kReal) {
    out.kind = K::kDouble;
    out.values = b.f64.data();
  } else {
    return out;
  }
  // A batch without NULLs has value slot k for row k: no index needed.
  if (f.node->max_definition_level > 0 && b.num_values != b.num_records) out.value_index = b.value_index.data();
  out.row_map = f.row_map;
  return out;
}

TableScanner::BytesColumn TableScanner::Bytes(int slot) const {
  BytesColumn out;
  const FieldState& f = *fields_[static_cast<size_t>(slot)];
  if (f.nested || f.batches.empty() || f.converters.empty()) return out;
  const ColumnBatch& b = f.batches[0];
  if (b.type != PhysicalType::kByteArray && b.type != PhysicalType::kFixedLenByteArray) return out;
  const LeafConverter::Kind kind = f.converters[0].kind();
  if (kind != LeafConverter::Kind::kText && kind != LeafConverter::Kind::kBlob) return out;
  out.text = kind == LeafConverter::Kind::kText;
  out.terminated = b.c_strings;
  out.values = b.bytes.data();
  if (f.node->max_definition_level > 0 && b.num_values != b.num_records) out.value_index = b.value_index.data();
  out.row_map = f.row_map;
  return out;
}

namespace {
// ConvertBatch writes text of at most this many bytes a value in place (a DECIMAL's scale makes it
// longer: such columns go value by value).
constexpr size_t kMaxDirectTextRoom = 128;
}  // namespace

TableScanner::ConvertedColumn TableScanner::ConvertBatch(int slot, ConvertedStorage* storage) const {
  ConvertedColumn out;
  const FieldState& f = *fields_[static_cast<size_t>(slot)];
  ConvertedStorage& s = *storage;
  if (f.nested && !f.row_map) {  // the batch's JSON (or Variant) values, one per row
    const JsonColumn& j = f.json;
    const auto n = static_cast<size_t>(j.size());
    s.bytes.resize(n);
    s.index.clear();
    const auto* base = reinterpret_cast<const uint8_t*>(j.arena.data());
    for (size_t r = 0; r < n; ++r) {
      if (j.is_null[r] && s.index.empty()) {
        s.index.resize(n);
        for (size_t q = 0; q < r; ++q) s.index[q] = static_cast<int32_t>(q);
      }
      if (!s.index.empty()) s.index[r] = j.is_null[r] ? -1 : static_cast<int32_t>(r);
      s.bytes[r] = ByteArray{base + j.offsets[r], j.length(static_cast<int64_t>(r))};
    }
    out.type = f.variant_blob ? CellType::kBlob : CellType::kText;
    out.terminated = !f.variant_blob && j.terminator != 0;
    out.values = s.bytes.data();
    out.value_index = s.index.empty() ? nullptr : s.index.data();
    return out;
  }
  if (f.nested || f.variant_blob || f.row_map || f.batches.empty() || f.converters.empty()) return out;
  const ColumnBatch& b = f.batches[0];
  if (b.dictionary != nullptr || b.num_values <= 0) return out;
  const LeafConverter& conv = f.converters[0];
  const auto n = static_cast<size_t>(b.num_values);
  using LK = LeafConverter::Kind;
  const LK kind = conv.kind();
  // Text of these kinds is digits, signs and separators: never a NUL, so it can end with one.
  const bool terminate = kind == LK::kDecimalText || kind == LK::kUuid || kind == LK::kDate ||
                         kind == LK::kTime || kind == LK::kTimestampText || kind == LK::kInt96Text ||
                         kind == LK::kInterval;
  const size_t room = conv.TextRoom();
  // Text of a known room is charged for all of the batch at once; other values as they come.
  const std::shared_ptr<MemoryBudget>& budget = file_->options().memory;
  auto charged = [&](size_t bytes) {
    return s.charge.Set(budget, static_cast<int64_t>(bytes), "converted values").ok();
  };
  if (room > 0 && !charged(std::max(s.arena.capacity(), n * (room + 1)))) return out;
  if (room > 0 && room <= kMaxDirectTextRoom) {
    // Decimals, dates, times and timestamps of INT32/INT64 values: each written in place, then a NUL.
    // The arena and the texts only grow (resizing them anew each batch wrote zeroes over both).
    if (s.arena.size() < n * (room + 1)) s.arena.resize(n * (room + 1));
    if (s.bytes.size() < n) s.bytes.resize(n);
    if (b.type == PhysicalType::kInt32) {
      conv.WriteTexts(b.i32.data(), n, s.arena.data(), s.bytes.data());
    } else {
      conv.WriteTexts(b.i64.data(), n, s.arena.data(), s.bytes.data());
    }
    out.type = CellType::kText;
    out.values = s.bytes.data();
    out.terminated = true;
    if (f.node->max_definition_level > 0 && b.num_values != b.num_records) out.value_index = b.value_index.data();
    return out;
  }
  s.integers.clear();
  s.reals.clear();
  s.bytes.clear();
  s.ends.clear();
  s.arena.clear();
  CellType type = CellType::kNull;
  for (size_t k = 0; k < n; ++k) {
    const Cell c = VisitValue(b, static_cast<int64_t>(k), [&](const auto& v) { return conv.Convert(v, &s.scratch); });
    if (k == 0) {
      type = c.type;
      if (type == CellType::kNull) return out;
    } else if (c.type != type) {
      return out;
    }
    switch (c.type) {
      case CellType::kInteger: s.integers.push_back(c.i); break;
      case CellType::kReal: s.reals.push_back(c.d); break;
      case CellType::kText:
      case CellType::kBlob:
        if (room == 0 && s.arena.size() + c.bytes.size() + 1 > static_cast<size_t>(s.charge.bytes()) &&
            !charged(2 * (s.arena.size() + c.bytes.size() + 1))) {
          return out;
        }
        s.arena.append(c.bytes);
        s.ends.push_back(s.arena.size());
        if (terminate) s.arena.push_back('\0');
        break;
      case CellType::kNull: return out;
    }
  }
  switch (type) {
    case CellType::kInteger: out.values = s.integers.data(); break;
    case CellType::kReal: out.values = s.reals.data(); break;
    default: {
      s.bytes.resize(n);
      const auto* base = reinterpret_cast<const uint8_t*>(s.arena.data());
      const size_t gap = terminate ? 1 : 0;  // the NUL after each value
      size_t begin = 0;
      for (size_t k = 0; k < n; ++k) {
        s.bytes[k] = ByteArray{base + begin, static_cast<uint32_t>(s.ends[k] - begin)};
        begin = s.ends[k] + gap;
      }
      out.values = s.bytes.data();
      out.terminated = terminate && type == CellType::kText;
      break;
    }
  }
  out.type = type;
  if (f.node->max_definition_level > 0 && b.num_values != b.num_records) out.value_index = b.value_index.data();
  return out;
}

Cell TableScanner::GetCell(int slot, int64_t row, std::string* scratch) const {
  const FieldState& f = *fields_[static_cast<size_t>(slot)];
  if (f.row_map) row = f.row_map[row];
  return FieldCell(*f.node, f.nested, f.variant_blob, f.batches, f.converters, f.json, row, scratch);
}

}  // namespace pq
