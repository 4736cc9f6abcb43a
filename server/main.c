/*
 * weftd: one process owns the fabric and shares it between client processes
 * (docs/server.md).
 *
 * usage: weftd (--config FILE | --fred DIR) [--socket PATH] [--fred-socket PATH] [--check]
 *
 * It reads and checks the configuration (weftd's JSON, or FRED's arch.csv and
 * hw_tasks.csv), opens the simulated fabric, loads every task's bitstream, listens (Weft's
 * protocol, and FRED's where configured) and serves until SIGINT or SIGTERM; then it
 * aborts what runs, frees every buffer and removes its sockets. --check stops after the
 * configuration is read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "config.h"
#include "server.h"
#include "weft/sim.h"
#include "weft/weft.h"

static weftd_server_t *g_server;

static void on_signal(int sig)
{
    (void)sig;
    if (g_server)
        weftd_server_stop(g_server);
}

static int usage(const char *argv0, int rc)
{
    fprintf(rc ? stderr : stdout,
            "usage: %s (--config FILE | --fred DIR) [--socket PATH] [--fred-socket PATH] "
            "[--check]\n"
            "  --config FILE       the server's configuration (docs/server.md, \"Configuration\")\n"
            "  --fred DIR          or FRED's: DIR/arch.csv and DIR/hw_tasks.csv\n"
            "  --socket PATH       Weft's protocol here (default: the file's \"socket\", else\n"
            "                      $XDG_RUNTIME_DIR/weftd.sock, else /tmp/weftd-<uid>/weftd.sock)\n"
            "  --fred-socket PATH  FRED's protocol here (default: the file's \"fred_socket\";\n"
            "                      with --fred, " WEFTD_FRED_SOCKET ")\n"
            "  --check             read and check the configuration, then exit\n",
            argv0);
    return rc;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {{"config", required_argument, NULL, 'c'},
                                         {"fred", required_argument, NULL, 'f'},
                                         {"socket", required_argument, NULL, 's'},
                                         {"fred-socket", required_argument, NULL, 'F'},
                                         {"check", no_argument, NULL, 'k'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *config = NULL, *fred = NULL, *sock = NULL, *fred_sock = NULL;
    int check = 0, o;
    while ((o = getopt_long(argc, argv, "c:f:s:F:kh", opts, NULL)) != -1) {
        switch (o) {
        case 'c':
            config = optarg;
            break;
        case 'f':
            fred = optarg;
            break;
        case 'F':
            fred_sock = optarg;
            break;
        case 's':
            sock = optarg;
            break;
        case 'k':
            check = 1;
            break;
        case 'h':
            return usage(argv[0], 0);
        default:
            return usage(argv[0], 2);
        }
    }
    if (!config == !fred || optind != argc)
        return usage(argv[0], 2);

    static weftd_config_t cfg;
    char why[512];
    if ((config ? weftd_config_load(config, &cfg, why, sizeof why)
                : weftd_config_load_fred(fred, &cfg, why, sizeof why)) != 0) {
        fprintf(stderr, "weftd: %s\n", why);
        return 1;
    }
    const size_t room = sizeof cfg.socket_path;
    if ((sock && strlen(sock) >= room) || (fred_sock && strlen(fred_sock) >= room)) {
        fprintf(stderr, "weftd: a socket path longer than %zu bytes\n", room - 1);
        return 2;
    }
    if (sock)
        snprintf(cfg.socket_path, room, "%s", sock);
    if (fred_sock)
        snprintf(cfg.fred_socket_path, room, "%s", fred_sock);
    if (!cfg.socket_path[0] && weftd_default_socket(cfg.socket_path, room, why, sizeof why)) {
        fprintf(stderr, "weftd: %s\n", why);
        return 1;
    }
    if (check) {
        printf("weftd: %s: %u tasks in %u partitions, socket %s%s%s\n", config ? config : fred,
               cfg.num_tasks, cfg.num_partitions, cfg.socket_path,
               cfg.fred_socket_path[0] ? ", FRED's protocol at " : "", cfg.fred_socket_path);
        return 0;
    }

    /* Each client may hold a socket, its requests' fds and (FRED) its buffers' memfds:
     * take every fd the system lets this process have, and say if that is too few. */
    struct rlimit nofile;
    if (getrlimit(RLIMIT_NOFILE, &nofile) == 0) {
        nofile.rlim_cur = nofile.rlim_max;
        setrlimit(RLIMIT_NOFILE, &nofile);
        const unsigned long long need = (unsigned long long)cfg.limits.clients *
                                            (1 + cfg.limits.requests + cfg.limits.buffers) +
                                        64;
        if (nofile.rlim_cur != RLIM_INFINITY && nofile.rlim_cur < need)
            fprintf(stderr,
                    "weftd: %llu file descriptors at most, and the limits may need %llu: "
                    "connections wait while none is free\n",
                    (unsigned long long)nofile.rlim_cur, need);
    }

    weft_platform_t *p = NULL;
    weft_t *w = NULL;
    int rc = weft_sim_open(&p, NULL);
    if (rc == 0)
        rc = weft_init(&w, p);
    if (rc != 0) {
        fprintf(stderr, "weftd: cannot open the fabric: %s\n", strerror(-rc));
        return 1;
    }
    rc = weftd_server_open(w, &cfg, &g_server, why, sizeof why);
    if (rc != 0) {
        fprintf(stderr, "weftd: %s\n", why);
        weft_shutdown(w);
        p->ops->close(p);
        return 1;
    }
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN); /* a closed log pipe fails a write; it does not end the server */
    printf("weftd: serving %u tasks in %u partitions at %s%s%s\n", cfg.num_tasks,
           cfg.num_partitions, cfg.socket_path,
           cfg.fred_socket_path[0] ? " and, FRED's protocol, at " : "", cfg.fred_socket_path);
    fflush(stdout);

    rc = weftd_server_run(g_server);
    if (rc != 0)
        fprintf(stderr, "weftd: the event loop failed: %s\n", strerror(-rc));
    weftd_server_stats_t st;
    weftd_server_stats(g_server, &st);
    weftd_server_t *s = g_server;
    g_server = NULL;
    weftd_server_close(s);
    weft_shutdown(w);
    p->ops->close(p);
    printf("weftd: stopped: %llu clients (%llu refused, %llu dropped), %llu requests done\n",
           (unsigned long long)st.accepted, (unsigned long long)st.refused,
           (unsigned long long)st.dropped, (unsigned long long)st.completed);
    return rc ? 1 : 0;
}
