#include "format/crypto/key_material.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include "format/value/json_writer.h"

namespace pq::crypto {
namespace {

// --- JSON ----------------------------------------------------------------------------------------
// Key material is one flat JSON object of strings and booleans. ReadFlatJsonObject is the one
// place that reads JSON text here: when the project has a single JSON reader, this is the function
// to point at it.

struct JsonScalar {
  enum class Kind { kString, kBool, kNull, kNumber } kind = Kind::kNull;
  std::string text;  // the string's value, or the literal's text
  bool boolean = false;
};
using FlatJsonObject = std::map<std::string, JsonScalar, std::less<>>;

class FlatJsonReader {
 public:
  explicit FlatJsonReader(std::string_view text) : s_(text) {}

  Result<FlatJsonObject> ReadObject() {
    FlatJsonObject out;
    SkipSpace();
    if (!Eat('{')) return Fail("expected '{'");
    SkipSpace();
    if (!Eat('}')) {
      while (true) {
        SkipSpace();
        std::string name;
        PQ_RETURN_IF_ERROR(ReadString(&name));
        SkipSpace();
        if (!Eat(':')) return Fail("expected ':'");
        SkipSpace();
        JsonScalar value;
        PQ_RETURN_IF_ERROR(ReadScalar(&value));
        if (!out.emplace(std::move(name), std::move(value)).second) {
          return Fail("a member is given twice");
        }
        SkipSpace();
        if (Eat(',')) continue;
        if (Eat('}')) break;
        return Fail("expected ',' or '}'");
      }
    }
    SkipSpace();
    if (pos_ != s_.size()) return Fail("text follows the object");
    return out;
  }

