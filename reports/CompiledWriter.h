#pragma once
// Writes the compile-time part of a report (one CompiledRecord): target,
// codelets, variables, compute sets, program tree and steps, memory.
#include "engine/record/Records.h"

namespace tessera::reports {

namespace sql {
class Database;
}
class StringTable;

void writeMemoryCategories(sql::Database& db, StringTable& strings);
void writeCompiled(sql::Database& db, StringTable& strings, const record::CompiledRecord& compiled);

} // namespace tessera::reports
