// PKMT1 key material (format/crypto/key_material.h), the KMS seam and local key wrapping
// (kms_client.h), unwrapping (key_unwrapper.h) and wrapping for writers (key_wrapper.h).
//
// Known answers come from outside this code: the wrapped keys of the parquet-testing conformance
// file `_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json` (written by
// parquet-java) and their data keys, and AES-GCM vectors, both computed with node's crypto module
// (OpenSSL through another API): a wrapped key is base64(nonce | ciphertext | tag).
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <atomic>
#include <fstream>
#include <set>
#include <sstream>

#include "format/util/base64.h"
#include "format/crypto/aes_cipher.h"
#include "format/crypto/key_material.h"
#include "format/crypto/key_unwrapper.h"
#include "format/crypto/key_wrapper.h"
#include "format/crypto/kms_client.h"

namespace pq::crypto {
namespace {

std::optional<std::string> FromBase64(std::string_view text) {
  std::string bytes;
  if (!DecodeBase64(text, &bytes)) return std::nullopt;
  return bytes;
}


constexpr char kConformanceDir[] = PQ_TESTDATA_DIR "/parquet-testing/data/";
constexpr char kJavaFile[] = "external_key_material_java.parquet.encrypted";

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Hex(std::string_view bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

std::string Unhex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

// The master keys of the conformance files (their README): 16 ASCII characters each.
std::shared_ptr<KeyRegistry> ConformanceMasterKeys() {
  auto r = std::make_shared<KeyRegistry>();
  EXPECT_TRUE(r->Add("kf", "0123456789012345").ok());
  EXPECT_TRUE(r->Add("kc1", "1234567890123450").ok());
  EXPECT_TRUE(r->Add("kc2", "1234567890123451").ok());
  return r;
}

bool IsCrypto(const Status& s) { return s.code() == StatusCode::kCrypto; }

// A RegistryKmsClient that counts its calls.
class CountingKms : public KmsClient {
 public:
  explicit CountingKms(std::shared_ptr<const KeyRegistry> keys) : inner_({std::move(keys)}) {}
  Result<std::string> WrapKey(std::string_view key, const std::string& id,
                              const KmsInstance& instance) override {
    ++wraps;
    return inner_.WrapKey(key, id, instance);
  }
  Result<std::string> UnwrapKey(std::string_view wrapped, const std::string& id,
                                const KmsInstance& instance) override {
    ++unwraps;
    return inner_.UnwrapKey(wrapped, id, instance);
  }
  std::atomic<int> wraps{0}, unwraps{0};

 private:
  RegistryKmsClient inner_;
};

// --- JSON forms -----------------------------------------------------------------------------

TEST(KeyMaterialTest, SerializesTheToolkitsFieldNames) {
  KeyMaterial m;
  m.is_footer_key = true;
  m.kms_instance_id = "DEFAULT";
  m.kms_instance_url = "DEFAULT";
  m.master_key_id = "kf";
  m.wrapped_dek = "DEK==";
  m.double_wrapping = true;
  m.kek_id = "ID==";
  m.wrapped_kek = "KEK==";
  EXPECT_EQ(SerializeKeyMaterial(m, /*internal_storage=*/true),
            "{\"keyMaterialType\":\"PKMT1\",\"internalStorage\":true,\"isFooterKey\":true,"
            "\"kmsInstanceID\":\"DEFAULT\",\"kmsInstanceURL\":\"DEFAULT\",\"masterKeyID\":\"kf\","
            "\"wrappedDEK\":\"DEK==\",\"doubleWrapping\":true,\"keyEncryptionKeyID\":\"ID==\","
            "\"wrappedKEK\":\"KEK==\"}");
  KeyMaterial c;
  c.master_key_id = "kc1";
  c.wrapped_dek = "W";
  EXPECT_EQ(SerializeKeyMaterial(c, /*internal_storage=*/false),
            "{\"keyMaterialType\":\"PKMT1\",\"isFooterKey\":false,\"masterKeyID\":\"kc1\","
            "\"wrappedDEK\":\"W\",\"doubleWrapping\":false}");
  EXPECT_EQ(SerializeExternalKeyMetadata("columnKey0"),
            "{\"keyMaterialType\":\"PKMT1\",\"internalStorage\":false,\"keyReference\":\"columnKey0\"}");

  auto parsed = ParseKeyMetadata(SerializeKeyMaterial(m, true));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_TRUE(parsed->internal_storage);
  EXPECT_TRUE(parsed->material.is_footer_key);
  EXPECT_EQ(parsed->material.kms_instance_id, "DEFAULT");
  EXPECT_EQ(parsed->material.master_key_id, "kf");
  EXPECT_EQ(parsed->material.wrapped_dek, "DEK==");
  EXPECT_TRUE(parsed->material.double_wrapping);
  EXPECT_EQ(parsed->material.kek_id, "ID==");
  EXPECT_EQ(parsed->material.wrapped_kek, "KEK==");
  auto external = ParseKeyMetadata(SerializeExternalKeyMetadata("footerKey"));
  ASSERT_TRUE(external.ok());
  EXPECT_FALSE(external->internal_storage);
  EXPECT_EQ(external->key_reference, "footerKey");
}

TEST(KeyMaterialTest, MaterialFileNameIsBesideTheFile) {
  EXPECT_EQ(KeyMaterialPathFor("a/b/x.parquet"), "a/b/_KEY_MATERIAL_FOR_x.parquet.json");
  EXPECT_EQ(KeyMaterialPathFor("x.parquet"), "_KEY_MATERIAL_FOR_x.parquet.json");
  EXPECT_EQ(KeyMaterialPathFor("/x.parquet"), "/_KEY_MATERIAL_FOR_x.parquet.json");
}

TEST(KeyMaterialTest, ReadsParquetJavasExternalMaterialFile) {
  const std::string json = ReadAll(std::string(kConformanceDir) + "_KEY_MATERIAL_FOR_" + kJavaFile + ".json");
  ASSERT_FALSE(json.empty());
  auto store = ParseKeyMaterialStore(json);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  ASSERT_EQ(store->size(), 3u);
  auto footer = ParseKeyMaterial(store->at("footerKey"));
  ASSERT_TRUE(footer.ok()) << footer.status().ToString();
  EXPECT_TRUE(footer->is_footer_key);
  EXPECT_EQ(footer->kms_instance_id, "DEFAULT");
  EXPECT_EQ(footer->kms_instance_url, "DEFAULT");
  EXPECT_EQ(footer->master_key_id, "kf");
  EXPECT_TRUE(footer->double_wrapping);
  EXPECT_EQ(footer->kek_id, "NFkiTmDXYzZMTb+O3b9nSA==");
  auto column = ParseKeyMaterial(store->at("columnKey0"));
  ASSERT_TRUE(column.ok());
  EXPECT_FALSE(column->is_footer_key);
  EXPECT_EQ(column->kms_instance_id, "");
  EXPECT_EQ(column->master_key_id, "kc1");
  // And the map written back reads the same.
  auto again = ParseKeyMaterialStore(SerializeKeyMaterialStore(*store));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *store);
}

TEST(KeyMaterialTest, MalformedMaterialIsCorruptionNamingTheField) {
  struct Case {
    const char* json;
    const char* message;
  } cases[] = {
      {"", "invalid JSON"},
      {"{", "invalid JSON"},
      {"{\"keyMaterialType\":\"PKMT1\"", "invalid JSON"},
      {"{\"keyMaterialType\":\"PKMT1\",\"internalStorage\":true} x", "text follows"},
      {"{\"keyMaterialType\":\"PKMT1\",\"keyMaterialType\":\"PKMT1\"}", "given twice"},
      {"{\"keyMaterialType\":[1]}", "nested"},
      {"{\"internalStorage\":true}", "no \"keyMaterialType\""},
      {"{\"keyMaterialType\":\"PKMT2\",\"internalStorage\":true}", "type 'PKMT2'"},
      {"{\"keyMaterialType\":\"PKMT1\"}", "no \"internalStorage\""},
      {"{\"keyMaterialType\":\"PKMT1\",\"internalStorage\":\"yes\"}", "\"internalStorage\" is not true or false"},
      {"{\"keyMaterialType\":\"PKMT1\",\"internalStorage\":false}", "no \"keyReference\""},
      {"{\"keyMaterialType\":\"PKMT1\",\"internalStorage\":true,\"isFooterKey\":false,"
       "\"wrappedDEK\":\"x\",\"doubleWrapping\":false}",
       "no \"masterKeyID\""},
      {"{\"keyMaterialType\":\"PKMT1\",\"internalStorage\":true,\"isFooterKey\":false,"
       "\"masterKeyID\":7,\"wrappedDEK\":\"x\",\"doubleWrapping\":false}",
       "\"masterKeyID\" is not a string"},
      {"{\"keyMaterialType\":\"PKMT1\",\"internalStorage\":true,\"isFooterKey\":false,"
       "\"masterKeyID\":\"k\",\"wrappedDEK\":\"x\",\"doubleWrapping\":true,\"wrappedKEK\":\"y\"}",
       "no \"keyEncryptionKeyID\""},
      {"{\"keyMaterialType\":\"PKMT1\",\"internalStorage\":true,\"isFooterKey\":false,"
       "\"masterKeyID\":\"k\",\"wrappedDEK\":\"\\q\",\"doubleWrapping\":false}",
       "bad escape"},
  };
  for (const Case& c : cases) {
    auto r = ParseKeyMetadata(c.json);
    ASSERT_FALSE(r.ok()) << c.json;
    EXPECT_NE(r.status().message().find(c.message), std::string::npos)
        << c.json << " -> " << r.status().ToString();
  }
  // Escapes decode (\u with a surrogate pair included).
  auto ok = ParseKeyMetadata(
      "{\"keyMaterialType\":\"PKMT1\",\"internalStorage\":false,\"keyReference\":\"a\\u00e9\\ud83d\\ude00\\\"\"}");
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->key_reference, "a\xC3\xA9\xF0\x9F\x98\x80\"");
  EXPECT_TRUE(IsKeyMaterialJson(" {\"keyMaterialType\":\"PKMT1\"}"));
  EXPECT_FALSE(IsKeyMaterialJson("kf"));
  EXPECT_FALSE(IsKeyMaterialJson("{\"x\":1}"));
}

// --- Local wrapping (known answers) ------------------------------------------------------------

TEST(KeyWrappingTest, UnwrapsKnownAnswers) {
  // Computed with node's crypto module: AES-128-GCM, key "1234567890123450", AAD "kc1", nonce
  // 000102030405060708090a0b, plaintext 000102...0f.
  auto a = UnwrapKeyLocally("AAECAwQFBgcICQoLchUnBNhJAyfFjLNcfu92rA7yNzB160MRvT9a670p8EQ=",
                            "1234567890123450", "kc1", "vector 1");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(Hex(*a), "000102030405060708090a0b0c0d0e0f");
  // AES-256-GCM, key 00..1f, AAD a0..af (a KEK id), nonce 0c..17, plaintext ffeedd..00.
  auto b = UnwrapKeyLocally(
      "DA0ODxAREhMUFRYXZxC0FMTcZdtATB2Roqk35zyw4836DQxmaDFkjoVTNKA=",
      Unhex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
      Unhex("a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"), "vector 2");
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Hex(*b), "ffeeddccbbaa99887766554433221100");
  // The wrong AAD or key fails authentication; bad text is corruption.
  auto wrong = UnwrapKeyLocally("AAECAwQFBgcICQoLchUnBNhJAyfFjLNcfu92rA7yNzB160MRvT9a670p8EQ=",
                                "1234567890123450", "kc2", "vector 1");
  EXPECT_TRUE(IsCrypto(wrong.status()));
  EXPECT_NE(wrong.status().message().find("authentication failed for vector 1 (wrong master key"),
            std::string::npos)
      << wrong.status().ToString();
  EXPECT_TRUE(UnwrapKeyLocally("not base64!", "1234567890123450", "kc1", "x").status().IsCorruption());
  EXPECT_TRUE(UnwrapKeyLocally("AAECAw==", "1234567890123450", "kc1", "x").status().IsCorruption());
}

