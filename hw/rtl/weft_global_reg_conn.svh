// The connections of a block's global register port (weft_global_reg_ports.svh) inside
// weft_static: the register window's write strobe, offset, data and strobes, as a list
// to include in the block's instance. Its last connection has a trailing comma, so at
// least one more follows it (the block's reg_rdata_o).
      .reg_we_i    (global_we),
      .reg_addr_i  (global_addr),
      .reg_wdata_i (reg_wdata),
      .reg_wstrb_i (reg_wstrb),
