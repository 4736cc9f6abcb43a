// weftd end to end (docs/server.md): what a client gets, buffers, requests, the
// watchdog, clients that go away, hostile bytes. What a client can do wrong gets an answer
// naming it and costs the others nothing; a client that dies loses its requests and
// buffers and the slot is recovered; the watchdog stops a task and the task can run again.
#include "weftd_fixture.h"

namespace
{
using namespace weftd_test;

// ---- what a client gets --------------------------------------------------------------------

TEST_F(Weftd, OffersTheTasksOfItsConfiguration)
{
    weftd_client_t *c = Connect();
    weftd_task_t t[WEFTD_MAX_TASKS];
    ASSERT_EQ(weftd_tasks(c, t, WEFTD_MAX_TASKS), int(sizeof kTasks / sizeof kTasks[0]));
    for (size_t i = 0; i < sizeof kTasks / sizeof kTasks[0]; i++) {
        EXPECT_EQ(t[i].id, i + 1);
        EXPECT_STREQ(t[i].name, kTasks[i].name);
        EXPECT_EQ(t[i].partition, kTasks[i].partition);
        EXPECT_EQ(t[i].accelerator, kTasks[i].accelerator);
    }
    EXPECT_EQ(weftd_task_id(c, "fib"), int(Id("fib")));
    EXPECT_EQ(weftd_task_id(c, "nosuch"), -ENOENT);
}

TEST_F(Weftd, RunsThreadTasksInBothPartitionsSynchronously)
{
    weftd_client_t *c = Connect();
    for (const char *name : {"sumsq", "collatz", "fib", "popsum"}) {
        const uint32_t n = 777;
        weftd_arg_t a = weftd_value(n);
        weftd_result_t r{};
        ASSERT_EQ(weftd_run(c, Id(name), &a, 1, &r), 0) << weftd_last_error(c);
        EXPECT_EQ(r.status, 0) << name;
        const std::string image = std::string("hwt_task_") + name;
        EXPECT_EQ(r.exit_value, task_reference(task_kernel_of(image.c_str()), n)) << name;
        EXPECT_EQ(r.slot / 2, kTasks[Id(name) - 1].partition)
            << name << " ran outside its partition";
        EXPECT_GT(r.exec_cycles, 0u);
    }
}

// The accelerator reads its inputs from and writes its output to the client's own
// mapping of the buffer: no copy on either side.
TEST_F(Weftd, AcceleratorWorksInTheClientsMappedBuffer)
{
    weftd_client_t *c = Connect();
    weftd_buffer_t b{};
    ASSERT_EQ(weftd_alloc(c, HLS_JOB_BYTES, &b), 0) << weftd_last_error(c);
    ASSERT_GE(b.size, HLS_JOB_BYTES);
    for (const char *name : {"vecsum", "fir", "matmul"}) {
        hls_job_t job;
        const std::string image = std::string("hwt_hls_") + name;
        const int kernel = hls_kernel_of(image.c_str());
        hls_job_prepare(&job, kernel, static_cast<uint32_t *>(b.data), 0, kernel == 2 ? 9 : 333,
                        77);
        std::vector<weftd_arg_t> args;
        for (unsigned i = 0; i < job.num_args; i++)
            args.push_back(i < HLS_JOB_ADDRESS_ARGS ? weftd_buffer_arg(&b, job.args[i])
                                                    : weftd_value(job.args[i]));
        weftd_result_t r{};
        ASSERT_EQ(weftd_run(c, Id(name), args.data(), unsigned(args.size()), &r), 0);
        EXPECT_EQ(r.status, 0) << name;
        EXPECT_TRUE(hls_job_check(&job)) << name << ": the output in the client's mapping is wrong";
    }
    EXPECT_EQ(weftd_free(c, &b), 0);
}

TEST_F(Weftd, AsynchronousRequestsEndThroughThePollableFd)
{
    weftd_client_t *c = Connect();
    uint32_t req[4];
    const char *names[] = {"sumsq", "fib", "collatz", "popsum"};
    for (int i = 0; i < 4; i++) {
        weftd_arg_t a = weftd_value(100 + i);
        ASSERT_EQ(weftd_submit(c, Id(names[i]), &a, 1, &req[i]), 0) << weftd_last_error(c);
    }
    int ended = 0;
    while (ended < 4) {
        pollfd p{weftd_fd(c), POLLIN, 0};
        ASSERT_EQ(poll(&p, 1, 20000), 1) << "the fd never turned readable";
        uint32_t id;
        weftd_result_t r;
        while (weftd_next(c, &id, &r) == 0) {
            EXPECT_EQ(r.status, 0);
            ended++;
        }
    }
    uint32_t id;
    weftd_result_t r;
    EXPECT_EQ(weftd_next(c, &id, &r), -EAGAIN);
    pollfd p{weftd_fd(c), POLLIN, 0};
    EXPECT_EQ(poll(&p, 1, 0), 0) << "readable with nothing to collect";
}

// ---- buffers --------------------------------------------------------------------------------

// The fd is the region's pages: what the client writes the fabric's side reads and back;
// it cannot be resized; after FREE the range is private again (a new buffer there starts
// zero, and writing the old mapping no longer reaches it).
TEST_F(Weftd, SharedMemoryIsTheRegionsPagesUntilFreed)
{
    void *cpu = nullptr;
    uint64_t bus = 0;
    int fd = -1;
    ASSERT_EQ(weft_mem_share(w_, 5000, &cpu, &bus, &fd), 0);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(cpu) % 4096, 0u);
    EXPECT_EQ(bus % 4096, 0u);
    auto *mine =
        static_cast<uint8_t *>(mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
    ASSERT_NE(mine, MAP_FAILED);
    mine[4097] = 0xab;
    EXPECT_EQ(static_cast<uint8_t *>(cpu)[4097], 0xab);
    static_cast<uint8_t *>(cpu)[10] = 0xcd;
    EXPECT_EQ(mine[10], 0xcd);
    EXPECT_NE(ftruncate(fd, 4096), 0) << "a client could shrink the region under the fabric";
    EXPECT_NE(ftruncate(fd, 1 << 20), 0);
    ASSERT_EQ(weft_mem_free(w_, cpu), 0);
    EXPECT_EQ(mine[4097], 0) << "the freed buffer's pages stay allocated for an old mapping";
    mine[20] = 0xee;
    EXPECT_EQ(static_cast<uint8_t *>(cpu)[20], 0)
        << "a freed buffer's old mapping still reaches the region";
    void *again = nullptr;
    int fd2 = -1;
    ASSERT_EQ(weft_mem_share(w_, 4096, &again, &bus, &fd2), 0);
    EXPECT_EQ(again, cpu) << "first fit should give the same range back";
    EXPECT_EQ(static_cast<uint8_t *>(again)[10], 0) << "a new buffer shows an old one's data";
    munmap(mine, 8192);
    close(fd);
    close(fd2);
    EXPECT_EQ(weft_mem_free(w_, again), 0);
}

TEST_F(Weftd, BufferErrorsAreAnsweredAndTheClientKept)
{
    weftd_client_t *c = Connect();
    weftd_buffer_t b[4];
    for (auto &x : b)
        ASSERT_EQ(weftd_alloc(c, 4096, &x), 0);
    weftd_buffer_t more{};
    EXPECT_EQ(weftd_alloc(c, 4096, &more), -EDQUOT);
    EXPECT_NE(std::string(weftd_last_error(c)).find("limit"), std::string::npos)
        << weftd_last_error(c);
    ASSERT_EQ(weftd_free(c, &b[3]), 0);
    EXPECT_EQ(weftd_alloc(c, 65536, &more), -EDQUOT) << "past buffer_bytes";
    weftd_buffer_t ghost{99, nullptr, 4096};
    EXPECT_EQ(weftd_free(c, &ghost), -ENOENT);
    // Another client's buffer ids are not this one's.
    weftd_client_t *other = Connect();
    weftd_arg_t a = weftd_buffer_arg(&b[0], 0);
    EXPECT_EQ(weftd_submit(other, Id("vecsum"), &a, 1, nullptr), -ENOENT);
    EXPECT_NE(std::string(weftd_last_error(other)).find("no buffer"), std::string::npos);
    // Offsets stay inside the buffer.
    a = weftd_buffer_arg(&b[0], 4096);
    EXPECT_EQ(weftd_submit(c, Id("vecsum"), &a, 1, nullptr), -EINVAL);
    EXPECT_NE(std::string(weftd_last_error(c)).find("past buffer"), std::string::npos);
    ExpectInGoodStanding(c, "sumsq");
}

// ---- requests -------------------------------------------------------------------------------

TEST_F(Weftd, RequestErrorsAreAnsweredAndTheClientKept)
{
    weftd_client_t *c = Connect();
    weftd_arg_t two[2] = {weftd_value(1), weftd_value(2)};
    EXPECT_EQ(weftd_submit(c, 999, two, 1, nullptr), -ENOENT);
    EXPECT_NE(std::string(weftd_last_error(c)).find("no task with id 999"), std::string::npos);
    EXPECT_EQ(weftd_submit(c, Id("fib"), two, 2, nullptr), -EINVAL)
        << "a thread takes one argument";
    weftd_arg_t big = weftd_value(1ull << 32);
    EXPECT_EQ(weftd_submit(c, Id("fib"), &big, 1, nullptr), -EINVAL) << "init data is 32 bits";
    EXPECT_EQ(weftd_cancel(c, 12345), -ENOENT);
    ExpectInGoodStanding(c, "fib");
}

// A queued request is taken back; a running one is not (no preemption); a client's
// requests not done are bounded.
TEST_F(Weftd, CancelAndTheRequestLimit)
{
    weftd_client_t *c = Connect();
    // popsum has no timeout: with a huge n it runs until stopped. Two fill the small
    // partition's two slots; the third waits.
    weftd_arg_t huge = weftd_value(0xfffffff0u);
    uint32_t run1, run2, queued;
    ASSERT_EQ(weftd_submit(c, Id("popsum"), &huge, 1, &run1), 0);
    ASSERT_EQ(weftd_submit(c, Id("popsum"), &huge, 1, &run2), 0);
    weftd_arg_t small = weftd_value(5);
    ASSERT_EQ(weftd_submit(c, Id("collatz"), &small, 1, &queued), 0);
    ASSERT_EQ(weftd_submit(c, Id("collatz"), &small, 1, nullptr), 0);
    EXPECT_EQ(weftd_submit(c, Id("collatz"), &small, 1, nullptr), -EAGAIN) << "past 4 requests";
    ASSERT_EQ(weftd_cancel(c, queued), 0) << weftd_last_error(c);
    weftd_result_t r{};
    ASSERT_EQ(weftd_wait(c, queued, 10000, &r), 0);
    EXPECT_EQ(r.status, -ECANCELED);
    // Wait until popsum runs, then its cancel is refused.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_EQ(weftd_cancel(c, run1), -EBUSY);
    EXPECT_NE(std::string(weftd_last_error(c)).find("not preemptive"), std::string::npos);
    Disconnect(c); // aborts the runners
    ASSERT_TRUE(StatsUntil([](const weftd_server_stats_t &s) { return s.live_requests == 0; }));
}

TEST_F(Weftd, FreeOfABufferInUseIsRefused)
{
    weftd_client_t *c = Connect();
    weftd_buffer_t b{};
    ASSERT_EQ(weftd_alloc(c, 8192, &b), 0);
    // A thread request naming the buffer (its bus address as init data: runs long).
    weftd_arg_t a = weftd_buffer_arg(&b, 0);
    uint32_t req;
    ASSERT_EQ(weftd_submit(c, Id("popsum"), &a, 1, &req), 0);
    EXPECT_EQ(weftd_free(c, &b), -EBUSY);
    EXPECT_NE(std::string(weftd_last_error(c)).find("not done"), std::string::npos);
    EXPECT_NE(b.data, nullptr) << "a refused free unmapped the buffer";
}

// The watchdog: a task past its timeout is stopped, the client told ETIMEDOUT, and the
// task runs again (FRED would ban it).
TEST_F(Weftd, WatchdogStopsATaskAndItCanRunAgain)
{
    weftd_client_t *c = Connect();
    weftd_arg_t forever = weftd_value(0xfffffff0u);
    weftd_result_t r{};
    ASSERT_EQ(weftd_run(c, Id("xorshift"), &forever, 1, &r), 0);
    EXPECT_EQ(r.status, -ETIMEDOUT);
    EXPECT_GE(r.exec_cycles, kXorshiftTimeoutUs * 100ull);
    weftd_arg_t n = weftd_value(500);
    ASSERT_EQ(weftd_run(c, Id("xorshift"), &n, 1, &r), 0);
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.exit_value, task_reference(task_kernel_of("hwt_task_xorshift"), 500));
}

