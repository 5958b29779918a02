// poplar/TensorCloneMethod.hpp: TensorCloneMethod and TensorCloneDuplicationMethod (defined with
// Graph::clone).
#ifndef TESSERA_POPLAR_TENSORCLONEMETHOD_HPP
#define TESSERA_POPLAR_TENSORCLONEMETHOD_HPP

#include <poplar/Graph.hpp>

#endif
