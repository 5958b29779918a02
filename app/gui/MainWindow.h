#pragma once

#include <QIcon>
#include <QMainWindow>
#include <QString>

class QAction;
class QLabel;
class QMenu;
class QTabWidget;

namespace tessera::gui {

// The application's main window: menus, the pane area and the status bar.
// For now the pane area ("paneTabs") holds one placeholder tab; the views
// replace it with the report panes.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // The window icon, every size rendered from resources/icons/tessera.svg.
    static QIcon applicationIcon();

    // Shows `path` in the window and adds it to Open Recent. Returns false (and
    // says why in the status bar) if it is not a readable file.
    bool openReport(const QString& path);
    QString currentReport() const { return currentReport_; }

signals:
    void reportOpened(const QString& path);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createMenus();
    void createCentralArea();
    void showOpenDialog();
    void showAbout();
    void rebuildRecentMenu();
    void readSettings();
    void writeSettings() const;

    QTabWidget* paneTabs_ = nullptr;
    QLabel* hint_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QString currentReport_;
};

} // namespace tessera::gui
