#pragma once
// What a vertex prints while it runs (a codelet's printf). The engine gives
// each tile of a compute step its own buffer and, after the step, writes the
// buffers to its print stream in tile order, so the text goes to the engine
// that ran the vertex and its order does not depend on the thread count.
#include <string>
#include <string_view>

namespace tessera::runtime {

// While alive, text printed by vertices on this thread goes to `buffer`.
class VertexPrintCapture {
public:
    explicit VertexPrintCapture(std::string& buffer);
    ~VertexPrintCapture();
    VertexPrintCapture(const VertexPrintCapture&) = delete;
    VertexPrintCapture& operator=(const VertexPrintCapture&) = delete;

private:
    std::string* previous_;
};

// Appends to this thread's capture buffer; false when there is none (the
// caller is not running a vertex for an engine).
bool appendVertexPrint(std::string_view text);

} // namespace tessera::runtime