TEST(KeyWrappingTest, WrapsAsTheToolkitDoes) {
  // What we wrap, decrypted here with OpenSSL's EVP interface directly.
  const std::string key = Unhex("00112233445566778899aabbccddeeff");
  auto wrapped = WrapKeyLocally(key, "1234567890123450", "kc1");
  ASSERT_TRUE(wrapped.ok());
  std::optional<std::string> blob = FromBase64(*wrapped);
  ASSERT_TRUE(blob);
  ASSERT_EQ(blob->size(), 12u + 16u + 16u);
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  const auto* b = reinterpret_cast<const unsigned char*>(blob->data());
  ASSERT_EQ(EVP_DecryptInit_ex(ctx, EVP_aes_128_gcm(), nullptr,
                               reinterpret_cast<const unsigned char*>("1234567890123450"), b), 1);
  int n = 0;
  ASSERT_EQ(EVP_DecryptUpdate(ctx, nullptr, &n, reinterpret_cast<const unsigned char*>("kc1"), 3), 1);
  unsigned char plain[16];
  ASSERT_EQ(EVP_DecryptUpdate(ctx, plain, &n, b + 12, 16), 1);
  ASSERT_EQ(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, const_cast<unsigned char*>(b + 28)), 1);
  unsigned char fin[16];
  EXPECT_EQ(EVP_DecryptFinal_ex(ctx, fin, &n), 1);
  EVP_CIPHER_CTX_free(ctx);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(plain), 16), key);
  // A fresh nonce every time.
  EXPECT_NE(*WrapKeyLocally(key, "1234567890123450", "kc1"), *wrapped);
}

