#pragma once
// The Program pane's dataflow graph: compute sets, copies and tensors laid
// out in layers (GraphLayout), drawn on a QGraphicsScene, coloured by a
// chosen metric (cycles, bytes exchanged, memory), with a scope (the whole
// program or one operation), zoom, pan and search. Edges come from the
// report's record of what each step reads and writes (see DataflowGraph.h).
#include "views/panes/program/DataflowGraph.h"
#include "views/panes/program/GraphLayout.h"

#include <QWidget>

#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QGraphicsScene;
class QLabel;
class QLineEdit;

namespace tessera::views {

class GraphCanvas;
class GraphEdgeItem;
class GraphNodeItem;
class HeatLegend;

class DataflowView : public QWidget {
    Q_OBJECT

public:
    enum class Metric { Cycles, BytesExchanged, Memory };

    explicit DataflowView(QWidget* parent = nullptr);
    ~DataflowView() override;

    void setProgram(std::shared_ptr<const ReportData> reportData,
                    std::shared_ptr<const ProgramStats> stats);

    void setMetric(Metric metric);
    Metric metric() const { return metric_; }
    void setScope(int nodePosition); // -1: the whole program; -2 - w: window w of 400 steps
    void setExchangeBuffers(bool shown);
    void selectStep(record::StepId stepId); // marks and centres its node (none(): none)
    void markComputeSet(record::ComputeSetId computeSet); // marks the steps of a compute set
    int search(const QString& text); // marks matches, centres the first; returns their count

    void zoomBy(double factor);
    void fitAll();

    // For tests.
    QGraphicsScene* scene() const { return scene_; }
    GraphCanvas* canvas() const { return canvas_; }
    const DataflowGraph& graph() const { return graph_; }
    const graph::Layout& layout() const { return layout_; }
    GraphNodeItem* nodeItem(int index) const { return nodes_[static_cast<std::size_t>(index)]; }
    std::size_t edgeItemCount() const { return edges_.size(); }
    QColor colorFor(int index) const; // the fill the current metric gives node `index`

signals:
    void stepActivated(tessera::record::StepId stepId, tessera::record::ComputeSetId computeSet);

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void initialView();
    QColor edgeColor() const;
    QWidget* buildToolbar();
    void rebuild();
    void recolour();
    void updateMarks();
    void centreOn(int index);
    double metricValue(const DataflowNode& node) const;

    std::shared_ptr<const ReportData> data_;
    std::shared_ptr<const ProgramStats> stats_;
    DataflowGraph graph_;
    graph::Layout layout_;
    Metric metric_ = Metric::Cycles;
    int scopeNode_ = -1;
    bool exchangeBuffers_ = true;
    record::StepId selectedStep_ = record::StepId::none();
    bool pendingView_ = false;
    record::ComputeSetId markedComputeSet_ = record::ComputeSetId::none();
    std::vector<int> matches_;
    std::size_t matchCursor_ = 0;
    QString lastSearch_;
    double maxStep_ = 0;
    double maxTensor_ = 0;

    QComboBox* scope_ = nullptr;
    QComboBox* metricBox_ = nullptr;
    QCheckBox* buffers_ = nullptr;
    QLineEdit* searchEdit_ = nullptr;
    QLabel* matchLabel_ = nullptr;
    HeatLegend* legend_ = nullptr;
    QLabel* info_ = nullptr;
    GraphCanvas* canvas_ = nullptr;
    QGraphicsScene* scene_ = nullptr;
    std::vector<GraphNodeItem*> nodes_;
    std::vector<GraphEdgeItem*> edges_;
};

} // namespace tessera::views
