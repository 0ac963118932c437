#include "format/geo/wkt.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

#include "format/geo/wkb.h"

namespace pq::geo {

namespace {

class WktParser {
 public:
  WktParser(std::string_view text, std::string* out) : s_(text), w_(out) {}

  Status Run() {
    PQ_RETURN_IF_ERROR(Geometry(0, nullptr));
    SkipSpace();
    if (i_ != s_.size()) return Error("text after the geometry");
    return Status::OK();
  }

 private:
  Status Error(const std::string& what) const {
    return Status::InvalidArgument("WKT at offset " + std::to_string(i_) + ": " + what);
  }
  void SkipSpace() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  // The next run of letters, upper-cased (empty when there is none); the position moves past it.
  std::string Word() {
    SkipSpace();
    std::string w;
    while (i_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[i_]))) {
      w.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(s_[i_]))));
      ++i_;
    }
    return w;
  }
  bool Peek(char c) {
    SkipSpace();
    return i_ < s_.size() && s_[i_] == c;
  }
  // Consumes a comma when one comes next.
  bool Comma() {
    if (!Peek(',')) return false;
    ++i_;
    return true;
  }
  Status Expect(char c) {
    if (!Peek(c)) return Error(std::string("expected '") + c + "'");
    ++i_;
    return Status::OK();
  }
  // EMPTY, when it comes next.
  bool Empty() {
    const size_t at = i_;
    if (Word() == "EMPTY") return true;
    i_ = at;
    return false;
  }

  Result<double> Number() {
    SkipSpace();
    const size_t start = i_;
    if (i_ < s_.size() && (s_[i_] == '-' || s_[i_] == '+')) ++i_;
    const size_t letters = i_;
    while (i_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[i_]))) ++i_;
    if (i_ > letters) {
      std::string w(s_.substr(letters, i_ - letters));
      for (char& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      const bool negative = s_[start] == '-';
      if (w == "nan") return std::numeric_limits<double>::quiet_NaN();
      if (w == "inf" || w == "infinity") {
        return negative ? -std::numeric_limits<double>::infinity()
                        : std::numeric_limits<double>::infinity();
      }
      i_ = start;
      return Error("expected a number");
    }
    i_ = start;
    if (i_ < s_.size() && s_[i_] == '+') ++i_;
    double v = 0;
    auto [p, ec] = std::from_chars(s_.data() + i_, s_.data() + s_.size(), v);
    if (p == s_.data() + i_ || (ec != std::errc() && ec != std::errc::result_out_of_range)) {
      return Error("expected a number");
    }
    i_ = static_cast<size_t>(p - s_.data());
    return v;
  }

  // One coordinate tuple of `d`.
  Status Point(Dimensions d) {
    for (int k = 0; k < CoordinateCount(d); ++k) {
      PQ_ASSIGN_OR_RETURN(double v, Number());
      w_.Coordinate(v);
    }
    if (Peek(',') || Peek(')')) return Status::OK();
    return Error("a point of " + std::to_string(CoordinateCount(d)) +
                 " coordinates has more (the dimension tag Z, M or ZM says how many)");
  }
  void EmptyPoint(Dimensions d) {
    for (int k = 0; k < CoordinateCount(d); ++k)
      w_.Coordinate(std::numeric_limits<double>::quiet_NaN());
  }

  // "(p, p, ...)" after which the count is written: the points of a line or a ring.
  Status PointList(Dimensions d) {
    const size_t at = w_.BeginCount();
    PQ_RETURN_IF_ERROR(Expect('('));
    uint32_t n = 0;
    do {
      PQ_RETURN_IF_ERROR(Point(d));
      ++n;
    } while (Comma());
    PQ_RETURN_IF_ERROR(Expect(')'));
    w_.EndCount(at, n);
    return Status::OK();
  }

  // The body of a polygon: "(ring, ring, ...)".
  Status RingList(Dimensions d) {
    const size_t at = w_.BeginCount();
    PQ_RETURN_IF_ERROR(Expect('('));
    uint32_t n = 0;
    do {
      PQ_RETURN_IF_ERROR(PointList(d));
      ++n;
    } while (Comma());
    PQ_RETURN_IF_ERROR(Expect(')'));
    w_.EndCount(at, n);
    return Status::OK();
  }

  // The body of a geometry of `kind` (after its tag; EMPTY handled here too).
  Status Body(GeometryKind kind, Dimensions d, int depth) {
    if (Empty()) {
      if (kind == GeometryKind::kPoint) {
        EmptyPoint(d);
      } else {
        w_.Count(0);
      }
      return Status::OK();
    }
    switch (kind) {
      case GeometryKind::kPoint:
        PQ_RETURN_IF_ERROR(Expect('('));
        PQ_RETURN_IF_ERROR(Point(d));
        return Expect(')');
      case GeometryKind::kLineString:
        return PointList(d);
      case GeometryKind::kPolygon:
        return RingList(d);
      default:
        break;
    }
    // Collections: "(child, child, ...)".
    const size_t at = w_.BeginCount();
    PQ_RETURN_IF_ERROR(Expect('('));
    uint32_t n = 0;
    do {
      if (kind == GeometryKind::kGeometryCollection) {
        PQ_RETURN_IF_ERROR(Geometry(depth + 1, &d));
      } else {
        const auto child = static_cast<GeometryKind>(static_cast<uint32_t>(kind) - 3);
        w_.Header(child, d);
        if (child == GeometryKind::kPoint && !Peek('(')) {
          // MULTIPOINT (1 2, 3 4) and MULTIPOINT (EMPTY, ...): points without parentheses.
          if (Empty()) {
            EmptyPoint(d);
          } else {
            PQ_RETURN_IF_ERROR(Point(d));
          }
        } else {
          PQ_RETURN_IF_ERROR(Body(child, d, depth + 1));
        }
      }
      ++n;
    } while (Comma());
    PQ_RETURN_IF_ERROR(Expect(')'));
    w_.EndCount(at, n);
    return Status::OK();
  }

  // A tagged geometry: KIND [Z|M|ZM] body. Nested in a collection of dimensions *parent.
  Status Geometry(int depth, const Dimensions* parent) {
    if (depth > kMaxWkbNesting) {
      return Error("geometries nested more than " + std::to_string(kMaxWkbNesting) + " deep");
    }
    const size_t at = i_;
    std::string word = Word();
    static constexpr std::pair<std::string_view, GeometryKind> kKinds[] = {
        {"POINT", GeometryKind::kPoint},
        {"LINESTRING", GeometryKind::kLineString},
        {"POLYGON", GeometryKind::kPolygon},
        {"MULTIPOINT", GeometryKind::kMultiPoint},
        {"MULTILINESTRING", GeometryKind::kMultiLineString},
        {"MULTIPOLYGON", GeometryKind::kMultiPolygon},
        {"GEOMETRYCOLLECTION", GeometryKind::kGeometryCollection},
    };
    std::string tag;
    const GeometryKind* kind = nullptr;
    for (const auto& [name, k] : kKinds) {
      if (word.rfind(name, 0) == 0 &&
          (word.size() == name.size() || word.substr(name.size()) == "Z" ||
           word.substr(name.size()) == "M" || word.substr(name.size()) == "ZM")) {
        kind = &k;
        tag = word.substr(name.size());
        break;
      }
    }
    if (kind == nullptr) {
      i_ = at;
      SkipSpace();
      return Error(word.empty() ? "expected a geometry type"
                                : "unknown geometry type '" + word + "'");
    }
    if (tag.empty()) {
      const size_t before = i_;
      const std::string next = Word();
      if (next == "Z" || next == "M" || next == "ZM") {
        tag = next;
      } else {
        i_ = before;
      }
    }
    Dimensions d = tag == "Z"    ? Dimensions::kXYZ
                   : tag == "M"  ? Dimensions::kXYM
                   : tag == "ZM" ? Dimensions::kXYZM
                                 : Dimensions::kXY;
    if (parent != nullptr) {
      if (tag.empty()) {
        d = *parent;
      } else if (d != *parent) {
        return Error("a geometry inside a collection has other dimensions than the collection");
      }
    }
    w_.Header(*kind, d);
    return Body(*kind, d, depth);
  }

  std::string_view s_;
  size_t i_ = 0;
  WkbWriter w_;
};

}  // namespace

Status WktToWkb(std::string_view text, std::string* out) {
  const size_t start = out->size();
  Status s = WktParser(text, out).Run();
  if (!s.ok()) out->resize(start);
  return s;
}

}  // namespace pq::geo
