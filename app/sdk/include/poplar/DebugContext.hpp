// poplar::DebugContext: the debug name argument of graph and program calls.
#ifndef TESSERA_POPLAR_DEBUGCONTEXT_HPP
#define TESSERA_POPLAR_DEBUGCONTEXT_HPP

#include <string>

namespace poplar {

class DebugContext {
public:
    DebugContext() {}
    DebugContext(const std::string& name)
        : name_(name) {}
    DebugContext(const char* name)
        : name_(name ? name : "") {}
    DebugContext(const DebugContext& parent, const std::string& name)
        : name_(parent.name_.empty() ? name
                                     : (name.empty() ? parent.name_ : parent.name_ + "/" + name)) {}
    const std::string& getPathName() const { return name_; }
    const std::string& name() const { return name_; }

private:
    std::string name_;
};

typedef DebugContext DebugNameAndId;

} // namespace poplar

#endif
