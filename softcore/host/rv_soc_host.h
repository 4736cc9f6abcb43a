// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// rv_soc_host.h: runs a program on a verilated weft_rv_soc (the softcore with its RAM and
// timer) in this process: loads a RAM image (a .bin from weft_rv_program) through the
// load port, releases reset, and serves the host's devices (weft_rv.h): TOHOST ends the
// run with the program's code, CONSOLE collects its output. Any other MMIO address is
// answered with an error, which the core raises as an access fault.
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace rv
{

struct RunResult {
    bool exited = false; // TOHOST was written
    uint32_t code = 0;   // the program's exit code
    uint64_t cycles = 0;
    std::string console;
    std::string error; // why the image could not be loaded
};

// Reads a RAM image; empty (with `error` set) when missing or larger than `mem_bytes`.
inline std::vector<uint32_t> read_image(const std::string &path, uint32_t mem_bytes,
                                        std::string &error)
{
    std::ifstream f(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::vector<uint32_t> words;
    if (!f.good() && !f.eof())
        error = path + ": cannot be read";
    else if (bytes.empty())
        error = path + ": missing or empty";
    else if (bytes.size() > mem_bytes)
        error = path + ": larger than the RAM";
    if (!error.empty())
        return words;
    words.resize((bytes.size() + 3) / 4, 0);
    for (size_t i = 0; i < bytes.size(); i++)
        words[i / 4] |= static_cast<uint32_t>(static_cast<uint8_t>(bytes[i])) << (8 * (i % 4));
    return words;
}

template <class M> class SocHost
{
  public:
    explicit SocHost(uint32_t mem_bytes) : mem_bytes_(mem_bytes)
    {
        m_.clk_i = 0;
        m_.rst_ni = 0;
        m_.load_en_i = 0;
        m_.irq_ext_i = 0;
        m_.mmio_ready_i = 0;
        m_.eval();
    }
    M &model() { return m_; }

    void load(const std::vector<uint32_t> &words)
    {
        m_.rst_ni = 0;
        m_.load_en_i = 1;
        m_.load_we_i = 1;
        for (size_t i = 0; i < words.size(); i++) {
            m_.load_addr_i = static_cast<uint32_t>(i);
            m_.load_wdata_i = words[i];
            tick();
        }
        m_.load_en_i = 0;
        m_.load_we_i = 0;
        tick();
    }

    // Runs from reset until the program exits or max_cycles pass. `each` sees the model
    // after every cycle (trace consumers).
    template <class Each> RunResult run(uint64_t max_cycles, Each each)
    {
        RunResult r;
        m_.rst_ni = 1;
        for (; r.cycles < max_cycles && !r.exited; r.cycles++) {
            m_.mmio_ready_i = 0;
            m_.mmio_err_i = 0;
            m_.eval();
            if (m_.mmio_req_o)
                serve(r);
            tick();
            each(m_);
        }
        m_.rst_ni = 0;
        m_.eval();
        return r;
    }
    RunResult run(uint64_t max_cycles)
    {
        return run(max_cycles, [](M &) {});
    }

  private:
    void serve(RunResult &r)
    {
        uint32_t a = m_.mmio_addr_o & ~3u;
        bool ok = true;
        m_.mmio_rdata_i = 0;
        if (m_.mmio_we_o && a == 0x80000000u) {
            r.exited = true;
            r.code = m_.mmio_wdata_o >> 1;
        } else if (m_.mmio_we_o && a == 0x80000004u) {
            r.console.push_back(static_cast<char>(m_.mmio_wdata_o & 0xff));
        } else {
            ok = false;
        }
        m_.mmio_ready_i = 1;
        m_.mmio_err_i = !ok;
        m_.eval();
    }

    void tick()
    {
        m_.clk_i = 1;
        m_.eval();
        m_.clk_i = 0;
        m_.eval();
    }

    M m_;
    uint32_t mem_bytes_;
};

} // namespace rv
