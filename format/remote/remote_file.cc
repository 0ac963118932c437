#include "format/remote/remote_file.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <vector>

#include "format/remote/remote_url.h"
#include "format/remote/server_text.h"

namespace pq::remote {

namespace {

bool StrongEtag(const std::string& etag) {
  return !etag.empty() && etag.rfind("W/", 0) != 0;
}

// How servers that serve GET refuse HEAD: 405 (many CDNs and application servers), 403 (a URL
// presigned for GET only), 501.
bool RefusesHead(long status) {
  return status == 405 || status == 403 || status == 501;
}

// The tally of the calling thread (ScopedRequestTally), or null.
thread_local RequestTally* current_tally = nullptr;

}  // namespace

ScopedRequestTally::ScopedRequestTally(RequestTally* tally) : previous_(current_tally) { current_tally = tally; }
ScopedRequestTally::~ScopedRequestTally() { current_tally = previous_; }

RemoteLocation HttpLocation(std::shared_ptr<HttpClient> http, const std::string& url) {
  RemoteLocation location;
  location.display_name = DisplayUrl(url);
  location.http = std::move(http);
  location.make_request = [url](std::string_view method) {
    HttpRequest r;
    r.method = std::string(method);
    r.url = url;
    return r;
  };
  return location;
}

RemoteLocation S3Location(std::shared_ptr<S3Client> s3, const std::string& bucket, const std::string& key) {
  RemoteLocation location;
  location.display_name = "s3://" + bucket + "/" + key;
  location.http = s3->http();
  location.make_request = [s3, bucket, key](std::string_view method) { return s3->MakeRequest(method, bucket, key); };
  return location;
}

void RemoteFile::Count(const HttpResponse& response) const {
  const int64_t bytes = response.body_bytes + (response.range_ignored ? response.range_offset : 0);
  requests_.fetch_add(response.attempts, std::memory_order_relaxed);
  bytes_fetched_.fetch_add(bytes, std::memory_order_relaxed);
  if (current_tally != nullptr) {
    current_tally->requests += response.attempts;
    current_tally->bytes += bytes;
  }
}

Status RemoteFile::CheckVersion(const HttpResponse& response, bool* changed_now) const {
  const auto changed = [&](const std::string& what) {
    NoteChange(what);
    if (changed_now != nullptr) *changed_now = true;
    return Status::IOError(display_name() + " changed since it was opened (" + what + ")");
  };
  if (response.status == 412) return changed("HTTP 412 to If-Match " + ServerText(etag_));
  const std::string etag = response.Header("etag");
  const std::string modified = response.Header("last-modified");
  if (!etag_.empty() && !etag.empty() && etag != etag_) {
    return changed("ETag " + ServerText(etag_) + " became " + ServerText(etag));
  }
  if ((etag_.empty() || etag.empty()) && !last_modified_.empty() && !modified.empty() && modified != last_modified_) {
    return changed("Last-Modified " + ServerText(last_modified_) + " became " + ServerText(modified));
  }
  if (response.object_size >= 0 && response.object_size != size_) {
    return changed("size " + std::to_string(size_) + " became " + std::to_string(response.object_size) +
                   (response.range_ignored ? ", by a 200 answer to a Range request, taken for the whole object" : ""));
  }
  // An answer with none of the validators the object was opened with cannot be told from one of
  // another version of the same size (a server that stopped sending them, or a proxy serving another
  // copy): its bytes are not used. (An object opened without either is checked by its size alone.)
  if ((!etag_.empty() || !last_modified_.empty()) && (etag_.empty() || etag.empty()) &&
      (last_modified_.empty() || modified.empty())) {
    return Status::IOError(display_name() + ": an answer came without the " +
                           (etag_.empty() ? "Last-Modified" : "ETag") + " the object was opened with (" +
                           ServerText(etag_.empty() ? last_modified_ : etag_) +
                           "), so nothing shows it is of that version; its bytes are not used (the server, or a "
                           "proxy, must send the same ETag or Last-Modified with every answer)");
  }
  // Only the validator the object was opened with confirms it: an answer without it (a proxy that
  // drops ETag, a server that ignores If-Match) would let a same-size replacement through.
  const bool confirms = !etag_.empty() ? !etag.empty() : last_modified_.empty() || !modified.empty();
  if (confirms) confirmations_.fetch_add(1, std::memory_order_relaxed);
  return Status::OK();
}

void RemoteFile::NoteChange(const std::string& what) const {
  std::lock_guard<std::mutex> lock(change_mu_);
  if (change_.empty()) change_ = what;
  changed_seen_.store(true, std::memory_order_relaxed);
}

std::string RemoteFile::change() const {
  std::lock_guard<std::mutex> lock(change_mu_);
  return change_;
}

Result<std::unique_ptr<RemoteFile>> RemoteFile::Open(RemoteLocation location, RemoteFileOptions options) {
  std::unique_ptr<RemoteFile> file(new RemoteFile(std::move(location), options));
  const std::string& name = file->display_name();
  HttpRequest request = file->location_.make_request("GET");
  request.range = HttpRange{0, std::max<int64_t>(8, options.footer_guess), true};
  request.max_unranged_bytes = options.max_unranged_bytes;
  const std::string url = request.url;
  PQ_ASSIGN_OR_RETURN(HttpResponse response, file->location_.http->Send(std::move(request)));
  file->Count(response);
  if (response.status == 416) {
    // A server that takes no suffix range ("bytes=-N") may answer 416 to one, as every server does for
    // an empty object: the size from the 416's Content-Range ("bytes */SIZE"), else from a HEAD, and
    // the tail asked for as a plain range.
    int64_t size = -1;
    const std::string range = response.Header("content-range");
    if (range.rfind("bytes */", 0) == 0) {
      const std::string digits = range.substr(8);
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), size);
      if (ec != std::errc() || end != digits.data() + digits.size() || size < 0) size = -1;
    }
    if (size < 0) {
      PQ_ASSIGN_OR_RETURN(HttpResponse head, file->location_.http->Send(file->location_.make_request("HEAD")));
      file->Count(head);
      const std::string length = head.Header("content-length");
      if (head.status != 200 || length.empty() ||
          std::from_chars(length.data(), length.data() + length.size(), size).ec != std::errc() || size < 0) {
        return Status::IOError(name + ": " + HttpStatusError("GET", url, response).message() +
                               " to a suffix range, and a HEAD did not give the object's size");
      }
    }
    if (size == 0) {
      file->etag_ = response.Header("etag");
      file->last_modified_ = response.Header("last-modified");
      return file;  // FileReader says what an empty file is
    }
    HttpRequest tail = file->location_.make_request("GET");
    const int64_t guess = std::max<int64_t>(8, options.footer_guess);
    tail.range = HttpRange{std::max<int64_t>(0, size - guess), std::min(guess, size), false};
    tail.max_unranged_bytes = options.max_unranged_bytes;
    PQ_ASSIGN_OR_RETURN(response, file->location_.http->Send(std::move(tail)));
    file->Count(response);
  }
  if (response.status != 206 && response.status != 200) {
    return Status::IOError(name + ": " + HttpStatusError("GET", url, response).message());
  }
  if (response.object_size < 0) return Status::IOError(name + ": the server did not give the object's size");
  file->size_ = response.object_size;
  file->etag_ = response.Header("etag");
  file->last_modified_ = response.Header("last-modified");
  if (!response.range_ignored) {
    file->tail_offset_ = response.range_offset;
    file->tail_ = std::move(response.body);
    if (file->tail_offset_ + static_cast<int64_t>(file->tail_.size()) != file->size_) {
      return Status::IOError(name + ": the end of the object did not come whole");
    }
    return file;
  }
  // The server ignores Range: hold the whole object (HttpClient refused one over the limit).
  std::string whole(static_cast<size_t>(file->size_), '\0');
  HttpRequest get = file->location_.make_request("GET");
  get.sink = reinterpret_cast<uint8_t*>(whole.data());
  get.sink_capacity = file->size_;
  Result<HttpResponse> answered = file->location_.http->Send(std::move(get));
  if (!answered.ok()) {
    return answered.status().WithContext(name + ": a Range request was answered with a 200 of " +
                                         std::to_string(file->size_) + " bytes, taken for the whole object");
  }
  HttpResponse all = std::move(answered).value();
  file->Count(all);
  if (all.status != 200) return Status::IOError(name + ": " + HttpStatusError("GET", url, all).message());
  all.object_size = -1;
  const std::string length = all.Header("content-length");
  if (!length.empty()) std::from_chars(length.data(), length.data() + length.size(), all.object_size);
  PQ_RETURN_IF_ERROR(file->CheckVersion(all));
  if (all.body_bytes != file->size_) {
    return Status::IOError(name + ": " + std::to_string(all.body_bytes) + " bytes came of " +
                           std::to_string(file->size_));
  }
  file->tail_ = std::move(whole);
  file->tail_offset_ = 0;
  file->whole_ = true;
  return file;
}

