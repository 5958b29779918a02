#pragma once
// A pane of compare mode: the compare version of one of the main panes,
// under the same name (so `--pane NAME` works in compare mode). It draws a
// CompareData (both sides and their ReportDiff) instead of one report.
#include "views/common/Pane.h"

#include <memory>
#include <vector>

namespace tessera::views {

struct CompareData;

class ComparePane : public Pane {
    Q_OBJECT

public:
    using Pane::Pane;

    // Shows a comparison (null: none).
    virtual void setComparison(std::shared_ptr<const CompareData> comparison) = 0;
    const std::shared_ptr<const CompareData>& comparison() const { return data_; }

    // A compare pane shows two reports; a single report only ever clears it
    // (the main window hands comparisons through setComparison).
    void setReport(std::shared_ptr<const ReportData> report,
                   std::shared_ptr<ReportSource>) override {
        if (!report) {
            setComparison(nullptr);
        }
    }
    void setSelection(Selection* selection) override { selection_ = selection; }

protected:
    std::shared_ptr<const CompareData> data_;
    Selection* selection_ = nullptr;
};

// The compare panes in tab order: summary, memory, liveness, program, execution.
std::vector<ComparePane*> createComparePanes(QWidget* parent);

} // namespace tessera::views
