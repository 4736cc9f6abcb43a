// FRED's clients on weftd (docs/server.md, "FRED's clients"): a client written here from
// the protocol's facts, as FRED's library behaves: 8-byte messages of a head code and an
// argument in native byte order, buffer records after BUFFS, each mapped by opening
// "/dev/" + its name (first '!' made '/') and mapping its length at offset 0.
#include "weftd_fixture.h"

#include <fcntl.h>
#include <sys/mman.h>

namespace
{
using namespace weftd_test;

enum : uint32_t {
    kInit = 101,
    kBind = 201,
    kRun = 301,
    kDone = 401,
    kOverrun = 402,
    kAck = 501,
    kBuffs = 601,
    kError = 701
};

struct FredRecord { // FRED's buffer record, native layout
    void *map_addr;
    int file_d;
    size_t length;
    char dev_name[1024];
};

class FredClient
{
  public:
    explicit FredClient(int fd) : fd_(fd) {}
    ~FredClient()
    {
        for (auto &m : maps_)
            munmap(m.first, m.second);
        if (fd_ >= 0)
            close(fd_);
    }
    void Close()
    {
        close(fd_);
        fd_ = -1;
    }
    bool Send(uint32_t head, uint32_t arg)
    {
        uint32_t m[2] = {head, arg};
        return send(fd_, m, sizeof m, MSG_NOSIGNAL) == sizeof m;
    }
    // The next message (FRED reads exactly 8 bytes); false on end or after 20 s.
    bool Recv(uint32_t *head, uint32_t *arg)
    {
        uint32_t m[2];
        if (!ReadAll(m, sizeof m))
            return false;
        *head = m[0];
        *arg = m[1];
        return true;
    }
    uint32_t Call(uint32_t head, uint32_t arg)
    {
        uint32_t h = 0, a = 0;
        EXPECT_TRUE(Send(head, arg));
        EXPECT_TRUE(Recv(&h, &a)) << "no answer to " << head;
        return h;
    }
    // BIND: the buffers mapped, or empty on ERROR.
    std::vector<uint32_t *> Bind(uint32_t task)
    {
        std::vector<uint32_t *> out;
        uint32_t h = 0, n = 0;
        EXPECT_TRUE(Send(kBind, task));
        EXPECT_TRUE(Recv(&h, &n));
        if (h != kBuffs)
            return out;
        std::vector<FredRecord> rec(n);
        EXPECT_TRUE(ReadAll(rec.data(), n * sizeof(FredRecord)));
        for (const FredRecord &r : rec) {
            EXPECT_EQ(r.map_addr, nullptr);
            std::string name(r.dev_name, strnlen(r.dev_name, sizeof r.dev_name));
            size_t bang = name.find('!');
            if (bang != std::string::npos)
                name[bang] = '/';
            const std::string path = "/dev/" + name;
            int fd = open(path.c_str(), O_RDWR);
            EXPECT_GE(fd, 0) << path << ": " << strerror(errno);
            void *p = mmap(nullptr, r.length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            close(fd);
            EXPECT_NE(p, MAP_FAILED) << path;
            maps_.emplace_back(p, r.length);
            out.push_back(static_cast<uint32_t *>(p));
        }
        return out;
    }

  private:
    bool ReadAll(void *buf, size_t len)
    {
        auto *p = static_cast<uint8_t *>(buf);
        while (len) {
            pollfd pfd{fd_, POLLIN, 0};
            if (poll(&pfd, 1, 20000) != 1)
                return false;
            ssize_t n = read(fd_, p, len);
            if (n <= 0)
                return false;
            p += n;
            len -= size_t(n);
        }
        return true;
    }
    int fd_;
    std::vector<std::pair<void *, size_t>> maps_;
};

// BIND gives vecsum's three buffers, mapped; RUN computes c = a + b in them.
TEST_F(Weftd, FredClientRunsAnAcceleratorInItsMappedBuffers)
{
    FredClient f(RawConnect(true));
    EXPECT_EQ(f.Call(kInit, 0), kAck);
    std::vector<uint32_t *> buf = f.Bind(Id("vecsum"));
    ASSERT_EQ(buf.size(), 3u);
    for (unsigned round = 0; round < 2; round++) {
        for (unsigned i = 0; i < kFredVecsumN; i++) {
            buf[0][i] = i * 2654435761u + round;
            buf[1][i] = ~i;
            buf[2][i] = 0;
        }
        ASSERT_EQ(f.Call(kRun, Id("vecsum")), kDone);
        for (unsigned i = 0; i < kFredVecsumN; i++)
            ASSERT_EQ(buf[2][i], buf[0][i] + buf[1][i]) << "word " << i << ", round " << round;
    }
    EXPECT_EQ(buf[2][kFredVecsumN], 0u) << "written past its size";
}

// What FRED refuses gets ERROR and the session goes on; a stream that is not FRED's is
// dropped.
TEST_F(Weftd, FredRefusalsAnswerErrorAndTheSessionGoesOn)
{
    FredClient f(RawConnect(true));
    EXPECT_EQ(f.Call(kBind, Id("vecsum")), kError) << "before INIT";
    EXPECT_EQ(f.Call(kInit, 0), kAck);
    EXPECT_EQ(f.Call(kInit, 0), kError) << "a second INIT";
    EXPECT_EQ(f.Call(kBind, 999), kError) << "no such task";
    EXPECT_EQ(f.Call(kRun, Id("vecsum")), kError) << "not bound";
    ASSERT_EQ(f.Bind(Id("vecsum")).size(), 3u);
    EXPECT_EQ(f.Call(kRun, Id("vecsum")), kDone);
    EXPECT_EQ(Stats().dropped, 0u);
    // A head code that is not FRED's: not a FRED client; ERROR, then dropped.
    EXPECT_EQ(f.Call(12345, 0), kError);
    uint32_t h, a;
    EXPECT_FALSE(f.Recv(&h, &a)) << "still connected";
    EXPECT_EQ(Stats().dropped, 1u);
}

// A task past its timeout answers OVERRUN, and is not banned: it runs again (FRED would
// answer ERROR from then on).
TEST_F(Weftd, FredOverrunLeavesTheTaskRequestable)
{
    FredClient f(RawConnect(true));
    EXPECT_EQ(f.Call(kInit, 0), kAck);
    ASSERT_EQ(f.Bind(Id("xorshift")).size(), 1u);
    EXPECT_EQ(f.Call(kRun, Id("xorshift")), kOverrun);
    EXPECT_EQ(f.Call(kRun, Id("xorshift")), kOverrun) << "banned after an overrun";
    ASSERT_EQ(f.Bind(Id("vecsum")).size(), 3u);
    EXPECT_EQ(f.Call(kRun, Id("vecsum")), kDone);
}

// One request at a time, as FRED's library assumes; a FRED client that hangs up while
// its request runs costs nobody anything.
TEST_F(Weftd, FredClientGoneMidRequestFreesItsSlotAndBuffers)
{
    FredClient f(RawConnect(true));
    EXPECT_EQ(f.Call(kInit, 0), kAck);
    ASSERT_EQ(f.Bind(Id("xorshift")).size(), 1u);
    ASSERT_TRUE(f.Send(kRun, Id("xorshift")));
    ASSERT_TRUE(StatsUntil([](const weftd_server_stats_t &s) { return s.live_requests == 1; }));
    EXPECT_EQ(f.Call(kRun, Id("xorshift")), kError) << "a second request at once";
    f.Close();
    ASSERT_TRUE(StatsUntil([](const weftd_server_stats_t &s) {
        return s.live_requests == 0 && s.live_buffers == 0 && s.live_clients == 0;
    }));
    weftd_client_t *c = Connect();
    weftd_arg_t n = weftd_value(400);
    weftd_result_t r{};
    ASSERT_EQ(weftd_run(c, Id("xorshift"), &n, 1, &r), 0);
    EXPECT_EQ(r.status, 0);
}

} // namespace