TEST(KmsClientTest, RegistryClientNamesAMissingMasterKeyAndItsInstance) {
  RegistryKmsClient kms({ConformanceMasterKeys()});
  KmsInstance instance;
  instance.id = "vault-eu";
  auto missing = kms.UnwrapKey("AAAA", "kc9", instance);
  EXPECT_TRUE(IsCrypto(missing.status()));
  EXPECT_EQ(missing.status().message(),
            "master key 'kc9' (KMS instance 'vault-eu') is not registered: register it by its id "
            "(parquet_add_key) or give it (master_keys)");
  // The first registry holding the id wins.
  auto first = std::make_shared<KeyRegistry>();
  ASSERT_TRUE(first->Add("kf", "abcdefghijklmnop").ok());
  RegistryKmsClient two({first, ConformanceMasterKeys()});
  auto wrapped = two.WrapKey("0123456789abcdef", "kf", KmsInstance{});
  ASSERT_TRUE(wrapped.ok());
  EXPECT_TRUE(UnwrapKeyLocally(*wrapped, "abcdefghijklmnop", "kf", "x").ok());
  EXPECT_TRUE(IsCrypto(kms.UnwrapKey(*wrapped, "kf", KmsInstance{}).status()));  // other key
  // parquet-java's local-wrap envelope is accepted.
  auto local = kms.UnwrapKey("{\"masterKeyVersion\":\"NO_VERSION\",\"encryptedKey\":\"" +
                                 *WrapKeyLocally("0123456789abcdef", "0123456789012345", "kf") + "\"}",
                             "kf", KmsInstance{});
  ASSERT_TRUE(local.ok()) << local.status().ToString();
  EXPECT_EQ(*local, "0123456789abcdef");
}

