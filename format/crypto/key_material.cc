#include "format/crypto/key_material.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include "format/util/json_reader.h"
#include "format/util/json_writer.h"

namespace pq::crypto {
namespace {

// --- JSON ----------------------------------------------------------------------------------------
// Key material is one flat JSON object of strings, booleans (and, tolerated, numbers and nulls),
// read with the project's JSON reader (util/json_reader.h).

struct JsonScalar {
  enum class Kind { kString, kBool, kNull, kNumber } kind = Kind::kNull;
  std::string text;  // the string's value, or the number as written
  bool boolean = false;
};
using FlatJsonObject = std::map<std::string, JsonScalar, std::less<>>;

Status ReadScalar(JsonReader* r, JsonScalar* v) {
  r->SkipSpace();
  if (r->pos >= r->text.size()) return r->Error("expected a value");
  const char c = r->text[r->pos];
  if (c == '"') {
    std::string_view value, raw;
    std::string scratch;
    PQ_RETURN_IF_ERROR(r->ReadString(&value, &scratch, &raw));
    v->kind = JsonScalar::Kind::kString;
    v->text = std::string(value);
    return Status::OK();
  }
  if (c == 't' || c == 'f') {
    v->kind = JsonScalar::Kind::kBool;
    v->boolean = c == 't';
    return r->ReadLiteral(v->boolean ? "true" : "false");
  }
  if (c == 'n') {
    v->kind = JsonScalar::Kind::kNull;
    return r->ReadLiteral("null");
  }
  if (c == '-' || (c >= '0' && c <= '9')) {
    std::string_view raw;
    PQ_RETURN_IF_ERROR(r->ReadNumber(&raw));
    v->kind = JsonScalar::Kind::kNumber;
    v->text = std::string(raw);
    return Status::OK();
  }
  if (c == '{' || c == '[') return r->Error("nested objects and arrays are not key material");
  return r->Error("expected a value");
}

Result<FlatJsonObject> ReadFlatJsonObjectOrInvalid(std::string_view text) {
  JsonReader r;
  r.text = text;
  FlatJsonObject out;
  PQ_RETURN_IF_ERROR(r.Expect('{', "'{'"));
  if (!r.ConsumeClose('}')) {
    while (true) {
      if (!r.AtString()) return r.Error("expected a member name");
      std::string_view name, raw;
      std::string scratch;
      PQ_RETURN_IF_ERROR(r.ReadString(&name, &scratch, &raw));
      PQ_RETURN_IF_ERROR(r.Expect(':', "':'"));
      JsonScalar value;
      PQ_RETURN_IF_ERROR(ReadScalar(&r, &value));
      if (!out.emplace(std::string(name), std::move(value)).second) {
        return r.Error("a member is given twice");
      }
      const JsonReader::AfterValue after = r.ReadAfterValue('}');
      if (after == JsonReader::AfterValue::kComma) continue;
      if (after == JsonReader::AfterValue::kClose) break;
      return r.Error("expected ',' or '}'");
    }
  }
  r.SkipSpace();
  if (r.pos != text.size()) return r.Error("text follows the object");
  return out;
}

// Key material that is not such an object is a damaged file (or KMS answer), not a bad argument.
Result<FlatJsonObject> ReadFlatJsonObject(std::string_view text) {
  Result<FlatJsonObject> object = ReadFlatJsonObjectOrInvalid(text);
  if (!object.ok()) return Status::Corruption(object.status().message());
  return object;
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
