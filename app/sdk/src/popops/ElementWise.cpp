// popops::map / mapInPlace / mapWithOutput on the engine's ops::map, the
// record of generated codelets, and popops::addCodelets.
#include "Common.h"
#include "engine/codelets/Codelet.h"
#include "engine/ops/Map.h"

#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>

#include <map>
#include <mutex>

namespace popops {

namespace detail {

namespace {

std::mutex& rememberedMutex() {
    static std::mutex m;
    return m;
}

std::map<std::string, tessera::CodeletInfo>& remembered() {
    static std::map<std::string, tessera::CodeletInfo> codelets;
    return codelets;
}

void addRemembered(tessera::Graph& graph) {
    std::lock_guard<std::mutex> lock(rememberedMutex());
    for (const auto& [name, info] : remembered()) {
        graph.addCodelet(info);
    }
}

[[maybe_unused]] const bool kProviderRegistered =
    (poplar::detail::registerCodeletProvider(&addRemembered), true);

} // namespace

void rememberCodelets(const tessera::Graph& graph, std::size_t firstVertex) {
    const auto& vertices = graph.vertices();
    std::lock_guard<std::mutex> lock(rememberedMutex());
    for (std::size_t v = firstVertex; v < vertices.size(); ++v) {
        const tessera::CodeletInfo* c = vertices[v].codelet;
        if (c != nullptr && remembered().count(c->name) == 0 &&
            tessera::CodeletRegistry::builtins().find(c->name) == nullptr) {
            remembered().emplace(c->name, *c);
        }
    }
}

void unsupported(const std::string& item) {
    throw poplar::poplar_error("not supported by Tessera: " + item);
}

} // namespace detail

using detail::eg;
using detail::et;
using detail::nameOf;
using detail::pt;

void addCodelets(poplar::Graph& graph) {
    (void)graph; // PopLibs' codelets are the engine's built-ins and generated per use
}

poplar::Tensor map(poplar::Graph& graph, const expr::Expr& expr,
                   const std::vector<poplar::Tensor>& ts, poplar::program::Sequence& prog,
                   const poplar::DebugContext& dc, const poplar::OptionFlags&) {
    return detail::run(graph, [&] {
        const auto e = detail::toEngine(expr);
        return pt(detail::intoSequence(prog, [&](tessera::program::Sequence& seq) {
            return tessera::ops::map(eg(graph), seq, e, poplar::detail::Access::tensors(ts),
                                     nameOf(dc, "map"));
        }));
    });
}

std::vector<poplar::Tensor> map(poplar::Graph& graph, const std::vector<expr::Any>& exprs,
                                const std::vector<poplar::Tensor>& ts,
                                poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                                const poplar::OptionFlags& options) {
    std::vector<poplar::Tensor> outs;
    for (std::size_t i = 0; i < exprs.size(); ++i) {
        outs.push_back(map(graph, static_cast<const expr::Expr&>(exprs[i]), ts, prog,
                           poplar::DebugContext(dc, std::to_string(i)), options));
    }
    return outs;
}

void mapInPlace(poplar::Graph& graph, const expr::Expr& expr, const std::vector<poplar::Tensor>& ts,
                poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                const poplar::OptionFlags&) {
    detail::run(graph, [&] {
        const auto e = detail::toEngine(expr);
        detail::intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::ops::mapInPlace(eg(graph), seq, e, poplar::detail::Access::tensors(ts),
                                     nameOf(dc, "mapInPlace"));
        });
    });
}

void mapWithOutput(poplar::Graph& graph, const expr::Expr& expr,
                   const std::vector<poplar::Tensor>& ts, const poplar::Tensor& out,
                   poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                   const poplar::OptionFlags&) {
    detail::run(graph, [&] {
        const auto e = detail::toEngine(expr);
        detail::intoSequence(prog, [&](tessera::program::Sequence& seq) {
            tessera::ops::mapWithOutput(eg(graph), seq, e, poplar::detail::Access::tensors(ts),
                                        et(out), nameOf(dc, "mapWithOutput"));
        });
    });
}

void mapWithOutput(poplar::Graph& graph, const std::vector<expr::Any>& exprs,
                   const std::vector<poplar::Tensor>& ts, const std::vector<poplar::Tensor>& outs,
                   poplar::program::Sequence& prog, const poplar::DebugContext& dc,
                   const poplar::OptionFlags& options) {
    if (exprs.size() != outs.size()) {
        throw poputil::poplibs_error("popops::mapWithOutput: " + std::to_string(exprs.size()) +
                                     " expressions but " + std::to_string(outs.size()) +
                                     " outputs");
    }
    for (std::size_t i = 0; i < exprs.size(); ++i) {
        mapWithOutput(graph, static_cast<const expr::Expr&>(exprs[i]), ts, outs[i], prog,
                      poplar::DebugContext(dc, std::to_string(i)), options);
    }
}

} // namespace popops
