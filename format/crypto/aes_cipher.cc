#include "format/crypto/aes_cipher.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <memory>

namespace pq::crypto {
namespace {

struct CipherCtxFree {
  void operator()(EVP_CIPHER_CTX* ctx) const { EVP_CIPHER_CTX_free(ctx); }
};
using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, CipherCtxFree>;

// OpenSSL lengths are int: data is fed in pieces of at most this many bytes.
constexpr size_t kMaxUpdate = size_t{1} << 30;

// The largest plaintext one module holds: its length field (read as a signed 32-bit number by
// some implementations) must stay below 2^31.
constexpr size_t kMaxModulePlaintext = size_t{INT32_MAX} - kGcmModuleOverhead;

const EVP_CIPHER* GcmFor(size_t key_size) {
  switch (key_size) {
    case 16:
      return EVP_aes_128_gcm();
    case 24:
      return EVP_aes_192_gcm();
    case 32:
      return EVP_aes_256_gcm();
    default:
      return nullptr;
  }
}

const EVP_CIPHER* CtrFor(size_t key_size) {
  switch (key_size) {
    case 16:
      return EVP_aes_128_ctr();
    case 24:
      return EVP_aes_192_ctr();
    case 32:
      return EVP_aes_256_ctr();
    default:
      return nullptr;
  }
}

Status OpenSslFailure(const char* step) {
  return Status::Crypto(std::string("OpenSSL failed in ") + step);
}

Result<CipherCtx> NewCtx() {
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  if (!ctx) return Status::OutOfMemory("OpenSSL could not allocate a cipher context");
  return ctx;
}

// Runs EVP_CipherUpdate over `in` in int-sized pieces. `out` null feeds AAD.
Status Update(EVP_CIPHER_CTX* ctx, ByteSpan in, uint8_t* out) {
  size_t done = 0;
  while (done < in.size()) {
    size_t n = std::min(kMaxUpdate, in.size() - done);
    int written = 0;
    if (EVP_CipherUpdate(ctx, out ? out + done : nullptr, &written, in.data() + done,
                         static_cast<int>(n)) != 1) {
      return OpenSslFailure("EVP_CipherUpdate");
    }
    if (out && static_cast<size_t>(written) != n) return OpenSslFailure("EVP_CipherUpdate (short)");
    done += n;
  }
  return Status::OK();
}

Status CheckNonce(ByteSpan nonce) {
  if (nonce.size() != kNonceLength) {
    return Status::InvalidArgument("AES-GCM nonce must be 12 bytes, not " +
                                   std::to_string(nonce.size()));
  }
  return Status::OK();
}

// Sets up `ctx` for GCM in direction `encrypt` (1) or decrypt (0) with `key` and `nonce`.
Status GcmInit(EVP_CIPHER_CTX* ctx, ByteSpan key, ByteSpan nonce, int encrypt) {
  PQ_RETURN_IF_ERROR(CheckKeySize(key.size()));
  PQ_RETURN_IF_ERROR(CheckNonce(nonce));
  if (EVP_CipherInit_ex(ctx, GcmFor(key.size()), nullptr, nullptr, nullptr, encrypt) != 1) {
    return OpenSslFailure("EVP_CipherInit_ex (GCM)");
  }
  if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(kNonceLength), nullptr) !=
      1) {
    return OpenSslFailure("EVP_CTRL_GCM_SET_IVLEN");
  }
  if (EVP_CipherInit_ex(ctx, nullptr, nullptr, key.data(), nonce.data(), encrypt) != 1) {
    return OpenSslFailure("EVP_CipherInit_ex (GCM key)");
  }
  return Status::OK();
}

}  // namespace

Status CheckKeySize(size_t size) {
  if (size != 16 && size != 24 && size != 32) {
    return Status::InvalidArgument("an AES key must be 16, 24 or 32 bytes, not " +
                                   std::to_string(size));
  }
  return Status::OK();
}

Status AesGcmEncrypt(ByteSpan key, ByteSpan nonce, ByteSpan aad, ByteSpan plaintext,
                     uint8_t* ciphertext, uint8_t* tag) {
  PQ_ASSIGN_OR_RETURN(CipherCtx ctx, NewCtx());
  PQ_RETURN_IF_ERROR(GcmInit(ctx.get(), key, nonce, 1));
  PQ_RETURN_IF_ERROR(Update(ctx.get(), aad, nullptr));
  PQ_RETURN_IF_ERROR(Update(ctx.get(), plaintext, ciphertext));
  int final_len = 0;
  uint8_t final_block[16];
  if (EVP_EncryptFinal_ex(ctx.get(), final_block, &final_len) != 1 || final_len != 0) {
    return OpenSslFailure("EVP_EncryptFinal_ex (GCM)");
  }
  if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(kGcmTagLength), tag) !=
      1) {
    return OpenSslFailure("EVP_CTRL_GCM_GET_TAG");
  }
  return Status::OK();
}

