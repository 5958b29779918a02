#include "reports/Schema.h"

#include "reports/Sqlite.h"
#include "reports/Tables.h"

namespace tessera::reports {

std::string schemaVersionString() {
    return std::to_string(kSchemaMajor) + "." + std::to_string(kSchemaMinor);
}

void createSchema(sql::Database& db) {
    db.exec("PRAGMA application_id = " + std::to_string(kApplicationId) + ";" +
            "PRAGMA user_version = " + std::to_string(kUserVersion) + ";");
    // Every table from its column list (Tables.h), in the documented order.
    std::string ddl;
    for (const tables::Table* t : tables::kTables) {
        ddl += tables::createSql(*t);
    }
    db.exec(ddl);
    db.exec("CREATE UNIQUE INDEX lod_buckets_by_position ON lod_buckets (run, level, bucket);");
}

} // namespace tessera::reports
