// Graph::serialize (JSON or binary) and the DOT views outputVertexGraph /
// outputComputeGraph.
#include "Impl.h"
#include "Serialize.h"
#include "engine/core/Type.h"

#include <ostream>
#include <set>
#include <sstream>

namespace poplar {

using detail::Access;
using detail::translate;

namespace {

std::string jsonString(const std::string& s) {
    std::ostringstream o;
    o << '"';
    for (char c : s) {
        switch (c) {
        case '"':
            o << "\\\"";
            break;
        case '\\':
            o << "\\\\";
            break;
        case '\n':
            o << "\\n";
            break;
        case '\t':
            o << "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                static const char* hex = "0123456789abcdef";
                o << "\\u00" << hex[(c >> 4) & 0xf] << hex[c & 0xf];
            } else {
                o << c;
            }
        }
    }
    o << '"';
    return o.str();
}

std::string dotString(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
        }
        out += c == '\n' ? ' ' : c;
    }
    return out + "\"";
}

const char* directionName(tessera::FieldDirection d) {
    switch (d) {
    case tessera::FieldDirection::Input:
        return "in";
    case tessera::FieldDirection::Output:
        return "out";
    case tessera::FieldDirection::InOut:
        return "inout";
    }
    return "?";
}

std::string variableName(const tessera::Graph& g, tessera::VariableId v) {
    const std::string& n = g.variable(v).name;
    return n.empty() ? "var" + std::to_string(v.value()) : n;
}

// The variables a vertex field's tensors touch.
std::set<tessera::VariableId> fieldVariables(const tessera::Graph& g, tessera::VertexId v,
                                             std::size_t field) {
    std::set<tessera::VariableId> out;
    for (std::size_t e = 0; e < g.entryCount(v, field); ++e) {
        for (const tessera::VariableRegion& r : g.connection(v, field, e).regions) {
            out.insert(r.var);
        }
    }
    return out;
}

void writeJson(std::ostream& out, const tessera::Graph& g) {
    const tessera::Target& t = g.getTarget();
    out << "{\n  \"target\": {\"name\": " << jsonString(t.name) << ", \"numIPUs\": " << t.numIPUs
        << ", \"tilesPerIPU\": " << t.tilesPerIPU << ", \"bytesPerTile\": " << t.bytesPerTile
        << "},\n  \"variables\": [";
    const auto& vars = g.variables();
    for (std::size_t v = 0; v < vars.size(); ++v) {
        const tessera::VariableData& d = vars[v];
        out << (v ? "," : "") << "\n    {\"id\": " << v << ", \"name\": " << jsonString(d.name)
            << ", \"type\": " << jsonString(std::string(tessera::typeName(d.type)))
            << ", \"shape\": [";
        for (std::size_t i = 0; i < d.shape.size(); ++i) {
            out << (i ? ", " : "") << d.shape[i];
        }
        out << "], \"constant\": " << (d.isConstant ? "true" : "false") << ", \"mapping\": [";
        bool first = true;
        for (const tessera::TileInterval& i : d.mapping.intervals()) {
            out << (first ? "" : ", ") << "{\"tile\": " << i.tile.value()
                << ", \"begin\": " << i.begin << ", \"end\": " << i.end << "}";
            first = false;
        }
        out << "]}";
    }
    out << "\n  ],\n  \"computeSets\": [";
    const auto& css = g.computeSets();
    for (std::size_t c = 0; c < css.size(); ++c) {
        out << (c ? "," : "") << "\n    {\"id\": " << c << ", \"name\": " << jsonString(css[c].name)
            << ", \"vertices\": [";
        for (std::size_t i = 0; i < css[c].vertices.size(); ++i) {
            out << (i ? ", " : "") << css[c].vertices[i].value();
        }
        out << "]}";
    }
    out << "\n  ],\n  \"vertices\": [";
    const auto& vs = g.vertices();
    for (std::size_t v = 0; v < vs.size(); ++v) {
        const tessera::VertexData& d = vs[v];
        out << (v ? "," : "") << "\n    {\"id\": " << v
            << ", \"type\": " << jsonString(d.codelet->name)
            << ", \"computeSet\": " << d.computeSet.value() << ", \"tile\": ";
        if (d.tile.isNone()) {
            out << "null";
        } else {
            out << d.tile.value();
        }
        out << ", \"fields\": {";
        for (std::size_t f = 0; f < d.codelet->fields.size(); ++f) {
            const tessera::FieldInfo& info = d.codelet->fields[f];
            out << (f ? ", " : "") << jsonString(info.name) << ": {\"direction\": \""
                << directionName(info.direction) << "\", \"variables\": [";
            bool first = true;
            for (tessera::VariableId var :
                 fieldVariables(g, tessera::record::idAt<tessera::VertexId>(v), f)) {
                out << (first ? "" : ", ") << var.value();
                first = false;
            }
            out << "]}";
        }
        out << "}}";
    }
    out << "\n  ]\n}\n";
}

} // namespace

