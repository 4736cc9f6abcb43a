/* Software references of the hardware tasks (task_reference.h). */
#include "task_reference.h"

#include <string.h>

static const char *const kKernels[] = {"hwt_task_sumsq", "hwt_task_collatz", "hwt_task_fib",
                                       "hwt_task_popsum", "hwt_task_xorshift"};

int task_kernel_of(const char *image)
{
    for (int i = 0; i < (int)(sizeof kKernels / sizeof kKernels[0]); i++)
        if (strcmp(image, kKernels[i]) == 0)
            return i;
    return -1;
}

uint32_t task_reference(int op, uint32_t n)
{
    uint32_t acc = 0, aux = 0;
    switch (op) {
    case 0:
        for (uint32_t i = 1; i <= n && i != 0; i++)
            acc += i * i;
        return acc;
    case 1:
        for (aux = n; aux > 1; acc++)
            aux = (aux & 1) ? aux * 3 + 1 : aux >> 1;
        return acc;
    case 2:
        aux = 1;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t next = acc + aux;
            acc = aux;
            aux = next;
        }
        return acc;
    case 3:
        for (uint32_t i = 0; i < n; i++)
            acc += (uint32_t)__builtin_popcount(i);
        return acc;
    default:
        acc = 0x9E3779B9u;
        for (uint32_t i = 0; i < n; i++) {
            acc ^= acc << 13;
            acc ^= acc >> 17;
            acc ^= acc << 5;
        }
        return acc;
    }
}
