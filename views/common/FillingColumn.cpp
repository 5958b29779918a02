#include "views/common/FillingColumn.h"

#include <QAbstractItemView>
#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>

namespace tessera::views {

FillingColumn::FillingColumn(QAbstractItemView* view, QHeaderView* header, int column)
    : QObject(view->viewport())
    , viewport_(view->viewport())
    , header_(header)
    , column_(column) {
    viewport_->installEventFilter(this);
    // A user who drags another column wider takes the width from the filling one.
    connect(header, &QHeaderView::sectionResized, this, [this](int section, int, int) {
        if (section != column_) {
            fill();
        } else if (!filling_) {
            fitted_ = header_->sectionSize(column_); // the user's choice is its new floor
        }
    });
}

FillingColumn* FillingColumn::install(QAbstractItemView* view, QHeaderView* header, int column) {
    auto* filling = new FillingColumn(view, header, column);
    filling->refit();
    return filling;
}

void FillingColumn::refit() {
    if (column_ >= header_->count()) {
        return;
    }
    fitted_ = header_->sectionSize(column_);
    fill();
}

bool FillingColumn::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize && watched == viewport_) {
        fill();
    }
    return QObject::eventFilter(watched, event);
}

void FillingColumn::fill() {
    if (filling_ || column_ >= header_->count() || header_->isSectionHidden(column_)) {
        return;
    }
    int others = 0;
    for (int c = 0; c < header_->count(); ++c) {
        if (c != column_ && !header_->isSectionHidden(c)) {
            others += header_->sectionSize(c);
        }
    }
    const int width = std::max(fitted_, viewport_->width() - others);
    if (width != header_->sectionSize(column_)) {
        filling_ = true;
        header_->resizeSection(column_, width);
        filling_ = false;
    }
}

} // namespace tessera::views
