#pragma once
// Writing a user's file without ever losing one: an output is written to a
// temporary beside it and renamed into place only when every byte reached the
// disk, so a failure (a full disk, a crash, a kill) leaves the previous file as
// it was; and no command may write over one of its own inputs, compared by
// file identity (device and inode), not by name.
#include <filesystem>
#include <memory>
#include <ostream>
#include <span>
#include <string>

namespace tessera::reports {

// "disk full" for ENOSPC and EDQUOT, otherwise strerror's text: the wording
// every write failure uses.
std::string writeErrorText(int error);

// Throws ReportError when `output` is the same file as one of `inputs` (a
// hard link, a symbolic link or another spelling of its path). An output that
// does not exist yet is no input.
void refuseToOverwriteInput(const std::filesystem::path& output,
                            std::span<const std::filesystem::path> inputs);

// `target` with `suffix` appended to its file name ("r.tsr" -> "r.tsr.partial"),
// in the same directory. When that name would be longer than a file name may
// be (NAME_MAX, 255 bytes), the target's name is first cut and a hash of it
// added, so every file the OS accepts has a temporary beside it.
std::filesystem::path withSuffix(const std::filesystem::path& target, const std::string& suffix);

// A file written through stream() to a temporary in the target's directory
// (created with the permissions a new file gets, umask applied), made durable
// and renamed onto the target by commit(). Until then the target is untouched;
// destroying an uncommitted file removes the temporary.
class AtomicOutputFile {
public:
    // Creates the temporary. Throws ReportError naming the target.
    explicit AtomicOutputFile(std::filesystem::path target);
    ~AtomicOutputFile();
    AtomicOutputFile(const AtomicOutputFile&) = delete;
    AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

    std::ostream& stream();
    const std::filesystem::path& target() const { return target_; }
    const std::filesystem::path& temporary() const { return temporary_; }

    // Flushes, syncs and closes the temporary (everything that can fail),
    // without renaming yet: several files can be made ready first and then
    // all renamed, so a failure leaves none of them changed. Throws ReportError
    // ("<target>: cannot write: disk full").
    void finishWriting();
    // finishWriting() if not done, then the rename onto the target.
    void commit();

private:
    class Buffer;
    std::filesystem::path target_;
    std::filesystem::path temporary_;
    std::unique_ptr<Buffer> buffer_;
    std::unique_ptr<std::ostream> stream_;
    bool finished_ = false;
    bool committed_ = false;
};

} // namespace tessera::reports
