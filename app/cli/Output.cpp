#include "Output.h"

#include <cerrno>
#include <cstdarg>
#include <cstdio>

namespace tessera::cli {

namespace {

int firstError = 0;

void remember() {
    if (firstError == 0) {
        firstError = errno != 0 ? errno : -1;
    }
}

} // namespace

void print(const char* format, ...) {
    std::va_list args;
    va_start(args, format);
    errno = 0;
    if (std::vfprintf(stdout, format, args) < 0) {
        remember();
    }
    va_end(args);
}

void printText(const std::string& text) {
    errno = 0;
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) {
        remember();
    }
}

int flushStandardOutput() {
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        remember();
    }
    return firstError;
}

} // namespace tessera::cli
