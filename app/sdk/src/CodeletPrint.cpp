// The printf of codelets (<print.h>): the text goes to the engine running the
// vertex, which writes it to its print stream (Engine::setPrintStream) in tile
// order after the step; outside a vertex, to stdout.
#include "engine/runtime/VertexPrint.h"

#include <cstdarg>
#include <cstdio>
#include <string>

extern "C" int tessera_codelet_vprintf(const char* format, va_list args) {
    va_list measure;
    va_copy(measure, args);
    const int n = std::vsnprintf(nullptr, 0, format, measure);
    va_end(measure);
    if (n < 0) {
        return n;
    }
    std::string text(static_cast<std::size_t>(n) + 1, '\0');
    std::vsnprintf(text.data(), text.size(), format, args);
    text.resize(static_cast<std::size_t>(n));
    if (!tessera::runtime::appendVertexPrint(text)) {
        std::fwrite(text.data(), 1, text.size(), stdout);
    }
    return n;
}
