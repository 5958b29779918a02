#include "views/models/ColumnHeader.h"

#include "views/models/ModelRoles.h"

#include <QString>

namespace tessera::views {

QVariant columnHeaderData(const ColumnHeader& column, int role) {
    switch (role) {
    case Qt::DisplayRole:
        return QString(column.title);
    case Qt::ToolTipRole:
        return QString(column.tip);
    case kUnitRole:
        return column.unit ? QVariant(QString(column.unit)) : QVariant();
    case Qt::TextAlignmentRole:
        return column.unit ? int(Qt::AlignRight | Qt::AlignVCenter)
                           : int(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

} // namespace tessera::views
