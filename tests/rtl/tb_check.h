// The failed-check counter and CHECK macro every self-checking test bench uses: a check
// that fails prints where and why (the first 30) and counts; main() returns non-zero
// when weft_tb::failures is not 0.
#ifndef WEFT_TB_CHECK_H
#define WEFT_TB_CHECK_H

#include <cstdio>

namespace weft_tb
{
inline int failures = 0;
} // namespace weft_tb

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            if (weft_tb::failures < 30) {                                                          \
                std::fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                          \
                std::fprintf(stderr, __VA_ARGS__);                                                 \
                std::fprintf(stderr, "\n");                                                        \
            }                                                                                      \
            ++weft_tb::failures;                                                                   \
        }                                                                                          \
    } while (0)

#endif // WEFT_TB_CHECK_H
