#include "format/geo/wkb.h"

#include <cstring>

namespace pq::geo {

namespace {

Status Invalid(const std::string& what) {
  return Status::InvalidArgument("WKB: " + what);
}

// Reads geometries from one WKB value; each nested geometry names its own byte order.
class WkbScanner {
 public:
  WkbScanner(ByteSpan bytes, CoordinateBounds* bounds) : r_(bytes), bounds_(bounds) {}

  Result<uint32_t> Run() {
    PQ_ASSIGN_OR_RETURN(uint32_t code, Geometry(0, 0, nullptr));
    if (!r_.empty()) {
      return Invalid(std::to_string(r_.remaining()) + " bytes after the end of the geometry");
    }
    return code;
  }

 private:
  Result<uint32_t> U32() {
    PQ_ASSIGN_OR_RETURN(uint32_t v, r_.ReadLE<uint32_t>());
    return big_endian_ ? __builtin_bswap32(v) : v;
  }
  Result<double> F64() {
    PQ_ASSIGN_OR_RETURN(uint64_t bits, r_.ReadLE<uint64_t>());
    if (big_endian_) bits = __builtin_bswap64(bits);
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }

  // A count of items of at least `min_size` bytes each, checked against the bytes left.
  Result<uint32_t> Count(size_t min_size, const char* what) {
    PQ_ASSIGN_OR_RETURN(uint32_t n, U32());
    if (uint64_t{n} * min_size > r_.remaining()) {
      return Invalid(std::to_string(n) + " " + what + " cannot fit in the " +
                     std::to_string(r_.remaining()) + " bytes left");
    }
    return n;
  }

  Status Points(uint32_t n, Dimensions d) {
    const int count = CoordinateCount(d);
    for (uint32_t i = 0; i < n; ++i) {
      for (int k = 0; k < count; ++k) {
        PQ_ASSIGN_OR_RETURN(double v, F64());
        // Axes in order x, y, then z when present, then m.
        const int axis =
            k < 2 ? k : (k == 2 && HasZ(d) ? CoordinateBounds::kZ : CoordinateBounds::kM);
        bounds_->Add(axis, v);
      }
    }
    return Status::OK();
  }

  // One geometry. Nested ones (depth > 0) must be of kind `want_kind` (0: any) and of dimensions
  // *want_dims.
  Result<uint32_t> Geometry(int depth, uint32_t want_kind, const Dimensions* want_dims) {
    if (depth > kMaxWkbNesting) {
      return Invalid("geometries nested more than " + std::to_string(kMaxWkbNesting) + " deep");
    }
    PQ_ASSIGN_OR_RETURN(uint8_t order, r_.ReadU8());
    if (order > 1) return Invalid("byte order " + std::to_string(order) + " (0 or 1 expected)");
    big_endian_ = order == 0;
    PQ_ASSIGN_OR_RETURN(uint32_t code, U32());
    if (code & 0xE0000000u) {
      return Invalid("type code " + std::to_string(code) +
                     " has extended (PostGIS EWKB) flags; ISO WKB is expected");
    }
    const uint32_t kind = code % 1000;
    const uint32_t thousands = code / 1000;
    if (kind < 1 || kind > 7 || thousands > 3) {
      return Invalid("unknown geometry type code " + std::to_string(code));
    }
    const auto d = static_cast<Dimensions>(thousands);
    if (want_kind != 0 && kind != want_kind) {
      return Invalid("a collection of kind " + std::to_string(want_kind + 3) +
                     " holds a geometry of type " + std::to_string(code));
    }
    if (want_dims != nullptr && d != *want_dims) {
      return Invalid("a geometry of type " + std::to_string(code) +
                     " has other dimensions than the collection holding it");
    }
    const size_t point_size = 8 * static_cast<size_t>(CoordinateCount(d));
    switch (static_cast<GeometryKind>(kind)) {
      case GeometryKind::kPoint:
        PQ_RETURN_IF_ERROR(Points(1, d));
        break;
      case GeometryKind::kLineString: {
        PQ_ASSIGN_OR_RETURN(uint32_t n, Count(point_size, "points"));
        PQ_RETURN_IF_ERROR(Points(n, d));
        break;
      }
      case GeometryKind::kPolygon: {
        PQ_ASSIGN_OR_RETURN(uint32_t rings, Count(4, "rings"));
        for (uint32_t i = 0; i < rings; ++i) {
          PQ_ASSIGN_OR_RETURN(uint32_t n, Count(point_size, "points"));
          PQ_RETURN_IF_ERROR(Points(n, d));
        }
        break;
      }
      default: {  // the multi kinds and collections
        PQ_ASSIGN_OR_RETURN(uint32_t n, Count(5, "geometries"));
        const uint32_t child_kind = kind == 7 ? 0 : kind - 3;
        for (uint32_t i = 0; i < n; ++i) {
          PQ_RETURN_IF_ERROR(Geometry(depth + 1, child_kind, &d).status());
        }
        break;
      }
    }
    return code;
  }

  ByteReader r_;
  CoordinateBounds* bounds_;
  bool big_endian_ = false;
};

}  // namespace

Result<uint32_t> ScanWkb(ByteSpan wkb, CoordinateBounds* bounds) {
  return WkbScanner(wkb, bounds).Run();
}

void WkbWriter::Header(GeometryKind kind, Dimensions d) {
  out_->push_back('\x01');
  Count(TypeCode(kind, d));
}

void WkbWriter::Count(uint32_t n) {
  char b[4];
  std::memcpy(b, &n, sizeof b);  // little endian (byte_reader.h checks the target is)
  out_->append(b, sizeof b);
}

void WkbWriter::Coordinate(double v) {
  char b[8];
  std::memcpy(b, &v, sizeof b);
  out_->append(b, sizeof b);
}

size_t WkbWriter::BeginCount() {
  const size_t at = out_->size();
  Count(0);
  return at;
}

void WkbWriter::EndCount(size_t position, uint32_t n) {
  std::memcpy(out_->data() + position, &n, sizeof n);
}

}  // namespace pq::geo
