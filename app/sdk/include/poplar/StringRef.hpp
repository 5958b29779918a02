// poplar/StringRef.hpp: StringRef (defined with ArrayRef).
#ifndef TESSERA_POPLAR_STRINGREF_HPP
#define TESSERA_POPLAR_STRINGREF_HPP

#include <poplar/ArrayRef.hpp>

#endif