 private:
  Status Fail(std::string_view what) const {
    return Status::Corruption("invalid JSON at offset " + std::to_string(pos_) + ": " +
                              std::string(what));
  }
  void SkipSpace() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool Eat(char c) {
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool EatWord(std::string_view w) {
    if (s_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }

  Status ReadScalar(JsonScalar* v) {
    if (pos_ >= s_.size()) return Fail("expected a value");
    const char c = s_[pos_];
    if (c == '"') {
      v->kind = JsonScalar::Kind::kString;
      return ReadString(&v->text);
    }
    if (EatWord("true")) {
      v->kind = JsonScalar::Kind::kBool;
      v->boolean = true;
      return Status::OK();
    }
    if (EatWord("false")) {
      v->kind = JsonScalar::Kind::kBool;
      return Status::OK();
    }
    if (EatWord("null")) {
      v->kind = JsonScalar::Kind::kNull;
      return Status::OK();
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      const size_t start = pos_;
      while (pos_ < s_.size() && std::strchr("+-.0123456789eE", s_[pos_]) != nullptr) ++pos_;
      v->kind = JsonScalar::Kind::kNumber;
      v->text = std::string(s_.substr(start, pos_ - start));
      return Status::OK();
    }
    if (c == '{' || c == '[') return Fail("nested objects and arrays are not key material");
    return Fail("expected a value");
  }

  Result<uint32_t> ReadHex4() {
    if (s_.size() - pos_ < 4) return Fail("truncated \\u escape");
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<uint32_t>(c - 'A' + 10);
      else return Fail("bad \\u escape");
    }
    return v;
  }

  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  Status ReadString(std::string* out) {
    if (!Eat('"')) return Fail("expected a string");
    out->clear();
    while (true) {
      if (pos_ >= s_.size()) return Fail("unterminated string");
      const char c = s_[pos_++];
      if (c == '"') return Status::OK();
      if (static_cast<unsigned char>(c) < 0x20) return Fail("control character in a string");
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (pos_ >= s_.size()) return Fail("unterminated string");
      const char e = s_[pos_++];
      switch (e) {
        case '"': out->push_back('"'); break;
        case '\\': out->push_back('\\'); break;
        case '/': out->push_back('/'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'n': out->push_back('\n'); break;
        case 'r': out->push_back('\r'); break;
        case 't': out->push_back('\t'); break;
        case 'u': {
          PQ_ASSIGN_OR_RETURN(uint32_t cp, ReadHex4());
          if (cp >= 0xD800 && cp < 0xDC00) {
            if (!EatWord("\\u")) return Fail("lone surrogate in a \\u escape");
            PQ_ASSIGN_OR_RETURN(uint32_t low, ReadHex4());
            if (low < 0xDC00 || low >= 0xE000) return Fail("lone surrogate in a \\u escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp < 0xE000) {
            return Fail("lone surrogate in a \\u escape");
          }
          AppendUtf8(cp, out);
          break;
        }
        default:
          return Fail("bad escape in a string");
      }
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
};

Result<FlatJsonObject> ReadFlatJsonObject(std::string_view text) {
  return FlatJsonReader(text).ReadObject();
}

// --- Fields ------------------------------------------------------------------------------------

Result<std::string> StringField(const FlatJsonObject& o, std::string_view name, bool required) {
  auto it = o.find(name);
  if (it == o.end() || it->second.kind == JsonScalar::Kind::kNull) {
    if (required) return Status::Corruption("key material has no \"" + std::string(name) + "\"");
    return std::string();
  }
  if (it->second.kind != JsonScalar::Kind::kString) {
    return Status::Corruption("key material's \"" + std::string(name) + "\" is not a string");
  }
  return it->second.text;
}

Result<bool> BoolField(const FlatJsonObject& o, std::string_view name) {
  auto it = o.find(name);
  if (it == o.end() || it->second.kind == JsonScalar::Kind::kNull) {
    return Status::Corruption("key material has no \"" + std::string(name) + "\"");
  }
  if (it->second.kind != JsonScalar::Kind::kBool) {
    return Status::Corruption("key material's \"" + std::string(name) + "\" is not true or false");
  }
  return it->second.boolean;
}

Status CheckType(const FlatJsonObject& o) {
  PQ_ASSIGN_OR_RETURN(std::string type, StringField(o, "keyMaterialType", true));
  if (type != kKeyMaterialType) {
    // The type is a short name, not a secret; it is shown only when it looks like one.
    const bool printable = type.size() <= 16 && type.find_first_not_of(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.") == std::string::npos;
    return Status::NotSupported("key material of type " +
                                (printable ? "'" + type + "'" : std::string("<unknown>")) +
                                ", which this reader does not know (it reads PKMT1)");
  }
  return Status::OK();
}

Result<KeyMaterial> MaterialFrom(const FlatJsonObject& o) {
  KeyMaterial m;
  PQ_ASSIGN_OR_RETURN(m.is_footer_key, BoolField(o, "isFooterKey"));
  if (m.is_footer_key) {
    PQ_ASSIGN_OR_RETURN(m.kms_instance_id, StringField(o, "kmsInstanceID", false));
    PQ_ASSIGN_OR_RETURN(m.kms_instance_url, StringField(o, "kmsInstanceURL", false));
  }
  PQ_ASSIGN_OR_RETURN(m.master_key_id, StringField(o, "masterKeyID", true));
  PQ_ASSIGN_OR_RETURN(m.wrapped_dek, StringField(o, "wrappedDEK", true));
  PQ_ASSIGN_OR_RETURN(m.double_wrapping, BoolField(o, "doubleWrapping"));
  if (m.double_wrapping) {
    PQ_ASSIGN_OR_RETURN(m.kek_id, StringField(o, "keyEncryptionKeyID", true));
    PQ_ASSIGN_OR_RETURN(m.wrapped_kek, StringField(o, "wrappedKEK", true));
  }
  return m;
}

void Member(std::string_view name, std::string* out) {
  if (out->back() != '{') out->push_back(',');
  AppendJsonString(name, out);
  out->push_back(':');
}

}  // namespace

bool IsKeyMaterialJson(std::string_view key_metadata) {
  size_t i = 0;
  while (i < key_metadata.size() && (key_metadata[i] == ' ' || key_metadata[i] == '\n' ||
                                     key_metadata[i] == '\r' || key_metadata[i] == '\t')) {
    ++i;
  }
  return i < key_metadata.size() && key_metadata[i] == '{' &&
         key_metadata.find("\"keyMaterialType\"") != std::string_view::npos;
}

Result<KeyMetadata> ParseKeyMetadata(std::string_view key_metadata) {
  auto object = ReadFlatJsonObject(key_metadata);
  if (!object.ok()) return object.status().WithContext("key metadata");
  PQ_RETURN_IF_ERROR(CheckType(*object));
  KeyMetadata out;
  PQ_ASSIGN_OR_RETURN(out.internal_storage, BoolField(*object, "internalStorage"));
  if (out.internal_storage) {
    PQ_ASSIGN_OR_RETURN(out.material, MaterialFrom(*object));
  } else {
    PQ_ASSIGN_OR_RETURN(out.key_reference, StringField(*object, "keyReference", true));
  }
  return out;
}

Result<KeyMaterial> ParseKeyMaterial(std::string_view text) {
  auto object = ReadFlatJsonObject(text);
  if (!object.ok()) return object.status().WithContext("key material");
  PQ_RETURN_IF_ERROR(CheckType(*object));
  return MaterialFrom(*object);
}

std::string SerializeKeyMaterial(const KeyMaterial& m, bool internal_storage) {
  std::string out = "{";
  Member("keyMaterialType", &out);
  AppendJsonString(kKeyMaterialType, &out);
  if (internal_storage) {
    Member("internalStorage", &out);
    AppendJsonBool(true, &out);
  }
  Member("isFooterKey", &out);
  AppendJsonBool(m.is_footer_key, &out);
  if (m.is_footer_key) {
    Member("kmsInstanceID", &out);
    AppendJsonString(m.kms_instance_id, &out);
    Member("kmsInstanceURL", &out);
    AppendJsonString(m.kms_instance_url, &out);
  }
  Member("masterKeyID", &out);
  AppendJsonString(m.master_key_id, &out);
  Member("wrappedDEK", &out);
  AppendJsonString(m.wrapped_dek, &out);
  Member("doubleWrapping", &out);
  AppendJsonBool(m.double_wrapping, &out);
  if (m.double_wrapping) {
    Member("keyEncryptionKeyID", &out);
    AppendJsonString(m.kek_id, &out);
    Member("wrappedKEK", &out);
    AppendJsonString(m.wrapped_kek, &out);
  }
  out.push_back('}');
  return out;
}

std::string SerializeExternalKeyMetadata(std::string_view key_reference) {
  std::string out = "{";
  Member("keyMaterialType", &out);
  AppendJsonString(kKeyMaterialType, &out);
  Member("internalStorage", &out);
  AppendJsonBool(false, &out);
  Member("keyReference", &out);
  AppendJsonString(key_reference, &out);
  out.push_back('}');
  return out;
}

std::string KeyMaterialPathFor(std::string_view parquet_path) {
  const size_t slash = parquet_path.rfind('/');
  const std::string_view folder =
      slash == std::string_view::npos ? std::string_view() : parquet_path.substr(0, slash + 1);
  const std::string_view name =
      slash == std::string_view::npos ? parquet_path : parquet_path.substr(slash + 1);
  return std::string(folder) + std::string(kKeyMaterialFilePrefix) + std::string(name) +
         std::string(kKeyMaterialFileSuffix);
}

Result<KeyMaterialStore> ParseKeyMaterialStore(std::string_view json) {
  auto object = ReadFlatJsonObject(json);
  if (!object.ok()) return object.status();
  KeyMaterialStore store;
  for (auto& [name, value] : *object) {
    if (value.kind != JsonScalar::Kind::kString) {
      return Status::Corruption("the entry for a key reference is not a string");
    }
    store.emplace(name, std::move(value.text));
  }
  return store;
}

std::string SerializeKeyMaterialStore(const KeyMaterialStore& store) {
  std::string out = "{";
  for (const auto& [reference, material] : store) {
    Member(reference, &out);
    AppendJsonString(material, &out);
  }
  out.push_back('}');
  return out;
}

Result<std::string> ReadLocalKeyMaterialFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    return Status::IOError("cannot open the key material file '" + path +
                           "': " + std::strerror(e));
  }
  struct stat st {};
  std::string bytes;
  Status s;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    s = Status::IOError("the key material file '" + path + "' is not a regular file");
  } else if (static_cast<uint64_t>(st.st_size) > kMaxKeyMaterialFileBytes) {
    s = Status::Corruption("the key material file '" + path + "' holds " +
                           std::to_string(st.st_size) + " bytes, over the limit of " +
                           std::to_string(kMaxKeyMaterialFileBytes));
  } else {
    bytes.resize(static_cast<size_t>(st.st_size));
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        s = Status::IOError("cannot read the key material file '" + path + "'");
        break;
      }
      done += static_cast<size_t>(n);
    }
  }
  ::close(fd);
  if (!s.ok()) return s;
  return bytes;
}

}  // namespace pq::crypto
