// A slot's client port to the synchronisation manager (weft_sync), as a port list to
// include (weft_sync_router, weft_slot_if): one call at a time, held until taken, one
// answer. Its last port has a trailing comma, so at least one more port follows it.
  /// A call waits for the manager; its fields are held until sync_req_ready_i.
  output logic        sync_req_valid_o,
  /// The call (weft_osif_pkg::SyncOp*).
  output logic [3:0]  sync_op_o,
  /// Its object.
  output logic [7:0]  sync_obj_o,
  /// A condition wait's mutex (weft_osif_pkg::SyncNoObject: the handle names none).
  output logic [7:0]  sync_mtx_o,
  /// The call is timed.
  output logic        sync_timed_o,
  /// Its timeout in microseconds.
  output logic [31:0] sync_tmo_o,
  /// The manager takes the call at this edge.
  input  logic        sync_req_ready_i,
  /// The call is answered now (one cycle).
  input  logic        sync_rsp_valid_i,
  /// The answer's status (an OSIF status).
  input  logic [7:0]  sync_rsp_status_i,
  /// The thread's priority in the manager's queues (SYNC_PRIO).
  output logic [6:0]  sync_prio_o,
  /// A signal is pending (CONTROL.SIGNAL): a blocked call ends CANCELED.
  output logic        sync_cancel_o,
  /// The slot is held in reset: its call is dropped, its mutexes given up.
  output logic        sync_flush_o,
