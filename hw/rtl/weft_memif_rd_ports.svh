// A requester's read side of weft_memif_master (a slot's weft_slot_if, the reconfiguration
// port weft_fri), as a port list to include: the burst it asks for, and the read data,
// errors and busy state the master answers with. Its last port has a trailing comma, so
// at least one more port follows it.
  /// A burst is ready to be issued.
  output logic        req_valid_o,
  /// Byte address of the burst's first beat.
  output logic [31:0] req_addr_o,
  /// AXI4 length of the burst (beats - 1).
  output logic [7:0]  req_len_o,
  /// The master issues the requested burst now.
  input  logic        req_gnt_i,
  /// The memory master has a burst of this requester in flight.
  input  logic        burst_busy_i,
  /// Read-data FIFO full.
  output logic        rd_full_o,
  /// The master delivers a read-data word.
  input  logic        rd_push_i,
  /// Read-data word.
  input  logic [31:0] rd_data_i,
  /// A burst of this requester got an error response.
  input  logic        bus_err_i,
