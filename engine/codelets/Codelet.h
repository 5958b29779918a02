#pragma once
// Runtime description of a codelet: its fields, state, code size and cycle
// estimator, plus type-erased hooks to create an instance, point its fields at
// memory and call compute(). Built with CodeletBuilder from a codelet class.
#include "engine/core/Convert.h"
#include "engine/core/Type.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tessera {

struct Target;

enum class FieldDirection : std::uint8_t { Input, Output, InOut };
enum class FieldShape : std::uint8_t { Scalar, Vector, VectorList };

inline bool reads(FieldDirection d) {
    return d != FieldDirection::Output;
}
inline bool writes(FieldDirection d) {
    return d != FieldDirection::Input;
}

struct FieldBinding {
    void* data = nullptr;
    std::size_t count = 0;
};

struct FieldInfo {
    std::string name;
    FieldDirection direction = FieldDirection::Input;
    Type type = Type::Float;
    FieldShape shape = FieldShape::Scalar;
    // Points the field of instance `vertex` at memory (one binding, or one per
    // list entry for a VectorList).
    std::function<void(void* vertex, std::span<const FieldBinding>)> bind;
};

struct StateInfo {
    std::string name;
    Type type = Type::Float;
    std::function<void(void* vertex, double value)> set;
};

// What an estimator sees of one vertex: sizes of its edges and its state.
class VertexIntrospector {
public:
    virtual ~VertexIntrospector() = default;
    virtual const std::string& codeletName() const = 0;
    virtual std::size_t fieldSize(const std::string& field) const = 0; // elements, or list length
    virtual std::vector<std::size_t> listSizes(const std::string& field) const = 0;
    virtual double state(const std::string& name) const = 0;
    virtual Type fieldType(const std::string& field) const = 0;
    // The sizes of a vector list's entries, or the one size of any other field.
    std::vector<std::size_t> listOrSize(const std::string& field) const {
        return isList(field) ? listSizes(field) : std::vector<std::size_t>{fieldSize(field)};
    }
    virtual bool isList(const std::string& field) const = 0;
};

struct PerfEstimate {
    std::uint64_t cycles = 0; // thread cycles for a worker vertex
    std::uint64_t flops = 0;
};

using PerfEstimator = std::function<PerfEstimate(const VertexIntrospector&, const Target&)>;

struct CodeletInfo {
    std::string name;
    std::vector<FieldInfo> fields;
    std::vector<StateInfo> states;
    std::uint32_t codeBytes = 256; // machine code size, counted once per tile using it
    std::uint32_t stackBytes = 64; // worker stack it needs
    std::string formula;           // the cycle formula, for docs and reports
    // Generated codelets (map expressions, reduction stages): the few values
    // that regenerate it in another process (ops::regenerateCodelet), so a
    // saved executable does not depend on the process that generated it.
    std::string recipe;
    PerfEstimator estimator;
    // Checks a vertex's edge sizes before it runs; returns "" when they fit, else
    // what is wrong (compile names the vertex). Codelets index edges freely, so
    // this is what keeps a mis-sized connection from reading past an edge.
    std::vector<std::function<std::string(const VertexIntrospector&)>> validators;
    // Groups of fields whose edges must hold the same number of elements (a
    // vector-list field stands for each of its entries), by field index.
    // Checked before the validators, without a call through the introspector:
    // nearly every codelet has one, and compile checks every vertex.
    std::vector<std::vector<std::uint32_t>> sameSizeGroups;
    std::function<void*()> create;
    std::function<void(void*)> destroy;
    std::function<bool(void*)> compute;
    // Optional, for codelets whose consecutive vertices on one tile can run as
    // one compute() (MatMulPartial: row blocks of one product fill the
    // kernel's register tiles better together). Widens `into` to do `next`'s
    // work too and returns true, or returns false and changes nothing. Each
    // output keeps the bits its own vertex's compute() would give it.
    std::function<bool(void* into, const void* next)> join;

    const FieldInfo* field(const std::string& fieldName) const;
    const StateInfo* stateField(const std::string& stateName) const;
    std::size_t fieldIndex(const std::string& fieldName) const; // throws Error naming both
    // fields.size() when there is no such field. Inline, compared byte by
    // byte: graphs look field names up for every vertex they build and check.
    std::size_t findField(std::string_view fieldName) const noexcept {
        for (std::size_t i = 0; i < fields.size(); ++i) {
            const std::string& n = fields[i].name;
            if (n.size() == fieldName.size()) {
                std::size_t c = 0;
                while (c < n.size() && n[c] == fieldName[c]) {
                    ++c;
                }
                if (c == n.size()) {
                    return i;
                }
            }
        }
        return fields.size();
    }
};

