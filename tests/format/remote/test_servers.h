// Test servers for the remote tests: the launchers of tests/tools (nginx_server.mjs, s3_server.mjs,
// fault_proxy.mjs) started as child processes on 127.0.0.1, read for their "port=N" line, and
// stopped by pid when the test ends. Their stdin is a pipe from the test: if the test dies, the
// launcher sees it close and stops its server too. A launcher that cannot start (node, nginx or an
// npm package missing) makes the test fail with its message, never skip. ScriptedServer answers
// from inside the test for what no real server does on demand.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <openssl/ssl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace pq::remote::testing {

inline std::string SourcePath(const std::string& relative) {
  return std::string(PQ_SOURCE_DIR) + "/" + relative;
}

// A fresh folder under the system's temporary folder, removed by the destructor.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "pq-remote-XXXXXX").string();
    path_ = ::mkdtemp(pattern.data()) ? pattern : "";
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  std::string Write(const std::string& name, const std::string& bytes) const {
    const std::string file = path_ + "/" + name;
    std::filesystem::create_directories(std::filesystem::path(file).parent_path());
    std::ofstream(file, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return file;
  }

 private:
  std::string path_;
};

// Runs `argv` with `input` on stdin; returns its stdout, or sets *error (stderr and exit status).
inline std::string RunProcess(const std::vector<std::string>& argv, const std::string& input, std::string* error) {
  TempDir dir;
  const std::string in = dir.Write("in", input);
  const std::string out = dir.path() + "/out";
  const std::string err = dir.path() + "/err";
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::freopen(in.c_str(), "rb", stdin);
    ::freopen(out.c_str(), "wb", stdout);
    ::freopen(err.c_str(), "wb", stderr);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    std::perror("exec");
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  auto slurp = [](const std::string& f) {
    std::ifstream s(f, std::ios::binary);
    std::stringstream ss;
    ss << s.rdbuf();
    return ss.str();
  };
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    *error = argv[0] + " failed (status " + std::to_string(status) + "): " + slurp(err);
    return "";
  }
  return slurp(out);
}

// One launcher process and the "key=value ..." fields of its first line.
class ServerProcess {
 public:
  // Starts `node tests/tools/<script> args...`; empty result and *error on failure.
  static std::unique_ptr<ServerProcess> Start(const std::string& script, const std::vector<std::string>& args,
                                              std::string* error) {
    int out_pipe[2], in_pipe[2];
    if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(in_pipe, O_CLOEXEC) != 0) {
      *error = "pipe failed";
      return nullptr;
    }
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::dup2(in_pipe[0], 0);
      ::dup2(out_pipe[1], 1);
      ::close(in_pipe[0]);
      ::close(in_pipe[1]);
      ::close(out_pipe[0]);
      ::close(out_pipe[1]);
      std::vector<std::string> argv = {"node", SourcePath("tests/tools/" + script)};
      argv.insert(argv.end(), args.begin(), args.end());
      std::vector<char*> c;
      for (std::string& a : argv) c.push_back(a.data());
      c.push_back(nullptr);
      ::execvp("node", c.data());
      std::perror("node");
      ::_exit(127);
    }
    ::close(in_pipe[0]);
    ::close(out_pipe[1]);
    std::unique_ptr<ServerProcess> server(new ServerProcess(pid, in_pipe[1], out_pipe[0]));
    // The first line, within 30 s.
    std::string line;
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (line.find('\n') == std::string::npos) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        *error = script + " printed no port within 30 s";
        return nullptr;
      }
      pollfd p{out_pipe[0], POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
      char buf[512];
      const ssize_t n = ::read(out_pipe[0], buf, sizeof(buf));
      if (n <= 0) {
        *error = script + " exited before printing its port (its message is above)";
        return nullptr;
      }
      line.append(buf, static_cast<size_t>(n));
    }
    line.resize(line.find('\n'));
    std::istringstream fields(line);
    std::string field;
    while (fields >> field) {
      const size_t eq = field.find('=');
      if (eq != std::string::npos) server->fields_[field.substr(0, eq)] = field.substr(eq + 1);
    }
    if (server->port() <= 0) {
      *error = script + " printed '" + line + "'";
      return nullptr;
    }
    return server;
  }

  ~ServerProcess() {
    ::close(stdin_fd_);
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 100; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
        ::close(stdout_fd_);
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    ::close(stdout_fd_);
  }

  int port() const { return Int("port"); }
  int Int(const std::string& name) const {
    auto it = fields_.find(name);
    return it == fields_.end() ? 0 : std::atoi(it->second.c_str());
  }
  std::string Field(const std::string& name) const {
    auto it = fields_.find(name);
    return it == fields_.end() ? "" : it->second;
  }
  std::string Url(const std::string& path = "/") const {
    return "http://127.0.0.1:" + std::to_string(port()) + path;
  }

 private:
  ServerProcess(pid_t pid, int stdin_fd, int stdout_fd) : pid_(pid), stdin_fd_(stdin_fd), stdout_fd_(stdout_fd) {}
  pid_t pid_;
  int stdin_fd_;
  int stdout_fd_;
  std::map<std::string, std::string> fields_;
};

// An HTTP/1.1 server in the test's process on 127.0.0.1 (a port the kernel picks), for answers no
// real server gives on demand: a refused HEAD, a Retry-After date, a redirect to another origin, a
// huge Content-Length. One request per connection; `answer` gets the request and how many came
// before it, and returns the raw answer, after which `stream_zeros` zero bytes follow (until the
// client goes away). Every request is recorded. With `tls` it speaks HTTPS, with a self-signed
// certificate for 127.0.0.1 (ca_file()). The destructor stops the server.
class ScriptedServer {
 public:
  struct Request {
    std::string method;
    std::string target;
    std::map<std::string, std::string> headers;  // names lower-case
  };
  struct Answer {
    std::string raw;  // status line, headers, blank line, body
    int64_t stream_zeros = 0;
  };
  using Script = std::function<Answer(const Request& request, int earlier)>;

