#include "views/common/FillingColumn.h"

#include <QAbstractItemView>
#include <QEvent>
#include <QHeaderView>

#include <algorithm>

namespace tessera::views {

FillingColumn::FillingColumn(QAbstractItemView* view, QHeaderView* header, int column,
                             Policy policy)
    : QObject(view->viewport())
    , view_(view)
    , viewport_(view->viewport())
    , header_(header)
    , column_(column)
    , policy_(policy) {
    viewport_->installEventFilter(this);
    // A user who drags another column wider takes the width from the filling one.
    connect(header, &QHeaderView::sectionResized, this, [this](int section, int, int) {
        if (section != column_) {
            fill();
        } else if (!filling_) {
            fitted_ = header_->sectionSize(column_); // the user's choice is its new limit
        }
    });
}

FillingColumn* FillingColumn::install(QAbstractItemView* view, QHeaderView* header, int column,
                                      Policy policy) {
    auto* filling = new FillingColumn(view, header, column, policy);
    filling->refit();
    return filling;
}

int FillingColumn::widthFor(Policy policy, int fitted, int room) {
    return policy == Policy::TakeTheRest ? std::max(fitted, room)
                                         : std::max(kMinWidth, std::min(fitted, room));
}

void FillingColumn::refit() {
    if (column_ >= header_->count()) {
        return;
    }
    if (policy_ == Policy::GiveWay) {
        fitToContents();
        fitted_ = wanted_[static_cast<std::size_t>(column_)];
    } else {
        fitted_ = header_->sectionSize(column_);
    }
    fill();
}

void FillingColumn::fitToContents() {
    // sizeHintForColumn is public and virtual on the base (QTreeView hides it).
    const QAbstractItemView* items = view_;
    wanted_.assign(static_cast<std::size_t>(header_->count()), 0);
    filling_ = true; // resizing the others must not fill with half the widths
    for (int c = 0; c < header_->count(); ++c) {
        const int w = std::max(items->sizeHintForColumn(c), header_->sectionSizeHint(c));
        wanted_[static_cast<std::size_t>(c)] = w;
        if (c != column_) {
            header_->resizeSection(c, w);
        }
    }
    filling_ = false;
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
        if (c == column_ || header_->isSectionHidden(c)) {
            continue;
        }
        // GiveWay: the fitted widths, not the sections (a stretched last
        // section already holds the spare width).
        const bool fitted = policy_ == Policy::GiveWay && c < static_cast<int>(wanted_.size());
        others += fitted ? wanted_[static_cast<std::size_t>(c)] : header_->sectionSize(c);
    }
    const int width = widthFor(policy_, fitted_, viewport_->width() - others);
    if (width != header_->sectionSize(column_)) {
        filling_ = true;
        header_->resizeSection(column_, width);
        filling_ = false;
    }
}

} // namespace tessera::views