Status AesGcmDecrypt(ByteSpan key, ByteSpan nonce, ByteSpan aad, ByteSpan ciphertext, ByteSpan tag,
                     uint8_t* plaintext, std::string_view what) {
  if (tag.size() != kGcmTagLength) {
    return Status::InvalidArgument("AES-GCM tag must be 16 bytes, not " +
                                   std::to_string(tag.size()));
  }
  PQ_ASSIGN_OR_RETURN(CipherCtx ctx, NewCtx());
  PQ_RETURN_IF_ERROR(GcmInit(ctx.get(), key, nonce, 0));
  PQ_RETURN_IF_ERROR(Update(ctx.get(), aad, nullptr));
  PQ_RETURN_IF_ERROR(Update(ctx.get(), ciphertext, plaintext));
  // The tag buffer is only read by OpenSSL; the API takes a non-const pointer.
  uint8_t expected[kGcmTagLength];
  std::memcpy(expected, tag.data(), kGcmTagLength);
  if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(kGcmTagLength),
                          expected) != 1) {
    return OpenSslFailure("EVP_CTRL_GCM_SET_TAG");
  }
  int final_len = 0;
  uint8_t final_block[16];
  if (EVP_DecryptFinal_ex(ctx.get(), final_block, &final_len) != 1) {
    return Status::Crypto("authentication failed for " + std::string(what) +
                          " (wrong key, wrong AAD prefix, or the file was altered)");
  }
  return Status::OK();
}

Status AesCtrTransform(ByteSpan key, ByteSpan iv, ByteSpan in, uint8_t* out) {
  PQ_RETURN_IF_ERROR(CheckKeySize(key.size()));
  if (iv.size() != kCtrIvLength) {
    return Status::InvalidArgument("AES-CTR IV must be 16 bytes, not " + std::to_string(iv.size()));
  }
  PQ_ASSIGN_OR_RETURN(CipherCtx ctx, NewCtx());
  if (EVP_CipherInit_ex(ctx.get(), CtrFor(key.size()), nullptr, key.data(), iv.data(), 1) != 1) {
    return OpenSslFailure("EVP_CipherInit_ex (CTR)");
  }
  PQ_RETURN_IF_ERROR(Update(ctx.get(), in, out));
  int final_len = 0;
  uint8_t final_block[16];
  if (EVP_CipherFinal_ex(ctx.get(), final_block, &final_len) != 1 || final_len != 0) {
    return OpenSslFailure("EVP_CipherFinal_ex (CTR)");
  }
  return Status::OK();
}

Result<size_t> ModuleSizeAt(ByteSpan data, std::string_view what) {
  if (kModuleLengthSize > data.size()) {
    return Status::Corruption("encrypted " + std::string(what) + " is truncated: " +
                              std::to_string(data.size()) + " bytes, no room for its length");
  }
  uint32_t length = LoadLE<uint32_t>(data.data());
  if (length > data.size() - kModuleLengthSize) {
    return Status::Corruption("encrypted " + std::string(what) + " claims " +
                              std::to_string(length) + " bytes, only " +
                              std::to_string(data.size() - kModuleLengthSize) + " are there");
  }
  return kModuleLengthSize + size_t{length};
}

Status EncryptModule(Cipher cipher, ByteSpan key, ByteSpan aad, ByteSpan plaintext,
                     std::string* out) {
  PQ_RETURN_IF_ERROR(CheckKeySize(key.size()));
  if (plaintext.size() > kMaxModulePlaintext) {
    return Status::InvalidArgument("plaintext of " + std::to_string(plaintext.size()) +
                                   " bytes is too large for one encrypted module");
  }
  const size_t module_size = EncryptedModuleSize(cipher, plaintext.size());
  const size_t start = out->size();
  out->resize(start + module_size);
  uint8_t* p = reinterpret_cast<uint8_t*>(out->data()) + start;
  StoreLE<uint32_t>(p, static_cast<uint32_t>(module_size - kModuleLengthSize));
  uint8_t* nonce = p + kModuleLengthSize;
  uint8_t* body = nonce + kNonceLength;
  Status s = RandomBytes(nonce, kNonceLength);
  if (s.ok()) {
    if (cipher == Cipher::kGcm) {
      s = AesGcmEncrypt(key, ByteSpan(nonce, kNonceLength), aad, plaintext, body,
                        body + plaintext.size());
    } else {
      uint8_t iv[kCtrIvLength] = {};
      std::memcpy(iv, nonce, kNonceLength);
      iv[kCtrIvLength - 1] = 1;  // initial counter 0x00000001 (the Parquet spec 4.2.2)
      s = AesCtrTransform(key, ByteSpan(iv, kCtrIvLength), plaintext, body);
    }
  }
  if (!s.ok()) out->resize(start);
  return s;
}

