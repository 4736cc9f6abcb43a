/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * weft_rv.h: the softcore's machine as a bare-metal program sees it (docs/softcore.md):
 * the memory map, the core-local interruptor, the hardware-context CSRs, and the
 * CSR access macros. Programs and the kernel include it; it needs nothing else. */
#ifndef WEFT_RV_H
#define WEFT_RV_H

#define WEFT_RV_MSIP_ADDR 0xF0000000    /* for assembly: WEFT_RV_MSIP */
#define WEFT_RV_OS_BASE_ADDR 0xF0010000 /* for assembly: WEFT_RV_OS_BASE */
#define WEFT_RV_OS_OWNER_OFF 16         /* for assembly: WEFT_OS_OWNER's byte offset */
#define WEFT_RV_OS_NEED_BIT 0x100       /* for assembly: WEFT_OS_OWNER_NEED */
#ifndef __ASSEMBLER__
#include <stdint.h>

#include "weft/osif_protocol.h"

/* ---- memory map ---- */
#define WEFT_RV_RAM_BASE 0x00000000u
#define WEFT_RV_CLINT_BASE 0xF0000000u
#define WEFT_RV_MSIP (WEFT_RV_CLINT_BASE + 0x0000u)
#define WEFT_RV_MTIMECMP (WEFT_RV_CLINT_BASE + 0x4000u)
#define WEFT_RV_MTIME (WEFT_RV_CLINT_BASE + 0xBFF8u)
/* The host's devices (a test bench's, or the slot's: hw/threads/softcore). */
#define WEFT_RV_TOHOST WEFT_RV_MMIO_TOHOST   /* a program's exit: (code << 1) | 1 */
#define WEFT_RV_CONSOLE WEFT_RV_MMIO_CONSOLE /* a byte of output */

/* The OS services (weft_rv_os; hw/softcore/weft_rv_pkg.sv names the same words). */
#define WEFT_RV_OS_BASE 0xF0010000u
#define WEFT_RV_OS(word) (WEFT_RV_OS_BASE + 4u * (word))
enum weft_rv_os_reg {
    WEFT_OS_TM_CMD = 0,    /* w: a thread manager command (YIELD of thread 0: the caller's);
                              r: status, blocked, thread */
    WEFT_OS_TM_VALUE = 1,  /* r: the answer's value */
    WEFT_OS_TM_CUR = 2,    /* r: the decision */
    WEFT_OS_MAP = 3,       /* w: thread [7:0] in context [12:8] at priority [22:16], [31] */
    WEFT_OS_OWNER = 4,     /* w: context [12:8] holds thread [7:0]; r: [8] must be loaded */
    WEFT_OS_SYNC_CFG = 5,  /* w: configure a hardware object; r: its status */
    WEFT_OS_SYNC_VAL = 6,  /* a semaphore's count [15:0] and maximum [31:16] */
    WEFT_OS_SYNC_TMO = 7,  /* a timed call's timeout in microseconds */
    WEFT_OS_SYNC_CALL = 8, /* w: a call (held until answered or waiting); r: its status */
    WEFT_OS_TICK = 9,      /* w: the tick's period in cycles; r: ticks */
    WEFT_OS_SLEEP = 10,    /* w: the running thread sleeps this many ticks */
    WEFT_OS_INFO = 11,     /* r: [7:0] contexts, [15:8] threads, [23:16] priorities */
};
#define WEFT_OS_SYNC_TIMED (1u << 24)
/* The call window: a load makes synchronisation call `op` on object `obj` and returns
 * its status, or WEFT_OS_CALL_BLOCKED (the status is in WEFT_OS_SYNC_CALL after); from
 * context 0, a wait is made a try. */
#define WEFT_RV_OS_OBJ(obj) (WEFT_RV_OS_BASE + 0x4000u + ((obj) << 6))
#define WEFT_RV_OS_CALL(op, obj) (WEFT_RV_OS_OBJ(obj) + ((op) << 2))
#define WEFT_OS_CALL_BLOCKED 0x100u
#define WEFT_OS_MAP_BOUND (1u << 31)
#define WEFT_OS_OWNER_NEED 0x100u /* WEFT_OS_OWNER read: the decision holds no context */

/* ---- CSRs ---- */
#define WEFT_CSR_CTX 0x7C0            /* the running context; a write runs another */
#define WEFT_CSR_FOLLOW 0x7C1         /* bit 0: the scheduler's choice runs */
#define WEFT_CSR_SEL 0x7C2            /* the context WEFT_CSR_PC names */
#define WEFT_CSR_PC 0x7C3             /* the selected context's resume address */
#define WEFT_CSR_NCTX 0xFC0           /* the number of contexts */
#define WEFT_CSR_REG(n) (0x7E0 + (n)) /* register xn of the selected context */
#define WEFT_FOLLOW_ON 1u             /* WEFT_CSR_FOLLOW bits */
#define WEFT_HOLD 2u
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
/* CSR writes and MMIO accesses are compiler barriers ("memory"): they switch contexts,
 * open and close critical sections and make kernel commands, so no memory access may
 * move across them. */
#define csr_write(csr, v)                                                                          \
    __asm__ volatile("csrw " WEFT_STR(csr) ", %0" ::"r"((uint32_t)(v)) : "memory")
#define csr_set(csr, v)                                                                            \
    __asm__ volatile("csrs " WEFT_STR(csr) ", %0" ::"r"((uint32_t)(v)) : "memory")
#define csr_clear(csr, v)                                                                          \
    __asm__ volatile("csrc " WEFT_STR(csr) ", %0" ::"r"((uint32_t)(v)) : "memory")
/* A CSR's old value, the bits v set (csrrs) or cleared (csrrc) in it. */
#define csr_swap_(insn, csr, v)                                                                    \
    ({                                                                                             \
        uint32_t o_;                                                                               \
        __asm__ volatile(insn " %0, " WEFT_STR(csr) ", %1"                                         \
                         : "=r"(o_)                                                                \
                         : "r"((uint32_t)(v))                                                      \
                         : "memory");                                                              \
        o_;                                                                                        \
    })
#define csr_swap_clear(csr, v) csr_swap_("csrrc", csr, v)
#define csr_swap_set(csr, v) csr_swap_("csrrs", csr, v)

static inline void mmio_write(uint32_t addr, uint32_t v)
{
    __asm__ volatile("sw %0, %1" ::"r"(v), "m"(*(volatile uint32_t *)addr) : "memory");
}
static inline uint32_t mmio_read(uint32_t addr)
{
    uint32_t v;
    __asm__ volatile("lw %0, %1" : "=r"(v) : "m"(*(volatile uint32_t *)addr) : "memory");
    return v;
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

#endif /* __ASSEMBLER__ */
#endif
