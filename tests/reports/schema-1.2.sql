CREATE TABLE meta (
    key TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE strings (
    id INTEGER PRIMARY KEY,
    text TEXT NOT NULL UNIQUE
);
CREATE TABLE target (
    id INTEGER PRIMARY KEY CHECK (id = 0),
    name_id INTEGER NOT NULL,
    num_ipus INTEGER NOT NULL,
    tiles_per_ipu INTEGER NOT NULL,
    num_tiles INTEGER NOT NULL,
    bytes_per_tile INTEGER NOT NULL,
    memory_base_address INTEGER NOT NULL,
    clock_hz REAL NOT NULL,
    worker_contexts INTEGER NOT NULL,
    exchange_bytes_per_cycle INTEGER NOT NULL
);
CREATE TABLE target_parameters (
    position INTEGER PRIMARY KEY,
    name_id INTEGER NOT NULL,
    value_id INTEGER NOT NULL
);
CREATE TABLE workload_parameters (
    position INTEGER PRIMARY KEY,
    name_id INTEGER NOT NULL,
    value_id INTEGER NOT NULL
);
CREATE TABLE regions (
    id INTEGER PRIMARY KEY,
    name_id INTEGER NOT NULL,
    offset INTEGER NOT NULL,
    bytes INTEGER NOT NULL
);
CREATE TABLE memory_categories (
    id INTEGER PRIMARY KEY,
    key_id INTEGER NOT NULL,
    name_id INTEGER NOT NULL
);
CREATE TABLE codelets (
    id INTEGER PRIMARY KEY,
    name_id INTEGER NOT NULL,
    code_bytes INTEGER NOT NULL,
    cycle_formula_id INTEGER NOT NULL
);
CREATE TABLE variables (
    id INTEGER PRIMARY KEY,
    name_id INTEGER NOT NULL,
    type_id INTEGER NOT NULL,
    shape BLOB NOT NULL,
    num_elements INTEGER NOT NULL,
    is_constant INTEGER NOT NULL,
    always_live INTEGER NOT NULL,
    host_access INTEGER NOT NULL,
    is_exchange_buffer INTEGER NOT NULL,
    first_step INTEGER,
    last_step INTEGER,
    total_bytes INTEGER NOT NULL,
    num_tiles INTEGER NOT NULL
);
CREATE TABLE variable_tiles (
    variable_id INTEGER NOT NULL,
    tile INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    PRIMARY KEY (variable_id, tile)
) WITHOUT ROWID;
CREATE TABLE compute_sets (
    id INTEGER PRIMARY KEY,
    name_id INTEGER NOT NULL,
    vertex_count INTEGER NOT NULL
);
CREATE TABLE vertex_counts (
    compute_set_id INTEGER NOT NULL,
    tile INTEGER NOT NULL,
    codelet_id INTEGER NOT NULL,
    count INTEGER NOT NULL,
    state_bytes INTEGER NOT NULL,
    PRIMARY KEY (compute_set_id, tile, codelet_id)
) WITHOUT ROWID;
CREATE TABLE operation_layers (
    node_id INTEGER PRIMARY KEY,
    layer_id INTEGER NOT NULL,
    function_id INTEGER
);
CREATE TABLE program_nodes (
    id INTEGER PRIMARY KEY,
    parent_id INTEGER,
    program_index INTEGER NOT NULL,
    kind_id INTEGER NOT NULL,
    name_id INTEGER NOT NULL,
    compute_set_id INTEGER,
    repeat_count INTEGER NOT NULL,
    step_id INTEGER
);
CREATE TABLE program_steps (
    id INTEGER PRIMARY KEY,
    node_id INTEGER NOT NULL,
    program_index INTEGER NOT NULL,
    kind_id INTEGER NOT NULL,
    name_id INTEGER NOT NULL,
    compute_set_id INTEGER,
    operation_node_id INTEGER,
    sync_cycles INTEGER NOT NULL,
    exchange_phase_cycles INTEGER NOT NULL,
    compute_phase_cycles INTEGER NOT NULL,
    total_cycles INTEGER NOT NULL,
    flops INTEGER NOT NULL,
    vertices INTEGER NOT NULL,
    crosses_ipus INTEGER NOT NULL,
    compute_cycles_max INTEGER NOT NULL,
    compute_cycles_sum INTEGER NOT NULL,
    exchange_cycles_max INTEGER NOT NULL,
    exchange_cycles_sum INTEGER NOT NULL,
    bytes_in_sum INTEGER NOT NULL,
    bytes_out_sum INTEGER NOT NULL,
    not_always_live_bytes_max INTEGER NOT NULL,
    live_variable_count INTEGER NOT NULL,
    not_always_live_bytes_sum INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE program_step_tiles (
    step_id INTEGER PRIMARY KEY,
    compute_cycles BLOB NOT NULL,
    exchange_cycles BLOB NOT NULL,
    bytes_in BLOB NOT NULL,
    bytes_out BLOB NOT NULL,
    not_always_live_bytes BLOB NOT NULL
);
CREATE TABLE step_live_variables (
    step_id INTEGER NOT NULL,
    variable_id INTEGER NOT NULL,
    PRIMARY KEY (step_id, variable_id)
) WITHOUT ROWID;
CREATE TABLE step_variable_access (
    step_id INTEGER NOT NULL,
    variable_id INTEGER NOT NULL,
    access INTEGER NOT NULL,
    PRIMARY KEY (step_id, variable_id)
) WITHOUT ROWID;
CREATE TABLE tile_memory (
    tile INTEGER PRIMARY KEY,
    total_including_gaps INTEGER NOT NULL,
    total_excluding_gaps INTEGER NOT NULL,
    gap_bytes INTEGER NOT NULL,
    always_live_bytes INTEGER NOT NULL,
    not_always_live_peak_bytes INTEGER NOT NULL,
    not_always_live_sum_bytes INTEGER NOT NULL,
    overflow_bytes INTEGER NOT NULL
);
CREATE TABLE tile_memory_categories (
    tile INTEGER NOT NULL,
    category_id INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    PRIMARY KEY (tile, category_id)
) WITHOUT ROWID;
CREATE TABLE tile_memory_regions (
    tile INTEGER NOT NULL,
    region_id INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    PRIMARY KEY (tile, region_id)
) WITHOUT ROWID;
CREATE TABLE memory_blocks (
    tile INTEGER NOT NULL,
    id INTEGER NOT NULL,
    category_id INTEGER NOT NULL,
    address INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    owner INTEGER,
    PRIMARY KEY (tile, id)
) WITHOUT ROWID;
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    program_index INTEGER NOT NULL,
    start_cycle INTEGER NOT NULL,
    steps INTEGER NOT NULL,
    cycles INTEGER NOT NULL,
    compute_cycles INTEGER NOT NULL,
    exchange_cycles INTEGER NOT NULL,
    sync_cycles INTEGER NOT NULL,
    completed INTEGER NOT NULL,
    error_id INTEGER
);
CREATE TABLE executed_steps (
    run INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    program_step INTEGER NOT NULL,
    start_cycle INTEGER NOT NULL,
    cycles INTEGER NOT NULL,
    PRIMARY KEY (run, seq)
) WITHOUT ROWID;
CREATE TABLE step_executions (
    run INTEGER NOT NULL,
    program_step INTEGER NOT NULL,
    executions INTEGER NOT NULL,
    PRIMARY KEY (run, program_step)
) WITHOUT ROWID;
CREATE TABLE verification (
    id INTEGER PRIMARY KEY,
    workload_id INTEGER NOT NULL,
    passed INTEGER NOT NULL,
    max_abs_error REAL NOT NULL,
    detail_id INTEGER NOT NULL
);
CREATE TABLE lod_levels (
    run INTEGER NOT NULL,
    level INTEGER NOT NULL,
    bucket_steps INTEGER NOT NULL,
    buckets INTEGER NOT NULL,
    group_tiles INTEGER NOT NULL,
    groups INTEGER NOT NULL,
    PRIMARY KEY (run, level)
) WITHOUT ROWID;
CREATE TABLE lod_buckets (
    id INTEGER PRIMARY KEY,
    run INTEGER NOT NULL,
    level INTEGER NOT NULL,
    bucket INTEGER NOT NULL,
    first_seq INTEGER NOT NULL,
    steps INTEGER NOT NULL,
    start_cycle INTEGER NOT NULL,
    cycles INTEGER NOT NULL,
    compute_phase_cycles INTEGER NOT NULL,
    exchange_phase_cycles INTEGER NOT NULL,
    sync_phase_cycles INTEGER NOT NULL,
    max_step_cycles INTEGER NOT NULL,
    compute BLOB NOT NULL,
    exchange BLOB NOT NULL,
    sync BLOB NOT NULL
);
CREATE UNIQUE INDEX lod_buckets_by_position ON lod_buckets (run, level, bucket);
