#include "views/panes/memory/DetailsColumnFit.h"

#include <QAbstractItemModel>
#include <QEvent>
#include <QHeaderView>
#include <QTreeView>

#include <algorithm>

namespace tessera::views {

DetailsColumnFit::DetailsColumnFit(QTreeView* view)
    : QObject(view)
    , view_(view) {
    view_->viewport()->installEventFilter(this);
}

bool DetailsColumnFit::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize && watched == view_->viewport()) {
        fit();
    }
    return QObject::eventFilter(watched, event);
}

void DetailsColumnFit::fit() {
    const QAbstractItemModel* model = view_->model();
    if (!model || fitting_) {
        return;
    }
    fitting_ = true;
    QHeaderView* header = view_->header();
    const int columns = model->columnCount();
    // QTreeView hides sizeHintForColumn; the base's is public and virtual.
    const QAbstractItemView* items = view_;
    auto wanted = [&](int c) {
        return std::max(items->sizeHintForColumn(c), header->sectionSizeHint(c));
    };
    int values = 0;
    for (int c = 1; c < columns; ++c) {
        const int w = wanted(c);
        header->resizeSection(c, w);
        values += w;
    }
    const int room = view_->viewport()->width() - values;
    header->resizeSection(0, std::max(kMinLabelWidth, std::min(wanted(0), room)));
    fitting_ = false;
}

} // namespace tessera::views
