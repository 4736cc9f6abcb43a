// Copyright Weft contributors.
// SPDX-License-Identifier: Apache-2.0
//
// rv_iss_vs_qemu: the softcore's ISS (rv_iss.h), which the core runs against in lock
// step, checked against an independent reference: QEMU's user-mode qemu-riscv32. Each
// seed makes a random user-level stream (rv_randprog.h: every RV32IM instruction, loads
// and stores around x29, forward branches and jumps), links it at fixed addresses with
// a random 4 KiB data area, runs it under QEMU, which writes the data area and then
// every register to stdout, and compares both with what the ISS computed.
//
//   rv_iss_vs_qemu SEEDS WORKDIR
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "rv_iss.h"
#include "rv_randprog.h"

namespace
{

constexpr uint32_t kText = 0x10000, kData = 0x20000, kDataBytes = 4096, kDump = kData + kDataBytes;

bool run(const std::string &cmd)
{
    int rc = std::system(cmd.c_str());
    if (rc != 0)
        std::fprintf(stderr, "failed (%d): %s\n", rc, cmd.c_str());
    return rc == 0;
}

bool one_seed(uint64_t seed, const std::string &dir)
{
    using namespace rv;
    StreamOptions o;
    o.user_only = true;
    StreamGen g(seed, o);
    std::vector<uint32_t> code;
    for (uint32_t r = 1; r < 32; r++)
        if (r != 29)
            li(code, r, g.value());
    li(code, 29, kData + 2048);
    g.body(code, 3000);
    uint32_t end_pc = kText + 4 * static_cast<uint32_t>(code.size());
    std::vector<uint8_t> data(kDataBytes);
    std::mt19937 rng(static_cast<uint32_t>(seed));
    for (auto &b : data)
        b = static_cast<uint8_t>(rng());

    // The program: the stream as words, then the dump (real instructions).
    std::string src = dir + "/prog.S", elf = dir + "/prog.elf", out = dir + "/prog.out";
    {
        std::ofstream s(src);
        s << ".section .text\n.globl _start\n_start:\n";
        for (uint32_t w : code)
            s << "  .word 0x" << std::hex << w << std::dec << "\n";
        s << "  addi x29, x29, 2047\n  addi x29, x29, 1\n"; // x29 = the dump area
        for (int r = 1; r < 32; r++)
            s << "  sw x" << r << ", " << 4 * (r - 1) << "(x29)\n";
        s << "  li a7, 64\n  li a0, 1\n  li a1, " << kData << "\n  li a2, " << kDataBytes + 124
          << "\n  ecall\n  li a7, 93\n  li a0, 0\n  ecall\n";
        s << ".section .data\n";
        for (uint8_t b : data)
            s << "  .byte " << static_cast<int>(b) << "\n";
        s << "  .space 128\n";
    }
    if (!run(std::string(WEFT_RV_GCC) +
             " -march=rv32im -mabi=ilp32 -nostdlib -nostartfiles -static -Wl,-Ttext=0x10000" +
             " -Wl,-Tdata=0x20000 -o " + elf + " " + src) ||
        !run(std::string(WEFT_QEMU_RISCV32) + " " + elf + " > " + out))
        return false;
    std::ifstream f(out, std::ios::binary);
    std::vector<uint8_t> q((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (q.size() != kDataBytes + 124) {
        std::fprintf(stderr, "seed %llu: qemu wrote %zu bytes\n", (unsigned long long)seed,
                     q.size());
        return false;
    }

    Iss iss(1, 0x30000, kText);
    iss.load(kText, code);
    std::memcpy(&iss.mem()[kData], data.data(), data.size());
    Inputs in;
    uint64_t steps = 0;
    while (iss.ctx(0).pc != end_pc && steps < 100000) {
        Step s = iss.step(in);
        steps++;
        if (s.kind != Kind::Retired) {
            std::fprintf(stderr, "seed %llu: the ISS trapped (cause %u) at %08x\n",
                         (unsigned long long)seed, s.cause, s.pc);
            return false;
        }
    }
    int bad = 0;
    for (uint32_t i = 0; i < kDataBytes; i++)
        if (iss.mem()[kData + i] != q[i])
            bad++;
    if (bad)
        std::fprintf(stderr, "seed %llu: %d data bytes differ\n", (unsigned long long)seed, bad);
    for (int r = 1; r < 32; r++) {
        uint32_t qv;
        std::memcpy(&qv, &q[kDataBytes + 4 * (r - 1)], 4);
        uint32_t iv = r == 29 ? iss.ctx(0).x[r] + 2048 : iss.ctx(0).x[r];
        if (qv != iv) {
            std::fprintf(stderr, "seed %llu: x%d: qemu %08x, ISS %08x\n", (unsigned long long)seed,
                         r, qv, iv);
            bad++;
        }
    }
    std::printf("seed %llu: %llu instructions, %s\n", (unsigned long long)seed,
                (unsigned long long)steps, bad ? "DIFFER" : "same");
    return bad == 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: rv_iss_vs_qemu SEEDS WORKDIR\n");
        return 2;
    }
    int seeds = std::atoi(argv[1]);
    int failed = 0;
    for (int s = 1; s <= seeds; s++)
        if (!one_seed(static_cast<uint64_t>(s), argv[2]))
            failed++;
    return failed == 0 ? 0 : 1;
}
