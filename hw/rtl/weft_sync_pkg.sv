// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// weft_sync_pkg: the calls of the synchronisation manager (weft_sync), shared by the
// manager and its clients (docs/hw-services.md). Object types and mutex kinds are the
// SYNC_TYPE_* and SYNC_KIND_* register fields of protocol/osif.yaml (weft_osif_pkg).
package weft_sync_pkg;

  localparam logic [3:0] OpSemPost = 4'd0;
  localparam logic [3:0] OpSemWait = 4'd1;
  localparam logic [3:0] OpSemTrywait = 4'd2;
  localparam logic [3:0] OpMutexLock = 4'd3;
  localparam logic [3:0] OpMutexTrylock = 4'd4;
  localparam logic [3:0] OpMutexUnlock = 4'd5;
  localparam logic [3:0] OpCondWait = 4'd6;
  localparam logic [3:0] OpCondSignal = 4'd7;
  localparam logic [3:0] OpCondBroadcast = 4'd8;

  /// An object index that names no object (the manager has at most 255).
  localparam logic [7:0] NoObject = 8'hFF;

endpackage
