// Exceptions thrown by Tessera's Poplar-compatible API, under Poplar's names.
#ifndef TESSERA_POPLAR_EXCEPTIONS_HPP
#define TESSERA_POPLAR_EXCEPTIONS_HPP

#include <stdexcept>
#include <string>

namespace poplar {

struct poplar_error : std::runtime_error {
    std::string type;
    explicit poplar_error(const std::string& s)
        : std::runtime_error(s)
        , type("poplar_error") {}
    explicit poplar_error(const char* s)
        : std::runtime_error(s)
        , type("poplar_error") {}
};

// Tile memory is over capacity (and debug.allowOutOfMemory is not set).
struct graph_memory_allocation_error : poplar_error {
    explicit graph_memory_allocation_error(const std::string& s)
        : poplar_error(s) {
        type = "graph_memory_allocation_error";
    }
};

// The graph or program is not valid (unmapped tensor, unconnected field, ...).
struct graph_program_compilation_error : poplar_error {
    explicit graph_program_compilation_error(const std::string& s)
        : poplar_error(s) {
        type = "graph_program_compilation_error";
    }
};

// A codelet file could not be compiled or loaded.
struct graph_object_load_error : poplar_error {
    explicit graph_object_load_error(const std::string& s)
        : poplar_error(s) {
        type = "graph_object_load_error";
    }
};

struct invalid_option : poplar_error {
    explicit invalid_option(const std::string& s)
        : poplar_error(s) {
        type = "invalid_option";
    }
};

struct stream_connection_error : poplar_error {
    explicit stream_connection_error(const std::string& s)
        : poplar_error(s) {
        type = "stream_connection_error";
    }
};

struct index_error : poplar_error {
    explicit index_error(const std::string& s)
        : poplar_error(s) {
        type = "index_error";
    }
};

// A program stopped itself on the device (AbortOnCondition, ErrorProgram).
struct application_runtime_error : poplar_error {
    explicit application_runtime_error(const std::string& s)
        : poplar_error(s) {
        type = "application_runtime_error";
    }
};

// Something the Poplar API has that Tessera does not implement: the message
// says "not supported by Tessera: <item>".
struct unsupported_feature_error : poplar_error {
    explicit unsupported_feature_error(const std::string& item)
        : poplar_error("not supported by Tessera: " + item) {
        type = "unsupported_feature_error";
    }
};

} // namespace poplar

#endif
