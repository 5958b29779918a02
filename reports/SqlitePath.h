#pragma once
// SQLite's unix VFS refuses a path longer than 512 bytes (its mxPathname)
// although Linux takes up to 4095, so a report deep in a directory tree
// could not be written or read. Such a path is opened through its directory
// instead: "/proc/self/fd/N/NAME", N a descriptor of the directory held for
// as long as the database is open, with a VFS ("tessera-fd", the default one
// but for taking that path as it is rather than resolving the link back into
// the long path). Private to reports/ (Sqlite.cpp).
#include <string>

namespace tessera::reports::sql {

class OpenPath {
public:
    explicit OpenPath(const std::string& path);
    ~OpenPath();
    OpenPath(const OpenPath&) = delete;
    OpenPath& operator=(const OpenPath&) = delete;

    // What to give sqlite3_open_v2: the path itself and the default VFS
    // (nullptr), or the short alias and "tessera-fd".
    const std::string& path() const { return path_; }
    const char* vfs() const { return vfs_; }

private:
    std::string path_;
    const char* vfs_ = nullptr;
    int directory_ = -1;
};

} // namespace tessera::reports::sql