// --- Unwrapping a file's keys ------------------------------------------------------------------

TEST(KeyUnwrapperTest, UnwrapsParquetJavasDoubleWrappedExternalMaterial) {
  auto kms = std::make_shared<CountingKms>(ConformanceMasterKeys());
  std::vector<std::string> reads;
  auto unwrapper = KeyUnwrapper::Make(kms, [&reads](const std::string& path) {
    reads.push_back(path);
    return ReadLocalKeyMaterialFile(path);
  });
  const std::string path = std::string(kConformanceDir) + kJavaFile;
  const std::string footer_md = SerializeExternalKeyMetadata("footerKey");
  auto keys = unwrapper->ForFile(path, footer_md);
  // Data keys computed with node's crypto module from the JSON file and the master keys.
  auto footer = keys->DataKey(footer_md);
  ASSERT_TRUE(footer.ok()) << footer.status().ToString();
  EXPECT_EQ(Hex(*footer), "5e63ada1593fab4abb6aecbc6a82dd1a");
  auto c0 = keys->DataKey(SerializeExternalKeyMetadata("columnKey0"));
  ASSERT_TRUE(c0.ok()) << c0.status().ToString();
  EXPECT_EQ(Hex(*c0), "6864726b09bbd978fae87df0ad4155d0");
  auto c1 = keys->DataKey(SerializeExternalKeyMetadata("columnKey1"));
  ASSERT_TRUE(c1.ok());
  EXPECT_EQ(Hex(*c1), "4f1b17c621d61b1917a356d2cf1eafcc");
  EXPECT_EQ(reads, std::vector<std::string>{std::string(kConformanceDir) + "_KEY_MATERIAL_FOR_" +
                                            kJavaFile + ".json"});
  EXPECT_EQ(kms->unwraps.load(), 3);
  // Asked again (this file, or another file of the table with the same KEKs): no KMS call.
  EXPECT_TRUE(keys->DataKey(footer_md).ok());
  EXPECT_TRUE(unwrapper->ForFile(path, footer_md)->DataKey(footer_md).ok());
  EXPECT_EQ(kms->unwraps.load(), 3);
  auto missing = keys->DataKey(SerializeExternalKeyMetadata("columnKey7"));
  EXPECT_TRUE(missing.status().IsCorruption());
  EXPECT_NE(missing.status().message().find("has no entry 'columnKey7'"), std::string::npos)
      << missing.status().ToString();
}

