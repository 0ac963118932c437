// ServerText: text a server sent (an S3 error's Code and Message, a header value, a URL it
// redirects to) made fit for an error message. Every byte of a response is untrusted: a server must
// not be able to colour or clear the user's terminal (ESC sequences) or forge lines in a log that
// records the message (CR, LF), nor fill it.
#pragma once

#include <string>
#include <string_view>

namespace pq::remote {

// At most this many bytes of a server's text reach a message.
inline constexpr size_t kMaxServerTextBytes = 200;

// `text` with every byte outside printable ASCII (C0 controls, DEL, bytes 0x80 and up) written as
// \xNN, cut after kMaxServerTextBytes bytes of the original (then "...").
std::string ServerText(std::string_view text);

}  // namespace pq::remote
