#pragma once
// Draws a cell's share (a fraction 0..1 under kSortRole) as a light bar
// behind its text, so the biggest rows of a "% cycles" column stand out.
#include <QStyledItemDelegate>

namespace tessera::views {

class ShareBarDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
};

} // namespace tessera::views
