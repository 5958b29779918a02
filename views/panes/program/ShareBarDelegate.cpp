#include "views/panes/program/ShareBarDelegate.h"

#include "views/common/Colors.h"
#include "views/models/ModelRoles.h"

#include <QPainter>

#include <algorithm>

namespace tessera::views {

void ShareBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                             const QModelIndex& index) const {
    QStyledItemDelegate::paint(painter, option, index);
    const double share = std::clamp(index.data(kSortRole).toDouble(), 0.0, 1.0);
    if (share <= 0) {
        return;
    }
    QColor bar = phaseColor(Phase::Exchange);
    bar.setAlpha(60);
    const QRect r = option.rect.adjusted(2, 3, -2, -3);
    painter->fillRect(
        QRect(r.left(), r.top(), std::max(1, static_cast<int>(r.width() * share)), r.height()),
        bar);
}

} // namespace tessera::views
