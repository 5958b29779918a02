// poplar/VariableMappingMethod.hpp: VariableMappingMethod (defined with Graph::addVariable).
#ifndef TESSERA_POPLAR_VARIABLEMAPPINGMETHOD_HPP
#define TESSERA_POPLAR_VARIABLEMAPPINGMETHOD_HPP

#include <poplar/Graph.hpp>

#endif
