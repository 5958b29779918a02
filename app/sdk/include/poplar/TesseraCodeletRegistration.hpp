// Support for the registration code Tessera's codelet compiler generates for
// a codelet source: the kind, direction and element type of a vertex member
// from its declared type, and calls to bind it or set it. Not part of
// Poplar's API; users never include it.
#ifndef TESSERA_POPLAR_CODELETREGISTRATION_HPP
#define TESSERA_POPLAR_CODELETREGISTRATION_HPP

#include <poplar/TesseraCodeletAbi.hpp>
#include <poplar/Vertex.hpp>

#include <type_traits>

namespace poplar {
namespace tessera_detail {

template <typename T>
struct TypeId {
    static const int value = -1;
};
template <>
struct TypeId<float> {
    static const int value = 0;
};
template <>
struct TypeId<::half> {
    static const int value = 1;
};
template <>
struct TypeId<int> {
    static const int value = 2;
};
template <>
struct TypeId<unsigned> {
    static const int value = 3;
};
template <>
struct TypeId<bool> {
    static const int value = 4;
};

template <typename T>
struct StateTypeId {
    static const int value = std::is_same<T, ::half>::value                             ? 1
                             : std::is_same<T, bool>::value                             ? 4
                             : std::is_floating_point<T>::value                         ? 0
                             : (std::is_integral<T>::value && std::is_signed<T>::value) ? 2
                             : std::is_integral<T>::value                               ? 3
                                                                                        : -1;
};

template <typename M, typename Enable = void>
struct Member {
    static const int kind = 0;
    static const int direction = 0;
    static const int type = -1;
};
template <typename M>
struct Member<M, typename std::enable_if<std::is_arithmetic<M>::value ||
                                         std::is_same<M, ::half>::value>::type> {
    static const int kind = 4;
    static const int direction = 0;
    static const int type = StateTypeId<M>::value;
};

#define TESSERA_EDGE_TRAITS(Edge, dir)                                                             \
    template <typename T>                                                                          \
    struct Member<Edge<T>, void> {                                                                 \
        static const int kind = 1;                                                                 \
        static const int direction = dir;                                                          \
        static const int type = TypeId<T>::value;                                                  \
    };                                                                                             \
    template <typename T, VectorLayout L, unsigned A, bool I>                                      \
    struct Member<Edge<Vector<T, L, A, I>>, void> {                                                \
        static const int kind = 2;                                                                 \
        static const int direction = dir;                                                          \
        static const int type = TypeId<T>::value;                                                  \
    };                                                                                             \
    template <typename T, VectorListLayout L>                                                      \
    struct Member<Edge<VectorList<T, L>>, void> {                                                  \
        static const int kind = 3;                                                                 \
        static const int direction = dir;                                                          \
        static const int type = TypeId<T>::value;                                                  \
    };

TESSERA_EDGE_TRAITS(Input, 0)
TESSERA_EDGE_TRAITS(Output, 1)
TESSERA_EDGE_TRAITS(InOut, 2)
#undef TESSERA_EDGE_TRAITS

// Vector<Input<Vector<T>>>: a list of vector edges.
template <typename E, VectorLayout L, unsigned A, bool I>
struct Member<Vector<E, L, A, I>, void> {
    static const int kind = Member<E>::kind == 2 ? 3 : 0;
    static const int direction = Member<E>::direction;
    static const int type = Member<E>::type;
};

template <typename M>
void bindImpl(M& m, const void* b, std::size_t n, std::true_type) {
    m.tesseraBind(static_cast<const Binding*>(b), n);
}
template <typename M>
void bindImpl(M&, const void*, std::size_t, std::false_type) {}
template <typename M>
void bindMember(M& m, const void* b, std::size_t n) {
    bindImpl(m, b, n, std::integral_constant < bool,
             Member<M>::kind >= 1 && Member<M>::kind <= 3 > ());
}

template <typename M>
void setImpl(M& m, double v, std::true_type) {
    m = static_cast<M>(v);
}
template <typename M>
void setImpl(M&, double, std::false_type) {}
template <typename M>
void setMember(M& m, double v) {
    setImpl(m, v, std::integral_constant<bool, Member<M>::kind == 4>());
}

template <typename M>
tessera_codelet_field describe(const char* name, void (*bind)(void*, const void*, std::size_t),
                               void (*setState)(void*, double)) {
    tessera_codelet_field f;
    f.name = name;
    f.kind = Member<M>::kind;
    f.direction = Member<M>::direction;
    f.type = Member<M>::type;
    f.bind = bind;
    f.setState = setState;
    return f;
}

template <typename C>
auto computeOnce(C& c, unsigned w, int) ->
    typename std::enable_if<std::is_void<decltype(c.compute(w))>::value, int>::type {
    c.compute(w);
    return 1;
}
template <typename C>
auto computeOnce(C& c, unsigned w, int) ->
    typename std::enable_if<!std::is_void<decltype(c.compute(w))>::value, int>::type {
    return c.compute(w) ? 1 : 0;
}
template <typename C>
auto computeOnce(C& c, unsigned, long) ->
    typename std::enable_if<std::is_void<decltype(c.compute())>::value, int>::type {
    c.compute();
    return 1;
}
template <typename C>
auto computeOnce(C& c, unsigned, long) ->
    typename std::enable_if<!std::is_void<decltype(c.compute())>::value, int>::type {
    return c.compute() ? 1 : 0;
}

template <typename C>
void* create() {
    return new C();
}
template <typename C>
void destroy(void* p) {
    delete static_cast<C*>(p);
}
template <typename C>
int compute(void* p, unsigned worker) {
    return computeOnce(*static_cast<C*>(p), worker, 0);
}

template <typename C>
tessera_codelet_desc codelet(const char* name, const tessera_codelet_field* fields,
                             std::size_t numFields) {
    tessera_codelet_desc d;
    d.name = name;
    d.fields = fields;
    d.numFields = numFields;
    d.create = &create<C>;
    d.destroy = &destroy<C>;
    d.compute = &compute<C>;
    d.isMultiVertex = std::is_base_of<MultiVertex, C>::value ? 1 : 0;
    d.isSupervisor = std::is_base_of<SupervisorVertex, C>::value ? 1 : 0;
    return d;
}

} // namespace tessera_detail
} // namespace poplar

#endif
