#pragma once
// What estimators and validators see of one vertex of the graph.
#include "engine/codelets/Codelet.h"
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"

namespace tessera::compiler {

class Introspector : public VertexIntrospector {
public:
    explicit Introspector(const VertexData& v)
        : v_(v) {}
    const std::string& codeletName() const override { return v_.codelet->name; }
    std::size_t fieldSize(const std::string& field) const override {
        const std::size_t i = v_.codelet->fieldIndex(field);
        if (v_.codelet->fields[i].shape == FieldShape::VectorList) {
            return v_.connections[i].size();
        }
        return v_.connections[i].empty() ? 0 : v_.connections[i][0].numElements();
    }
    std::vector<std::size_t> listSizes(const std::string& field) const override {
        std::vector<std::size_t> sizes;
        for (const Tensor& t : v_.connections[v_.codelet->fieldIndex(field)]) {
            sizes.push_back(t.numElements());
        }
        return sizes;
    }
    double state(const std::string& name) const override {
        for (std::size_t i = 0; i < v_.codelet->states.size(); ++i) {
            if (v_.codelet->states[i].name == name) {
                return v_.stateValues[i].value_or(0.0);
            }
        }
        throw Error("codelet '" + v_.codelet->name + "' has no state member '" + name + "'");
    }
    Type fieldType(const std::string& field) const override {
        return v_.codelet->fields[v_.codelet->fieldIndex(field)].type;
    }
    bool isList(const std::string& field) const override {
        return v_.codelet->fields[v_.codelet->fieldIndex(field)].shape == FieldShape::VectorList;
    }

private:
    const VertexData& v_;
};

} // namespace tessera::compiler
