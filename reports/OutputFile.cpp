#include "reports/OutputFile.h"

#include "reports/ReportError.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <functional>
#include <streambuf>
#include <system_error>

namespace tessera::reports {

std::string writeErrorText(int error) {
    if (error == ENOSPC || error == EDQUOT) {
        return "disk full";
    }
    return std::strerror(error);
}

void refuseToOverwriteInput(const std::filesystem::path& output,
                            std::span<const std::filesystem::path> inputs) {
    for (const std::filesystem::path& input : inputs) {
        std::error_code ec;
        // equivalent() compares device and inode; false (or an error) when
        // either does not exist, and then nothing can be overwritten.
        if (std::filesystem::equivalent(output, input, ec) && !ec) {
            throw ReportError(output.string() + ": is an input of this command (" + input.string() +
                              "); refusing to write over it");
        }
    }
}

// A streambuf over a file descriptor that remembers the first errno, so the
// failure can be named ("disk full") where ofstream only knows "bad".
class AtomicOutputFile::Buffer : public std::streambuf {
public:
    explicit Buffer(int fd)
        : fd_(fd) {
        setp(data_.data(), data_.data() + data_.size());
    }
    ~Buffer() override {
        if (fd_ >= 0) {
            ::close(fd_);
        }
    }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    int error() const { return error_; }

    // Writes what is buffered, syncs it to disk and closes. Returns false
    // (error() says why) on any failure.
    bool finish() {
        if (!drain()) {
            return false;
        }
        if (::fsync(fd_) != 0 && error_ == 0) {
            error_ = errno;
        }
        if (::close(fd_) != 0 && error_ == 0) {
            error_ = errno;
        }
        fd_ = -1;
        return error_ == 0;
    }

protected:
    int_type overflow(int_type ch) override {
        if (!drain()) {
            return traits_type::eof();
        }
        if (!traits_type::eq_int_type(ch, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(ch);
            pbump(1);
        }
        return traits_type::not_eof(ch);
    }
    int sync() override { return drain() ? 0 : -1; }

private:
    bool drain() {
        if (error_ != 0) {
            return false;
        }
        const char* p = pbase();
        while (p < pptr()) {
            const ssize_t n = ::write(fd_, p, static_cast<std::size_t>(pptr() - p));
            if (n < 0) {
                if (errno == EINTR) {
                    continue;
                }
                error_ = errno;
                return false;
            }
            p += n;
        }
        setp(data_.data(), data_.data() + data_.size());
        return true;
    }

    int fd_;
    int error_ = 0;
    std::array<char, 1 << 16> data_{};
};

std::filesystem::path withSuffix(const std::filesystem::path& target, const std::string& suffix) {
    std::string name = target.filename().string();
    if (name.size() + suffix.size() > NAME_MAX) {
        char hash[16];
        std::snprintf(hash, sizeof hash, "~%08zx",
                      std::hash<std::string>{}(name)&std::size_t{0xffffffff});
        name.resize(NAME_MAX - suffix.size() - std::strlen(hash));
        name += hash;
    }
    return target.parent_path() / (name + suffix);
}

namespace {

// A new name beside `target` that no other writer uses (O_EXCL), so two
// exports to one file cannot write into each other's temporary.
int createTemporary(const std::filesystem::path& target, std::filesystem::path& temporary) {
    for (unsigned attempt = 0;; ++attempt) {
        temporary = withSuffix(target, ".partial-" + std::to_string(::getpid()) + "-" +
                                           std::to_string(attempt));
        // 0666 as for any new file: open() applies the umask.
        const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST || attempt >= 1000) {
            return fd;
        }
    }
}

} // namespace

AtomicOutputFile::AtomicOutputFile(std::filesystem::path target)
    : target_(std::move(target)) {
    // Writing through a symbolic link replaces the file it points to, as an
    // editor would, not the link.
    std::error_code ec;
    if (std::filesystem::is_symlink(target_, ec)) {
        const std::filesystem::path resolved = std::filesystem::canonical(target_, ec);
        if (!ec) {
            target_ = resolved;
        }
    }
    if (std::filesystem::is_directory(target_, ec)) {
        throw ReportError(target_.string() + ": cannot write: it is a directory");
    }
    const int fd = createTemporary(target_, temporary_);
    if (fd < 0) {
        throw ReportError(target_.string() + ": cannot write: " + writeErrorText(errno));
    }
    buffer_ = std::make_unique<Buffer>(fd);
    stream_ = std::make_unique<std::ostream>(buffer_.get());
}

AtomicOutputFile::~AtomicOutputFile() {
    if (!committed_) {
        stream_.reset();
        buffer_.reset(); // closes the descriptor
        std::error_code ec;
        std::filesystem::remove(temporary_, ec);
    }
}

std::ostream& AtomicOutputFile::stream() {
    return *stream_;
}

void AtomicOutputFile::finishWriting() {
    if (finished_) {
        return;
    }
    stream_->flush();
    if (!buffer_->finish()) {
        throw ReportError(target_.string() + ": cannot write: " + writeErrorText(buffer_->error()));
    }
    if (!*stream_) { // a formatting failure with no errno behind it
        throw ReportError(target_.string() + ": cannot write the file");
    }
    finished_ = true;
}

void AtomicOutputFile::commit() {
    finishWriting();
    if (::rename(temporary_.c_str(), target_.c_str()) != 0) {
        throw ReportError(target_.string() +
                          ": cannot move the file into place: " + writeErrorText(errno));
    }
    committed_ = true;
}

} // namespace tessera::reports
