/**
 * @file trace.h
 * @brief Thread timelines: a recording of every thread's running and blocked states and
 *        OS calls, written as a Chrome trace (JSON) that ui.perfetto.dev and
 *        chrome://tracing open. See docs/trace.md.
 *
 * Hardware threads are recorded by their delegates without any call here: each OS call
 * the delegate serves is a "blocked in <CALL>" span on the thread's track, the time
 * between two calls a "running" span. Software threads say what they do with
 * weft_trace_begin() and weft_trace_end() around the calls that may block.
 *
 * Every recording call may come from any thread at any time. While nothing is being
 * recorded each of them costs one relaxed atomic load and records nothing.
 */
#ifndef WEFT_TRACE_H
#define WEFT_TRACE_H

#include <stddef.h>

#include "weft/weft.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Events a recording keeps by default; later ones are counted as dropped. */
#define WEFT_TRACE_MAX_EVENTS (1u << 20)

/** Tracks (threads) a recording keeps; events of further threads are dropped. */
#define WEFT_TRACE_MAX_TRACKS 1024u

/** Bytes kept of a name passed in (thread, call or mark), terminator included. */
#define WEFT_TRACE_NAME_MAX 48u

/**
 * @brief Begin a new recording with room for WEFT_TRACE_MAX_EVENTS events. The events
 *        of an earlier recording are discarded. Timestamps count from now.
 * @retval 0 recording
 * @retval -EINVAL w is NULL
 * @retval -EALREADY a recording is already on
 */
int weft_trace_start(weft_t *w);

/**
 * @brief weft_trace_start() with another cap on the events kept (memory grows as events
 *        arrive, about 100 bytes each).
 * @param w the runtime whose threads to record
 * @param max_events at least 1
 * @retval 0 recording
 * @retval -EINVAL w is NULL or max_events is 0
 * @retval -EALREADY a recording is already on
 */
int weft_trace_start_max(weft_t *w, size_t max_events);

/**
 * @brief End the recording. What was recorded stays until the next start and can still
 *        be written; spans still open are closed at the time of this call. Nothing
 *        happens when no recording is on; NULL is ignored.
 */
void weft_trace_stop(weft_t *w);

/**
 * @brief Write what has been recorded so far as a Chrome trace (JSON object format) to
 *        path, replacing the file. A recording that is on stays on; spans still open are
 *        written closed at the time of this call (args.open = true).
 * @retval 0 written
 * @retval -EINVAL a NULL argument
 * @retval -ENODATA nothing has been recorded since the runtime started
 * @retval -ENOMEM out of memory
 * @retval other negative errno: the file could not be opened or written (-EACCES,
 *         -ENOENT, -ENOSPC, ...)
 */
int weft_trace_write(weft_t *w, const char *path);

/**
 * @brief Name the calling pthread's track (copied, at most WEFT_TRACE_NAME_MAX - 1 bytes);
 *        the thread counts as running from now. A thread that records without naming
 *        itself gets "thread <n>". Call it after weft_trace_start(): a new recording
 *        starts with no tracks.
 */
void weft_trace_thread_name(weft_t *w, const char *name);

/**
 * @brief The calling software thread enters an OS call that may block, e.g. "sem_wait"
 *        (copied, bounded): its running span ends and a "blocked in <call>" span begins.
 *        A begin while already blocked ends the first blocked span and begins another.
 */
void weft_trace_begin(weft_t *w, const char *call);

/**
 * @brief The calling software thread returns from the call of its last weft_trace_begin():
 *        the blocked span ends and a running span begins. Without an open call it records
 *        nothing.
 */
void weft_trace_end(weft_t *w);

/** @brief An instant event on the calling thread's track, e.g. "frame 3 done" (copied,
 *         bounded). */
void weft_trace_mark(weft_t *w, const char *what);

/** @brief The calling software thread is about to end: its track gets an "exit" instant
 *         and no span after it. Nothing if the thread has no track. */
void weft_trace_thread_exit(weft_t *w);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_TRACE_H */
