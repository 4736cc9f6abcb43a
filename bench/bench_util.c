#define _POSIX_C_SOURCE 200809L

#include "bench_util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

const bench_stats_t bench_no_stats = {0, NAN, NAN, NAN, NAN, NAN, NAN};

double bench_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

bench_stats_t bench_scaled(bench_stats_t s, double k)
{
    s.median *= k;
    s.p99 *= k;
    s.mean *= k;
    s.min *= k;
    s.p999 *= k;
    s.max *= k;
    return s;
}

bench_stats_t bench_summarize(double *v, size_t n)
{
    bench_stats_t s = bench_no_stats;
    if (n == 0)
        return s;
    qsort(v, n, sizeof *v, cmp_double);
    s.n = n;
    s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    size_t rank = (size_t)ceil(0.99 * (double)n);
    s.p99 = v[(rank ? rank : 1) - 1];
    rank = (size_t)ceil(0.999 * (double)n);
    s.p999 = v[(rank ? rank : 1) - 1];
    s.min = v[0];
    s.max = v[n - 1];
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    s.mean = sum / (double)n;
    return s;
}

int bench_mkdirs_for(const char *path)
{
    char *p = strdup(path);
    if (!p)
        return -ENOMEM;
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            int e = errno;
            free(p);
            return -e;
        }
        *s = '/';
    }
    free(p);
    return 0;
}

json_t *bench_jnum(double x)
{
    return isfinite(x) ? json_real(round(x * 1e4) / 1e4) : json_null();
}

int bench_args(int argc, char **argv, const char *prog, unsigned max_reps, unsigned *reps,
               const char **out, void (*usage)(FILE *))
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "--reps") && strcmp(a, "--out")) {
            fprintf(stderr, "%s: unknown argument '%s'\n", prog, a);
            usage(stderr);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "%s: %s needs a value\n", prog, a);
            return 2;
        }
        const char *val = argv[++i];
        if (!strcmp(a, "--out")) {
            if (!*val) {
                fprintf(stderr, "%s: --out needs a non-empty path\n", prog);
                return 2;
            }
            *out = val;
            continue;
        }
        char *end;
        errno = 0;
        unsigned long n = strtoul(val, &end, 10);
        if (val[0] < '0' || val[0] > '9' || *end || errno || n < 1 || n > max_reps) {
            fprintf(stderr, "%s: --reps wants a whole number 1..%u, got '%s'\n", prog, max_reps,
                    val);
            return 2;
        }
        *reps = (unsigned)n;
    }
    /* Fail before measuring when the result file's directory cannot be made. */
    int rc = bench_mkdirs_for(*out);
    if (rc) {
        fprintf(stderr, "%s: cannot create the directory of %s: %s\n", prog, *out, strerror(-rc));
        return 1;
    }
    return -1;
}
