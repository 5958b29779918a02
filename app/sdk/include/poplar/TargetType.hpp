// poplar/TargetType.hpp: TargetType (defined with the element types).
#ifndef TESSERA_POPLAR_TARGETTYPE_HPP
#define TESSERA_POPLAR_TARGETTYPE_HPP

#include <poplar/Type.hpp>

#endif