HttpRequest RemoteFile::RangeRequest(int64_t offset, int64_t length, uint8_t* out) const {
  HttpRequest r = location_.make_request("GET");
  r.range = HttpRange{offset, length, false};
  r.sink = out;
  r.sink_capacity = length;
  r.max_unranged_bytes = options_.max_unranged_bytes;
  if (StrongEtag(etag_)) r.headers.emplace_back("If-Match", etag_);
  return r;
}

Status RemoteFile::ReadInto(int64_t offset, int64_t length, uint8_t* out) const {
  const ReadRange one{offset, length, out};
  return ReadRanges(std::span<const ReadRange>(&one, 1));
}

Status RemoteFile::ReadRanges(std::span<const ReadRange> ranges) const {
  struct Piece {
    int64_t offset;
    int64_t length;
    uint8_t* out;
  };
  std::vector<Piece> pieces;
  for (const ReadRange& r : ranges) {
    if (r.offset < 0 || r.length < 0 || r.offset > size_ || r.length > size_ - r.offset) {
      return Status::Corruption(display_name() + ": bytes " + std::to_string(r.offset) + "+" +
                                std::to_string(r.length) + " are outside the object of " + std::to_string(size_) +
                                " bytes");
    }
    int64_t end = r.offset + r.length;
    if (end > tail_offset_) {  // the part held since Open
      const int64_t from = std::max(r.offset, tail_offset_);
      std::memcpy(r.out + (from - r.offset), tail_.data() + (from - tail_offset_), static_cast<size_t>(end - from));
      end = from;
    }
    if (end > r.offset) pieces.push_back({r.offset, end - r.offset, r.out});
  }
  if (pieces.empty()) return Status::OK();
  std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.offset < b.offset; });

  // Join pieces whose gap is small, up to max_request_bytes a request.
  struct Span {
    int64_t offset;
    int64_t end;
    std::vector<Piece> pieces;
  };
  std::vector<Span> spans;
  for (const Piece& p : pieces) {
    const int64_t p_end = p.offset + p.length;
    if (!spans.empty()) {
      Span& last = spans.back();
      const int64_t joined_end = std::max(last.end, p_end);
      if (p.offset - last.end <= options_.coalesce_gap && joined_end - last.offset <= options_.max_request_bytes) {
        last.end = joined_end;
        last.pieces.push_back(p);
        continue;
      }
    }
    spans.push_back({p.offset, p_end, {p}});
  }

  std::vector<HttpRequest> requests;
  std::vector<int64_t> lengths;
  std::vector<std::unique_ptr<uint8_t[]>> buffers(spans.size());
  for (size_t i = 0; i < spans.size(); ++i) {
    const Span& s = spans[i];
    const Piece& first = s.pieces[0];
    if (s.pieces.size() == 1) {
      // One range: straight into the caller's memory, in pieces of at most max_request_bytes.
      for (int64_t at = 0; at < first.length; at += options_.max_request_bytes) {
        const int64_t n = std::min(options_.max_request_bytes, first.length - at);
        requests.push_back(RangeRequest(first.offset + at, n, first.out + at));
        lengths.push_back(n);
      }
      continue;
    }
    buffers[i].reset(new uint8_t[static_cast<size_t>(s.end - s.offset)]);
    requests.push_back(RangeRequest(s.offset, s.end - s.offset, buffers[i].get()));
    lengths.push_back(s.end - s.offset);
  }
  std::vector<std::string> urls;
  for (const HttpRequest& r : requests) urls.push_back(r.url);
  std::vector<Result<HttpResponse>> results = location_.http->SendAll(std::move(requests));
  for (size_t i = 0; i < results.size(); ++i) {
    if (!results[i].ok()) return results[i].status();
    const HttpResponse& response = *results[i];
    Count(response);
    if (response.status == 412) return CheckVersion(response);
    if (response.status != 206 && response.status != 200) {
      return Status::IOError(display_name() + ": " + HttpStatusError("GET", urls[i], response).message());
    }
    PQ_RETURN_IF_ERROR(CheckVersion(response));
    if (response.body_bytes != lengths[i]) {
      return Status::IOError(display_name() + ": " + std::to_string(response.body_bytes) + " bytes came of " +
                             std::to_string(lengths[i]) + " asked");
    }
  }
  for (size_t i = 0; i < spans.size(); ++i) {
    if (buffers[i] == nullptr) continue;
    for (const Piece& p : spans[i].pieces) {
      std::memcpy(p.out, buffers[i].get() + (p.offset - spans[i].offset), static_cast<size_t>(p.length));
    }
  }
  return Status::OK();
}