Status DecryptModule(Cipher cipher, ByteSpan key, ByteSpan aad, ByteSpan module,
                     std::string_view what, std::vector<uint8_t>* plaintext) {
  PQ_ASSIGN_OR_RETURN(size_t size, ModuleSizeAt(module, what));
  if (size != module.size()) {
    return Status::Corruption("encrypted " + std::string(what) + " length field says " +
                              std::to_string(size - kModuleLengthSize) + " bytes, the module has " +
                              std::to_string(module.size() - kModuleLengthSize));
  }
  const size_t overhead = cipher == Cipher::kGcm ? kGcmModuleOverhead : kCtrModuleOverhead;
  if (overhead > size) {
    return Status::Corruption("encrypted " + std::string(what) + " of " + std::to_string(size) +
                              " bytes is shorter than its nonce" +
                              (cipher == Cipher::kGcm ? " and tag" : ""));
  }
  const size_t n = size - overhead;
  ByteSpan nonce = module.subspan(kModuleLengthSize, kNonceLength);
  ByteSpan body = module.subspan(kModuleLengthSize + kNonceLength, n);
  plaintext->resize(n);
  if (cipher == Cipher::kGcm) {
    ByteSpan tag = module.subspan(kModuleLengthSize + kNonceLength + n, kGcmTagLength);
    Status s = AesGcmDecrypt(key, nonce, aad, body, tag, plaintext->data(), what);
    if (!s.ok()) plaintext->clear();  // never hand out unauthenticated bytes
    return s;
  }
  uint8_t iv[kCtrIvLength] = {};
  std::memcpy(iv, nonce.data(), kNonceLength);
  iv[kCtrIvLength - 1] = 1;
  return AesCtrTransform(key, ByteSpan(iv, kCtrIvLength), body, plaintext->data());
}

Status VerifyFooterSignature(ByteSpan key, ByteSpan aad, ByteSpan footer, ByteSpan signature) {
  if (signature.size() != kFooterSignatureLength) {
    return Status::Corruption("plaintext footer signature must be 28 bytes, not " +
                              std::to_string(signature.size()));
  }
  std::vector<uint8_t> scratch(footer.size());
  uint8_t tag[kGcmTagLength];
  PQ_RETURN_IF_ERROR(
      AesGcmEncrypt(key, signature.first(kNonceLength), aad, footer, scratch.data(), tag));
  if (CRYPTO_memcmp(tag, signature.data() + kNonceLength, kGcmTagLength) != 0) {
    return Status::Crypto(
        "footer signature does not match (wrong footer key, wrong AAD prefix, or the footer was "
        "altered)");
  }
  return Status::OK();
}

Status SignFooter(ByteSpan key, ByteSpan aad, ByteSpan footer, std::string* out) {
  uint8_t nonce[kNonceLength];
  PQ_RETURN_IF_ERROR(RandomBytes(nonce, kNonceLength));
  std::vector<uint8_t> scratch(footer.size());
  uint8_t tag[kGcmTagLength];
  PQ_RETURN_IF_ERROR(
      AesGcmEncrypt(key, ByteSpan(nonce, kNonceLength), aad, footer, scratch.data(), tag));
  out->append(reinterpret_cast<const char*>(nonce), kNonceLength);
  out->append(reinterpret_cast<const char*>(tag), kGcmTagLength);
  return Status::OK();
}

Status RandomBytes(uint8_t* out, size_t n) {
  while (n > 0) {
    int piece = static_cast<int>(std::min(n, kMaxUpdate));
    if (RAND_bytes(out, piece) != 1) return Status::Crypto("OpenSSL RAND_bytes failed");
    out += piece;
    n -= static_cast<size_t>(piece);
  }
  return Status::OK();
}

std::string OpenSslVersion() {
  // OPENSSL_VERSION_STRING is the bare "3.0.17"; OPENSSL_VERSION would add "OpenSSL " and a date.
  return OpenSSL_version(OPENSSL_VERSION_STRING);
}

void WipeSecret(std::string* secret) {
  if (!secret->empty()) OPENSSL_cleanse(secret->data(), secret->size());
  secret->clear();
}

}  // namespace pq::crypto
