/* Software references of the hardware tasks of hw/threads/task/hwt_task.sv: what each
 * kernel's THREAD_EXIT value must be for an argument n. */
#ifndef WEFT_TASK_REFERENCE_H
#define WEFT_TASK_REFERENCE_H

#include <stdint.h>

/** The kernel an image runs, from its name ("hwt_task_fib"); -1 if none. */
int task_kernel_of(const char *image);

/** The result of kernel op (hwt_task's Op) for argument n. */
uint32_t task_reference(int op, uint32_t n);

#endif /* WEFT_TASK_REFERENCE_H */
