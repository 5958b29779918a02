// The record layer's strong ids (engine/record/Ids.h) and typed memory block
// owners (engine/record/BlockOwner.h): kinds that must not mix do not compile
// together, hashing and ordering follow value(), and an owner refuses to be
// read as another kind.
#include "engine/compiler/Compiled.h"
#include "engine/graph/Graph.h"
#include "engine/record/BlockOwner.h"
#include "engine/record/Ids.h"
#include "engine/record/Records.h"
#include "reports/ReportData.h"

#include <QObject>
#include <QTest>

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <vector>

using namespace tessera::record;

// moc (6.4) cannot parse concepts: it does not see these checks.
#ifndef Q_MOC_RUN
#include <concepts>

// Ids of different kinds neither convert nor construct into each other, and
// integers only construct them explicitly, from the value type itself.
static_assert(!std::is_convertible_v<TileId, VariableId>);
static_assert(!std::is_convertible_v<VariableId, TileId>);
static_assert(!std::is_convertible_v<StepId, ProgramNodeId>);
static_assert(!std::is_constructible_v<StepId, ProgramNodeId>);
static_assert(!std::is_constructible_v<CodeletId, VertexId>);
static_assert(!std::is_constructible_v<ComputeSetId, StepId>);
static_assert(!std::is_convertible_v<std::uint32_t, TileId>);
static_assert(!std::is_convertible_v<TileId, std::uint32_t>);
static_assert(std::is_constructible_v<TileId, std::uint32_t>);
static_assert(!std::is_constructible_v<TileId, int>);
static_assert(!std::is_constructible_v<TileId, std::uint64_t>);
static_assert(!std::is_constructible_v<TileId, double>);
// Comparison only within a kind.
static_assert(std::equality_comparable<TileId>);
static_assert(!std::equality_comparable_with<TileId, VariableId>);
static_assert(!std::equality_comparable_with<TileId, std::uint32_t>);
static_assert(!std::totally_ordered_with<StepId, CodeletId>);
// No arithmetic.
template <class T>
concept Addable = requires(T a, T b) {
    a + b;
};
template <class T>
concept Incrementable = requires(T a) {
    ++a;
};
static_assert(!Addable<TileId>);
static_assert(!Incrementable<TileId>);
template <class T, class U>
concept AddableWith = requires(T a, U b) {
    a + b;
};
static_assert(!AddableWith<TileId, std::uint32_t>);
// Strong ids cost no more than the integer.
static_assert(sizeof(TileId) == sizeof(std::uint32_t));
static_assert(std::is_trivially_copyable_v<VariableId>);
// A typed owner comes from an id of an owning kind, never from an integer or a tile.
static_assert(std::is_convertible_v<VariableId, BlockOwner>);
static_assert(!std::is_convertible_v<std::uint32_t, BlockOwner>);
static_assert(!std::is_constructible_v<BlockOwner, TileId>);

// The records carry their ids typed, "none" included (an id's none()).
static_assert(std::is_same_v<decltype(VariableRecord::id), VariableId>);
static_assert(std::is_same_v<decltype(VariableRecord::firstStep), StepId>);
static_assert(
    std::is_same_v<decltype(VariableRecord::bytesByTile)::value_type::first_type, TileId>);
static_assert(std::is_same_v<decltype(ComputeSetRecord::id), ComputeSetId>);
static_assert(std::is_same_v<decltype(ProgramNodeRecord::parent), ProgramNodeId>);
static_assert(std::is_same_v<decltype(ProgramNodeRecord::computeSet), ComputeSetId>);
static_assert(std::is_same_v<decltype(ProgramNodeRecord::step), StepId>);
static_assert(std::is_same_v<decltype(ProgramStepRecord::operation), ProgramNodeId>);
static_assert(std::is_same_v<decltype(ProgramStepRecord::liveVariables)::value_type, VariableId>);
static_assert(std::is_same_v<decltype(ProgramStepRecord::reads)::value_type, VariableId>);
static_assert(std::is_same_v<decltype(StepExecutionRecord::programStep), StepId>);
static_assert(std::is_same_v<decltype(TileMemoryRecord::tile), TileId>);
// So does the loaded report (reports::ReportData): its lookups take only
// their own kind of id, never another kind or a bare integer.
template <class Id>
concept StepLookup = requires(const tessera::reports::ReportData& d, Id id) {
    d.step(id);
};
template <class Id>
concept VariableLookup = requires(const tessera::reports::ReportData& d, Id id) {
    d.variable(id);
};
template <class Id>
concept NodeLookup = requires(const tessera::reports::ReportData& d, Id id) {
    d.node(id);
};
template <class Id>
concept ExecutionsLookup = requires(const tessera::reports::ReportData& d, Id id) {
    d.executionsOf(id);
};
static_assert(StepLookup<StepId>);
static_assert(!StepLookup<VariableId>);
static_assert(!StepLookup<ProgramNodeId>);
static_assert(!StepLookup<std::uint32_t>);
static_assert(VariableLookup<VariableId>);
static_assert(!VariableLookup<StepId>);
static_assert(!VariableLookup<std::uint32_t>);
static_assert(NodeLookup<ProgramNodeId>);
static_assert(!NodeLookup<StepId>);
static_assert(ExecutionsLookup<StepId>);
static_assert(!ExecutionsLookup<ComputeSetId>);

