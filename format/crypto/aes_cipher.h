// AES ciphers of Parquet modular encryption and the serialized form of an encrypted module.
//
// The Parquet spec "Parquet Modular Encryption", sections 4.1-4.2 and 5.1. Every encrypted part of a
// file (footer, column metadata, page header, page, page index, Bloom filter) is a "module", stored
// as a 4-byte little-endian length followed by that many bytes:
//   GCM module: length | nonce (12) | ciphertext | tag (16)     length = 28 + plaintext size
//   CTR module: length | nonce (12) | ciphertext                length = 12 + plaintext size
// AES_GCM_V1 encrypts every module with AES-GCM; AES_GCM_CTR_V1 encrypts pages (not their headers)
// with AES-CTR, whose 16-byte IV is the nonce followed by the counter 0x00000001 (big endian).
// Keys are 16, 24 or 32 bytes (AES-128/192/256). Nonces for encryption come from RAND_bytes.
//
// The primitives run on OpenSSL's EVP interface (hardware AES where the CPU has it). They are
// stateless and safe to call from several threads at once. No message ever holds key bytes: a
// failure names the module through the caller's `what` ("ColumnMetaData of row group 0, column 3").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "format/util/byte_reader.h"
#include "format/util/status.h"

namespace pq::crypto {

inline constexpr size_t kNonceLength = 12;
inline constexpr size_t kGcmTagLength = 16;
inline constexpr size_t kCtrIvLength = 16;
inline constexpr size_t kModuleLengthSize = 4;
// What a module adds to its plaintext, length field included: a page's compressed_page_size is the
// size of its encrypted module, so the plaintext body is compressed_page_size minus this.
inline constexpr size_t kGcmModuleOverhead =
    kModuleLengthSize + kNonceLength + kGcmTagLength;                           // 32
inline constexpr size_t kCtrModuleOverhead = kModuleLengthSize + kNonceLength;  // 16
// The signature after a plaintext footer: nonce then GCM tag (the Parquet spec 5.3).
inline constexpr size_t kFooterSignatureLength = kNonceLength + kGcmTagLength;  // 28

enum class Cipher : uint8_t { kGcm, kCtr };

// InvalidArgument unless `size` is 16, 24 or 32 (the message gives the size, never the bytes).
Status CheckKeySize(size_t size);

// --- Raw primitives (no framing) -------------------------------------------------------------

// AES-GCM with a 12-byte nonce: writes plaintext.size() bytes to `ciphertext` and the 16-byte tag
// to `tag`. `ciphertext` may equal `plaintext.data()` (in place).
Status AesGcmEncrypt(ByteSpan key, ByteSpan nonce, ByteSpan aad, ByteSpan plaintext,
                     uint8_t* ciphertext, uint8_t* tag);

// AES-GCM decryption: writes ciphertext.size() bytes to `plaintext` and checks the tag. A tag that
// does not match is Crypto "authentication failed for <what> (wrong key, wrong AAD prefix, or
// the file was altered)"; `plaintext` then holds garbage the caller must not use.
Status AesGcmDecrypt(ByteSpan key, ByteSpan nonce, ByteSpan aad, ByteSpan ciphertext, ByteSpan tag,
                     uint8_t* plaintext, std::string_view what);

// AES-CTR with a full 16-byte initial counter block (`iv`), incremented as one 128-bit big-endian
// number per block (NIST SP 800-38A). Encryption and decryption are the same operation.
Status AesCtrTransform(ByteSpan key, ByteSpan iv, ByteSpan in, uint8_t* out);

// --- Modules ----------------------------------------------------------------------------------

// Module size (length field included) for a plaintext of `plaintext_size` bytes.
inline size_t EncryptedModuleSize(Cipher cipher, size_t plaintext_size) {
  return plaintext_size + (cipher == Cipher::kGcm ? kGcmModuleOverhead : kCtrModuleOverhead);
}

// The total size (4 + stored length) of the module that starts at `data`. Corruption, naming
// `what`, if `data` holds fewer than 4 bytes or fewer bytes than the length says.
Result<size_t> ModuleSizeAt(ByteSpan data, std::string_view what);

// Encrypts `plaintext` into one module appended to *out, with a fresh random nonce. `aad` is
// ignored for CTR. InvalidArgument for a bad key size or a plaintext over 2 GiB - 64 bytes.
Status EncryptModule(Cipher cipher, ByteSpan key, ByteSpan aad, ByteSpan plaintext,
                     std::string* out);

// Decrypts the module that is exactly `module` (length field first; Corruption if the length field
// disagrees with module.size() or is too small for the cipher). *plaintext is resized to the
// plaintext size. Authentication failure (GCM) is Crypto naming `what`.
Status DecryptModule(Cipher cipher, ByteSpan key, ByteSpan aad, ByteSpan module,
                     std::string_view what, std::vector<uint8_t>* plaintext);

// Plaintext-footer signature (the Parquet spec 5.3): GCM-encrypts `footer` with the nonce stored in
// `signature` (nonce 12 | tag 16) and compares the tags in constant time. Crypto naming the footer
// when they differ.
Status VerifyFooterSignature(ByteSpan key, ByteSpan aad, ByteSpan footer, ByteSpan signature);
// The 28-byte signature of `footer` with a fresh nonce, appended to *out (for writers).
Status SignFooter(ByteSpan key, ByteSpan aad, ByteSpan footer, std::string* out);

// Fills `out` with cryptographically random bytes (RAND_bytes).
Status RandomBytes(uint8_t* out, size_t n);

// The version of the OpenSSL library the ciphers run on, as it reports itself ("3.0.17").
std::string OpenSslVersion();

// Overwrites the bytes of `secret` with zeros in a way the compiler cannot drop (OPENSSL_cleanse),
// then empties it: for keys about to be freed, so that no copy lingers in released memory.
void WipeSecret(std::string* secret);

}  // namespace pq::crypto
