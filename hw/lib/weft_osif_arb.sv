// weft_osif_arb: lets several OS-call clients of one hardware thread share its OSIF.
//
// A thread that makes ordinary calls through weft_osif_call and streams mailbox words
// through weft_mbox_stream connects both here. The protocol allows one call at a time,
// so one client owns the OSIF from the cycle its busy_i rises until it falls again; the
// lowest-numbered busy client gets it when it is free. A client that never drops busy_i
// keeps it (a thread state machine uses its clients one after the other).
//
// Everything is combinational apart from the owner register: the OSIF outputs are the
// owner's, and the owner alone sees the static region's valid/ready.
module weft_osif_arb #(
  /// Number of clients (at least 1).
  parameter int unsigned NumClients = 2,
  /// Width of a client index (derived; do not override).
  localparam int unsigned IdxW = (NumClients > 1) ? $clog2(NumClients) : 1
) (
  /// Fabric clock.
  input  logic                       clk_i,
  /// Active-low synchronous reset.
  input  logic                       rst_ni,
  /// Client c has a call in progress or about to start (its busy_o).
  input  logic [NumClients-1:0]      busy_i,

  /// Each client's side of an OSIF (an osif_req_t), client c in bits
  /// [c*OsifReqWidth +: OsifReqWidth].
  input  logic [NumClients*weft_osif_pkg::OsifReqWidth-1:0] clients_i,
  /// What each client sees (an osif_rsp_t), client c in bits [c*OsifRspWidth +:
  /// OsifRspWidth]: the response word for all, its valid and ready for the owner only.
  output logic [NumClients*weft_osif_pkg::OsifRspWidth-1:0] clients_o,

  /// The slot's OSIF, static side.
  input  weft_osif_pkg::osif_rsp_t   osif_i,
  /// The slot's OSIF, thread side: the owner's.
  output weft_osif_pkg::osif_req_t   osif_o
);

  logic            locked_q;
  logic [IdxW-1:0] owner_q, gnt;
  logic            any;

  always_comb begin
    gnt = owner_q;
    any = locked_q;
    if (!locked_q) begin
      for (int c = NumClients - 1; c >= 0; c--) begin
        if (busy_i[c]) begin
          gnt = IdxW'(c);
          any = 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      locked_q <= 1'b0;
      owner_q  <= '0;
    end else begin
      locked_q <= any && busy_i[gnt];
      owner_q  <= gnt;
    end
  end

  localparam int unsigned ReqW = weft_osif_pkg::OsifReqWidth;
  localparam int unsigned RspW = weft_osif_pkg::OsifRspWidth;

  weft_osif_pkg::osif_req_t owner;
  weft_osif_pkg::osif_rsp_t others;
  assign owner = clients_i[ReqW*gnt +: ReqW];

  always_comb begin
    osif_o = owner;
    osif_o.out_valid = any && owner.out_valid;
    osif_o.in_ready  = any && owner.in_ready;
    others = '0;
    others.in_data = osif_i.in_data;
    for (int c = 0; c < NumClients; c++) begin
      clients_o[RspW*c +: RspW] = (any && 32'(gnt) == c) ? osif_i : others;
    end
  end

  if (NumClients < 1) begin : gen_check_clients
    $error("weft_osif_arb: NumClients must be at least 1");
  end

endmodule