Result<bool> RemoteFile::JudgeCheck(const std::string& method, const std::string& url, HttpResponse response) const {
  Count(response);
  if (response.status == 404 || response.status == 410) {
    NoteChange("HTTP " + std::to_string(response.status) + " to " + method);
    return true;
  }
  bool changed = false;
  if (response.status == 412) return !CheckVersion(response, &changed).ok();
  const bool head = method == "HEAD";
  if (head ? response.status != 200 : response.status != 206 && response.status != 200) {
    return Status::IOError(display_name() + ": " + HttpStatusError(method, url, response).message());
  }
  if (head) {
    const std::string length = response.Header("content-length");
    if (!length.empty()) std::from_chars(length.data(), length.data() + length.size(), response.object_size);
  }
  if (CheckVersion(response, &changed).ok()) return false;
  // Not ok and not changed: an answer without the validators, which cannot tell. It is taken as
  // unchanged (its size was checked) without confirming, as a check of an object opened without
  // them is; unlike a range answer, it brings no bytes to be used.
  return changed;
}

Result<bool> RemoteFile::Changed() const {
  const RemoteFile* self = this;
  return std::move(ChangedAll(std::span<const RemoteFile* const>(&self, 1))[0]);
}

std::vector<Result<bool>> RemoteFile::ChangedAll(std::span<const RemoteFile* const> files) {
  std::vector<Result<bool>> out(files.size(), Result<bool>(false));
  // One SendAll per client: files of one table share theirs.
  std::vector<bool> done(files.size(), false);
  for (size_t i = 0; i < files.size(); ++i) {
    if (done[i]) continue;
    HttpClient* client = files[i]->location_.http.get();
    std::vector<size_t> group;
    std::vector<HttpRequest> requests;
    std::vector<std::string> urls;
    for (size_t j = i; j < files.size(); ++j) {
      if (done[j] || files[j]->location_.http.get() != client) continue;
      done[j] = true;
      group.push_back(j);
      requests.push_back(files[j]->location_.make_request("HEAD"));
      urls.push_back(requests.back().url);
    }
    std::vector<Result<HttpResponse>> responses = client->SendAll(std::move(requests));
    // Where HEAD is refused, the object's first byte is asked for instead: the answer carries the
    // same ETag, Last-Modified and (in Content-Range) size.
    std::vector<std::string> methods(group.size(), "HEAD");
    std::vector<size_t> refused;
    std::vector<HttpRequest> probes;
    std::vector<uint8_t> first_bytes(group.size());
    for (size_t k = 0; k < group.size(); ++k) {
      if (!responses[k].ok() || !RefusesHead(responses[k]->status)) continue;
      const RemoteFile* file = files[group[k]];
      file->Count(*responses[k]);
      refused.push_back(k);
      probes.push_back(file->RangeRequest(0, 1, &first_bytes[k]));
      methods[k] = "GET";
    }
    if (!probes.empty()) {
      std::vector<Result<HttpResponse>> probed = client->SendAll(std::move(probes));
      for (size_t p = 0; p < refused.size(); ++p) responses[refused[p]] = std::move(probed[p]);
    }
    for (size_t k = 0; k < group.size(); ++k) {
      if (!responses[k].ok()) {
        out[group[k]] = responses[k].status();
        continue;
      }
      out[group[k]] = files[group[k]]->JudgeCheck(methods[k], urls[k], std::move(responses[k]).value());
    }
  }
  return out;
}

}  // namespace pq::remote