TEST(KeyUnwrapperTest, MissingOrWrongMasterKeysAndAlteredMaterial) {
  const std::string path = std::string(kConformanceDir) + kJavaFile;
  const std::string footer_md = SerializeExternalKeyMetadata("footerKey");
  // kc1 missing: the error names it and the instance the footer's material names.
  auto some = std::make_shared<KeyRegistry>();
  ASSERT_TRUE(some->Add("kf", "0123456789012345").ok());
  auto keys = KeyUnwrapper::Make(std::make_shared<RegistryKmsClient>(
                                     std::vector<std::shared_ptr<const KeyRegistry>>{some}))
                  ->ForFile(path, footer_md);
  EXPECT_TRUE(keys->DataKey(footer_md).ok());
  auto c0 = keys->DataKey(SerializeExternalKeyMetadata("columnKey0"));
  EXPECT_TRUE(IsCrypto(c0.status()));
  EXPECT_NE(c0.status().message().find("master key 'kc1' (KMS instance 'DEFAULT') is not registered"),
            std::string::npos)
      << c0.status().ToString();
  // A wrong master key fails authentication, naming it.
  auto wrong = std::make_shared<KeyRegistry>();
  ASSERT_TRUE(wrong->Add("kf", "0123456789012346").ok());
  auto bad = KeyUnwrapper::Make(std::make_shared<RegistryKmsClient>(
                                    std::vector<std::shared_ptr<const KeyRegistry>>{wrong}))
                 ->ForFile(path, footer_md)
                 ->DataKey(footer_md);
  EXPECT_TRUE(IsCrypto(bad.status()));
  EXPECT_NE(bad.status().message().find("authentication failed for a key wrapped by master key 'kf'"),
            std::string::npos)
      << bad.status().ToString();
  // A flipped character of a wrapped DEK, or a swapped KEK id: authentication fails.
  std::string json = ReadAll(std::string(kConformanceDir) + "_KEY_MATERIAL_FOR_" + kJavaFile + ".json");
  for (const char* from : {"FLQDczpR9upR", "NFkiTmDXYzZM"}) {
    std::string altered = json;
    const size_t at = altered.find(from);
    ASSERT_NE(at, std::string::npos);
    altered[at + 3] = altered[at + 3] == 'A' ? 'B' : 'A';
    auto unwrapper = KeyUnwrapper::Make(
        std::make_shared<RegistryKmsClient>(
            std::vector<std::shared_ptr<const KeyRegistry>>{ConformanceMasterKeys()}),
        [&altered](const std::string&) -> Result<std::string> { return altered; });
    auto r = unwrapper->ForFile(path, footer_md)->DataKey(footer_md);
    EXPECT_TRUE(IsCrypto(r.status())) << from << ": " << r.status().ToString();
  }
  // No external file: IOError naming its path.
  auto none = KeyUnwrapper::Make(std::make_shared<RegistryKmsClient>(
                                     std::vector<std::shared_ptr<const KeyRegistry>>{ConformanceMasterKeys()}))
                  ->ForFile("/nonexistent/x.parquet", footer_md)
                  ->DataKey(footer_md);
  EXPECT_EQ(none.status().code(), StatusCode::kIOError);
  EXPECT_NE(none.status().message().find("/nonexistent/_KEY_MATERIAL_FOR_x.parquet.json"),
            std::string::npos);
}

// --- Wrapping for writers ----------------------------------------------------------------------

EncryptionConfig MasterKeyConfig(bool double_wrapping, bool internal, std::shared_ptr<KmsClient> kms) {
  EncryptionConfig c;
  auto w = std::make_shared<KeyWrapping>();
  w->kms = std::move(kms);
  w->double_wrapping = double_wrapping;
  w->internal_storage = internal;
  c.key_wrapping = w;
  c.footer_master_key_id = "kf";
  c.column_keys["a"].master_key_id = "kc1";
  c.column_keys["b"].master_key_id = "kc1";
  c.column_keys["c"].master_key_id = "kc2";
  return c;
}

