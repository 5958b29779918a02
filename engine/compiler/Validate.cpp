// Graph-level validation: mapping, vertex placement and connections, and
// conflicting accesses inside one compute set.
#include "engine/compiler/Introspector.h"
#include "engine/compiler/Passes.h"
#include "engine/core/Error.h"
#include "engine/core/ExceptionText.h"

#include <algorithm>
#include <span>
#include <string>

namespace tessera::compiler {

namespace {

// "" when every edge of the group's fields holds as many elements as the first.
std::string sameSizeProblem(const Graph& graph, VertexId id, const CodeletInfo& codelet,
                            std::span<const std::uint32_t> group) {
    std::size_t expected = 0;
    std::uint32_t first = 0;
    bool seen = false;
    for (const std::uint32_t f : group) {
        for (std::size_t e = 0, n = graph.entryCount(id, f); e < n; ++e) {
            const std::size_t size = graph.connection(id, f, e).numElements();
            if (!seen) {
                seen = true;
                first = f;
                expected = size;
            } else if (size != expected) {
                return "field '" + codelet.fields[f].name + "' has " + std::to_string(size) +
                       " elements but '" + codelet.fields[first].name + "' has " +
                       std::to_string(expected) + " (they must match)";
            }
        }
    }
    return {};
}

} // namespace

void validateGraph(const Graph& graph) {
    for (const VariableData& v : graph.variables()) {
        const std::size_t unmapped = v.mapping.firstUnmapped(v.numElements);
        if (unmapped < v.numElements) {
            throw ValidationError("tensor '" + v.name + "' " + shapeString(v.shape) +
                                  " has no tile mapping for element " + std::to_string(unmapped) +
                                  " (map every element with setTileMapping)");
        }
    }
    for (const VertexId id : record::idRange<VertexId>(graph.vertices().size())) {
        const VertexData& v = graph.vertex(id);
        if (v.tile.isNone()) {
            throw ValidationError(graph.vertexName(id) + " is not mapped to a tile");
        }
        for (std::size_t f = 0; f < v.codelet->fields.size(); ++f) {
            const FieldInfo& info = v.codelet->fields[f];
            const std::size_t entries = graph.entryCount(id, f);
            if (entries == 0 && info.shape != FieldShape::VectorList) {
                throw ValidationError("field '" + info.name + "' of " + graph.vertexName(id) +
                                      " is not connected");
            }
            for (std::size_t i = 0; i < entries; ++i) {
                if (!graph.connection(id, f, i).connected) {
                    throw ValidationError("entry " + std::to_string(i) + " of vector-list field '" +
                                          info.name + "' of " + graph.vertexName(id) +
                                          " is not connected");
                }
            }
        }
        for (const auto& group : v.codelet->sameSizeGroups) {
            if (std::string problem = sameSizeProblem(graph, id, *v.codelet, group);
                !problem.empty()) {
                throw ValidationError(graph.vertexName(id) + ": " + problem);
            }
        }
        for (const auto& check : v.codelet->validators) {
            std::string problem;
            try {
                problem = check(Introspector(graph, id));
            } catch (const Error&) {
                throw;
            } catch (...) { // user code: say which vertex it was checking
                throw CodeletError(graph.vertexName(id) + ": an edge-size check of codelet '" +
                                   v.codelet->name + "' threw " + currentExceptionText());
            }
            if (!problem.empty()) {
                throw ValidationError(graph.vertexName(id) + ": " + problem);
            }
        }
    }
}

namespace {

struct Access {
    VariableId var;
    std::size_t begin, end;
    VertexId vertex;
    bool write;
};

// The two latest-ending accesses seen so far that belong to different vertices,
// so "is there an overlapping access by another vertex?" is O(1).
struct TopTwo {
    const Access* first = nullptr;
    const Access* second = nullptr;
    void add(const Access& a) {
        if (first && first->vertex == a.vertex) {
            if (a.end > first->end) {
                first = &a;
            }
        } else if (!first || a.end > first->end) {
            second = first;
            first = &a;
        } else if (!second || a.end > second->end) {
            second = &a;
        }
        if (second && first && second->vertex == first->vertex) {
            second = nullptr;
        }
    }
    const Access* overlapping(const Access& a) const {
        for (const Access* c : {first, second}) {
            if (c && c->vertex != a.vertex && c->end > a.begin) {
                return c;
            }
        }
        return nullptr;
    }
};

// TopTwo for the in-order check, which stores no accesses: only the ends and
// vertices (an end of 0 overlaps nothing, so none needs no flag).
struct TopTwoEnds {
    std::size_t firstEnd = 0, secondEnd = 0;
    VertexId firstVertex = VertexId::none(), secondVertex = VertexId::none();
    void add(VertexId vertex, std::size_t end) {
        if (firstEnd != 0 && firstVertex == vertex) {
            firstEnd = std::max(firstEnd, end);
        } else if (end > firstEnd) {
            secondEnd = firstEnd;
            secondVertex = firstVertex;
            firstEnd = end;
            firstVertex = vertex;
        } else if (end > secondEnd) {
            secondEnd = end;
            secondVertex = vertex;
        }
        if (secondEnd != 0 && secondVertex == firstVertex) {
            secondEnd = 0;
        }
    }
    bool overlaps(VertexId vertex, std::size_t begin) const {
        return (firstEnd > begin && firstVertex != vertex) ||
               (secondEnd > begin && secondVertex != vertex);
    }
};

// One variable's sweep state while a compute set is read in vertex order.
struct Sweep {
    std::size_t lastBegin = 0;
    TopTwoEnds anyAccess, writeAccess;
};

constexpr std::uint32_t kNoSweep = static_cast<std::uint32_t>(-1);

// The usual compute set in one pass, nothing stored: every variable's
// accesses arrive in order of their start (vertices made in element order),
// so each variable is swept as the sorting check sweeps it. False when they
// arrive out of order or two overlap: the sorting check then decides, and
// names the conflict it always named.
bool inOrderWithoutConflicts(const Graph& graph, const ComputeSetData& cs,
                             std::vector<std::uint32_t>& sweepOf, std::vector<Sweep>& sweeps,
                             std::vector<VariableId>& swept) {
    bool ok = true;
    for (VertexId id : cs.vertices) {
        const VertexData& v = graph.vertex(id);
        for (std::size_t f = 0; ok && f < v.codelet->fields.size(); ++f) {
            const bool w = writes(v.codelet->fields[f].direction);
            for (std::size_t e = 0, n = graph.entryCount(id, f); ok && e < n; ++e) {
                for (const VariableRegion& r : graph.connection(id, f, e).regions) {
                    std::uint32_t& index = sweepOf[r.var.value()];
                    if (index == kNoSweep) {
                        index = static_cast<std::uint32_t>(sweeps.size());
                        sweeps.emplace_back();
                        swept.push_back(r.var);
                    }
                    Sweep& sweep = sweeps[index];
                    if (r.begin < sweep.lastBegin || sweep.writeAccess.overlaps(id, r.begin) ||
                        (w && sweep.anyAccess.overlaps(id, r.begin))) {
                        ok = false;
                        break;
                    }
                    sweep.lastBegin = r.begin;
                    if (w) {
                        sweep.writeAccess.add(id, r.end);
                    }
                    sweep.anyAccess.add(id, r.end);
                }
            }
        }
        if (!ok) {
            break;
        }
    }
    for (const VariableId var : swept) {
        sweepOf[var.value()] = kNoSweep;
    }
    swept.clear();
    sweeps.clear();
    return ok;
}

constexpr std::size_t kNoBucket = static_cast<std::size_t>(-1);

[[noreturn]] void reportConflict(const Graph& graph, const std::string& cs, const Access& a,
                                 const Access& b) {
    const VariableData& var = graph.variable(a.var);
    const std::size_t element = std::max(a.begin, b.begin);
    const TileId tile = var.mapping.tileOf(element);
    const char* what = a.write && b.write ? "both write" : "one writes what the other reads:";
    throw ValidationError("compute set '" + cs + "': " + graph.vertexName(b.vertex) + " and " +
                          graph.vertexName(a.vertex) + " " + what + " element " +
                          std::to_string(element) + " of tensor '" + var.name + "' (on tile " +
                          std::to_string(tile.value()) + ")");
}

// Sorts accesses by (variable, begin): bucketed by variable in linear time,
// then each bucket sorted unless it already is (vertices made in element
// order, the usual case).
void sortAccesses(LargeVector<Access>& accesses, std::vector<std::size_t>& bucketOf,
                  LargeVector<Access>& scratch) {
    std::vector<VariableId> vars; // distinct, in order of first access
    for (const Access& a : accesses) {
        if (bucketOf[a.var.value()] == kNoBucket) {
            bucketOf[a.var.value()] = vars.size();
            vars.push_back(a.var);
        }
    }
    std::sort(vars.begin(), vars.end());
    std::vector<std::size_t> start(vars.size() + 1, 0);
    for (std::size_t i = 0; i < vars.size(); ++i) {
        bucketOf[vars[i].value()] = i;
    }
    for (const Access& a : accesses) {
        ++start[bucketOf[a.var.value()] + 1];
    }
    for (std::size_t i = 0; i < vars.size(); ++i) {
        start[i + 1] += start[i];
    }
    scratch.resize(accesses.size());
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    for (const Access& a : accesses) {
        scratch[next[bucketOf[a.var.value()]]++] = a;
    }
    for (std::size_t i = 0; i < vars.size(); ++i) {
        const auto first = scratch.begin() + static_cast<std::ptrdiff_t>(start[i]);
        const auto last = scratch.begin() + static_cast<std::ptrdiff_t>(start[i + 1]);
        auto byBegin = [](const Access& a, const Access& b) { return a.begin < b.begin; };
        if (!std::is_sorted(first, last, byBegin)) {
            std::stable_sort(first, last, byBegin);
        }
        bucketOf[vars[i].value()] = kNoBucket;
    }
    accesses.swap(scratch);
}

} // namespace

void checkConflicts(const Graph& graph) {
    std::vector<std::size_t> bucketOf(graph.variables().size(), kNoBucket);
    std::vector<std::uint32_t> sweepOf(graph.variables().size(), kNoSweep);
    std::vector<Sweep> sweeps;
    std::vector<VariableId> swept;
    LargeVector<Access> accesses, scratch;
    for (const ComputeSetData& cs : graph.computeSets()) {
        if (inOrderWithoutConflicts(graph, cs, sweepOf, sweeps, swept)) {
            continue;
        }
        accesses.clear();
        for (VertexId id : cs.vertices) {
            const VertexData& v = graph.vertex(id);
            for (std::size_t f = 0; f < v.codelet->fields.size(); ++f) {
                const bool w = writes(v.codelet->fields[f].direction);
                for (std::size_t e = 0, n = graph.entryCount(id, f); e < n; ++e) {
                    for (const VariableRegion& r : graph.connection(id, f, e).regions) {
                        accesses.push_back({r.var, r.begin, r.end, id, w});
                    }
                }
            }
        }
        sortAccesses(accesses, bucketOf, scratch);
        std::size_t i = 0;
        while (i < accesses.size()) {
            TopTwo anyAccess, writeAccess;
            const VariableId var = accesses[i].var;
            for (; i < accesses.size() && accesses[i].var == var; ++i) {
                const Access& a = accesses[i];
                if (const Access* w = writeAccess.overlapping(a)) {
                    reportConflict(graph, cs.name, a, *w);
                }
                if (a.write) {
                    if (const Access* o = anyAccess.overlapping(a)) {
                        reportConflict(graph, cs.name, a, *o);
                    }
                    writeAccess.add(a);
                }
                anyAccess.add(a);
            }
        }
    }
}

} // namespace tessera::compiler