  // "HTTP/1.1 <status>" with `headers`, Content-Length (unless given) and Connection: close.
  static Answer Reply(int status, const std::vector<std::pair<std::string, std::string>>& headers,
                      const std::string& body = "") {
    std::string raw = "HTTP/1.1 " + std::to_string(status) + " Scripted\r\nConnection: close\r\n";
    bool has_length = false;
    for (const auto& [name, value] : headers) {
      raw += name + ": " + value + "\r\n";
      has_length = has_length || name == "Content-Length";
    }
    if (!has_length) raw += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    return {raw + "\r\n" + body, 0};
  }

  explicit ScriptedServer(Script script, bool tls = false) : script_(std::move(script)) {
    if (tls) {
      // SSL_write to a client that went away would raise SIGPIPE.
      ::signal(SIGPIPE, SIG_IGN);
      ca_file_ = dir_.path() + "/cert.pem";
      const std::string key = dir_.path() + "/key.pem";
      std::string error;
      RunProcess({"openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                  "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key,
                  "-out", ca_file_},
                 "", &error);
      tls_ = SSL_CTX_new(TLS_server_method());
      if (!error.empty() || tls_ == nullptr ||
          SSL_CTX_use_certificate_chain_file(tls_, ca_file_.c_str()) != 1 ||
          SSL_CTX_use_PrivateKey_file(tls_, key.c_str(), SSL_FILETYPE_PEM) != 1) {
        return;
      }
    }
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
        ::listen(listen_fd_, 64) != 0 ||
        ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      return;
    }
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this] { Serve(); });
  }
  ~ScriptedServer() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    if (listen_fd_ >= 0) ::close(listen_fd_);
    if (tls_ != nullptr) SSL_CTX_free(tls_);
  }
  ScriptedServer(const ScriptedServer&) = delete;
  ScriptedServer& operator=(const ScriptedServer&) = delete;

  int port() const { return port_; }
  std::string Url(const std::string& path) const {
    return (tls_ != nullptr ? "https://127.0.0.1:" : "http://127.0.0.1:") + std::to_string(port_) + path;
  }
  const std::string& ca_file() const { return ca_file_; }
  std::vector<Request> requests() const {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
  }

 private:
  void Serve() {
    while (!stop_) {
      pollfd p{listen_fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      Connection c;
      c.fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (c.fd < 0) continue;
      const timeval ten_seconds{10, 0};
      ::setsockopt(c.fd, SOL_SOCKET, SO_RCVTIMEO, &ten_seconds, sizeof(ten_seconds));
      if (tls_ != nullptr) {
        c.ssl = SSL_new(tls_);
        SSL_set_fd(c.ssl, c.fd);
        if (SSL_accept(c.ssl) == 1) Handle(c);
        SSL_free(c.ssl);
      } else {
        Handle(c);
      }
      ::close(c.fd);
    }
  }
  struct Connection {
    int fd = -1;
    SSL* ssl = nullptr;
    ssize_t Recv(char* buf, size_t n) const {
      return ssl ? SSL_read(ssl, buf, static_cast<int>(n)) : ::recv(fd, buf, n, 0);
    }
    // False once the client is gone.
    bool Send(std::string_view bytes) const {
      while (!bytes.empty()) {
        const ssize_t n = ssl ? SSL_write(ssl, bytes.data(), static_cast<int>(bytes.size()))
                              : ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n <= 0) return false;
        bytes.remove_prefix(static_cast<size_t>(n));
      }
      return true;
    }
  };
  void Handle(const Connection& c) {
    std::string in;
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (in.find("\r\n\r\n") == std::string::npos) {
      pollfd p{c.fd, POLLIN, 0};
      if (stop_ || std::chrono::steady_clock::now() > end) return;
      if ((c.ssl == nullptr || SSL_pending(c.ssl) == 0) && ::poll(&p, 1, 50) <= 0) continue;
      char buf[4096];
      const ssize_t n = c.Recv(buf, sizeof(buf));
      if (n <= 0) return;
      in.append(buf, static_cast<size_t>(n));
    }
    Request request;
    std::istringstream lines(in.substr(0, in.find("\r\n\r\n")));
    std::string line;
    std::getline(lines, line);
    std::istringstream first(line);
    first >> request.method >> request.target;
    while (std::getline(lines, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      const size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      std::string name = line.substr(0, colon);
      for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      size_t value = colon + 1;
      while (value < line.size() && line[value] == ' ') ++value;
      request.headers[name] = line.substr(value);
    }
    int earlier = 0;
    {
      std::lock_guard<std::mutex> lock(mu_);
      earlier = static_cast<int>(requests_.size());
      requests_.push_back(request);
    }
    const Answer answer = script_(request, earlier);
    if (!c.Send(answer.raw)) return;
    const std::string zeros(64 << 10, '\0');
    for (int64_t left = answer.stream_zeros; left > 0 && !stop_;) {
      const int64_t n = std::min<int64_t>(left, static_cast<int64_t>(zeros.size()));
      if (!c.Send(std::string_view(zeros).substr(0, static_cast<size_t>(n)))) return;
      left -= n;
    }
    if (c.ssl != nullptr) SSL_shutdown(c.ssl);
    ::shutdown(c.fd, SHUT_WR);
  }

  Script script_;
  TempDir dir_;
  std::string ca_file_;
  SSL_CTX* tls_ = nullptr;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  mutable std::mutex mu_;
  std::vector<Request> requests_;
};

}  // namespace pq::remote::testing