void Graph::serialize(std::ostream& out, SerializationFormat format) const {
    serialize(out, std::vector<program::Program>(), format);
}

void Graph::serialize(std::ostream& out, const std::vector<program::Program>& progs,
                      SerializationFormat format) const {
    translate([&] {
        const detail::GraphImpl& g = Access::graph(*this);
        if (format == SerializationFormat::JSON) {
            writeJson(out, g.graph);
        } else {
            std::vector<tessera::program::Program> list;
            for (const program::Program& p : progs) {
                list.push_back(Access::program(p));
            }
            detail::writeExecutable(out, g, list);
        }
        return 0;
    });
    if (!out) {
        throw poplar_error("Graph::serialize: writing the stream failed");
    }
}

void Graph::outputVertexGraph(std::ostream& out, ArrayRef<program::Program>) const {
    translate([&] {
        const tessera::Graph& g = Access::graph(*this).graph;
        out << "digraph vertices {\n  node [fontname=\"monospace\"];\n";
        for (std::size_t v = 0; v < g.variables().size(); ++v) {
            out << "  t" << v << " [shape=box, label="
                << dotString(variableName(g, tessera::record::idAt<tessera::VariableId>(v)))
                << "];\n";
        }
        const auto& vs = g.vertices();
        for (std::size_t v = 0; v < vs.size(); ++v) {
            const tessera::VertexData& d = vs[v];
            std::string label = d.codelet->name + "#" + std::to_string(v);
            if (!d.tile.isNone()) {
                label += " tile " + std::to_string(d.tile.value());
            }
            out << "  v" << v << " [shape=ellipse, label=" << dotString(label) << "];\n";
            for (std::size_t f = 0; f < d.codelet->fields.size(); ++f) {
                const tessera::FieldInfo& info = d.codelet->fields[f];
                for (tessera::VariableId var :
                     fieldVariables(g, tessera::record::idAt<tessera::VertexId>(v), f)) {
                    const std::string edge = " [label=" + dotString(info.name) + "]";
                    if (tessera::reads(info.direction)) {
                        out << "  t" << var.value() << " -> v" << v << edge << ";\n";
                    }
                    if (info.direction != tessera::FieldDirection::Input) {
                        out << "  v" << v << " -> t" << var.value() << edge << ";\n";
                    }
                }
            }
        }
        out << "}\n";
        return 0;
    });
}

void Graph::outputComputeGraph(std::ostream& out, ArrayRef<program::Program>) const {
    translate([&] {
        const tessera::Graph& g = Access::graph(*this).graph;
        out << "digraph compute {\n  node [fontname=\"monospace\"];\n";
        for (std::size_t v = 0; v < g.variables().size(); ++v) {
            out << "  t" << v << " [shape=box, label="
                << dotString(variableName(g, tessera::record::idAt<tessera::VariableId>(v)))
                << "];\n";
        }
        const auto& css = g.computeSets();
        for (std::size_t c = 0; c < css.size(); ++c) {
            std::set<tessera::VariableId> reads, writes;
            for (tessera::VertexId v : css[c].vertices) {
                const tessera::VertexData& d = g.vertex(v);
                for (std::size_t f = 0; f < d.codelet->fields.size(); ++f) {
                    const tessera::FieldInfo& info = d.codelet->fields[f];
                    for (tessera::VariableId var : fieldVariables(g, v, f)) {
                        if (tessera::reads(info.direction)) {
                            reads.insert(var);
                        }
                        if (info.direction != tessera::FieldDirection::Input) {
                            writes.insert(var);
                        }
                    }
                }
            }
            out << "  cs" << c << " [shape=ellipse, label="
                << dotString((css[c].name.empty() ? "cs" + std::to_string(c) : css[c].name) + " (" +
                             std::to_string(css[c].vertices.size()) + " vertices)")
                << "];\n";
            for (tessera::VariableId var : reads) {
                out << "  t" << var.value() << " -> cs" << c << ";\n";
            }
            for (tessera::VariableId var : writes) {
                out << "  cs" << c << " -> t" << var.value() << ";\n";
            }
        }
        out << "}\n";
        return 0;
    });
}

} // namespace poplar
