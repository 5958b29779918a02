// <print.h>: Poplar codelets include it for printf. On Tessera a codelet runs
// on the host; its printf goes to the engine that runs the vertex, which
// writes it to its print stream (Engine::setPrintStream, std::cout by
// default) after the step, tile by tile. Where no Tessera engine is loaded
// (the symbol below is weak) it is the C library's printf.
#ifndef TESSERA_POPLAR_PRINT_H
#define TESSERA_POPLAR_PRINT_H

#include <stdio.h>

#include <cstdarg>
#include <cstdio>

extern "C" int tessera_codelet_vprintf(const char* format, va_list args) __attribute__((weak));

__attribute__((format(__printf__, 1, 2))) static inline int
tessera_codelet_printf(const char* format, ...) {
    va_list args;
    va_start(args, format);
    const int n = tessera_codelet_vprintf ? tessera_codelet_vprintf(format, args)
                                          : std::vprintf(format, args);
    va_end(args);
    return n;
}

namespace std {
using ::tessera_codelet_printf; // so that std::printf means the same
} // namespace std

// After <cstdio>, so the C library's declaration keeps its own name.
#define printf tessera_codelet_printf

#endif
