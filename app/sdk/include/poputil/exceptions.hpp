// poputil::poplibs_error: what PopLibs' functions throw for bad arguments
// (shapes, types, dimensions). Like PopLibs', it derives from
// std::runtime_error, not from poplar::poplar_error.
#ifndef TESSERA_POPUTIL_EXCEPTIONS_HPP
#define TESSERA_POPUTIL_EXCEPTIONS_HPP

#include <stdexcept>
#include <string>

namespace poputil {

struct poplibs_error : std::runtime_error {
    std::string type;
    explicit poplibs_error(const std::string& s)
        : std::runtime_error(s)
        , type("poplibs_error") {}
    explicit poplibs_error(const char* s)
        : std::runtime_error(s)
        , type("poplibs_error") {}
};

} // namespace poputil

#endif
