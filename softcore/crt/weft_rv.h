/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * weft_rv.h: the softcore's machine as a bare-metal program sees it (docs/softcore.md):
 * the memory map, the core-local interruptor, the hardware-context CSRs, and the
 * CSR access macros. Programs and the kernel include it; it needs nothing else. */
#ifndef WEFT_RV_H
#define WEFT_RV_H

#include <stdint.h>

/* ---- memory map ---- */
#define WEFT_RV_RAM_BASE 0x00000000u
#define WEFT_RV_CLINT_BASE 0xF0000000u
#define WEFT_RV_MSIP (WEFT_RV_CLINT_BASE + 0x0000u)
#define WEFT_RV_MTIMECMP (WEFT_RV_CLINT_BASE + 0x4000u)
#define WEFT_RV_MTIME (WEFT_RV_CLINT_BASE + 0xBFF8u)
/* The host's devices (a test bench, or the slot's bridge). */
#define WEFT_RV_TOHOST 0x80000000u  /* a program's exit: (code << 1) | 1 */
#define WEFT_RV_CONSOLE 0x80000004u /* a byte of output */

/* ---- CSRs ---- */
#define WEFT_CSR_CTX 0x7C0    /* the running context; a write runs another */
#define WEFT_CSR_FOLLOW 0x7C1 /* bit 0: the scheduler's choice runs */
#define WEFT_CSR_SEL 0x7C2    /* the context WEFT_CSR_PC names */
#define WEFT_CSR_PC 0x7C3     /* the selected context's resume address */
#define WEFT_CSR_NCTX 0xFC0   /* the number of contexts */
#define WEFT_CTX_FOLLOW 0xFFFFFFFFu

#define MSTATUS_MIE 0x8u
#define MSTATUS_MPIE 0x80u
#define MIE_MSIE 0x8u
#define MIE_MTIE 0x80u
#define MIE_MEIE 0x800u
#define MCAUSE_IRQ 0x80000000u
#define IRQ_M_SOFT 3u
#define IRQ_M_TIMER 7u
#define IRQ_M_EXT 11u

#define WEFT_STR_(x) #x
#define WEFT_STR(x) WEFT_STR_(x)
#define csr_read(csr)                                                                              \
    ({                                                                                             \
        uint32_t v_;                                                                               \
        __asm__ volatile("csrr %0, " WEFT_STR(csr) : "=r"(v_));                                    \
        v_;                                                                                        \
    })
#define csr_write(csr, v) __asm__ volatile("csrw " WEFT_STR(csr) ", %0" ::"r"((uint32_t)(v)))
#define csr_set(csr, v) __asm__ volatile("csrs " WEFT_STR(csr) ", %0" ::"r"((uint32_t)(v)))
#define csr_clear(csr, v) __asm__ volatile("csrc " WEFT_STR(csr) ", %0" ::"r"((uint32_t)(v)))
#define csr_swap_clear(csr, v)                                                                     \
    ({                                                                                             \
        uint32_t o_;                                                                               \
        __asm__ volatile("csrrc %0, " WEFT_STR(csr) ", %1" : "=r"(o_) : "r"((uint32_t)(v)));       \
        o_;                                                                                        \
    })

static inline void mmio_write(uint32_t addr, uint32_t v)
{
    *(volatile uint32_t *)addr = v;
}
static inline uint32_t mmio_read(uint32_t addr)
{
    return *(volatile uint32_t *)addr;
}

/* Cycles since reset (the core's mcycle, low word). */
static inline uint32_t weft_rv_cycles(void)
{
    return csr_read(mcycle);
}

/* Ends the program: the host sees the code (0 = success). */
__attribute__((noreturn)) void weft_rv_exit(uint32_t code);
/* Reports a trap nothing handles and ends the program with 128 + the cause. */
__attribute__((noreturn)) void weft_rv_fault(uint32_t cause, uint32_t epc, uint32_t tval);

#endif
