/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * rtk_port.h: what the single-context port's C half (rtk_sw.c) and its assembly half
 * (rtk_sw_trap.S) share: the frame a trap saves on the interrupted thread's stack, and
 * the calls between the halves. */
#ifndef RTK_PORT_H
#define RTK_PORT_H

/* The frame, in 32-bit words: x1 and x3-x31 at their register numbers, mepc in the
 * slot of x0 and mstatus in that of sp (the thread control block keeps sp). */
#define RTK_FRAME_MEPC 0
#define RTK_FRAME_MSTATUS 2
#define RTK_FRAME_WORDS 32

#ifndef __ASSEMBLER__
#include <stdint.h>

#include "weft/rtk.h"

/* Builds a new thread's first frame below `top`: it starts at entry(arg) with
 * interrupts on and returns into `end`. Returns its stack pointer. */
uint32_t *rtk_port_frame(uint32_t *top, rtk_entry_t entry, void *arg, void (*end)(void));
/* Gives the core up from a thread: an environment call, whose trap saves the thread and
 * runs the one rtk_port_schedule chooses. Interrupts may be off. */
void rtk_port_switch(void);
/* Runs the first thread (from rtk_start; never returns). */
__attribute__((noreturn)) void rtk_port_first(rtk_thread_t *t);
/* rtk_sw.c's halves of the trap. */
void rtk_port_trap(uint32_t cause, uint32_t *frame);
void rtk_port_schedule(void);
#endif

#endif
