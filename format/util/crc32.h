// CRC-32 as Parquet page checksums use it. The standard CRC-32 (ISO-HDLC: polynomial 0x04C11DB7
// reflected, initial value and final xor 0xFFFFFFFF), the one of gzip and zlib. The Parquet spec
// "Checksumming": the `crc` field of a PageHeader is this checksum of the page bytes as stored
// (after compression and encryption), written as a signed 32-bit integer holding the same bits.
#pragma once

#include <cstdint>

#include "format/util/byte_reader.h"

namespace pq {

// The CRC-32 of `data`. Pass a previous result as `crc` to continue a checksum over several
// pieces: Crc32(b, Crc32(a)) == Crc32(a followed by b). Crc32({}) == 0.
uint32_t Crc32(ByteSpan data, uint32_t crc = 0);

}  // namespace pq
