#include "engine/ops/CodeletRecipe.h"

#include "engine/core/Error.h"
#include "engine/ops/Map.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace tessera::ops {

namespace {

constexpr std::size_t kMaxNodes = 1u << 16;
constexpr std::size_t kMaxInputs = 1u << 10;

class RecipeReader {
public:
    explicit RecipeReader(const std::string& recipe)
        : in_(recipe) {}

    std::string word() {
        std::string w;
        if (!(in_ >> w)) {
            throw Error("codelet recipe: it ends early");
        }
        return w;
    }
    // An unsigned integer below `limit`, named `what` in the error.
    std::size_t below(std::size_t limit, const char* what) {
        const std::string w = word();
        char* end = nullptr;
        const unsigned long long v = std::strtoull(w.c_str(), &end, 10);
        if (w.empty() || *end != '\0' || w[0] == '-' || v >= limit) {
            throw Error("codelet recipe: bad " + std::string(what) + " '" + w + "'");
        }
        return static_cast<std::size_t>(v);
    }
    bool flag(const char* what) { return below(2, what) != 0; }
    Type type() { return static_cast<Type>(below(kTypeCount, "type")); }
    double number() {
        const std::string w = word();
        char* end = nullptr;
        const double v = std::strtod(w.c_str(), &end);
        if (*end != '\0') {
            throw Error("codelet recipe: bad number '" + w + "'");
        }
        return v;
    }
    void finish() {
        std::string extra;
        if (in_ >> extra) {
            throw Error("codelet recipe: unexpected '" + extra + "' at the end");
        }
    }

private:
    std::istringstream in_;
};

std::string hexNumber(double v) {
    char text[64];
    std::snprintf(text, sizeof text, "%a", v);
    return text;
}

std::string regenerateMap(Graph& graph, RecipeReader& r) {
    const bool inPlace = r.flag("in-place flag");
    const std::size_t inputs = r.below(kMaxInputs, "input count");
    std::vector<Type> types;
    for (std::size_t i = 0; i < inputs; ++i) {
        types.push_back(r.type());
    }
    const std::size_t nodes = r.below(kMaxNodes, "node count");
    expr::Expression e;
    for (std::size_t i = 0; i < nodes; ++i) {
        const auto kind = static_cast<expr::Node::Kind>(r.below(6, "node kind"));
        std::int32_t args[3];
        for (std::int32_t& a : args) {
            // An operand is an earlier node; Expression checks which ones are used.
            a = static_cast<std::int32_t>(r.below(kMaxNodes + 1, "operand")) - 1;
        }
        switch (kind) {
        case expr::Node::Kind::Placeholder:
            e.placeholder(r.below(inputs, "placeholder"));
            break;
        case expr::Node::Kind::Constant: {
            const Type own = r.type();
            e.constant(r.number(), own);
            break;
        }
        case expr::Node::Kind::Cast:
            e.cast(args[0], r.type());
            break;
        case expr::Node::Kind::Unary:
            e.unary(static_cast<expr::UnaryOp>(r.below(expr::kUnaryOpCount, "unary operator")),
                    args[0]);
            break;
        case expr::Node::Kind::Binary:
            e.binary(static_cast<expr::BinaryOp>(r.below(expr::kBinaryOpCount, "binary operator")),
                     args[0], args[1]);
            break;
        case expr::Node::Kind::Ternary:
            e.ternary(
                static_cast<expr::TernaryOp>(r.below(expr::kTernaryOpCount, "ternary operator")),
                args[0], args[1], args[2]);
            break;
        }
    }
    r.finish();
    if (nodes == 0) {
        throw Error("codelet recipe: a map expression without nodes");
    }
    return addMapCodelet(graph, e, types, inPlace);
}

std::string regenerateReduce(Graph& graph, RecipeReader& r, bool partials) {
    detail::ReduceCodelet c{};
    c.op = static_cast<ReduceOp>(r.below(kReduceOpCount, "reduce operation"));
    c.squareInputs = r.flag("square flag");
    c.in = r.type();
    c.out = r.type();
    c.final = r.flag("final flag");
    c.update = r.flag("update flag");
    c.scaleTensor = r.flag("scale flag");
    r.finish();
    return partials ? detail::partialsCodelet(graph, c) : detail::runsCodelet(graph, c);
}

} // namespace

std::string mapRecipe(const expr::Expression& e, const std::vector<Type>& inputTypes,
                      bool inPlace) {
    std::ostringstream out;
    out << "map " << (inPlace ? 1 : 0) << ' ' << inputTypes.size();
    for (const Type t : inputTypes) {
        out << ' ' << static_cast<unsigned>(t);
    }
    out << ' ' << e.nodes().size();
    for (const expr::Node& n : e.nodes()) {
        out << ' ' << static_cast<unsigned>(n.kind);
        for (const std::int32_t a : n.args) {
            out << ' ' << (a + 1);
        }
        switch (n.kind) {
        case expr::Node::Kind::Placeholder:
            out << ' ' << n.placeholder;
            break;
        case expr::Node::Kind::Constant:
            out << ' ' << static_cast<unsigned>(n.type) << ' ' << hexNumber(n.value);
            break;
        case expr::Node::Kind::Cast:
            out << ' ' << static_cast<unsigned>(n.type);
            break;
        default:
            out << ' ' << static_cast<unsigned>(n.op);
            break;
        }
    }
    return out.str();
}

std::string reduceRecipe(const detail::ReduceCodelet& c, bool partials) {
    std::ostringstream out;
    out << (partials ? "reduce-partials " : "reduce-runs ") << static_cast<unsigned>(c.op) << ' '
        << c.squareInputs << ' ' << static_cast<unsigned>(c.in) << ' '
        << static_cast<unsigned>(c.out) << ' ' << c.final << ' ' << c.update << ' '
        << c.scaleTensor;
    return out.str();
}

std::string regenerateCodelet(Graph& graph, const std::string& recipe) {
    RecipeReader r(recipe);
    const std::string kind = r.word();
    if (kind == "map") {
        return regenerateMap(graph, r);
    }
    if (kind == "reduce-runs" || kind == "reduce-partials") {
        return regenerateReduce(graph, r, kind == "reduce-partials");
    }
    throw Error("codelet recipe: unknown kind '" + kind + "'");
}

} // namespace tessera::ops
