#pragma once
// std::source_location where the standard library has it; otherwise (clang 14
// with libstdc++ 12, the fuzz build) a stand-in that knows the calling
// function's plain name only, through the builtin both compilers have.
#include <version>

#if defined(__cpp_lib_source_location)
#include <source_location>

namespace tessera {
using SourceLocation = std::source_location;
} // namespace tessera

#else

namespace tessera {
class SourceLocation {
public:
    static constexpr SourceLocation current(const char* function = __builtin_FUNCTION()) noexcept {
        SourceLocation where;
        where.function_ = function;
        return where;
    }
    constexpr const char* function_name() const noexcept { return function_; }

private:
    const char* function_ = "";
};
} // namespace tessera

#endif
