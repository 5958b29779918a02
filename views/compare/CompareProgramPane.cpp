#include "views/compare/CompareProgramPane.h"

#include "views/common/Card.h"
#include "views/common/Selection.h"
#include "views/compare/CompareData.h"
#include "views/compare/CompareWidgets.h"
#include "views/compare/models/CompareTables.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace tessera::views {

namespace {

template <class Rows>
QString changeCounts(const Rows& rows) {
    using reports::Change;
    return QObject::tr("%1 matched by identity: %2 changed, %3 added, %4 removed, %5 the same. "
                       "Largest regression first.")
        .arg(rows.size())
        .arg(reports::countChanges(rows, Change::Changed))
        .arg(reports::countChanges(rows, Change::Added))
        .arg(reports::countChanges(rows, Change::Removed))
        .arg(reports::countChanges(rows, Change::Same));
}

} // namespace

CompareProgramPane::CompareProgramPane(QWidget* parent)
    : ComparePane(parent) {
    setObjectName(QStringLiteral("compareProgramPane"));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(8, 6, 8, 0);
    changedOnly_ = new QCheckBox(tr("Changed, added and removed only"), this);
    changedOnly_->setObjectName(QStringLiteral("changedOnly"));
    bar->addWidget(changedOnly_);
    bar->addStretch(1);

    auto* stepsCard = new Card(tr("Program steps"), this);
    stepsCaption_ = makeMuted(QString(), stepsCard);
    stepsCaption_->setObjectName(QStringLiteral("stepsCaption"));
    stepsCard->body()->addWidget(stepsCaption_);
    steps_ = new CompareTableModel(this);
    stepsFilter_ = new CompareFilterModel(this);
    stepsFilter_->setSourceModel(steps_);
    stepsView_ = makeCompareTable(stepsFilter_, QStringLiteral("stepDeltas"), stepsCard);
    stepsCard->body()->addWidget(stepsView_, 1);

    auto* setsCard = new Card(tr("Compute sets"), this);
    computeSetsCaption_ = makeMuted(QString(), setsCard);
    computeSetsCaption_->setObjectName(QStringLiteral("computeSetsCaption"));
    setsCard->body()->addWidget(computeSetsCaption_);
    computeSets_ = new CompareTableModel(this);
    computeSetsFilter_ = new CompareFilterModel(this);
    computeSetsFilter_->setSourceModel(computeSets_);
    computeSetsView_ =
        makeCompareTable(computeSetsFilter_, QStringLiteral("computeSetDeltas"), setsCard);
    setsCard->body()->addWidget(computeSetsView_, 1);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(stepsCard);
    split->addWidget(setsCard);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(changedOnly_, &QCheckBox::toggled, this, &CompareProgramPane::setChangedOnly);
    // A matched or removed step selects its baseline step in every pane.
    connect(stepsView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!data_ || !selection_ || !current.isValid()) {
                    return;
                }
                const auto row = static_cast<std::size_t>(stepsFilter_->mapToSource(current).row());
                const reports::StepDelta& step = data_->diff.steps[row];
                if (!step.baselineStep.isNone()) {
                    selection_->setStep(step.baselineStep);
                }
            });
    setComparison(nullptr);
}

void CompareProgramPane::setChangedOnly(bool changedOnly) {
    {
        const QSignalBlocker block(changedOnly_);
        changedOnly_->setChecked(changedOnly);
    }
    stepsFilter_->setChangedOnly(changedOnly);
    computeSetsFilter_->setChangedOnly(changedOnly);
}

void CompareProgramPane::setComparison(std::shared_ptr<const CompareData> comparison) {
    data_ = std::move(comparison);
    fillSteps(*steps_, data_);
    fillComputeSets(*computeSets_, data_);
    stepsCaption_->setText(data_ ? changeCounts(data_->diff.steps) : QString());
    computeSetsCaption_->setText(data_ ? changeCounts(data_->diff.computeSets) : QString());
}

QList<ExportTarget> CompareProgramPane::exportTargets() const {
    return {{QStringLiteral("compare-steps"), nullptr, stepsFilter_},
            {QStringLiteral("compare-compute-sets"), nullptr, computeSetsFilter_}};
}

} // namespace tessera::views
