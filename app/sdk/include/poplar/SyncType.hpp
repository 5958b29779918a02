// poplar::SyncType: which synchronisation a Sync program (or a cycle count)
// uses: the tiles of one IPU, the IPUs of the system, or with the host.
#ifndef TESSERA_POPLAR_SYNCTYPE_HPP
#define TESSERA_POPLAR_SYNCTYPE_HPP

namespace poplar {

enum class SyncType { INTERNAL, EXTERNAL, GLOBAL };

} // namespace poplar

#endif
