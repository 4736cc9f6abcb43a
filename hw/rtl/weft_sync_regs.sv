// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_sync_regs: the synchronisation manager's registers in the global window (SYNC_*,
// protocol/osif.yaml): its size, object configuration and inspection. Software's calls
// on the objects go through its software contexts (weft_sync_sw); these registers only
// set objects up and look at them.
//
// A SYNC_CFG write configures an object in that cycle with SYNC_CFG_VAL's values (the
// manager carries out no call in it); it takes whole-word writes only (a write with a
// byte strobe low is ignored), so an object is never configured from a torn word.
module weft_sync_regs #(
  /// Objects of the manager (0: there is none).
  parameter int unsigned NumObjs = 32,
  /// Its clients.
  parameter int unsigned NumClients = 8,
  /// Of which software contexts (the last ones; weft_sync_sw).
  parameter int unsigned NumSwCtx = 0
) (
  /// Fabric clock.
  input  logic        clk_i,
  /// Active-low reset (asynchronous assert).
  input  logic        rst_ni,

  // ---- global register access (weft_axil_regs) ----
  `include "weft_global_reg_ports.svh"

  // ---- the manager ----
  /// Configure an object now.
  output logic        cfg_valid_o,
  /// The object.
  output logic [7:0]  cfg_obj_o,
  /// Its type (SYNC_TYPE_*).
  output logic [1:0]  cfg_type_o,
  /// A mutex's kind (SYNC_KIND_*).
  output logic [1:0]  cfg_kind_o,
  /// A mutex inherits its waiters' priority.
  output logic        cfg_pi_o,
  /// A semaphore's count.
  output logic [15:0] cfg_count_o,
  /// A semaphore's maximum.
  output logic [15:0] cfg_max_o,
  /// The last configuration's status.
  input  logic [7:0]  cfg_status_i,
  /// The object inspected.
  output logic [7:0]  rd_obj_o,
  /// SYNC_STATE or SYNC_WAITERS is addressed (the manager works them out only then).
  output logic        rd_en_o,
  /// Its state.
  input  logic [31:0] rd_state_i,
  /// The clients blocked on it.
  input  logic [31:0] rd_waiters_i,
  /// The next edge changes no register here (a simulator hint).
  output logic        still_o
);

  logic [31:0] val_q;
  logic [7:0]  inspect_q;

  logic whole, wr_val, wr_cfg, wr_inspect;
  assign whole      = reg_wstrb_i == 4'hF;
  assign wr_val     = reg_we_i && whole && reg_addr_i == weft_osif_pkg::RegSyncCfgVal;
  assign wr_cfg     = reg_we_i && whole && reg_addr_i == weft_osif_pkg::RegSyncCfg;
  assign wr_inspect = reg_we_i && whole && reg_addr_i == weft_osif_pkg::RegSyncInspect;

  assign cfg_valid_o = wr_cfg && NumObjs > 0;
  assign cfg_obj_o   = reg_wdata_i[7:0];
  assign cfg_type_o  = reg_wdata_i[weft_osif_pkg::SyncCfgTypeShift +: 2];
  assign cfg_kind_o  = reg_wdata_i[weft_osif_pkg::SyncCfgKindShift +: 2];
  assign cfg_pi_o    = (reg_wdata_i & weft_osif_pkg::SyncCfgPi) != '0;
  assign cfg_count_o = val_q[15:0];
  assign cfg_max_o   = val_q[weft_osif_pkg::SyncCfgMaxShift +: 16];
  assign rd_obj_o    = inspect_q;
  assign rd_en_o     = reg_addr_i == weft_osif_pkg::RegSyncState ||
                       reg_addr_i == weft_osif_pkg::RegSyncWaiters;

  always_comb begin
    unique case (reg_addr_i)
      weft_osif_pkg::RegSyncInfo:
        reg_rdata_o = 32'(NumObjs) | (32'(NumClients) << weft_osif_pkg::SyncInfoClientsShift) |
                      (32'(NumSwCtx) << weft_osif_pkg::SyncInfoSwShift);
      weft_osif_pkg::RegSyncCfgVal:  reg_rdata_o = val_q;
      weft_osif_pkg::RegSyncCfg:     reg_rdata_o = 32'(cfg_status_i);
      weft_osif_pkg::RegSyncInspect: reg_rdata_o = 32'(inspect_q);
      weft_osif_pkg::RegSyncState:   reg_rdata_o = rd_state_i;
      weft_osif_pkg::RegSyncWaiters: reg_rdata_o = rd_waiters_i;
      default:                       reg_rdata_o = '0;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      val_q     <= '0;
      inspect_q <= '0;
    end else begin
      if (wr_val) val_q <= reg_wdata_i;
      if (wr_inspect) inspect_q <= reg_wdata_i[7:0];
    end
  end

  assign still_o = !reg_we_i;

endmodule
