#pragma once
// A view whose columns are fitted to their contents leaves the space to their
// right empty when the pane is wide. FillingColumn gives that space to one
// column (the names) whenever the viewport or a section changes size, never
// making it narrower than its fitted width, and keeps every column
// user-resizable (a Stretch section would not be).
#include <QObject>

class QAbstractItemView;
class QWidget;
class QHeaderView;

namespace tessera::views {

class FillingColumn : public QObject {
    Q_OBJECT

public:
    // Installs itself on `view`'s viewport (which owns it); `column` takes the spare width.
    static FillingColumn* install(QAbstractItemView* view, QHeaderView* header, int column = 0);

    // Call after fitting the columns to new contents: `fitted` becomes the
    // column's own width, and the spare width is added to it.
    void refit();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    FillingColumn(QAbstractItemView* view, QHeaderView* header, int column);
    void fill();

    // A child of the viewport, not of the view: the view's destructor still
    // sends the viewport events, and this must not ask the half-destroyed view.
    QWidget* viewport_;
    QHeaderView* header_;
    int column_;
    int fitted_ = 0;
    bool filling_ = false;
};

} // namespace tessera::views
