#include "ext/export_stats.h"

#include <optional>

#include "ext/metadata_values.h"
#include "format/schema/schema.h"
#include "format/util/json_writer.h"
#include "format/writer/statistics_builder.h"

namespace pq::ext {

namespace {

// A statistic as a JSON value (see the header).
void AppendStatisticJson(const SchemaNode& leaf, const std::string& bytes, std::string* out) {
  std::string scratch;
  const Cell c = StatisticValue(leaf, bytes, &scratch);
  switch (c.type) {
    case CellType::kInteger:
      AppendJsonInt(c.i, out);
      break;
    case CellType::kReal:
      AppendJsonDouble(c.d, out);
      break;
    case CellType::kText:
      AppendJsonString(c.bytes, out);
      break;
    case CellType::kBlob:
      AppendJsonBase64(c.bytes, out);
      break;
    default:
      AppendJsonNull(out);
      break;
  }
}

// One leaf's statistics over the row groups of a file.
struct Merged {
  bool null_count_known = true;
  int64_t null_count = 0;
  bool bounds_known = true;  // every chunk with values gave its bounds
  std::optional<std::string> min, max;
};

void AppendColumns(const FileMetaData& meta, std::string* out) {
  out->append("{");
  Result<std::shared_ptr<const Schema>> schema = Schema::Make(meta.schema);
  if (!schema.ok()) {
    out->append("}");
    return;
  }
  for (int leaf = 0; leaf < (*schema)->num_leaves(); ++leaf) {
    const SchemaNode& node = (*schema)->leaf(leaf);
    const SortOrder order = ColumnSortOrder(node);
    Merged m;
    for (const RowGroup& rg : meta.row_groups) {
      if (static_cast<size_t>(leaf) >= rg.columns.size() || !rg.columns[leaf].meta_data) continue;
      const ColumnMetaData& cm = *rg.columns[leaf].meta_data;
      const std::optional<Statistics>& st = cm.statistics;
      if (!st || !st->null_count) {
        m.null_count_known = false;
      } else {
        m.null_count += *st->null_count;
      }
      const bool has_values = !st || !st->null_count || *st->null_count < cm.num_values;
      if (!has_values) continue;
      if (order == SortOrder::kNone || !st || !st->min_value || !st->max_value) {
        m.bounds_known = false;
        continue;
      }
      if (!m.min || CompareStatValues(order, node.physical_type, *st->min_value, *m.min) < 0) {
        m.min = st->min_value;
      }
      if (!m.max || CompareStatValues(order, node.physical_type, *st->max_value, *m.max) > 0) {
        m.max = st->max_value;
      }
    }
    if (leaf > 0) out->push_back(',');
    AppendJsonString(node.DottedPath(), out);
    out->append(":{\"null_count\":");
    if (m.null_count_known) {
      AppendJsonInt(m.null_count, out);
    } else {
      AppendJsonNull(out);
    }
    if (m.bounds_known && m.min && m.max) {
      out->append(",\"min\":");
      AppendStatisticJson(node, *m.min, out);
      out->append(",\"max\":");
      AppendStatisticJson(node, *m.max, out);
    }
    out->push_back('}');
  }
  out->push_back('}');
}

}  // namespace

std::string ExportStatsJson(const std::string& base, const std::vector<ExportedFile>& files,
                            int64_t rows) {
  std::string out = "{\"rows\":";
  AppendJsonInt(rows, &out);
  out.append(",\"files\":[");
  for (size_t i = 0; i < files.size(); ++i) {
    const ExportedFile& f = files[i];
    if (i > 0) out.push_back(',');
    out.append("{\"path\":");
    AppendJsonString(base.empty() ? f.path : base + "/" + f.path, &out);
    out.append(",\"rows\":");
    AppendJsonInt(f.rows, &out);
    out.append(",\"bytes\":");
    AppendJsonInt(f.bytes, &out);
    out.append(",\"row_groups\":");
    AppendJsonInt(static_cast<int64_t>(f.metadata.row_groups.size()), &out);
    if (!f.partition.empty()) {
      out.append(",\"partition\":{");
      for (size_t k = 0; k < f.partition.size(); ++k) {
        if (k > 0) out.push_back(',');
        AppendJsonString(f.partition[k].first, &out);
        out.push_back(':');
        AppendJsonString(f.partition[k].second, &out);
      }
      out.push_back('}');
    }
    out.append(",\"columns\":");
    AppendColumns(f.metadata, &out);
    out.push_back('}');
  }
  out.append("]}");
  return out;
}

}  // namespace pq::ext
