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

  /// Requests of each client, client c in bits [32*c +: 32].
  input  logic [NumClients*32-1:0]   c_out_data_i,
  /// Request word valid, per client.
  input  logic [NumClients-1:0]      c_out_valid_i,
  /// Request word taken, per client.
  output logic [NumClients-1:0]      c_out_ready_o,
  /// Response word (the same to every client).
  output logic [31:0]                c_in_data_o,
  /// Response word valid, per client (only the owner's can be high).
  output logic [NumClients-1:0]      c_in_valid_o,
  /// Response word taken, per client.
  input  logic [NumClients-1:0]      c_in_ready_i,

  /// OSIF responses, software to hardware.
  input  logic [31:0]                osif_in_data_i,
  /// osif_in word valid.
  input  logic                       osif_in_valid_i,
  /// The owner takes the response word.
  output logic                       osif_in_ready_o,
  /// OSIF requests, hardware to software.
  output logic [31:0]                osif_out_data_o,
  /// osif_out word valid.
  output logic                       osif_out_valid_o,
  /// osif_out word taken.
  input  logic                       osif_out_ready_i
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

  assign osif_out_valid_o = any && c_out_valid_i[gnt];
  assign osif_out_data_o  = c_out_data_i[32*gnt +: 32];
  assign osif_in_ready_o  = any && c_in_ready_i[gnt];
  assign c_in_data_o      = osif_in_data_i;

  always_comb begin
    c_out_ready_o = '0;
    c_in_valid_o  = '0;
    if (any) begin
      c_out_ready_o[gnt] = osif_out_ready_i;
      c_in_valid_o[gnt]  = osif_in_valid_i;
    end
  end

  if (NumClients < 1) begin : gen_check_clients
    $error("weft_osif_arb: NumClients must be at least 1");
  end

endmodule
