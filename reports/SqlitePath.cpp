#include "reports/SqlitePath.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <mutex>

namespace tessera::reports::sql {

namespace {

constexpr const char* kVfsName = "tessera-fd";
constexpr const char* kAliasPrefix = "/proc/self/fd/";
// Room under SQLite's 512 for "-journal", "-wal" and the like.
constexpr std::size_t kLongPath = 440;

sqlite3_vfs defaultVfs{};

int fullPathname(sqlite3_vfs* vfs, const char* path, int size, char* out) {
    if (std::strncmp(path, kAliasPrefix, std::strlen(kAliasPrefix)) == 0) {
        const std::size_t length = std::strlen(path);
        if (length + 1 > static_cast<std::size_t>(size)) {
            return SQLITE_CANTOPEN;
        }
        std::memcpy(out, path, length + 1);
        return SQLITE_OK;
    }
    return defaultVfs.xFullPathname(vfs, path, size, out);
}

// The default VFS under another name, taking alias paths as they are.
const char* aliasVfs() {
    static std::once_flag once;
    static sqlite3_vfs vfs{};
    static bool registered = false;
    std::call_once(once, [] {
        if (sqlite3_initialize() != SQLITE_OK) {
            return;
        }
        const sqlite3_vfs* base = sqlite3_vfs_find(nullptr);
        if (base == nullptr) {
            return;
        }
        defaultVfs = *base;
        vfs = *base;
        vfs.zName = kVfsName;
        vfs.pNext = nullptr;
        vfs.xFullPathname = fullPathname;
        registered = sqlite3_vfs_register(&vfs, 0) == SQLITE_OK;
    });
    return registered ? kVfsName : nullptr;
}

} // namespace

OpenPath::OpenPath(const std::string& path)
    : path_(path) {
    if (path.size() < kLongPath) {
        return;
    }
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(path, ec).lexically_normal();
    const std::string name = absolute.filename().string();
    if (ec || name.empty() || name == "." || name == "..") {
        return; // SQLite says what is wrong
    }
    const char* vfs = aliasVfs();
    const int directory =
        vfs == nullptr ? -1
                       : ::open(absolute.parent_path().c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (directory < 0) {
        return;
    }
    directory_ = directory;
    vfs_ = vfs;
    path_ = kAliasPrefix + std::to_string(directory) + "/" + name;
}

OpenPath::~OpenPath() {
    if (directory_ >= 0) {
        ::close(directory_);
    }
}

} // namespace tessera::reports::sql
