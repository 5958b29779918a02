#pragma once
// Errors about an input report always name it: a ReportError raised while
// reading one (a damaged table found half-way, say) may not carry the path,
// and in 'diff' the path alone does not say which side it was.
#include "reports/ReportError.h"

#include <string>
#include <string_view>
#include <utility>

namespace tessera::cli {

// The message with "<path>: " in front unless it already names the path (or
// one of `alsoNamed`, e.g. an output file), then "<role> " in front of that.
std::string namingInput(std::string message, const std::string& path, std::string_view role = {},
                        std::string_view alsoNamed = {});

// Runs `read` and rethrows its ReportError through namingInput().
template <typename F>
auto readingInput(const std::string& path, std::string_view role, F&& read) -> decltype(read()) {
    try {
        return std::forward<F>(read)();
    } catch (const reports::ReportError& e) {
        throw reports::ReportError(namingInput(e.what(), path, role));
    }
}

} // namespace tessera::cli
