#include "views/common/ColumnChooser.h"

#include <QAction>
#include <QHeaderView>
#include <QMenu>
#include <QStyle>
#include <QToolButton>

namespace tessera::views {

ColumnChooser::ColumnChooser(QHeaderView* header)
    : QObject(header)
    , header_(header)
    , menu_(new QMenu(header))
    , button_(new QToolButton) {
    button_->setText(tr("Columns"));
    button_->setToolTip(tr("Show or hide columns (also on the header's context menu)"));
    button_->setPopupMode(QToolButton::InstantPopup);
    button_->setMenu(menu_);
    // The style draws the menu arrow in the button's bottom right corner, over
    // the centred text of a button sized to it: widen it by the arrow on both
    // sides so the text stays centred and clear.
    const int arrow =
        button_->style()->pixelMetric(QStyle::PM_MenuButtonIndicator, nullptr, button_);
    button_->setMinimumWidth(button_->sizeHint().width() + 2 * arrow);
    // Filled as it opens: the model (and its columns) may change after construction.
    connect(menu_, &QMenu::aboutToShow, this, &ColumnChooser::fillMenu);
    header_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header_, &QHeaderView::customContextMenuRequested, this,
            [this](const QPoint& pos) { menu_->popup(header_->viewport()->mapToGlobal(pos)); });
    fillMenu();
}

void ColumnChooser::fillMenu() {
    menu_->clear();
    const QAbstractItemModel* model = header_->model();
    if (model == nullptr) {
        return;
    }
    for (int c = 0; c < header_->count(); ++c) {
        QAction* action = menu_->addAction(model->headerData(c, header_->orientation()).toString());
        action->setCheckable(true);
        action->setChecked(!header_->isSectionHidden(c));
        action->setEnabled(c != 0);
        connect(action, &QAction::toggled, header_, [this, c](bool shown) {
            header_->setSectionHidden(c, !shown);
            if (shown && header_->sectionSize(c) < header_->minimumSectionSize() * 2) {
                header_->resizeSection(c, header_->defaultSectionSize());
            }
        });
    }
}

} // namespace tessera::views
