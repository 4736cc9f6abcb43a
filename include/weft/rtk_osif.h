/**
 * @file rtk_osif.h
 * @brief OS calls of softcore threads on the host's objects, and their shared memory
 *        (docs/softcore.md, "In a slot"), for programs built for the softcore in a slot
 *        (hwt_softcore), not for the host.
 *
 * A program's threads (weft/rtk.h) reach the objects of the softcore's resource array
 * (semaphores, mutexes, condition variables, mailboxes and message queues of the host's
 * pthreads and of other hardware threads) by handle, through the slot's OSIF, as any
 * hardware thread does; the call set is docs/calls.md's. The slot has one OSIF, so
 * calls go one at a time, each thread taking its turn.
 *
 * Results: 0 when the call succeeded; a positive value is the status the host answered
 * (weft/osif_protocol.h: WEFT_OSIF_AGAIN, WEFT_OSIF_TIMEDOUT, WEFT_OSIF_BADHANDLE, ...);
 * a negative one an RTK_* code of the kernel's: RTK_ARG for a bad argument (the call is
 * not made), RTK_STATE when rtk_osif_init() has not run or the bridge refused it.
 *
 * A call that may wait for the host's object (a semaphore's wait, a full mailbox, an
 * empty queue, a held mutex, a condition) is made as its timed variant, a slice at a
 * time, and lets the other threads' calls go between slices: otherwise a thread that
 * waits would keep out the one that must post what it waits for. A slice lasts
 * RTK_OSIF_SLICE_US while another thread waits for its turn, and doubles up to
 * RTK_OSIF_SLICE_MAX_US while none does, so a thread that waits long costs the host few
 * wake-ups, and one that needs the OSIF meanwhile waits at most that long (host time:
 * the host's objects time their waits by its clock); a condition wait returns after its
 * slice instead, as a spurious wake-up. A thread that waits, for its answer or its
 * turn, waits in the kernel and leaves the core to the others.
 *
 * Before rtk_start() (main, one thread) the calls wait for their answers on the spot;
 * afterwards only threads may make them, not interrupt handlers (RTK_CONTEXT).
 */
#ifndef WEFT_RTK_OSIF_H
#define WEFT_RTK_OSIF_H

#include <stddef.h>
#include <stdint.h>

#include "weft/osif_protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A timeout: as long as it takes. */
#define RTK_OSIF_FOREVER 0xFFFFFFFFu
#ifndef RTK_OSIF_SLICE_US
/** The shortest slice of a call that waits, in microseconds of the host's clock. */
#define RTK_OSIF_SLICE_US 1000u
#endif
#ifndef RTK_OSIF_SLICE_MAX_US
/** The longest slice of a call that waits, in microseconds of the host's clock. */
#define RTK_OSIF_SLICE_MAX_US 64000u
#endif

/** Sets up the calls (a kernel mutex that takes turns at the OSIF, the bridge's external
 *  interrupt and a semaphore it posts): once, before rtk_start() (RTK_STATE after). */
int rtk_osif_init(void);

/**
 * @brief One OS call, whole: the request (header and the nargs argument words it
 *        announces, at most WEFT_RV_OSIF_WORDS words) and its response (header and
 *        result words, at most rsp_words of them copied to rsp). It holds the OSIF until
 *        answered: a call that may wait long should be timed.
 * @return the response's status, RTK_ARG (a request too long, THREAD_EXIT or
 *         THREAD_YIELD: a program ends by returning from main), or RTK_STATE, RTK_CONTEXT
 */
int rtk_osif_call(const uint32_t *req, uint32_t *rsp, unsigned rsp_words);

/** sem_post on the semaphore of handle h. */
int rtk_osif_sem_post(unsigned h);
/** sem_wait on the semaphore of handle h. */
int rtk_osif_sem_wait(unsigned h);
/** sem_wait for at most timeout_us microseconds of the host's clock (then
 *  WEFT_OSIF_TIMEDOUT); RTK_OSIF_FOREVER: as long as it takes. */
