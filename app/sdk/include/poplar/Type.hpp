// Tessera's Poplar-compatible API: element types (poplar::FLOAT, ...).
// Public compat headers are C++11 and never include the engine's headers.
#ifndef TESSERA_POPLAR_TYPE_HPP
#define TESSERA_POPLAR_TYPE_HPP

#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iomanip>
#include <ostream>
#include <string>

namespace poplar {

// An element type. The ids match the engine's element types.
class Type {
public:
    Type()
        : id_(0) {}
    explicit Type(int id)
        : id_(id) {}
    int id() const { return id_; }
    std::string toString() const;
    bool operator==(const Type& o) const { return id_ == o.id_; }
    bool operator!=(const Type& o) const { return id_ != o.id_; }
    bool operator<(const Type& o) const { return id_ < o.id_; }

private:
    int id_;
};

inline std::ostream& operator<<(std::ostream& os, const Type& t) {
    return os << t.toString();
}

const Type FLOAT(0);
const Type HALF(1);
const Type INT(2);
const Type UNSIGNED_INT(3);
const Type BOOL(4);

enum class TargetType { IPU, IPU_MODEL, CPU };

} // namespace poplar

#endif
