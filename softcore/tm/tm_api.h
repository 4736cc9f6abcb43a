/* Copyright Weft contributors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * tm_api.h: what Weft's Thread-Metric-equivalent suite (docs/softcore.md, "Thread-Metric
 * suite") needs from an RTOS, in the shape of the suite's public description: threads
 * named by small ids, created suspended, resumed, suspended, relinquishing and sleeping
 * on the periodic tick; one queue of 16-byte messages, one counting semaphore, one pool
 * of 128-byte blocks, and a software-triggered interrupt whose handler may resume
 * threads and post the semaphore. A port of the suite to an RTOS is one file that
 * implements these (tm_port_rtk.c for Weft's kernel). Every call returns 0 on success. */
#ifndef TM_API_H
#define TM_API_H

#include <stdint.h>

#define TM_THREADS 8

int tm_initialize(void (*setup)(void));
int tm_thread_create(int id, int priority, void (*entry)(void)); /* created suspended */
int tm_thread_resume(int id);
int tm_thread_suspend(int id);
void tm_thread_relinquish(void);
void tm_thread_sleep_ticks(uint32_t ticks);
int tm_queue_create(int id);
int tm_queue_send(int id, const uint32_t msg[4]);
int tm_queue_receive(int id, uint32_t msg[4]);
int tm_semaphore_create(int id, uint32_t initial);
/* wait: block until available (else fail at once). */
int tm_semaphore_get(int id, int wait);
int tm_semaphore_put(int id);
int tm_memory_pool_create(int id);
int tm_memory_pool_allocate(int id, uint8_t **block);
int tm_memory_pool_deallocate(int id, uint8_t *block);
void tm_interrupt_attach(void (*handler)(void));
void tm_interrupt_raise(void);
/* The port's name, for the report. */
const char *tm_port_name(void);

#endif
