// poputil::templateVertex("Name", FLOAT, ...) -> "Name<float,...>".
#ifndef TESSERA_POPUTIL_VERTEXTEMPLATES_HPP
#define TESSERA_POPUTIL_VERTEXTEMPLATES_HPP

#include <poplar/Type.hpp>

#include <sstream>
#include <string>

namespace poputil {

inline std::string templateArg(const poplar::Type& t) {
    return t.toString();
}
inline std::string templateArg(const std::string& s) {
    return s;
}
inline std::string templateArg(const char* s) {
    return s;
}
inline std::string templateArg(bool b) {
    return b ? "true" : "false";
}
template <typename T>
std::string templateArg(const T& v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

inline std::string templateVertexArgs() {
    return "";
}
template <typename T, typename... Rest>
std::string templateVertexArgs(const T& first, const Rest&... rest) {
    const std::string tail = templateVertexArgs(rest...);
    return templateArg(first) + (tail.empty() ? "" : "," + tail);
}

template <typename... Args>
std::string templateVertex(const std::string& name, const Args&... args) {
    return name + "<" + templateVertexArgs(args...) + ">";
}

} // namespace poputil

#endif