// The engine's ids are these very types, so graph, compiler and debugger
// refuse a bare integer or another kind of id just as the records do.
static_assert(std::is_same_v<tessera::TileId, TileId>);
static_assert(std::is_same_v<tessera::VariableId, VariableId>);
static_assert(std::is_same_v<tessera::VertexId, VertexId>);
static_assert(std::is_same_v<tessera::ComputeSetId, ComputeSetId>);
static_assert(std::is_same_v<tessera::CodeletId, CodeletId>);
static_assert(std::is_same_v<tessera::compiler::StepId, StepId>);
static_assert(std::is_same_v<decltype(tessera::compiler::DataBlock::tile), TileId>);
static_assert(std::is_same_v<decltype(tessera::compiler::DataBlock::firstStep), StepId>);
static_assert(std::is_same_v<decltype(tessera::compiler::Instruction::step), StepId>);
static_assert(std::is_same_v<decltype(tessera::VariableRegion::var), VariableId>);
template <class Id>
concept TensorTileMapping = requires(tessera::Graph& g, const tessera::Tensor& t, Id id) {
    g.setTileMapping(t, id);
};
template <class Id>
concept VertexTileMapping = requires(tessera::Graph& g, tessera::VertexRef v, Id id) {
    g.setTileMapping(v, id);
};
template <class Id>
concept GraphVertexLookup = requires(const tessera::Graph& g, Id id) {
    g.vertex(id);
};
template <class Id>
concept GraphVariableLookup = requires(const tessera::Graph& g, Id id) {
    g.variable(id);
};
template <class Id>
concept CompiledStepLookup = requires(const tessera::compiler::CompiledGraph& c, Id id) {
    c.step(id);
};
template <class Id>
concept TargetIpuOfTile = requires(const tessera::Target& t, Id id) {
    t.ipuOfTile(id);
};
static_assert(TensorTileMapping<TileId>);
static_assert(!TensorTileMapping<std::uint32_t>);
static_assert(!TensorTileMapping<int>);
static_assert(!TensorTileMapping<VertexId>);
static_assert(VertexTileMapping<TileId>);
static_assert(!VertexTileMapping<unsigned>);
static_assert(!VertexTileMapping<ComputeSetId>);
static_assert(GraphVertexLookup<VertexId>);
static_assert(!GraphVertexLookup<std::uint32_t>);
static_assert(!GraphVertexLookup<TileId>);
static_assert(GraphVariableLookup<VariableId>);
static_assert(!GraphVariableLookup<std::uint32_t>);
static_assert(!GraphVariableLookup<StepId>);
static_assert(CompiledStepLookup<StepId>);
static_assert(!CompiledStepLookup<std::uint32_t>);
static_assert(!CompiledStepLookup<std::size_t>);
static_assert(!CompiledStepLookup<VariableId>);
static_assert(TargetIpuOfTile<TileId>);
static_assert(!TargetIpuOfTile<std::uint32_t>);
// The loop and index helpers.
static_assert(index(TileId{7u}) == 7);
static_assert(idAt<StepId>(std::size_t{3}) == StepId{3u});
static_assert(idRange<TileId>(4).size() == 4);
static_assert(*idRange<TileId>(4).begin() == TileId{0u});
static_assert(idRange(StepId{2u}, StepId{5u}).size() == 3);
static_assert(idRange(StepId{5u}, StepId{2u}).size() == 0);
#endif

class TstRecordIds : public QObject {
    Q_OBJECT
private slots:
    void valueRoundTrips() {
        QCOMPARE(TileId{1471u}.value(), 1471u);
        QCOMPARE(TileId{}.value(), 0u);
        QCOMPARE(StepId::none().value(), 0xffffffffu);
        QVERIFY(StepId::none().isNone());
        QVERIFY(!StepId{0u}.isNone());
    }

