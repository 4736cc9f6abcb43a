// Self-checking test bench of weft_fifo against a std::deque model.
//
// Four configurations get random push/pop/flush traffic with varying push and pop
// probabilities (filling, draining, streaming): distributed RAM (Depth 16 and Depth 5)
// and block RAM, whose read is registered and bypassed (Depth 64, and Depth 100, which is
// no power of two). Every cycle the FIFO's registered outputs (rdata, full, empty,
// count) are compared with the model, and the streaming phase checks one word per cycle
// with simultaneous push and pop; still_o high must mean the edge changes no output.
#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <random>

#include <verilated.h>

#include "Vweft_fifo_d100.h"
#include "Vweft_fifo_d16.h"
#include "Vweft_fifo_d5.h"
#include "Vweft_fifo_d64.h"

namespace
{

constexpr uint32_t kSeed = 0x5eed0001u;

template <typename Model> int run_fifo(const char *name, unsigned depth, std::mt19937 &rng)
{
    auto ctx = std::make_unique<VerilatedContext>();
    auto dut = std::make_unique<Model>(ctx.get(), name);
    std::deque<uint32_t> model;
    int errors = 0;
    uint64_t pushes = 0, pops = 0, both = 0, flushes = 0;

    auto tick = [&]() {
        dut->clk_i = 0;
        dut->eval();
        dut->clk_i = 1;
        dut->eval();
    };
    dut->rst_ni = 0;
    dut->push_i = 0;
    dut->pop_i = 0;
    dut->flush_i = 0;
    dut->wdata_i = 0;
    tick();
    dut->rst_ni = 1;
    tick();

    std::uniform_int_distribution<uint32_t> word;
    const unsigned kCycles = 200000;
    for (unsigned cycle = 0; cycle < kCycles; ++cycle) {
        // Phases of 1000 cycles with different push/pop rates.
        unsigned phase = (cycle / 1000) % 4;
        unsigned p_push = phase == 0 ? 80 : phase == 1 ? 20 : phase == 2 ? 100 : 50;
        unsigned p_pop = phase == 0 ? 20 : phase == 1 ? 80 : phase == 2 ? 100 : 50;

        // Check registered outputs against the model before the edge.
        dut->clk_i = 0;
        dut->eval();
        bool empty = model.empty();
        bool full = model.size() == depth;
        if (dut->empty_o != empty || dut->full_o != full || dut->count_o != model.size() ||
            (!empty && dut->rdata_o != model.front())) {
            if (errors < 10) {
                std::printf("%s: cycle %u mismatch: empty %d/%d full %d/%d count %u/%zu "
                            "rdata %08x/%08x\n",
                            name, cycle, dut->empty_o, empty, dut->full_o, full,
                            unsigned(dut->count_o), model.size(), dut->rdata_o,
                            empty ? 0u : model.front());
            }
            ++errors;
        }

        bool flush = (rng() % 2000) == 0;
        bool push = (rng() % 100) < p_push && !full;
        bool pop = (rng() % 100) < p_pop && !empty;
        uint32_t data = word(rng);
        dut->flush_i = flush;
        dut->push_i = push;
        dut->pop_i = pop;
        dut->wdata_i = data;
        dut->eval();
        const bool still = dut->still_o;
        const uint32_t before[4] = {dut->rdata_o, dut->full_o, dut->empty_o, dut->count_o};
        dut->clk_i = 1;
        dut->eval();
        if (still && (before[1] != dut->full_o || before[2] != dut->empty_o ||
                      before[3] != dut->count_o || (!dut->empty_o && before[0] != dut->rdata_o))) {
            if (errors < 10)
                std::printf("%s: cycle %u: still_o high, but the edge changed an output\n", name,
                            cycle);
            ++errors;
        }

        if (flush) {
            model.clear();
            ++flushes;
        } else {
            if (pop) {
                model.pop_front();
                ++pops;
            }
            if (push) {
                model.push_back(data);
                ++pushes;
            }
            both += (push && pop);
        }
    }
    dut->final();
    std::printf("%s: depth %u, %u cycles, %llu pushes, %llu pops (%llu in the same cycle), "
                "%llu flushes, %d mismatches\n",
                name, depth, kCycles, (unsigned long long)pushes, (unsigned long long)pops,
                (unsigned long long)both, (unsigned long long)flushes, errors);
    return errors;
}

} // namespace

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    std::printf("tb_rtl_fifo: seed 0x%08x\n", kSeed);
    std::mt19937 rng(kSeed);
    int errors = 0;
    errors += run_fifo<Vweft_fifo_d16>("fifo_depth16", 16, rng);
    errors += run_fifo<Vweft_fifo_d5>("fifo_depth5", 5, rng);
    errors += run_fifo<Vweft_fifo_d64>("fifo_depth64_bram", 64, rng);
    errors += run_fifo<Vweft_fifo_d100>("fifo_depth100_bram", 100, rng);
    std::printf("tb_rtl_fifo: %s\n", errors ? "FAIL" : "PASS");
    return errors ? 1 : 0;
}
