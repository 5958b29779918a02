#pragma once
// Reads a codelet source and finds its vertex classes (deriving from Vertex,
// SupervisorVertex or MultiVertex, directly or through another vertex class)
// and their public data members, so Poplar users never register fields.
// A small scanner, not a C++ parser: it strips comments, literals and
// preprocessor lines, tracks namespaces and braces, and reads member
// declarations. Class templates are registered for each explicit
// instantiation (`template class Foo<float>;`).
#include <string>
#include <vector>

namespace poplar::detail {

struct ScannedVertex {
    std::string name;                 // vertex type name: "Foo", "ns::Bar<float>"
    std::string cppType;              // qualified C++ type: "::ns::Bar<float>"
    std::vector<std::string> members; // public non-static data members, in order
};

struct ScanResult {
    std::vector<ScannedVertex> vertices;
    std::vector<std::string> notes; // e.g. a template vertex without instantiations
};

ScanResult scanCodeletSource(const std::string& source);

} // namespace poplar::detail
