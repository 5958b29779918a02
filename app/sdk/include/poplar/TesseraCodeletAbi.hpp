// The C interface between a compiled codelet library and Tessera: the
// generated registration code of a codelet .so fills these tables; the engine
// reads them after dlopen(). Not part of Poplar's API.
#ifndef TESSERA_POPLAR_CODELETABI_HPP
#define TESSERA_POPLAR_CODELETABI_HPP

#include <cstddef>

#define TESSERA_CODELET_ABI_VERSION 1
#define TESSERA_CODELET_ENTRY "tessera_codelets_v1"

extern "C" {

// kind: 0 not a field (ignored), 1 scalar edge, 2 vector edge, 3 list of
// vector edges, 4 vertex state. direction: 0 in, 1 out, 2 in/out. type: 0
// float, 1 half, 2 int, 3 unsigned int, 4 bool, -1 unsupported.
struct tessera_codelet_field {
    const char* name;
    int kind;
    int direction;
    int type;
    // bindings: `count` {void* data; size_t elements} pairs.
    void (*bind)(void* vertex, const void* bindings, std::size_t count);
    void (*setState)(void* vertex, double value);
};

struct tessera_codelet_desc {
    const char* name; // "MyVertex", "ns::Scale<float>"
    const tessera_codelet_field* fields;
    std::size_t numFields;
    void* (*create)();
    void (*destroy)(void* vertex);
    // Returns compute()'s result (void counts as true); `worker` is passed to
    // a MultiVertex's compute(unsigned).
    int (*compute)(void* vertex, unsigned worker);
    int isMultiVertex;
    int isSupervisor;
};

typedef int (*tessera_codelets_entry)(const tessera_codelet_desc** codelets, std::size_t* count);
}

#endif