namespace detail {
template <typename F>
constexpr FieldDirection directionOf() {
    return F::kDirection == 0   ? FieldDirection::Input
           : F::kDirection == 1 ? FieldDirection::Output
                                : FieldDirection::InOut;
}
template <typename T>
struct IsEdgeList : std::false_type {};
} // namespace detail

template <typename C>
class CodeletBuilder {
public:
    explicit CodeletBuilder(std::string name) {
        info_.name = std::move(name);
        info_.create = [] { return static_cast<void*>(new C()); };
        info_.destroy = [](void* p) { delete static_cast<C*>(p); };
        info_.compute = [](void* p) {
            if constexpr (std::is_same_v<decltype(static_cast<C*>(p)->compute()), void>) {
                static_cast<C*>(p)->compute();
                return true;
            } else {
                return static_cast<bool>(static_cast<C*>(p)->compute());
            }
        };
    }

    // A scalar or vector edge: Input<T>, Input<Vector<T>>, Output..., InOut...
    template <typename F>
    CodeletBuilder& field(std::string name, F C::*member) {
        FieldInfo f;
        f.name = std::move(name);
        if constexpr (requires { F::kDirection; }) {
            f.direction = detail::directionOf<F>();
            f.type = TypeOf<std::remove_const_t<typename F::Element>>::value;
            f.shape = F::kIsVector ? FieldShape::Vector : FieldShape::Scalar;
            f.bind = [member](void* v, std::span<const FieldBinding> b) {
                (static_cast<C*>(v)->*member).engineBind(b[0].data, b[0].count);
            };
        } else { // Vector<Input<Vector<T>>>: a list of vector edges
            using Item = std::remove_reference_t<decltype(std::declval<F&>()[0])>;
            f.direction = detail::directionOf<Item>();
            f.type = TypeOf<std::remove_const_t<typename Item::Element>>::value;
            f.shape = FieldShape::VectorList;
            f.bind = [member](void* v, std::span<const FieldBinding> b) {
                F& list = static_cast<C*>(v)->*member;
                list.engineResize(b.size());
                for (std::size_t i = 0; i < b.size(); ++i) {
                    list[i].engineBind(b[i].data, b[i].count);
                }
            };
        }
        info_.fields.push_back(std::move(f));
        return *this;
    }

    // Plain data member set by Graph::setInitialValue(vertex["name"], value).
    template <typename T>
    CodeletBuilder& state(std::string name, T C::*member) {
        StateInfo s;
        s.name = std::move(name);
        s.type = TypeOf<T>::value;
        s.set = [member](void* v, double value) {
            static_cast<C*>(v)->*member = fromDouble<T>(value);
        };
        info_.states.push_back(std::move(s));
        return *this;
    }

    CodeletBuilder& codeBytes(std::uint32_t bytes) {
        info_.codeBytes = bytes;
        return *this;
    }
    CodeletBuilder& stackBytes(std::uint32_t bytes) {
        info_.stackBytes = bytes;
        return *this;
    }
    // Fields whose edges must hold the same number of elements; a vector-list
    // field stands for each of its entries.
    CodeletBuilder& sameSize(const std::vector<std::string>& fields) {
        std::vector<std::uint32_t> group;
        for (const std::string& f : fields) {
            group.push_back(static_cast<std::uint32_t>(info_.fieldIndex(f)));
        }
        info_.sameSizeGroups.push_back(std::move(group));
        return *this;
    }
    CodeletBuilder& validator(std::function<std::string(const VertexIntrospector&)> check) {
        info_.validators.push_back(std::move(check));
        return *this;
    }
    CodeletBuilder& estimator(std::string formula, PerfEstimator e) {
        info_.formula = std::move(formula);
        info_.estimator = std::move(e);
        return *this;
    }
    CodeletBuilder& join(bool (*joinNext)(C& into, const C& next)) {
        info_.join = [joinNext](void* into, const void* next) {
            return joinNext(*static_cast<C*>(into), *static_cast<const C*>(next));
        };
        return *this;
    }
    CodeletInfo build() { return std::move(info_); }

private:
    CodeletInfo info_;
};

// Codelets known to a graph, by name ("ScaledAdd<float>").
class CodeletRegistry {
public:
    // Adds a codelet; a second codelet of the same name is ignored, so adding a
    // library twice is harmless and pointers handed out stay valid.
    void add(CodeletInfo info);
    const CodeletInfo* find(const std::string& name) const;
    const CodeletInfo& get(const std::string& name) const; // throws Error naming the codelet
    std::vector<std::string> names() const;

    // The built-in codelet library (engine/codelets/builtin).
    static const CodeletRegistry& builtins();

private:
    std::vector<std::shared_ptr<const CodeletInfo>> codelets_;
};

} // namespace tessera
