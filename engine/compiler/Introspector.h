#pragma once
// What estimators and validators see of one vertex of the graph.
#include "engine/codelets/Codelet.h"
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"

namespace tessera::compiler {

class Introspector : public VertexIntrospector {
public:
    Introspector(const Graph& graph, VertexId v)
        : graph_(graph)
        , id_(v)
        , codelet_(*graph.vertex(v).codelet) {}
    const std::string& codeletName() const override { return codelet_.name; }
    std::size_t fieldSize(const std::string& field) const override {
        const std::size_t i = codelet_.fieldIndex(field);
        if (codelet_.fields[i].shape == FieldShape::VectorList) {
            return graph_.entryCount(id_, i);
        }
        return graph_.connection(id_, i).numElements();
    }
    std::vector<std::size_t> listSizes(const std::string& field) const override {
        const std::size_t i = codelet_.fieldIndex(field);
        std::vector<std::size_t> sizes;
        for (std::size_t e = 0; e < graph_.entryCount(id_, i); ++e) {
            sizes.push_back(graph_.connection(id_, i, e).numElements());
        }
        return sizes;
    }
    double state(const std::string& name) const override {
        const auto values = graph_.stateValues(id_);
        for (std::size_t i = 0; i < codelet_.states.size(); ++i) {
            if (codelet_.states[i].name == name) {
                return values[i].value_or(0.0);
            }
        }
        throw Error("codelet '" + codelet_.name + "' has no state member '" + name + "'");
    }
    Type fieldType(const std::string& field) const override {
        return codelet_.fields[codelet_.fieldIndex(field)].type;
    }
    bool isList(const std::string& field) const override {
        return codelet_.fields[codelet_.fieldIndex(field)].shape == FieldShape::VectorList;
    }

private:
    const Graph& graph_;
    VertexId id_;
    const CodeletInfo& codelet_;
};

} // namespace tessera::compiler
