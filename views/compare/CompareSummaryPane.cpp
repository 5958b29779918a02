#include "views/compare/CompareSummaryPane.h"

#include "reports/CompareFormat.h"
#include "views/common/Card.h"
#include "views/common/Colors.h"
#include "views/common/Format.h"
#include "views/common/InfoTable.h"
#include "views/compare/CompareData.h"
#include "views/compare/CompareWidgets.h"
#include "views/compare/models/CompareTables.h"

#include <QEvent>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QTableView>
#include <QVBoxLayout>

namespace tessera::views {

namespace {

// The big numbers: the figures people ask about first.
const char* const kStatKeys[] = {"cycles", "time-ns", "peak-tile-memory", "memory"};

} // namespace

CompareSummaryPane::CompareSummaryPane(QWidget* parent)
    : ComparePane(parent) {
    setObjectName(QStringLiteral("compareSummaryPane"));
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    content_ = new QWidget;
    auto* grid = new QGridLayout(content_);
    grid->setContentsMargins(16, 14, 16, 16);
    grid->setHorizontalSpacing(12);
    grid->setVerticalSpacing(12);

    auto* titles = new QVBoxLayout;
    titles->setSpacing(2);
    heading_ = makeHeading(QString(), content_, 1.6);
    heading_->setObjectName(QStringLiteral("compareHeading"));
    baselineLine_ = makeMuted(QString(), content_);
    baselineLine_->setObjectName(QStringLiteral("baselineDescription"));
    comparisonLine_ = makeMuted(QString(), content_);
    comparisonLine_->setObjectName(QStringLiteral("comparisonDescription"));
    for (QLabel* l : {baselineLine_, comparisonLine_}) {
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    titles->addWidget(heading_);
    titles->addWidget(baselineLine_);
    titles->addWidget(comparisonLine_);
    grid->addLayout(titles, 0, 0, 1, 3);

    notesCard_ = new Card(tr("What is compared"), content_);
    notes_ = new QLabel(notesCard_);
    notes_->setObjectName(QStringLiteral("compareNotes"));
    notes_->setWordWrap(true);
    notes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    notesCard_->body()->addWidget(notes_);
    grid->addWidget(notesCard_, 1, 0, 1, 3);

    auto* stats = new QHBoxLayout;
    stats->setSpacing(12);
    const QString captions[] = {tr("Total cycles"), tr("Time"), tr("Peak tile memory"),
                                tr("Memory in use")};
    for (std::size_t i = 0; i < std::size(kStatKeys); ++i) {
        auto* tile = new StatTile(captions[i], content_);
        tile->valueLabel()->setObjectName(QStringLiteral("delta-") + kStatKeys[i]);
        stats->addWidget(tile, 1);
        stats_.emplace_back(QString::fromLatin1(kStatKeys[i]), tile);
    }
    grid->addLayout(stats, 2, 0, 1, 3);

    totalsCard_ = new Card(tr("Totals"), content_);
    totals_ = new CompareTableModel(this);
    totalsView_ = makeCompareTable(totals_, QStringLiteral("compareTotals"), totalsCard_);
    totalsView_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    totalsView_->horizontalHeader()->setStretchLastSection(false);
    totalsCard_->body()->addWidget(totalsView_);
    grid->addWidget(totalsCard_, 3, 0, 1, 2);

    changesCard_ = new Card(tr("Program changes"), content_);
    changesGrid_ = addInfoGrid(changesCard_->body());
    auto* how = makeMuted(tr("Steps are matched by their place in the program tree, compute sets "
                             "and variables by name. See the Program and Execution panes."),
                          changesCard_);
    how->setWordWrap(true);
    changesCard_->body()->addWidget(how);
    changesCard_->body()->addStretch(1);
    grid->addWidget(changesCard_, 3, 2);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(2, 1);
    grid->setRowStretch(4, 1);
    scroll->setWidget(content_);
    outer->addWidget(scroll);
    setComparison(nullptr);
}

StatTile* CompareSummaryPane::stat(const QString& key) const {
    for (const auto& [k, tile] : stats_) {
        if (k == key) {
            return tile;
        }
    }
    return nullptr;
}

void CompareSummaryPane::setComparison(std::shared_ptr<const CompareData> comparison) {
    data_ = std::move(comparison);
    fillTotals(*totals_, data_);
    content_->setEnabled(data_ != nullptr);
    if (!data_) {
        heading_->setText(tr("No comparison"));
        baselineLine_->setText(tr("Open a report, then File > Compare With… a second one."));
        comparisonLine_->clear();
        notes_->clear();
        for (const auto& [key, tile] : stats_) {
            tile->setValue(QStringLiteral("–"));
        }
        return;
    }
    const reports::ReportDiff& d = data_->diff;
    heading_->setText(
        d.baseline.workload == d.comparison.workload && !d.baseline.workload.empty()
            ? tr("%1: baseline against comparison").arg(QString::fromStdString(d.baseline.workload))
            : tr("Baseline against comparison"));
    baselineLine_->setText(tr("Baseline: %1").arg(describeSide(d.baseline)));
    comparisonLine_->setText(tr("Comparison: %1").arg(describeSide(d.comparison)));
    // The figure names take the room left; the table fits its rows (the page scrolls).
    totalsView_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    int h = totalsView_->horizontalHeader()->sizeHint().height() + 4;
    for (int r = 0; r < totals_->rowCount(); ++r) {
        h += totalsView_->rowHeight(r);
    }
    totalsView_->setFixedHeight(h);
    fillStats();
    fillNotes();
    fillChanges();
}

void CompareSummaryPane::fillStats() {
    const QPalette p = palette();
    for (const auto& [key, tile] : stats_) {
        const reports::Figure* f = data_->diff.figure(key.toStdString());
        if (!f) {
            tile->setValue(QStringLiteral("–"));
            continue;
        }
        const CompareTone tone = lowerIsBetter(*f) ? toneOf(f->value) : CompareTone::Neutral;
        tile->setValue(QString::fromStdString(reports::formatPercent(f->value)),
                       tr("%1 → %2 (%3)")
                           .arg(valueText(f->value.baseline, f->unit),
                                valueText(f->value.comparison, f->unit),
                                deltaText(f->value.delta(), f->unit)));
        tile->valueLabel()->setStyleSheet(
            tone == CompareTone::Neutral
                ? QString()
                : QStringLiteral("color: %1")
                      .arg((tone == CompareTone::Worse ? worseColor(p) : betterColor(p)).name()));
        tile->setAccent(tone == CompareTone::Neutral ? QColor()
                        : tone == CompareTone::Worse ? worseColor(p)
                                                     : betterColor(p));
    }
}

void CompareSummaryPane::fillNotes() {
    const reports::ReportDiff& d = data_->diff;
    if (d.notes.empty()) {
        notes_->setText(tr("Same target and workload: every figure is compared."));
        notesCard_->setAccent({});
        return;
    }
    QString html = QStringLiteral("<ul style='margin:0; -qt-list-indent:1'>");
    for (const std::string& note : d.notes) {
        html += QStringLiteral("<li>%1</li>").arg(QString::fromStdString(note).toHtmlEscaped());
    }
    notes_->setText(html + QStringLiteral("</ul>"));
    notesCard_->setAccent(d.tilesComparable ? QColor(0xe0, 0xa0, 0x20) : worseColor(palette()));
}

void CompareSummaryPane::fillChanges() {
    const reports::ReportDiff& d = data_->diff;
    auto counts = [](const auto& rows) {
        using reports::Change;
        return tr("%1 changed, %2 added, %3 removed, %4 the same")
            .arg(reports::countChanges(rows, Change::Changed))
            .arg(reports::countChanges(rows, Change::Added))
            .arg(reports::countChanges(rows, Change::Removed))
            .arg(reports::countChanges(rows, Change::Same));
    };
    QList<InfoRow> rows = {
        {tr("Program steps"), counts(d.steps), QStringLiteral("stepChanges")},
        {tr("Compute sets"), counts(d.computeSets), QStringLiteral("computeSetChanges")},
        {tr("Variables"), counts(d.variables), QStringLiteral("variableChanges")}};
    // A step on both sides that got slower: an added step is new work, not a
    // regression (its baseline is no cycles at all), and is counted above.
    const reports::StepDelta* regressed = nullptr;
    for (const reports::StepDelta& s : d.steps) {
        if (s.change == reports::Change::Changed && s.cycles.delta() > 0 &&
            (regressed == nullptr || s.cycles.delta() > regressed->cycles.delta())) {
            regressed = &s;
        }
    }
    if (regressed != nullptr) {
        const reports::StepDelta& worst = *regressed;
        rows.push_back({tr("Largest regression"),
                        tr("%1: %2 cycles")
                            .arg(QString::fromStdString(worst.name),
                                 deltaText(worst.cycles.delta(), "cycles")),
                        QStringLiteral("largestRegression"), worseColor(palette())});
    }
    rows.push_back({tr("Per-tile memory"),
                    d.tilesComparable ? tr("compared on %1 tiles").arg(formatCount(d.tiles.size()))
                                      : tr("not compared: the tile counts differ"),
                    QStringLiteral("tilesComparable")});
    setInfoRows(changesGrid_, rows);
}

void CompareSummaryPane::changeEvent(QEvent* event) {
    ComparePane::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && data_) {
        fillStats();
        fillNotes();
        fillChanges();
    }
}

QList<ExportTarget> CompareSummaryPane::exportTargets() const {
    return {{QStringLiteral("compare-summary"), content_, nullptr},
            {QStringLiteral("compare-totals"), nullptr, totals_}};
}

} // namespace tessera::views