TEST(KeyWrapperTest, EveryModeUnwrapsToTheDrawnKeys) {
  for (bool double_wrapping : {false, true}) {
    for (bool internal : {true, false}) {
      SCOPED_TRACE(std::string(double_wrapping ? "double" : "single") + (internal ? " internal" : " external"));
      auto kms = std::make_shared<CountingKms>(ConformanceMasterKeys());
      auto wrapped = WrapFileKeys(MasterKeyConfig(double_wrapping, internal, kms));
      ASSERT_TRUE(wrapped.ok()) << wrapped.status().ToString();
      const EncryptionConfig& c = wrapped->config;
      EXPECT_EQ(c.key_wrapping, nullptr);
      EXPECT_EQ(c.footer_key.size(), 16u);
      // One KMS call per master key (double) or per data key (single).
      EXPECT_EQ(kms->wraps.load(), double_wrapping ? 3 : 4);
      EXPECT_EQ(wrapped->external_material.empty(), internal);
      if (!internal) {
        EXPECT_EQ(c.footer_key_metadata, SerializeExternalKeyMetadata("footerKey"));
        EXPECT_EQ(c.column_keys.at("a").key_metadata, SerializeExternalKeyMetadata("columnKey0"));
        EXPECT_EQ(c.column_keys.at("c").key_metadata, SerializeExternalKeyMetadata("columnKey2"));
      }
      std::set<std::string> distinct = {c.footer_key};
      auto unwrapper = KeyUnwrapper::Make(
          kms, [&wrapped](const std::string& path) -> Result<std::string> {
            EXPECT_EQ(path, "dir/_KEY_MATERIAL_FOR_f.parquet.json");
            return wrapped->external_material;
          });
      auto keys = unwrapper->ForFile("dir/f.parquet", c.footer_key_metadata);
      auto footer = keys->DataKey(c.footer_key_metadata);
      ASSERT_TRUE(footer.ok()) << footer.status().ToString();
      EXPECT_EQ(*footer, c.footer_key);
      std::set<std::string> kek_ids;
      for (const auto& [column, spec] : c.column_keys) {
        auto key = keys->DataKey(spec.key_metadata);
        ASSERT_TRUE(key.ok()) << column << ": " << key.status().ToString();
        EXPECT_EQ(*key, spec.key) << column;
        distinct.insert(spec.key);
        KeyMaterial m;
        if (internal) {
          auto md = ParseKeyMetadata(spec.key_metadata);
          ASSERT_TRUE(md.ok());
          EXPECT_TRUE(md->internal_storage);
          m = md->material;
        } else {
          auto store = ParseKeyMaterialStore(wrapped->external_material);
          ASSERT_TRUE(store.ok());
          auto md = ParseKeyMetadata(spec.key_metadata);
          m = *ParseKeyMaterial(store->at(md->key_reference));
        }
        EXPECT_EQ(m.master_key_id, spec.master_key_id);
        EXPECT_FALSE(m.is_footer_key);
        EXPECT_EQ(m.double_wrapping, double_wrapping);
        if (double_wrapping) {
          EXPECT_EQ(FromBase64(m.kek_id)->size(), 16u);
          kek_ids.insert(m.kek_id);
        } else {
          EXPECT_TRUE(m.kek_id.empty());
        }
      }
      EXPECT_EQ(distinct.size(), 4u);                     // a fresh key per column
      EXPECT_EQ(kek_ids.size(), double_wrapping ? 2u : 0u);  // one KEK per master key
      // A second file gets other keys.
      auto again = WrapFileKeys(MasterKeyConfig(double_wrapping, internal, kms));
      ASSERT_TRUE(again.ok());
      EXPECT_NE(again->config.footer_key, c.footer_key);
    }
  }
}

TEST(KeyWrapperTest, AMissingMasterKeyIsNamed) {
  auto kms = std::make_shared<RegistryKmsClient>(
      std::vector<std::shared_ptr<const KeyRegistry>>{ConformanceMasterKeys()});
  EncryptionConfig c = MasterKeyConfig(true, true, kms);
  c.column_keys["d"].master_key_id = "nope";
  auto r = WrapFileKeys(c);
  EXPECT_TRUE(IsCrypto(r.status()));
  EXPECT_NE(r.status().message().find("master key 'nope' (KMS instance 'DEFAULT') is not registered"),
            std::string::npos);
  // Make refuses a config whose keys were not drawn yet.
  EXPECT_TRUE(FileEncryptor::Make(MasterKeyConfig(true, true, kms)).status().IsInvalidArgument());
}

}  // namespace
}  // namespace pq::crypto
