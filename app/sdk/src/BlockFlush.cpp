// Block flushes as lightweight profiling inserts them: Poplar flushes the
// block buffers where all tiles are in sync, at the end of a loop's body
// (Graphcore's lightweight-profiling tutorial), each iteration.
#include "BlockFlush.h"

#include <memory>
#include <regex>
#include <string>

namespace poplar::detail {

namespace {

using tessera::program::Kind;
using tessera::program::Node;
using NodePtr = std::shared_ptr<Node>;

struct Filters {
    bool blocks = false, programs = false;
    std::regex blockRe, programRe;
    const tessera::Graph* graph = nullptr;

    // As libpva names programs: an Execute without a name takes its compute
    // set's (app/sdk/src/pva/Blocks.cpp applies the same rules).
    bool instrumented(const Node& n) const {
        std::string name = n.name;
        if (name.empty() && n.kind == Kind::Execute &&
            tessera::record::index(n.computeSet) < graph->computeSets().size()) {
            name = graph->computeSet(n.computeSet).name;
        }
        return (blocks && n.kind == Kind::Block && std::regex_match(name, blockRe)) ||
               (programs && !name.empty() && std::regex_match(name, programRe));
    }
};

bool isLoop(Kind k) {
    return k == Kind::Repeat || k == Kind::RepeatWhileTrue || k == Kind::RepeatWhileFalse;
}

// Whether the subtree holds an instrumented node that is not inside a loop
// below `n` (a loop itself counts: its block is recorded where it ends).
bool holdsInstrumented(const Node& n, const Filters& f) {
    if (f.instrumented(n)) {
        return true;
    }
    if (isLoop(n.kind)) {
        return false;
    }
    for (const NodePtr& c : n.children) {
        if (holdsInstrumented(*c, f)) {
            return true;
        }
    }
    return false;
}

NodePtr flushNode() {
    tessera::program::Sync sync;
    sync.node()->name = kBlockFlushName;
    return sync.node();
}

// A copy of the tree with the flushes; untouched subtrees are shared.
NodePtr rewrite(const NodePtr& n, const Filters& f) {
    auto copy = std::make_shared<Node>(*n);
    bool changed = false;
    for (NodePtr& c : copy->children) {
        NodePtr r = rewrite(c, f);
        changed = changed || r != c;
        c = r;
    }
    if (n->kind == Kind::Repeat && !copy->children.empty() &&
        holdsInstrumented(*copy->children.front(), f)) {
        NodePtr& body = copy->children.front();
        if (body->kind == Kind::Sequence) {
            auto seq = body == n->children.front() ? std::make_shared<Node>(*body) : body;
            seq->children.push_back(flushNode());
            body = seq;
        } else {
            auto seq = std::make_shared<Node>();
            seq->kind = Kind::Sequence;
            seq->children = {body, flushNode()};
            body = seq;
        }
        changed = true;
    }
    return changed ? copy : n;
}

// Program's node is protected: a Program handle over a given node.
struct NodeProgram : tessera::program::Program {
    explicit NodeProgram(NodePtr n) { node_ = std::move(n); }
};

} // namespace

std::vector<tessera::program::Program>
withBlockFlushes(const std::vector<tessera::program::Program>& programs,
                 const tessera::Graph& graph, const EngineConfig& config) {
    Filters f;
    f.graph = &graph;
    bool flush = true;
    for (const auto& [key, value] : config.profilerOptions) {
        if (key == "profiler.blocks.filter" && !value.empty()) {
            f.blocks = true;
            f.blockRe = std::regex(value); // validated by engineConfig
        } else if (key == "profiler.programs.filter" && !value.empty()) {
            f.programs = true;
            f.programRe = std::regex(value);
        } else if (key == "profiler.blocks.implicitFlush") {
            flush = value != "false" && value != "0";
        }
    }
    if (!flush || (!f.blocks && !f.programs)) {
        return programs;
    }
    std::vector<tessera::program::Program> out;
    for (const auto& p : programs) {
        out.push_back(NodeProgram(rewrite(p.node(), f)));
    }
    return out;
}

} // namespace poplar::detail
