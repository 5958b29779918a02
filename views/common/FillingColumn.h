#pragma once
// One column of a view takes the width the other columns leave, whenever the
// viewport or a section changes size, under one of two policies:
//  - TakeTheRest (names): the columns are fitted to their contents by the
//    owner; the column grows into the spare width on the right, never below
//    its fitted width. Every column stays user-resizable (a Stretch section
//    would not be).
//  - GiveWay (values never cut): every other column is fitted to its contents
//    here; the column gets what they leave, never wider than its own contents
//    nor narrower than kMinWidth (past that the view scrolls sideways).
// Both compute the column's width from its fitted width and the room left
// (widthFor); they differ only in that rule and in who fits the others.
#include <QObject>

#include <vector>

class QAbstractItemView;
class QWidget;
class QHeaderView;

namespace tessera::views {

class FillingColumn : public QObject {
    Q_OBJECT

public:
    enum class Policy { TakeTheRest, GiveWay };
    static constexpr int kMinWidth = 120; // GiveWay: the column stays readable

    // Installs itself on `view`'s viewport (which owns it); `column` takes the spare width.
    static FillingColumn* install(QAbstractItemView* view, QHeaderView* header, int column = 0,
                                  Policy policy = Policy::TakeTheRest);

    // Call after the contents change. TakeTheRest: after fitting the columns,
    // the column's width becomes its floor. GiveWay: fits the columns to the
    // new contents.
    void refit();

    // The column's width given its fitted width and the room the others leave.
    static int widthFor(Policy policy, int fitted, int room);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    FillingColumn(QAbstractItemView* view, QHeaderView* header, int column, Policy policy);
    void fitToContents(); // GiveWay: every column's content width into wanted_
    void fill();

    // A child of the viewport, not of the view: the view's destructor still
    // sends the viewport events, and this must not ask the half-destroyed
    // view. Only refit() (called by the owner) asks the view itself.
    QAbstractItemView* view_;
    QWidget* viewport_;
    QHeaderView* header_;
    int column_;
    Policy policy_;
    int fitted_ = 0;          // the column's fitted width (see Policy)
    std::vector<int> wanted_; // GiveWay: each column's content width, from refit()
    bool filling_ = false;
};

} // namespace tessera::views
