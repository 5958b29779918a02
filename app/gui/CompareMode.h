#pragma once
// Compare mode of the main window: File > Compare With… (or dropping a
// report with Shift or Ctrl held, or `tessera BASE.tsr --compare NEW.tsr`)
// loads a second report as the comparison in the background, then shows the
// compare version of each pane under the same names in place of the normal
// panes; File > Close Comparison restores them. The open report is the
// baseline.
#include "views/compare/CompareLoader.h"

#include <QObject>
#include <QString>

#include <memory>
#include <vector>

class QAction;
class QMenu;
class QProgressBar;

namespace tessera::views {
class ComparePane;
class Pane;
} // namespace tessera::views

namespace tessera::gui {

class MainWindow;

class CompareMode : public QObject {
    Q_OBJECT

public:
    CompareMode(MainWindow* window, std::vector<views::Pane*> normalPanes);
    ~CompareMode() override;

    void addActions(QMenu* fileMenu);

    // Compares the open report (the baseline) with `path` in the background;
    // false (and a status message or dialog) when no report is open or `path`
    // is not a readable file. comparisonOpened or comparisonFailed follows.
    bool compareWith(const QString& path);
    // The same on the calling thread; false with `error` set on failure.
    bool compareNow(const QString& path, QString* error = nullptr);
    void close(); // back to the normal panes (cancels a load in progress)

    bool isActive() const { return data_ != nullptr; }
    bool isLoading() const;
    QString comparisonPath() const { return comparisonPath_; }
    std::shared_ptr<const views::CompareData> data() const { return data_; }
    // The compare pane called `name` while compare mode is on, else null.
    views::Pane* pane(const QString& name) const;
    const std::vector<views::ComparePane*>& panes() const { return panes_; }

signals:
    void comparisonOpened(const QString& path);
    void comparisonFailed(const QString& path, const QString& error);
    void comparisonClosed();

private:
    void showOpenDialog();
    void onLoaded(const views::LoadedComparison& result, const QString& path);
    void fail(const QString& path, const QString& message);
    void showPanes(bool compare);
    void updateActions();

    MainWindow* window_;
    std::vector<views::Pane*> normalPanes_;
    std::vector<views::ComparePane*> panes_;
    views::CompareLoader* loader_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QAction* compareAction_ = nullptr;
    QAction* closeAction_ = nullptr;
    std::shared_ptr<const views::CompareData> data_;
    QString comparisonPath_;
    QString loadingPath_;
};

} // namespace tessera::gui
