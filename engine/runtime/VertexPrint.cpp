#include "engine/runtime/VertexPrint.h"

namespace tessera::runtime {

namespace {
thread_local std::string* captureBuffer = nullptr;
}

VertexPrintCapture::VertexPrintCapture(std::string& buffer)
    : previous_(captureBuffer) {
    captureBuffer = &buffer;
}

VertexPrintCapture::~VertexPrintCapture() {
    captureBuffer = previous_;
}

bool appendVertexPrint(std::string_view text) {
    if (!captureBuffer) {
        return false;
    }
    captureBuffer->append(text);
    return true;
}

} // namespace tessera::runtime