    void orderingFollowsValue() {
        std::vector<TileId> ids = {TileId{7u}, TileId{2u}, TileId{1000u}, TileId{2u}, TileId{0u}};
        std::sort(ids.begin(), ids.end());
        const std::vector<std::uint32_t> expected = {0, 2, 2, 7, 1000};
        QCOMPARE(ids.size(), expected.size());
        for (std::size_t i = 0; i < ids.size(); ++i) {
            QCOMPARE(ids[i].value(), expected[i]);
        }
        QVERIFY(TileId{3u} < TileId{4u});
        QVERIFY(TileId{4u} >= TileId{4u});
        QVERIFY(TileId{4u} != TileId{5u});
        QVERIFY(VariableId{9u} < VariableId::none());
        // Usable as an ordered key.
        std::map<CodeletId, int> byCodelet{{CodeletId{5u}, 1}, {CodeletId{1u}, 2}};
        QCOMPARE(byCodelet.begin()->first, CodeletId{1u});
    }

    void reportLookupsByTypedId() {
        // Dense step ids, and variable ids with a gap (found by the search).
        tessera::reports::ReportData d;
        for (std::uint32_t i = 0; i < 3; ++i) {
            tessera::reports::ProgramStepEntry s;
            s.id = StepId{i};
            s.name = "step" + std::to_string(i);
            d.programSteps.push_back(s);
        }
        for (std::uint32_t id : {0u, 5u, 9u}) {
            tessera::reports::VariableEntry v;
            v.id = VariableId{id};
            v.name = "v" + std::to_string(id);
            d.variables.push_back(v);
        }
        d.stepExecutions = {{StepId{0u}, 4}, {StepId{2u}, 7}};
        QCOMPARE(d.step(StepId{2u})->name, std::string("step2"));
        QVERIFY(d.step(StepId{3u}) == nullptr);
        QVERIFY(d.step(StepId::none()) == nullptr);
        QCOMPARE(d.variable(VariableId{9u})->name, std::string("v9"));
        QVERIFY(d.variable(VariableId{1u}) == nullptr);
        QVERIFY(d.variable(VariableId::none()) == nullptr);
        QCOMPARE(d.executionsOf(StepId{2u}), std::uint64_t{7});
        QCOMPARE(d.executionsOf(StepId{1u}), std::uint64_t{0});
    }

    void idRangeVisitsEachIdOnce() {
        std::vector<std::uint32_t> seen;
        for (const TileId t : idRange<TileId>(5)) {
            seen.push_back(t.value());
        }
        QCOMPARE(seen, (std::vector<std::uint32_t>{0, 1, 2, 3, 4}));
        seen.clear();
        for (const StepId s : idRange(StepId{3u}, StepId{6u})) {
            seen.push_back(s.value());
        }
        QCOMPARE(seen, (std::vector<std::uint32_t>{3, 4, 5}));
        QVERIFY(idRange<VertexId>(0).begin() == idRange<VertexId>(0).end());
    }

    void hashingFollowsValue() {
        for (std::uint32_t v : {0u, 1u, 17u, 0xffffffffu}) {
            QCOMPARE(std::hash<VariableId>{}(VariableId{v}), std::hash<std::uint32_t>{}(v));
        }
        std::unordered_set<TileId> tiles;
        for (std::uint32_t t = 0; t < 100; ++t) {
            tiles.insert(TileId{t % 37u});
        }
        QCOMPARE(tiles.size(), std::size_t{37});
        QVERIFY(tiles.contains(TileId{36u}));
        QVERIFY(!tiles.contains(TileId{37u}));
    }

    void ownerKindPerCategory() {
        // By hand from the memory report's categories: data belongs to variables,
        // code to codelets, state to vertices, exchange code to steps.
        const std::vector<std::pair<MemoryCategory, OwnerKind>> expected = {
            {MemoryCategory::AlwaysLiveVariable, OwnerKind::Variable},
            {MemoryCategory::NotAlwaysLiveVariable, OwnerKind::Variable},
            {MemoryCategory::Constant, OwnerKind::Variable},
            {MemoryCategory::VertexInstanceState, OwnerKind::Vertex},
            {MemoryCategory::VectorListDescriptor, OwnerKind::Vertex},
            {MemoryCategory::VertexCode, OwnerKind::Codelet},
            {MemoryCategory::InternalExchangeCode, OwnerKind::Step},
            {MemoryCategory::HostExchangeCode, OwnerKind::Step},
            {MemoryCategory::ControlCode, OwnerKind::None},
            {MemoryCategory::Stack, OwnerKind::None},
        };
        QCOMPARE(expected.size(), kMemoryCategoryCount);
        for (const auto& [category, kind] : expected) {
            QCOMPARE(ownerKindOf(category), kind);
        }
    }

