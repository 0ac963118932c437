// AES-GCM and AES-CTR against published vectors (the GCM specification's test cases, NIST SP
// 800-38A F.5), the Parquet CTR counter layout, module framing, round trips over many sizes and all
// key sizes, and tamper detection: any flipped byte, a wrong AAD or a wrong key is an error that
// names the module and never shows key bytes.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "format/crypto/aes_cipher.h"

namespace pq::crypto {
namespace {

std::string Hex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

std::string ToHex(ByteSpan bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (uint8_t b : bytes) {
    out.push_back(digits[b >> 4]);
    out.push_back(digits[b & 15]);
  }
  return out;
}

ByteSpan B(const std::string& s) {
  return AsBytes(s);
}

struct GcmVector {
  const char* name;
  const char* key;
  const char* nonce;
  const char* plaintext;
  const char* aad;
  const char* ciphertext;
  const char* tag;
};

// McGrew & Viega, "The Galois/Counter Mode of Operation", appendix B (the NIST GCM test cases).
const char kP64[] =
    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
    "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255";
const char kP60[] =
    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
    "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39";
const char kA20[] = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
const GcmVector kGcmVectors[] = {
    {"case 1 (AES-128, empty)", "00000000000000000000000000000000", "000000000000000000000000", "",
     "", "", "58e2fccefa7e3061367f1d57a4e7455a"},
    {"case 2 (AES-128)", "00000000000000000000000000000000", "000000000000000000000000",
     "00000000000000000000000000000000", "", "0388dace60b6a392f328c2b971b2fe78",
     "ab6e47d42cec13bdf53a67b21257bddf"},
    {"case 3 (AES-128)", "feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888", kP64, "",
     "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
     "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
     "4d5c2af327cd64a62cf35abd2ba6fab4"},
    {"case 4 (AES-128, AAD)", "feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888", kP60,
     kA20,
     "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
     "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
     "5bc94fbc3221a5db94fae95ae7121a47"},
    {"case 9 (AES-192)", "feffe9928665731c6d6a8f9467308308feffe9928665731c",
     "cafebabefacedbaddecaf888", kP64, "",
     "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c"
     "7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710acade256",
     "9924a7c8587336bfb118024db8674a14"},
    {"case 15 (AES-256)", "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
     "cafebabefacedbaddecaf888", kP64, "",
     "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
     "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
     "b094dac5d93471bdec1a502270e3cc6c"},
    {"case 16 (AES-256, AAD)", "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
     "cafebabefacedbaddecaf888", kP60, kA20,
     "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
     "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
     "76fc6ece0f4e1768cddf8853bb2d551b"},
};

TEST(AesGcmTest, PublishedVectorsEncrypt) {
  for (const GcmVector& v : kGcmVectors) {
    SCOPED_TRACE(v.name);
    std::string key = Hex(v.key), nonce = Hex(v.nonce), pt = Hex(v.plaintext), aad = Hex(v.aad);
    std::vector<uint8_t> ct(pt.size());
    uint8_t tag[16];
    ASSERT_TRUE(AesGcmEncrypt(B(key), B(nonce), B(aad), B(pt), ct.data(), tag).ok());
    EXPECT_EQ(ToHex(ByteSpan(ct.data(), ct.size())), v.ciphertext);
    EXPECT_EQ(ToHex(ByteSpan(tag, 16)), v.tag);
  }
}

TEST(AesGcmTest, PublishedVectorsDecrypt) {
  for (const GcmVector& v : kGcmVectors) {
    SCOPED_TRACE(v.name);
    std::string key = Hex(v.key), nonce = Hex(v.nonce), ct = Hex(v.ciphertext), aad = Hex(v.aad),
                tag = Hex(v.tag);
    std::vector<uint8_t> pt(ct.size());
    Status s = AesGcmDecrypt(B(key), B(nonce), B(aad), B(ct), B(tag), pt.data(), "test vector");
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(ToHex(ByteSpan(pt.data(), pt.size())), v.plaintext);
    // One flipped tag bit fails.
    tag[5] ^= 0x10;
    s = AesGcmDecrypt(B(key), B(nonce), B(aad), B(ct), B(tag), pt.data(), "test vector");
    EXPECT_EQ(s.code(), StatusCode::kCrypto);
    EXPECT_NE(s.message().find("authentication failed for test vector"), std::string::npos)
        << s.message();
  }
}

TEST(AesGcmTest, RejectsBadKeyNonceAndTagSizes) {
  std::string pt = "hello";
  std::vector<uint8_t> ct(pt.size());
  uint8_t tag[16];
  std::string nonce(12, '\0');
  for (size_t n : {0, 1, 15, 17, 20, 31, 33, 64}) {
    std::string key(n, 'k');
    Status s = AesGcmEncrypt(B(key), B(nonce), {}, B(pt), ct.data(), tag);
    EXPECT_TRUE(s.IsInvalidArgument()) << n;
    EXPECT_NE(s.message().find(std::to_string(n)), std::string::npos);
  }
  std::string key(16, 'k');
  std::string short_nonce(11, '\0');
  EXPECT_TRUE(AesGcmEncrypt(B(key), B(short_nonce), {}, B(pt), ct.data(), tag).IsInvalidArgument());
  std::string short_tag(15, '\0');
  EXPECT_TRUE(
      AesGcmDecrypt(B(key), B(nonce), {}, B(pt), B(short_tag), ct.data(), "x").IsInvalidArgument());
}

// NIST SP 800-38A F.5.1 / F.5.3 / F.5.5: CTR-AES128/192/256.Encrypt.
TEST(AesCtrTest, NistSp80038aVectors) {
  const std::string iv = Hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
  const std::string pt =
      Hex("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
          "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710");
  struct Case {
    const char* key;
    const char* ct;
  } cases[] = {
      {"2b7e151628aed2a6abf7158809cf4f3c",
       "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
       "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee"},
      {"8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
       "1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faefd5ccc2c6f4ce8e94"
       "1e36b26bd1ebc670d1bd1d665620abf74f78a7f6d29809585a97daec58c6b050"},
      {"603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
       "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
       "2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6"},
  };
  for (const Case& c : cases) {
    std::string key = Hex(c.key);
    std::vector<uint8_t> out(pt.size());
    ASSERT_TRUE(AesCtrTransform(B(key), B(iv), B(pt), out.data()).ok());
    EXPECT_EQ(ToHex(ByteSpan(out.data(), out.size())), c.ct);
    // Decryption is the same operation.
    std::vector<uint8_t> back(out.size());
    ASSERT_TRUE(AesCtrTransform(B(key), B(iv), ByteSpan(out.data(), out.size()), back.data()).ok());
    EXPECT_EQ(std::string(back.begin(), back.end()), pt);
  }
}

// A Parquet CTR page module: nonce || 00000001 as the first counter block. GCM with the same nonce
// starts its keystream at counter 2, so the CTR keystream from block 1 on equals GCM's from block
// 0: this pins both the counter's value and its big-endian position.
TEST(AesCtrTest, ModuleCounterStartsAtOneAfterTheNonce) {
  const std::string key = Hex("feffe9928665731c6d6a8f9467308308");
  const std::string zeros(16 * 5, '\0');
  std::string module;
  ASSERT_TRUE(EncryptModule(Cipher::kCtr, B(key), {}, B(zeros), &module).ok());
  ASSERT_EQ(module.size(), 4 + 12 + zeros.size());
  EXPECT_EQ(LoadLE<uint32_t>(reinterpret_cast<const uint8_t*>(module.data())), 12 + zeros.size());
  const std::string nonce = module.substr(4, 12);
  const std::string keystream = module.substr(16);  // CTR of zeros is the keystream

  std::string iv = nonce + std::string("\x00\x00\x00\x01", 4);
  std::vector<uint8_t> expected(zeros.size());
  ASSERT_TRUE(AesCtrTransform(B(key), B(iv), B(zeros), expected.data()).ok());
  EXPECT_EQ(keystream, std::string(expected.begin(), expected.end()));

  std::vector<uint8_t> gcm(zeros.size() - 16);
  uint8_t tag[16];
  ASSERT_TRUE(
      AesGcmEncrypt(B(key), B(nonce), {}, B(zeros).first(gcm.size()), gcm.data(), tag).ok());
  EXPECT_EQ(keystream.substr(16), std::string(gcm.begin(), gcm.end()));
}

TEST(ModuleTest, GcmModuleLayout) {
  const std::string key(32, '\x42');
  const std::string aad = "aad";
  const std::string pt = "the plaintext of a module";
  std::string module = "prefix";  // appended after what is there
  ASSERT_TRUE(EncryptModule(Cipher::kGcm, B(key), B(aad), B(pt), &module).ok());
  ASSERT_EQ(module.substr(0, 6), "prefix");
  module.erase(0, 6);
  ASSERT_EQ(module.size(), EncryptedModuleSize(Cipher::kGcm, pt.size()));
  ASSERT_EQ(module.size(), pt.size() + 32);
  EXPECT_EQ(LoadLE<uint32_t>(reinterpret_cast<const uint8_t*>(module.data())), pt.size() + 28);
  // Independent check of the layout: nonce at 4, ciphertext at 16, tag last.
  std::vector<uint8_t> plain(pt.size());
  Status s =
      AesGcmDecrypt(B(key), B(module).subspan(4, 12), B(aad), B(module).subspan(16, pt.size()),
                    B(module).subspan(16 + pt.size()), plain.data(), "m");
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(std::string(plain.begin(), plain.end()), pt);
  std::vector<uint8_t> out;
  ASSERT_TRUE(DecryptModule(Cipher::kGcm, B(key), B(aad), B(module), "m", &out).ok());
  EXPECT_EQ(std::string(out.begin(), out.end()), pt);
  auto size = ModuleSizeAt(B(module + "trailing bytes"), "m");
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(*size, module.size());
}

TEST(ModuleTest, NoncesAreFresh) {
  const std::string key(16, 'k');
  std::string a, b;
  ASSERT_TRUE(EncryptModule(Cipher::kGcm, B(key), {}, B(std::string("same")), &a).ok());
  ASSERT_TRUE(EncryptModule(Cipher::kGcm, B(key), {}, B(std::string("same")), &b).ok());
  EXPECT_NE(a.substr(4, 12), b.substr(4, 12));
  EXPECT_NE(a, b);
}

TEST(ModuleTest, RoundTripsManySizesAllKeySizesBothCiphers) {
  std::mt19937 rng(20240607);
  for (size_t key_size : {16, 24, 32}) {
    std::string key(key_size, '\0');
    for (char& c : key) c = static_cast<char>(rng());
    for (Cipher cipher : {Cipher::kGcm, Cipher::kCtr}) {
      for (size_t n : {0, 1, 15, 16, 17, 31, 32, 33, 100, 1000, 4096, 65537}) {
        std::string pt(n, '\0');
        for (char& c : pt) c = static_cast<char>(rng());
        std::string aad = "file-aad" + std::to_string(n);
        std::string module;
        ASSERT_TRUE(EncryptModule(cipher, B(key), B(aad), B(pt), &module).ok());
        ASSERT_EQ(module.size(), EncryptedModuleSize(cipher, n));
        std::vector<uint8_t> out{1, 2, 3};
        Status s = DecryptModule(cipher, B(key), B(aad), B(module), "m", &out);
        ASSERT_TRUE(s.ok()) << s.ToString();
        EXPECT_EQ(std::string(out.begin(), out.end()), pt) << key_size << " " << n;
        if (n >= 16) {
          EXPECT_NE(module.substr(16, n), pt);  // encrypted, not copied
        }
      }
    }
  }
}

TEST(ModuleTest, GcmDetectsEveryFlippedByteWrongAadAndWrongKey) {
  const std::string key = "0123456789012345";
  const std::string aad = "prefix-unique\x02\x00\x00\x01\x00\x00\x00";
  std::string pt(50, '\0');
  for (size_t i = 0; i < pt.size(); ++i) pt[i] = static_cast<char>(i * 7);
  std::string module;
  ASSERT_TRUE(EncryptModule(Cipher::kGcm, B(key), B(aad), B(pt), &module).ok());
  std::vector<uint8_t> out;
  // Bytes 4.. (nonce, ciphertext, tag): authentication fails. Bytes 0..3 (length): corruption.
  for (size_t i = 0; i < module.size(); ++i) {
    std::string bad = module;
    bad[i] = static_cast<char>(bad[i] ^ 0x01);
    Status s =
        DecryptModule(Cipher::kGcm, B(key), B(aad), B(bad), "data page 0 of row group 0", &out);
    ASSERT_FALSE(s.ok()) << "flipped byte " << i;
    if (i < 4) {
      EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    } else {
      EXPECT_EQ(s.code(), StatusCode::kCrypto) << i;
      EXPECT_NE(s.message().find("authentication failed for data page 0 of row group 0"),
                std::string::npos);
      EXPECT_TRUE(out.empty());  // no unauthenticated bytes handed out
    }
  }
  std::string wrong_aad = aad;
  wrong_aad.back() = '\x01';
  Status s = DecryptModule(Cipher::kGcm, B(key), B(wrong_aad), B(module), "footer", &out);
  EXPECT_EQ(s.code(), StatusCode::kCrypto);
  EXPECT_NE(s.message().find("footer"), std::string::npos);
  const std::string wrong_key = "0123456789012346";
  s = DecryptModule(Cipher::kGcm, B(wrong_key), B(aad), B(module), "footer", &out);
  EXPECT_EQ(s.code(), StatusCode::kCrypto);
  EXPECT_EQ(s.message().find(key), std::string::npos);
  EXPECT_EQ(s.message().find(wrong_key), std::string::npos);
  // The same module read as CTR gives different bytes, not the plaintext.
  ASSERT_TRUE(DecryptModule(Cipher::kGcm, B(key), B(aad), B(module), "m", &out).ok());
  EXPECT_EQ(std::string(out.begin(), out.end()), pt);
}

TEST(ModuleTest, TruncatedAndInconsistentModulesAreCorruption) {
  const std::string key(16, 'k');
  std::string module;
  ASSERT_TRUE(EncryptModule(Cipher::kGcm, B(key), {}, B(std::string("abcdef")), &module).ok());
  std::vector<uint8_t> out;
  for (size_t n = 0; n < module.size(); ++n) {
    Status s = DecryptModule(Cipher::kGcm, B(key), {}, B(module).first(n), "column index", &out);
    EXPECT_TRUE(s.IsCorruption()) << n << " " << s.ToString();
    EXPECT_NE(s.message().find("column index"), std::string::npos);
  }
  // A longer span than the length says is not a module (DecryptModule wants it exact).
  EXPECT_TRUE(DecryptModule(Cipher::kGcm, B(key), {}, B(module + "x"), "m", &out).IsCorruption());
  // A length smaller than nonce + tag.
  for (uint32_t len : {0u, 1u, 12u, 27u}) {
    std::string small(4 + len, '\0');
    StoreLE<uint32_t>(reinterpret_cast<uint8_t*>(small.data()), len);
    EXPECT_TRUE(DecryptModule(Cipher::kGcm, B(key), {}, B(small), "m", &out).IsCorruption()) << len;
    if (len < 12) {
      EXPECT_TRUE(DecryptModule(Cipher::kCtr, B(key), {}, B(small), "m", &out).IsCorruption())
          << len;
    }
  }
  // A huge length field is caught before anything is allocated.
  std::string huge(8, '\0');
  StoreLE<uint32_t>(reinterpret_cast<uint8_t*>(huge.data()), 0xFFFFFFFFu);
  EXPECT_TRUE(ModuleSizeAt(B(huge), "m").status().IsCorruption());
}

TEST(ModuleTest, CtrIsNotAuthenticatedButTransformsCorrectly) {
  const std::string key(24, 'q');
  const std::string pt = "page bytes, compressed";
  std::string module;
  ASSERT_TRUE(EncryptModule(Cipher::kCtr, B(key), {}, B(pt), &module).ok());
  module[20] = static_cast<char>(module[20] ^ 0x04);  // ciphertext byte 4
  std::vector<uint8_t> out;
  ASSERT_TRUE(DecryptModule(Cipher::kCtr, B(key), {}, B(module), "m", &out).ok());
  std::string expected = pt;
  expected[4] = static_cast<char>(expected[4] ^ 0x04);  // CTR flips exactly that bit
  EXPECT_EQ(std::string(out.begin(), out.end()), expected);
}

TEST(FooterSignatureTest, SignsAndVerifies) {
  const std::string key = "0123456789012345";
  const std::string aad = std::string("unique") + '\0';
  const std::string footer = "serialized FileMetaData bytes";
  std::string signature;
  ASSERT_TRUE(SignFooter(B(key), B(aad), B(footer), &signature).ok());
  ASSERT_EQ(signature.size(), kFooterSignatureLength);
  EXPECT_TRUE(VerifyFooterSignature(B(key), B(aad), B(footer), B(signature)).ok());
  // The signature is the nonce and the GCM tag of the footer.
  std::vector<uint8_t> ct(footer.size());
  uint8_t tag[16];
  ASSERT_TRUE(
      AesGcmEncrypt(B(key), B(signature).first(12), B(aad), B(footer), ct.data(), tag).ok());
  EXPECT_EQ(std::string(reinterpret_cast<char*>(tag), 16), signature.substr(12));
  for (size_t i = 0; i < footer.size(); ++i) {
    std::string bad = footer;
    bad[i] = static_cast<char>(bad[i] ^ 0x80);
    EXPECT_EQ(VerifyFooterSignature(B(key), B(aad), B(bad), B(signature)).code(),
              StatusCode::kCrypto);
  }
  for (size_t i = 0; i < signature.size(); ++i) {
    std::string bad = signature;
    bad[i] = static_cast<char>(bad[i] ^ 0x01);
    EXPECT_EQ(VerifyFooterSignature(B(key), B(aad), B(footer), B(bad)).code(), StatusCode::kCrypto);
  }
  EXPECT_EQ(
      VerifyFooterSignature(B(std::string("1123456789012345")), B(aad), B(footer), B(signature))
          .code(),
      StatusCode::kCrypto);
  EXPECT_TRUE(
      VerifyFooterSignature(B(key), B(aad), B(footer), B(signature).first(27)).IsCorruption());
}

}  // namespace
}  // namespace pq::crypto
