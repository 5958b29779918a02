#include "engine/codelets/Codelet.h"

#include "engine/codelets/builtin/Builtins.h"
#include "engine/core/Error.h"

#include <algorithm>

namespace tessera {

const FieldInfo* CodeletInfo::field(const std::string& fieldName) const {
    for (const FieldInfo& f : fields) {
        if (f.name == fieldName) {
            return &f;
        }
    }
    return nullptr;
}

const StateInfo* CodeletInfo::stateField(const std::string& stateName) const {
    for (const StateInfo& s : states) {
        if (s.name == stateName) {
            return &s;
        }
    }
    return nullptr;
}

std::size_t CodeletInfo::fieldIndex(const std::string& fieldName) const {
    if (const std::size_t i = findField(fieldName); i < fields.size()) {
        return i;
    }
    throw Error("codelet '" + name + "' has no field '" + fieldName + "'");
}

void CodeletRegistry::add(CodeletInfo info) {
    if (find(info.name) == nullptr) {
        codelets_.push_back(std::make_shared<const CodeletInfo>(std::move(info)));
    }
}

const CodeletInfo* CodeletRegistry::find(const std::string& name) const {
    for (const auto& c : codelets_) {
        if (c->name == name) {
            return c.get();
        }
    }
    return nullptr;
}

const CodeletInfo& CodeletRegistry::get(const std::string& name) const {
    if (const CodeletInfo* c = find(name)) {
        return *c;
    }
    throw Error("unknown codelet '" + name + "' (not added to the graph)");
}

std::vector<std::string> CodeletRegistry::names() const {
    std::vector<std::string> out;
    for (const auto& c : codelets_) {
        out.push_back(c->name);
    }
    std::sort(out.begin(), out.end());
    return out;
}

const CodeletRegistry& CodeletRegistry::builtins() {
    static const CodeletRegistry registry = [] {
        CodeletRegistry r;
        registerBuiltinCodelets(r);
        return r;
    }();
    return registry;
}

} // namespace tessera