    void ownerRefusesOtherKinds() {
        const BlockOwner owner = VariableId{12u};
        QCOMPARE(owner.kind(), OwnerKind::Variable);
        QCOMPARE(owner.variable(), VariableId{12u});
        QCOMPARE(owner.stored(), 12u);
        QVERIFY_THROWS_EXCEPTION(std::logic_error, owner.codelet());
        QVERIFY_THROWS_EXCEPTION(std::logic_error, owner.vertex());
        QVERIFY_THROWS_EXCEPTION(std::logic_error, owner.step());
        try {
            (void)owner.step();
        } catch (const std::logic_error& e) {
            QCOMPARE(QString(e.what()), QString("memory block owner is variable, not step"));
        }
        const BlockOwner step = StepId{3u};
        QCOMPARE(step.step(), StepId{3u});
        QVERIFY_THROWS_EXCEPTION(std::logic_error, step.variable());
        QVERIFY(step != BlockOwner(VertexId{3u}));
        const BlockOwner none;
        QVERIFY(none.isNone());
        QCOMPARE(none.stored(), 0xffffffffu);
        QVERIFY_THROWS_EXCEPTION(std::logic_error, none.variable());
        // A none id makes no owner, whatever its kind.
        QVERIFY(BlockOwner(CodeletId::none()).isNone());
    }

    void ownerFromStoredTakesTheCategorysKind() {
        QCOMPARE(BlockOwner::fromStored(MemoryCategory::VertexCode, 4u).codelet(), CodeletId{4u});
        QCOMPARE(BlockOwner::fromStored(MemoryCategory::Constant, 4u).variable(), VariableId{4u});
        QCOMPARE(BlockOwner::fromStored(MemoryCategory::HostExchangeCode, 0u).step(), StepId{0u});
        QCOMPARE(BlockOwner::fromStored(MemoryCategory::VectorListDescriptor, 9u).vertex(),
                 VertexId{9u});
        QVERIFY(BlockOwner::fromStored(MemoryCategory::Constant, 0xffffffffu).isNone());
        QVERIFY(BlockOwner::fromStored(MemoryCategory::Stack, 0xffffffffu).isNone());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 BlockOwner::fromStored(MemoryCategory::ControlCode, 2u));
        // Stored and read back, every kind comes back equal.
        for (const BlockOwner& o : {BlockOwner(VariableId{1u}), BlockOwner(CodeletId{2u}),
                                    BlockOwner(VertexId{3u}), BlockOwner(StepId{4u})}) {
            const MemoryCategory c = o.kind() == OwnerKind::Variable  ? MemoryCategory::Constant
                                     : o.kind() == OwnerKind::Codelet ? MemoryCategory::VertexCode
                                     : o.kind() == OwnerKind::Vertex
                                         ? MemoryCategory::VertexInstanceState
                                         : MemoryCategory::InternalExchangeCode;
            QCOMPARE(BlockOwner::fromStored(c, o.stored()), o);
        }
    }

    // A memory block keeps its owner as a number its category interprets.
    void blockRecordKeepsAnOwnerOfItsCategorysKind() {
        MemoryBlockRecord b;
        b.category = MemoryCategory::VertexInstanceState;
        QVERIFY(b.owner().isNone());
        QCOMPARE(b.storedOwner(), 0xffffffffu);
        b.setOwner(BlockOwner(VertexId{7u}));
        QCOMPARE(b.owner().vertex(), VertexId{7u});
        QCOMPARE(b.storedOwner(), 7u);
        // Another kind is refused by name and leaves the owner as it was.
        try {
            b.setOwner(BlockOwner(CodeletId{3u}));
            QFAIL("a codelet owner was accepted for vertex state");
        } catch (const std::logic_error& e) {
            QVERIFY(std::string_view(e.what()).find("vertex instance state") !=
                    std::string_view::npos);
            QVERIFY(std::string_view(e.what()).find("codelet") != std::string_view::npos);
        }
        QCOMPARE(b.owner().vertex(), VertexId{7u});
        b.setOwner(BlockOwner());
        QVERIFY(b.owner().isNone());
        MemoryBlockRecord stack;
        stack.category = MemoryCategory::Stack;
        QVERIFY_THROWS_EXCEPTION(std::logic_error, stack.setOwner(BlockOwner(VariableId{0u})));
        static_assert(sizeof(MemoryBlockRecord) == 20);
    }
};

QTEST_GUILESS_MAIN(TstRecordIds)
#include "tst_record_ids.moc"
