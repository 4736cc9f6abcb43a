// One rising clock edge per eval() of a Verilated model.
//
// Verilator 5 detects a rising edge by comparing clk_i with the value it saw at the
// previous eval(), so a cycle normally costs two: one with the clock low, one with it
// high. Every eval() also re-runs all logic that reads a model input. Weft's models use
// only the rising edge of clk_i (docs/architecture.md, "Simulation backend"), so the
// clock can stay high: rising_edge() tells the model that the clock was low at the last
// eval() and evaluates once; settle() evaluates new inputs without an edge. Where the
// model has no such member (another Verilator version), the two-eval form is used.
#ifndef WEFT_SIM_VERILATED_EDGE_H
#define WEFT_SIM_VERILATED_EDGE_H

namespace weft::sim
{

namespace detail
{
// Verilator 5.006 keeps clk_i's value at the last trigger evaluation in the root.
template <class Root>
inline auto mark_clock_low(Root *root, int)
    -> decltype((void)(root->__Vtrigrprev__TOP__clk_i = 0), true)
{
    root->__Vtrigrprev__TOP__clk_i = 0;
    return true;
}
template <class Root> inline bool mark_clock_low(Root *, long)
{
    return false;
}
} // namespace detail

/** A rising edge of clk_i with the inputs as they are set. */
template <class Model> inline void rising_edge(Model &m)
{
    if (!detail::mark_clock_low(m.rootp, 0)) {
        m.clk_i = 0;
        m.eval();
    }
    m.clk_i = 1;
    m.eval();
}

/** Evaluate new inputs without a clock edge (the clock stays high). */
template <class Model> inline void settle(Model &m)
{
    m.clk_i = 1;
    m.eval();
}

} // namespace weft::sim

#endif // WEFT_SIM_VERILATED_EDGE_H
