// The parameters of weft_static: one platform's static region (docs/platform.md). Both
// weft_static and a top that wraps it (the flattened reference model of the simulation
// benchmark) declare them by including this list in their parameter port list; it ends
// without a comma. weft_static_param_conn.svh passes them on.
  /// Number of reconfigurable slots.
  parameter int unsigned NumSlots = 4,
  /// Number of hardware links between slots (at most the LINK_INFO entries, 24).
  parameter int unsigned NumLinks = 0,
  /// Nominal fabric clock in MHz: timed link calls count microseconds at this rate.
  parameter int unsigned ClockMhz = 100,
  /// Per slot: OSIF FIFO depth in words, 16 bits each.
  parameter logic [NumSlots*16-1:0] SlotOsifDepth = {NumSlots{16'd16}},
  /// Per slot: memory windows (0..4), 4 bits each.
  parameter logic [NumSlots*4-1:0]  SlotWindows = {NumSlots{4'd2}},
  /// Per slot: link bindings (0..8), 4 bits each.
  parameter logic [NumSlots*4-1:0]  SlotBinds = {NumSlots{4'd4}},
  /// Per link: source slot, 8 bits each (24 entries).
  parameter logic [24*8-1:0]        LinkSrc = '0,
  /// Per link: destination slot, 8 bits each.
  parameter logic [24*8-1:0]        LinkDst = '0,
  /// Per link: depth in words (at least 2), 16 bits each.
  parameter logic [24*16-1:0]       LinkDepth = {24{16'd64}},
  /// FRI_RATE after reset: bytes per cycle of the configuration port, 8.8 fixed point
  /// (307: 1.2 bytes a cycle, FRED's measured PCAP rate at 100 MHz).
  parameter logic [15:0]            FriRate = 16'd307,
  /// Objects of the synchronisation manager (mutexes, semaphores, condition variables),
  /// 0 to 255; 0: no manager, and every sync call goes to software.
  parameter int unsigned            SyncObjs = 32,
  /// Software contexts of the synchronisation manager (pthreads calling its objects at
  /// once); at most 32 - NumSlots are built (the manager's 32 clients; none at 32 slots,
  /// where IRQ_PENDING has no bit left for their interrupt); none without a manager.
  parameter int unsigned            SyncSwCtx = 4,
  /// Thread ids of the thread manager and its scheduler (thread 0 is the idle thread),
  /// 0 or 2 to 256; 0: no thread manager.
  parameter int unsigned            TmThreads = 256,
  /// Priorities of the thread manager's scheduler, 2 to 128.
  parameter int unsigned            TmPrios = 128,
  /// The thread manager's events (timers, and the interrupt lines as scheduling requests):
  /// 1 builds them (with a thread manager), 0 leaves them out.
  parameter int unsigned            TmEvents = 1,
  /// Timers of the thread manager's events, 0 to 8.
  parameter int unsigned            TmTimers = 4,
  /// The reconfiguration interface: 1 builds weft_fri, 0 leaves it out (no slot is ever
  /// decoupled, the FRI_* registers read 0).
  parameter int unsigned            Fri = 1
