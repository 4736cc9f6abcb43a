// The fixture of weftd's end-to-end tests (docs/server.md): a server on a thread of the
// test process over the simulated fabric and the platform's real task bitstreams, a
// configuration with small limits, FRED's protocol on a second socket; clients through
// libweftd_client or, to send what the library never would, through a raw socket.
#pragma once

#include <gtest/gtest.h>

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

extern "C" {
#include "config.h"
#include "hls_job.h"
#include "server.h"
#include "task_reference.h"
#include "weft/platform_config.h"
#include "weft/reconf.h"
#include "weft/sim.h"
#include "weft/weft.h"
#include "weft/weftd_client.h"
#include "wire.h"
}

extern char **environ;

namespace weftd_test
{

const weft_reconf_partition_t kPartitions[] = WEFT_PLATFORM_PARTITION_LIST;
const weft_platform_task_t kTasks[] = WEFT_PLATFORM_TASK_LIST;

// xorshift's watchdog in the test configuration: 10,000 fabric cycles at 100 MHz.
constexpr unsigned kXorshiftTimeoutUs = 100;

// vecsum's size for FRED clients (fred_args).
constexpr unsigned kFredVecsumN = 1000;

// The platform's tasks, ids 1.. in its order; xorshift with a short timeout; small limits
// so that each can be reached.
inline std::string ConfigJson()
{
    std::string s = "{\"allow_groups\": [4242],\n \"limits\": {\"clients\": 4, \"buffers\": 4, "
                    "\"buffer_bytes\": 65536, "
                    "\"requests\": 4},\n \"partitions\": [";
    for (size_t i = 0; i < sizeof kPartitions / sizeof kPartitions[0]; i++) {
        s += i ? ", " : "";
        s += std::string("{\"name\": \"") + kPartitions[i].name + "\", \"slots\": [";
        bool first = true;
        for (unsigned b = 0; b < 64; b++)
            if (kPartitions[i].slots >> b & 1) {
                s += (first ? "" : ", ") + std::to_string(b);
                first = false;
            }
        s += "]}";
    }
    s += "],\n \"tasks\": [";
    for (size_t i = 0; i < sizeof kTasks / sizeof kTasks[0]; i++) {
        const std::string name = kTasks[i].name;
        s += i ? ",\n  " : "";
        s += "{\"id\": " + std::to_string(i + 1) + ", \"name\": \"" + name +
             "\", \"partition\": \"" + kPartitions[kTasks[i].partition].name + "\", \"kind\": \"" +
             (kTasks[i].accelerator ? "accelerator" : "thread") + "\", \"bitstream\": \"" +
             WEFT_BITSTREAM_DIR + "/" + kTasks[i].image + ".wbit\", \"timeout_us\": " +
             (name == "xorshift" ? std::to_string(kXorshiftTimeoutUs) : "0");
        // What FRED clients bind: vecsum's a, b, c and its size; xorshift's buffer address
        // is its init data (a problem size of hundreds of millions: past its timeout).
        if (name == "vecsum")
            s += ", \"buffers\": [4096, 4096, 4096], \"fred_args\": [" +
                 std::to_string(kFredVecsumN) + "]";
        if (name == "xorshift")
            s += ", \"buffers\": [4096]";
        s += "}";
    }
    return s + "]}\n";
}

class Weftd : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        char tmpl[] = "/tmp/weftd-test-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
        sock_ = dir_ + "/weftd.sock";
        fred_sock_ = dir_ + "/fred.sock";
        const std::string cfg_path = dir_ + "/weftd.json";
        std::ofstream(cfg_path) << ConfigJson();
        char why[512] = "";
        ASSERT_EQ(weftd_config_load(cfg_path.c_str(), &cfg_, why, sizeof why), 0) << why;
        ASSERT_EQ(weft_sim_open(&p_, nullptr), 0);
        ASSERT_EQ(weft_init(&w_, p_), 0);
        snprintf(cfg_.socket_path, sizeof cfg_.socket_path, "%s", sock_.c_str());
        snprintf(cfg_.fred_socket_path, sizeof cfg_.fred_socket_path, "%s", fred_sock_.c_str());
        ASSERT_EQ(weftd_server_open(w_, &cfg_, &s_, why, sizeof why), 0) << why;
        loop_ = std::thread([this] { weftd_server_run(s_); });
    }

    void TearDown() override
    {
        for (weftd_client_t *c : clients_)
            weftd_disconnect(c);
        if (s_) {
            weftd_server_stop(s_);
            loop_.join();
            weftd_server_close(s_);
        }
        if (w_)
            weft_shutdown(w_);
        if (p_)
            p_->ops->close(p_);
        std::remove((dir_ + "/weftd.json").c_str());
        rmdir(dir_.c_str());
    }

    weftd_client_t *Connect()
    {
        weftd_client_t *c = nullptr;
        char why[256] = "";
        EXPECT_EQ(weftd_connect(sock_.c_str(), &c, why, sizeof why), 0) << why;
        if (c)
            clients_.push_back(c);
        return c;
    }

    void Disconnect(weftd_client_t *c)
    {
        for (auto it = clients_.begin(); it != clients_.end(); ++it)
            if (*it == c) {
                clients_.erase(it);
                break;
            }
        weftd_disconnect(c);
    }

    static unsigned Id(const char *name)
    {
        for (size_t i = 0; i < sizeof kTasks / sizeof kTasks[0]; i++)
            if (std::string(kTasks[i].name) == name)
                return unsigned(i + 1);
        ADD_FAILURE() << "no task " << name;
        return 0;
    }

    // After its mistakes were answered, c still runs a request, and nobody was dropped.
    void ExpectInGoodStanding(weftd_client_t *c, const char *task)
    {
        weftd_arg_t v = weftd_value(50);
        weftd_result_t r{};
        EXPECT_EQ(weftd_run(c, Id(task), &v, 1, &r), 0) << weftd_last_error(c);
        EXPECT_EQ(r.status, 0);
        EXPECT_EQ(Stats().dropped, 0u);
    }

    weftd_server_stats_t Stats()
    {
        weftd_server_stats_t st;
        weftd_server_stats(s_, &st);
        return st;
    }

    // Wait (up to 10 s) until pred holds of the server's counters.
    template <class Pred> bool StatsUntil(Pred pred)
    {
        for (int i = 0; i < 1000; i++) {
            if (pred(Stats()))
                return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return false;
    }

    // A connection that speaks the wire by hand (to FRED's socket with fred).
    int RawConnect(bool fred = false)
    {
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un a{};
        a.sun_family = AF_UNIX;
        std::snprintf(a.sun_path, sizeof a.sun_path, "%s", (fred ? fred_sock_ : sock_).c_str());
        EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a), 0);
        return fd;
    }

    static void RawSend(int fd, const void *bytes, size_t len)
    {
        ASSERT_EQ(send(fd, bytes, len, MSG_NOSIGNAL), ssize_t(len));
    }

    static void RawSend(int fd, weftd_msg_t m)
    {
        uint8_t buf[WEFTD_HEADER_BYTES + WEFTD_MAX_PAYLOAD];
        long n = weftd_encode(&m, buf, sizeof buf);
        ASSERT_GT(n, 0);
        RawSend(fd, buf, size_t(n));
    }

    static weftd_msg_t Hello()
    {
        weftd_msg_t m{};
        m.type = WEFTD_HELLO;
        m.seq = 1;
        m.u.hello.min_version = m.u.hello.max_version = WEFTD_VERSION;
        return m;
    }

    // The next message from the server (within 10 s); false when the server closed the
    // connection first.
    static bool RawRecv(int fd, weftd_msg_t *m)
    {
        std::vector<uint8_t> buf;
        for (;;) {
            char why[WEFTD_MAX_TEXT];
            long used =
                buf.empty() ? 0 : weftd_decode(buf.data(), buf.size(), 1, m, why, sizeof why);
            EXPECT_GE(used, 0) << why;
            if (used != 0)
                return used > 0;
            pollfd p{fd, POLLIN, 0};
            if (poll(&p, 1, 10000) != 1)
                return false;
            // A byte at a time: never read into the next message.
            uint8_t chunk[1];
            ssize_t n = read(fd, chunk, 1);
            if (n <= 0)
                return false;
            buf.insert(buf.end(), chunk, chunk + n);
        }
    }

    // Connect as uid/gid from a child process, say HELLO, and return the first answer.
    bool FirstAnswerAs(uid_t uid, gid_t gid, weftd_msg_t *m)
    {
        uint8_t hello[64];
        weftd_msg_t h = Hello();
        const long hl = weftd_encode(&h, hello, sizeof hello);
        sockaddr_un a{};
        a.sun_family = AF_UNIX;
        std::snprintf(a.sun_path, sizeof a.sun_path, "%s", sock_.c_str());
        int out[2];
        if (pipe(out) != 0)
            return false;
        pid_t pid = fork();
        if (pid == 0) { // only async-signal-safe calls: this process has threads
            close(out[0]);
            int fd = socket(AF_UNIX, SOCK_STREAM, 0);
            if (setgroups(0, nullptr) != 0 || setgid(gid) != 0 || setuid(uid) != 0 ||
                connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0)
                _exit(1);
            // A refused connection may be closed before HELLO is sent: read the answer
            // all the same.
            (void)!send(fd, hello, size_t(hl), MSG_NOSIGNAL);
            char buf[512];
            ssize_t n = read(fd, buf, sizeof buf); // the first answer
            _exit(n > 0 && write(out[1], buf, size_t(n)) == n ? 0 : 1);
        }
        close(out[1]);
        bool got = RawRecv(out[0], m);
        close(out[0]);
        int st = 0;
        waitpid(pid, &st, 0);
        EXPECT_EQ(WEXITSTATUS(st), 0) << "the child could not connect";
        return got;
    }

    // Whether the server has closed fd (reads end-of-file within 10 s).
    static bool Closed(int fd)
    {
        pollfd p{fd, POLLIN, 0};
        char b;
        return poll(&p, 1, 10000) == 1 && recv(fd, &b, 1, 0) == 0;
    }

    std::string dir_, sock_, fred_sock_;
    weftd_config_t cfg_{};
    weft_platform_t *p_ = nullptr;
    weft_t *w_ = nullptr;
    weftd_server_t *s_ = nullptr;
    std::thread loop_;
    std::vector<weftd_client_t *> clients_;
};

} // namespace weftd_test

using weftd_test::Weftd;