// ---- clients that go away -----------------------------------------------------------------

// A client process killed while its request runs: the request is aborted, the slot
// recovered, its buffer freed; nobody else notices.
TEST_F(Weftd, ClientDeathMidRequestCostsNobodyAnything)
{
    weftd_client_t *bystander = Connect();
    int out[2];
    ASSERT_EQ(pipe(out), 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    const std::string task = std::to_string(Id("popsum"));
    char *argv[] = {const_cast<char *>(WEFTD_TEST_CLIENT), const_cast<char *>(sock_.c_str()),
                    const_cast<char *>(task.c_str()), nullptr};
    pid_t pid;
    ASSERT_EQ(posix_spawn(&pid, WEFTD_TEST_CLIENT, &fa, nullptr, argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    struct Reaper { // the child never outlives the test, whatever fails
        pid_t pid;
        ~Reaper()
        {
            kill(pid, SIGKILL);
            waitpid(pid, nullptr, 0);
        }
    } reaper{pid};
    close(out[1]);
    char line[32] = "";
    pollfd p{out[0], POLLIN, 0};
    ASSERT_EQ(poll(&p, 1, 20000), 1);
    ASSERT_GT(read(out[0], line, sizeof line - 1), 0);
    EXPECT_STREQ(line, "submitted\n");
    close(out[0]);
    ASSERT_TRUE(StatsUntil([](const weftd_server_stats_t &s) { return s.live_requests == 1; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(100)); // let it start running
    kill(pid, SIGKILL);
    ASSERT_TRUE(StatsUntil([](const weftd_server_stats_t &s) {
        return s.live_requests == 0 && s.live_buffers == 0 && s.live_clients == 1;
    })) << "the dead client's request or buffer is still held";
    EXPECT_EQ(Stats().orphaned, 1u);
    // Both of the small partition's slots serve others at once: none was leaked.
    uint32_t a, b;
    weftd_arg_t n = weftd_value(500000); // long enough that the two overlap
    ASSERT_EQ(weftd_submit(bystander, Id("popsum"), &n, 1, &a), 0);
    ASSERT_EQ(weftd_submit(bystander, Id("popsum"), &n, 1, &b), 0);
    weftd_result_t ra{}, rb{};
    ASSERT_EQ(weftd_wait(bystander, a, 20000, &ra), 0);
    ASSERT_EQ(weftd_wait(bystander, b, 20000, &rb), 0);
    EXPECT_EQ(ra.status, 0);
    EXPECT_EQ(rb.status, 0);
    EXPECT_NE(ra.slot, rb.slot);
}

TEST_F(Weftd, ClientsPastTheLimitAreTurnedAway)
{
    for (int i = 0; i < 4; i++)
        ASSERT_NE(Connect(), nullptr);
    weftd_client_t *c = nullptr;
    char why[256] = "";
    EXPECT_EQ(weftd_connect(sock_.c_str(), &c, why, sizeof why), -EUSERS);
    EXPECT_NE(std::string(why).find("its limit"), std::string::npos) << why;
    Disconnect(clients_.back());
    ASSERT_TRUE(StatsUntil([](const weftd_server_stats_t &s) { return s.live_clients == 3; }));
    EXPECT_NE(Connect(), nullptr);
}

// SO_PEERCRED and the access policy: the test configuration lets group 4242 in besides
// the server's own user (so the socket is open to all and the policy decides). Becoming
// another user needs root.
TEST_F(Weftd, AccessPolicyDecidesByThePeersCredentials)
{
    if (geteuid() != 0)
        GTEST_SKIP() << "needs root to connect as another user";
    ASSERT_EQ(chmod(dir_.c_str(), 0755), 0);
    weftd_msg_t m{};
    ASSERT_TRUE(FirstAnswerAs(65534, 65534, &m));
    EXPECT_EQ(m.type, WEFTD_ERROR);
    EXPECT_EQ(m.u.error.err, EACCES);
    EXPECT_NE(std::string(m.u.error.text).find("user 65534"), std::string::npos) << m.u.error.text;
    EXPECT_EQ(Stats().refused, 1u);
    ASSERT_TRUE(FirstAnswerAs(65534, 4242, &m));
    EXPECT_EQ(m.type, WEFTD_HELLO) << "a member of an allowed group was refused";
    EXPECT_EQ(Stats().refused, 1u);
}

// ---- hostile bytes --------------------------------------------------------------------------

// Each malformed stream gets an ERROR naming what was wrong and is dropped, while a
// well-behaved client's request runs on to its result.
TEST_F(Weftd, MalformedMessagesDropOnlyTheirSender)
{
    weftd_client_t *good = Connect();
    weftd_arg_t n = weftd_value(20000);
    uint32_t req;
    ASSERT_EQ(weftd_submit(good, Id("collatz"), &n, 1, &req), 0);

    struct Case {
        const char *what;
        std::vector<uint8_t> bytes;
        const char *names;
    };
    uint8_t hello[64];
    weftd_msg_t h = Hello();
    const long hl = weftd_encode(&h, hello, sizeof hello);
    std::vector<uint8_t> bad_magic(hello, hello + hl), bad_len(hello, hello + hl),
        bad_type(hello, hello + hl);
    bad_magic[0] = 'X';
    bad_len[8] = 0xff, bad_len[9] = 0xff; // a payload past 4 KiB
    bad_type[6] = 99;
    const std::vector<Case> cases = {
        {"bad magic", bad_magic, "magic"},
        {"too long", bad_len, "payload"},
        {"unknown type", bad_type, "type"},
    };
    for (const Case &k : cases) {
        int fd = RawConnect();
        RawSend(fd, k.bytes.data(), k.bytes.size());
        weftd_msg_t m{};
        ASSERT_TRUE(RawRecv(fd, &m)) << k.what;
        EXPECT_EQ(m.type, WEFTD_ERROR) << k.what;
        EXPECT_EQ(m.u.error.err, EPROTO) << k.what;
        EXPECT_NE(std::string(m.u.error.text).find(k.names), std::string::npos)
            << k.what << ": " << m.u.error.text;
        EXPECT_TRUE(Closed(fd)) << k.what << ": not dropped";
        close(fd);
    }
    // Anything before HELLO; a second HELLO; a version nobody speaks; an fd.
    {
        int fd = RawConnect();
        weftd_msg_t t{};
        t.type = WEFTD_TASKS;
        t.seq = 7;
        RawSend(fd, t);
        weftd_msg_t m{};
        ASSERT_TRUE(RawRecv(fd, &m));
        EXPECT_NE(std::string(m.u.error.text).find("HELLO must come first"), std::string::npos);
        EXPECT_EQ(m.seq, 7u);
        EXPECT_TRUE(Closed(fd));
        close(fd);
    }
    {
        int fd = RawConnect();
        RawSend(fd, Hello());
        RawSend(fd, Hello());
        weftd_msg_t m{};
        ASSERT_TRUE(RawRecv(fd, &m));
        EXPECT_EQ(m.type, WEFTD_HELLO);
        ASSERT_TRUE(RawRecv(fd, &m));
        EXPECT_NE(std::string(m.u.error.text).find("second HELLO"), std::string::npos);
        EXPECT_TRUE(Closed(fd));
        close(fd);
    }
    {
        int fd = RawConnect();
        weftd_msg_t v = Hello();
        v.u.hello.min_version = v.u.hello.max_version = 7;
        RawSend(fd, v);
        weftd_msg_t m{};
        ASSERT_TRUE(RawRecv(fd, &m));
        EXPECT_EQ(m.u.error.err, EPROTONOSUPPORT);
        EXPECT_TRUE(Closed(fd));
        close(fd);
    }
    {
        int fd = RawConnect();
        int spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
        union {
            char buf[CMSG_SPACE(sizeof(int))];
            cmsghdr align;
        } ctl{};
        iovec iov{hello, size_t(hl)};
        msghdr mh{};
        mh.msg_iov = &iov;
        mh.msg_iovlen = 1;
        mh.msg_control = ctl.buf;
        mh.msg_controllen = sizeof ctl.buf;
        cmsghdr *cm = CMSG_FIRSTHDR(&mh);
        cm->cmsg_level = SOL_SOCKET;
        cm->cmsg_type = SCM_RIGHTS;
        cm->cmsg_len = CMSG_LEN(sizeof(int));
        std::memcpy(CMSG_DATA(cm), &spare, sizeof spare);
        ASSERT_EQ(sendmsg(fd, &mh, MSG_NOSIGNAL), hl);
        close(spare);
        weftd_msg_t m{};
        ASSERT_TRUE(RawRecv(fd, &m));
        EXPECT_NE(std::string(m.u.error.text).find("no file descriptors"), std::string::npos);
        EXPECT_TRUE(Closed(fd));
        close(fd);
    }
    // A client that vanishes halfway through a message.
    {
        int fd = RawConnect();
        RawSend(fd, hello, 10);
        close(fd);
    }
    weftd_result_t r{};
    ASSERT_EQ(weftd_wait(good, req, 20000, &r), 0);
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.exit_value, task_reference(task_kernel_of("hwt_task_collatz"), 20000));
    EXPECT_EQ(Stats().dropped, 7u);
    ASSERT_TRUE(StatsUntil([](const weftd_server_stats_t &s) { return s.live_clients == 1; }));
}

// A second server on the same socket is refused; the first serves on.
TEST_F(Weftd, ASecondServerOnTheSameSocketIsRefused)
{
    weftd_server_t *s2 = nullptr;
    char why[256] = "";
    // The reconfiguration manager would claim the slots again: a server on another
    // runtime would; here only the socket is tried, with a configuration of no use.
    EXPECT_EQ(weftd_server_open(w_, &cfg_, &s2, why, sizeof why), -EADDRINUSE);
    EXPECT_NE(std::string(why).find("answers"), std::string::npos) << why;
    EXPECT_NE(Connect(), nullptr);
}

} // namespace