int rtk_osif_sem_timedwait(unsigned h, uint32_t timeout_us);
/** pthread_mutex_lock on the mutex of handle h. The slot holds it, for all its threads:
 *  they take turns at it with a kernel mutex of their own (the host refuses a second lock
 *  from the slot that holds it, WEFT_OSIF_INTERNAL, unless the mutex is recursive). */
int rtk_osif_mutex_lock(unsigned h);
/** pthread_mutex_unlock. */
int rtk_osif_mutex_unlock(unsigned h);
/** pthread_mutex_trylock (WEFT_OSIF_BUSY when held elsewhere). */
int rtk_osif_mutex_trylock(unsigned h);
/** pthread_cond_wait on the condition variable of handle h with the mutex of handle m.
 *  It may return without a signal after a slice (a spurious wake-up, as POSIX allows),
 *  holding the mutex: check what it waits for in a loop. Only host threads can change
 *  that while the slot holds the mutex. */
int rtk_osif_cond_wait(unsigned h, unsigned m);
/** pthread_cond_signal. */
int rtk_osif_cond_signal(unsigned h);
/** pthread_cond_broadcast. */
int rtk_osif_cond_broadcast(unsigned h);
/** Puts one word into the mailbox of handle h, waiting while it is full. */
int rtk_osif_mbox_put(unsigned h, uint32_t word);
/** Takes one word from the mailbox of handle h into *word, waiting while it is empty. */
int rtk_osif_mbox_get(unsigned h, uint32_t *word);
/** Puts one word if there is room (WEFT_OSIF_AGAIN if not). */
int rtk_osif_mbox_tryput(unsigned h, uint32_t word);
/** Takes one word if there is one (WEFT_OSIF_AGAIN if not). */
int rtk_osif_mbox_tryget(unsigned h, uint32_t *word);

/** Most bytes of a message rtk_osif_mq_send() and rtk_osif_mq_receive() carry through
 *  the OSIF (an MQ_TIMEDSEND's header, msg_info and timeout and the message's words fill
 *  the bridge's buffer); a longer one goes through shared memory
 *  (WEFT_OSIF_CMD_MQ_SEND_MEM). */
#define RTK_OSIF_MQ_MAX_BYTES (4u * (WEFT_RV_OSIF_WORDS - 3u))

/** mq_send of len bytes (at most RTK_OSIF_MQ_MAX_BYTES) at priority prio to the message
 *  queue of handle h, waiting while it is full. */
int rtk_osif_mq_send(unsigned h, const void *msg, size_t len, unsigned prio);
/**
 * @brief mq_receive from the message queue of handle h, waiting while it is empty.
 * @param h the queue's handle
 * @param buf receives the message, at most max bytes
 * @param max bytes of room at buf: at least the queue's mq_msgsize (counting at most
 *        RTK_OSIF_MQ_MAX_BYTES), else WEFT_OSIF_MSGSIZE and nothing taken
 * @param len receives its length (may be NULL)
 * @param prio receives its priority (may be NULL)
 */
int rtk_osif_mq_receive(unsigned h, void *buf, size_t max, size_t *len, unsigned *prio);

/** Argument word n (below WEFT_RV_BOOT_ARGS) of the program's image (weft/softcore.h). */
uint32_t rtk_osif_arg(unsigned n);

/**
 * @brief Copies len bytes of shared memory at bus address bus into local RAM at dst, or
 *        (rtk_dma_write) the other way, through the slot's MEMIF; the core waits until
 *        the last word has moved (one word a cycle). Addresses and len are multiples of
 *        4; the memory must be in one of the thread's memory windows, or the whole
 *        softcore is faulted, as any hardware thread would be.
 * @return RTK_OK, or RTK_ARG (unaligned, empty, or past the RAM's end: nothing moved)
 */
int rtk_dma_read(void *dst, uint32_t bus, uint32_t len);
/** The other way: len bytes at src to shared memory at bus. */
int rtk_dma_write(uint32_t bus, const void *src, uint32_t len);

#ifdef __cplusplus
}
#endif

#endif
