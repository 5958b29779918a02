#pragma once
// The Debugger's tool bars: which workload to run (built-in or from a
// plugin), its target and parameters, Start; then Continue, Step, Step Into,
// Pause and Run to End with their shortcuts (F5, F10, F11, F6, Shift+F5).
#include "views/panes/debug/DebugTypes.h"

#include <QList>
#include <QWidget>

#include <utility>
#include <vector>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QToolButton;

namespace tessera::views::debugger {

class RunControls : public QWidget {
    Q_OBJECT

public:
    explicit RunControls(QWidget* parent = nullptr);

    // The configuration the fields describe; false (and `error`) when the
    // parameters do not parse.
    bool config(DebugConfig& out, QString* error) const;
    void showConfig(const DebugConfig& config);
    void refreshWorkloads(); // after a plugin added some
    // Loads a plugin on this thread (a quick dlopen) so its workloads can be
    // listed; false with `error` set when it is refused.
    bool loadPlugin(const QString& path, QString* error);
    void setState(bool hasSession, bool busy, bool finished);

    QComboBox* workloadBox() const { return workload_; }
    QLineEdit* targetEdit() const { return target_; }
    QLineEdit* parametersEdit() const { return params_; }
    // Start, Continue, Step, Step Into, Pause, Run to End with their shortcuts,
    // enabled as their buttons are: for a menu of the main window.
    QList<QAction*> runActions() const { return actions_; }

signals:
    void startClicked();
    void continueClicked();
    void stepClicked();
    void stepIntoClicked();
    void pauseClicked();
    void runToEndClicked();
    void message(const QString& text);

private:
    QToolButton* button(const QString& text, const QString& tip, const QKeySequence& key,
                        const QString& objectName);
    void choosePlugin();

    QComboBox* workload_ = nullptr;
    QLineEdit* target_ = nullptr;
    QLineEdit* params_ = nullptr;
    QLabel* pluginLabel_ = nullptr;
    QString plugin_;
    QToolButton* start_ = nullptr;
    QToolButton* continue_ = nullptr;
    QToolButton* step_ = nullptr;
    QToolButton* stepInto_ = nullptr;
    QToolButton* pause_ = nullptr;
    QToolButton* runToEnd_ = nullptr;
    QList<QAction*> actions_;
    std::vector<std::pair<QToolButton*, QAction*>> buttonActions_;
};

// "m=64 k=32" or "m=64, k=32" -> {{"m","64"},{"k","32"}}; false on a piece without '='.
bool parseParameters(const QString& text, std::map<std::string, std::string>& out, QString* error);

} // namespace tessera::views::debugger
