#include "views/panes/debug/RunControls.h"

#include "engine/workloads/Plugin.h"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QToolButton>
#include <QVBoxLayout>

namespace tessera::views::debugger {

bool parseParameters(const QString& text, std::map<std::string, std::string>& out, QString* error) {
    out.clear();
    for (const QString& piece :
         text.split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts)) {
        const int eq = piece.indexOf('=');
        if (eq <= 0 || eq == piece.size() - 1) {
            if (error) {
                *error = QObject::tr("parameter '%1' is not NAME=VALUE").arg(piece);
            }
            return false;
        }
        out[piece.left(eq).toStdString()] = piece.mid(eq + 1).toStdString();
    }
    return true;
}

RunControls::RunControls(QWidget* parent)
    : QWidget(parent) {
    auto* rows = new QVBoxLayout(this);
    rows->setContentsMargins(0, 0, 0, 0);
    auto* setup = new QHBoxLayout;
    workload_ = new QComboBox;
    workload_->setObjectName(QStringLiteral("debugWorkload"));
    workload_->setMinimumContentsLength(14);
    target_ = new QLineEdit(QStringLiteral("tiles:16"));
    target_->setObjectName(QStringLiteral("debugTarget"));
    target_->setToolTip(tr("mk1, mk2, bow or tiles:N"));
    target_->setMaximumWidth(110);
    params_ = new QLineEdit;
    params_->setObjectName(QStringLiteral("debugParameters"));
    params_->setPlaceholderText(tr("parameters, e.g. m=64 k=32 (defaults when empty)"));
    pluginLabel_ = new QLabel;
    auto* plugin = new QToolButton;
    plugin->setText(tr("Plugin…"));
    plugin->setToolTip(tr("Load workloads from a plugin (a shared library; see docs/debugger.md)"));
    connect(plugin, &QToolButton::clicked, this, &RunControls::choosePlugin);
    start_ = button(tr("Start"), tr("Build the workload and stop before its first step"),
                    QKeySequence(Qt::CTRL | Qt::Key_F5), QStringLiteral("debugStart"));
    actions_.back()->setText(tr("Start Debugging")); // in a menu, "Start" alone says too little
    connect(start_, &QToolButton::clicked, this, &RunControls::startClicked);
    setup->addWidget(new QLabel(tr("Workload")));
    setup->addWidget(workload_);
    setup->addWidget(new QLabel(tr("Target")));
    setup->addWidget(target_);
    setup->addWidget(params_, 1);
    setup->addWidget(plugin);
    setup->addWidget(pluginLabel_);
    setup->addWidget(start_);
    rows->addLayout(setup);

    auto* run = new QHBoxLayout;
    continue_ = button(tr("Continue"), tr("Run to the next breakpoint"), QKeySequence(Qt::Key_F5),
                       QStringLiteral("debugContinue"));
    step_ = button(tr("Step"), tr("Run one superstep"), QKeySequence(Qt::Key_F10),
                   QStringLiteral("debugStep"));
    stepInto_ =
        button(tr("Step Into"), tr("Run the next step's exchange only: see its inputs arrive"),
               QKeySequence(Qt::Key_F11), QStringLiteral("debugStepInto"));
    pause_ = button(tr("Pause"), tr("Stop the running program at the next step"),
                    QKeySequence(Qt::Key_F6), QStringLiteral("debugPause"));
    runToEnd_ = button(tr("Run to End"), tr("Run to the end, ignoring breakpoints"),
                       QKeySequence(Qt::SHIFT | Qt::Key_F5), QStringLiteral("debugRunToEnd"));
    connect(continue_, &QToolButton::clicked, this, &RunControls::continueClicked);
    connect(step_, &QToolButton::clicked, this, &RunControls::stepClicked);
    connect(stepInto_, &QToolButton::clicked, this, &RunControls::stepIntoClicked);
    connect(pause_, &QToolButton::clicked, this, &RunControls::pauseClicked);
    connect(runToEnd_, &QToolButton::clicked, this, &RunControls::runToEndClicked);
    for (QToolButton* b : {continue_, step_, stepInto_, pause_, runToEnd_}) {
        run->addWidget(b);
    }
    run->addStretch(1);
    rows->addLayout(run);
    refreshWorkloads();
    setState(false, false, false);
}

QToolButton* RunControls::button(const QString& text, const QString& tip, const QKeySequence& key,
                                 const QString& objectName) {
    auto* b = new QToolButton;
    b->setObjectName(objectName);
    b->setText(text);
    b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    b->setToolTip(QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
    // The shortcut works anywhere in the window while the pane is shown, not
    // only once something in the pane has the focus; the main window also
    // puts these actions in its Debug menu, which makes them window-wide.
    auto* action = new QAction(text, this);
    action->setObjectName(objectName + QStringLiteral("Action"));
    action->setShortcut(key);
    action->setShortcutContext(Qt::WindowShortcut);
    action->setStatusTip(tip);
    connect(action, &QAction::triggered, b, &QToolButton::click);
    addAction(action);
    actions_.append(action);
    buttonActions_.push_back({b, action});
    return b;
}

void RunControls::refreshWorkloads() {
    const QString current = workload_->currentText();
    workload_->clear();
    for (const workloads::Workload* w : workloads::available()) {
        workload_->addItem(QString::fromStdString(w->name()));
        workload_->setItemData(workload_->count() - 1, QString::fromStdString(w->description()),
                               Qt::ToolTipRole);
    }
    const int i = workload_->findText(current.isEmpty() ? QStringLiteral("elementwise") : current);
    workload_->setCurrentIndex(std::max(0, i));
}

bool RunControls::loadPlugin(const QString& path, QString* error) {
    try {
        const workloads::LoadedPlugin& p = workloads::loadPlugin(path.toStdString());
        plugin_ = path;
        pluginLabel_->setText(QFileInfo(path).fileName());
        pluginLabel_->setToolTip(path);
        refreshWorkloads();
        workload_->setCurrentText(QString::fromStdString(p.workloads.front()->name()));
        return true;
    } catch (const std::exception& e) {
        if (error) {
            *error = QString::fromStdString(e.what());
        }
        return false;
    }
}

void RunControls::choosePlugin() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Load Workload Plugin"), {},
                                                      tr("Shared libraries (*.so);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !loadPlugin(path, &error)) {
        emit message(error);
    }
}

bool RunControls::config(DebugConfig& out, QString* error) const {
    out.workload = workload_->currentText();
    out.target = target_->text().trimmed();
    out.plugin = plugin_;
    return parseParameters(params_->text(), out.params, error);
}

void RunControls::showConfig(const DebugConfig& config) {
    if (workload_->findText(config.workload) < 0) {
        refreshWorkloads(); // a plugin loaded elsewhere
    }
    workload_->setCurrentText(config.workload);
    target_->setText(config.target);
    QStringList params;
    for (const auto& [k, v] : config.params) {
        params << QString::fromStdString(k + "=" + v);
    }
    params_->setText(params.join(' '));
    if (!config.plugin.isEmpty()) {
        plugin_ = config.plugin;
        pluginLabel_->setText(QFileInfo(config.plugin).fileName());
    }
}

void RunControls::setState(bool hasSession, bool busy, bool finished) {
    start_->setEnabled(!busy);
    const bool canRun = hasSession && !busy && !finished;
    for (QToolButton* b : {continue_, step_, stepInto_, runToEnd_}) {
        b->setEnabled(canRun);
    }
    pause_->setEnabled(hasSession && busy);
    for (const auto& [b, action] : buttonActions_) {
        action->setEnabled(b->isEnabled());
    }
}

} // namespace tessera::views::debugger
