// The reset every self-checking test bench of a static-region block starts with (and
// some repeat mid-run): rst_ni falls (an asynchronous assert, so it is an edge of its
// own), one clock edge passes in reset, rst_ni rises with the clock low.
#ifndef WEFT_TB_RESET_H
#define WEFT_TB_RESET_H

namespace weft_tb
{
template <typename Dut> void reset_pulse(Dut *dut)
{
    dut->clk_i = 0;
    dut->rst_ni = 1;
    dut->eval();
    dut->rst_ni = 0;
    dut->eval();
    dut->clk_i = 1;
    dut->eval();
    dut->clk_i = 0;
    dut->eval();
    dut->rst_ni = 1;
    dut->eval();
}
} // namespace weft_tb

#endif // WEFT_TB_RESET_H
