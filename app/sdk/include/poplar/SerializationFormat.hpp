// poplar/SerializationFormat.hpp: SerializationFormat (defined with Graph::serialize).
#ifndef TESSERA_POPLAR_SERIALIZATIONFORMAT_HPP
#define TESSERA_POPLAR_SERIALIZATIONFORMAT_HPP

#include <poplar/Graph.hpp>

#endif
