#pragma once
// PopVision's "Columns" chooser for a table or tree: a menu of the header's
// columns, each checkable to show or hide it, on a "Columns" tool button and
// on the header's context menu. The first column (the names) stays.
#include <QObject>

class QHeaderView;
class QMenu;
class QToolButton;

namespace tessera::views {

class ColumnChooser : public QObject {
    Q_OBJECT

public:
    // Owned by `header`; the button is for the caller's layout.
    explicit ColumnChooser(QHeaderView* header);

    QToolButton* button() const { return button_; }
    QMenu* menu() const { return menu_; }

private:
    void fillMenu();

    QHeaderView* header_;
    QMenu* menu_;
    QToolButton* button_;
};

} // namespace tessera::views
