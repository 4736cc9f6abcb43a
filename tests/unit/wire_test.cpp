// weftd's wire protocol (server/wire.c, docs/server.md): every message type in both
// directions reads back as written; partial messages ask for more; whatever is wrong is
// refused naming the field.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "wire.h"
}

namespace
{

std::vector<uint8_t> Encode(const weftd_msg_t &m)
{
    std::vector<uint8_t> b(WEFTD_HEADER_BYTES + WEFTD_MAX_PAYLOAD);
    long n = weftd_encode(&m, b.data(), b.size());
    EXPECT_GT(n, 0) << "type " << m.type;
    b.resize(n > 0 ? static_cast<size_t>(n) : 0);
    return b;
}

weftd_msg_t Decode(const std::vector<uint8_t> &b, int from_server)
{
    weftd_msg_t m{};
    char why[200] = "";
    EXPECT_EQ(weftd_decode(b.data(), b.size(), from_server, &m, why, sizeof why),
              static_cast<long>(b.size()))
        << why;
    return m;
}

// The refusal of b, or "" when it was accepted.
std::string Why(const std::vector<uint8_t> &b, int from_server)
{
    weftd_msg_t m{};
    char why[200] = "";
    long rc = weftd_decode(b.data(), b.size(), from_server, &m, why, sizeof why);
    if (rc > 0)
        return "";
    EXPECT_EQ(rc, -EPROTO);
    return why;
}

weftd_msg_t Msg(weftd_type_t type, int from_server, uint32_t seq = 7)
{
    weftd_msg_t m{};
    m.type = type;
    m.from_server = from_server;
    m.seq = seq;
    return m;
}

TEST(Wire, EveryMessageReadsBackAsWritten)
{
    weftd_msg_t hello = Msg(WEFTD_HELLO, 0);
    hello.u.hello.min_version = 1;
    hello.u.hello.max_version = 3;
    weftd_msg_t h = Decode(Encode(hello), 0);
    EXPECT_EQ(h.seq, 7u);
    EXPECT_EQ(h.u.hello.max_version, 3);

    weftd_msg_t tasks = Msg(WEFTD_TASKS, 1);
    tasks.u.tasks.count = 2;
    tasks.u.tasks.task[0] = {3, 1, 0, "fib"};
    tasks.u.tasks.task[1] = {9, 0, 1, "vecsum"};
    weftd_msg_t t = Decode(Encode(tasks), 1);
    ASSERT_EQ(t.u.tasks.count, 2);
    EXPECT_EQ(t.u.tasks.task[1].id, 9);
    EXPECT_EQ(t.u.tasks.task[1].accelerator, 1);
    EXPECT_STREQ(t.u.tasks.task[1].name, "vecsum");
    EXPECT_EQ(Encode(Msg(WEFTD_TASKS, 0)).size(), WEFTD_HEADER_BYTES); // the request

    weftd_msg_t alloc = Msg(WEFTD_ALLOC, 1);
    alloc.u.alloc.buffer = 5;
    alloc.u.alloc.size = 1ull << 33;
    EXPECT_EQ(Decode(Encode(alloc), 1).u.alloc.size, 1ull << 33);

    weftd_msg_t submit = Msg(WEFTD_SUBMIT, 0, 42);
    submit.u.submit.task = 4;
    submit.u.submit.num_args = 3;
    submit.u.submit.arg[0] = {WEFTD_ARG_BUFFER, 5, 64};
    submit.u.submit.arg[1] = {WEFTD_ARG_BUFFER, 6, 0};
    submit.u.submit.arg[2] = {WEFTD_ARG_VALUE, 0, 1000};
    weftd_msg_t s = Decode(Encode(submit), 0);
    EXPECT_EQ(s.seq, 42u);
    ASSERT_EQ(s.u.submit.num_args, 3);
    EXPECT_EQ(s.u.submit.arg[0].buffer, 5u);
    EXPECT_EQ(s.u.submit.arg[0].value, 64u);
    EXPECT_EQ(s.u.submit.arg[2].value, 1000u);

    weftd_msg_t done = Msg(WEFTD_DONE, 1, 42);
    done.u.done.status = -ETIMEDOUT;
    done.u.done.slot = 2;
    done.u.done.reconfigured = 1;
    done.u.done.exec_cycles = 123456789012ull;
    weftd_msg_t d = Decode(Encode(done), 1);
    EXPECT_EQ(d.u.done.status, -ETIMEDOUT);
    EXPECT_EQ(d.u.done.exec_cycles, 123456789012ull);

    weftd_msg_t err = Msg(WEFTD_ERROR, 1, 42);
    err.u.error.err = EINVAL;
    std::strcpy(err.u.error.text, "SUBMIT: task 99 is not one of the server's");
    err.u.error.len = static_cast<uint16_t>(std::strlen(err.u.error.text));
    EXPECT_STREQ(Decode(Encode(err), 1).u.error.text, err.u.error.text);

    for (weftd_type_t ty : {WEFTD_FREE, WEFTD_CANCEL}) {
        weftd_msg_t c = Msg(ty, 0);
        c.u.cancel.target = 77;
        EXPECT_EQ(Decode(Encode(c), 0).u.cancel.target, 77u);
        EXPECT_EQ(Encode(Msg(ty, 1)).size(), WEFTD_HEADER_BYTES); // the server's answer
    }
}

// Every type each side may send, with every field set: decoded and encoded again, the
// bytes are the same.
TEST(Wire, EveryTypeEachSideSendsReEncodesToTheSameBytes)
{
    for (int from_server = 0; from_server < 2; from_server++)
        for (int ty = WEFTD_HELLO; ty <= WEFTD_ERROR; ty++) {
            if (!from_server && (ty == WEFTD_DONE || ty == WEFTD_ERROR))
                continue; // the server's alone
            weftd_msg_t m = Msg(static_cast<weftd_type_t>(ty), from_server, 1000u + ty);
            m.u.hello.min_version = 1; // the union's first members, for HELLO
            m.u.hello.max_version = 2;
            m.u.hello.version = 1;
            m.u.hello.num_tasks = 3;
            if (ty == WEFTD_TASKS) {
                m.u.tasks.count = 2;
                m.u.tasks.task[0] = {1, 2, 1, "fir"};
                m.u.tasks.task[1] = {0xBEEF, 0xFF, 0, "a_1"};
            } else if (ty == WEFTD_ALLOC) {
                m.u.alloc.buffer = from_server ? 0xCAFE : 0;
                m.u.alloc.size = 0x123456789ull;
            } else if (ty == WEFTD_FREE || ty == WEFTD_CANCEL) {
                m.u.cancel.target = 0xDEADBEEF;
            } else if (ty == WEFTD_SUBMIT) {
                m.u.submit.task = 0x1234;
                m.u.submit.num_args = WEFTD_MAX_ARGS;
                for (unsigned i = 0; i < WEFTD_MAX_ARGS; i++)
                    m.u.submit.arg[i] = {static_cast<uint8_t>(i & 1), (i & 1) ? i : 0,
                                         0x0102030405060708ull * i};
            } else if (ty == WEFTD_DONE) {
                m.u.done = {-EIO, 0xFFFFFFFF, 7, 1, 1, 2, 3};
            } else if (ty == WEFTD_ERROR) {
                m.u.error.err = EPROTO;
                std::strcpy(m.u.error.text, "x: y");
                m.u.error.len = 4;
            }
            const std::vector<uint8_t> b = Encode(m);
            ASSERT_FALSE(b.empty()) << "type " << ty << " from server " << from_server;
            weftd_msg_t d = Decode(b, from_server);
            EXPECT_EQ(d.seq, 1000u + ty);
            EXPECT_EQ(Encode(d), b) << "type " << ty << " from server " << from_server;
        }
}

TEST(Wire, APartialMessageAsksForMoreAndTwoInARowComeOneByOne)
{
    weftd_msg_t done = Msg(WEFTD_DONE, 1);
    std::vector<uint8_t> b = Encode(done);
    weftd_msg_t m{};
    for (size_t n = 0; n < b.size(); n++)
        EXPECT_EQ(weftd_decode(b.data(), n, 1, &m, nullptr, 0), 0) << n << " bytes";
    std::vector<uint8_t> two = b;
    two.insert(two.end(), b.begin(), b.end());
    EXPECT_EQ(weftd_decode(two.data(), two.size(), 1, &m, nullptr, 0), static_cast<long>(b.size()));
}

TEST(Wire, WhateverIsWrongIsRefusedByName)
{
    weftd_msg_t submit = Msg(WEFTD_SUBMIT, 0);
    submit.u.submit.num_args = 1;
    submit.u.submit.arg[0] = {WEFTD_ARG_VALUE, 0, 5};
    const std::vector<uint8_t> good = Encode(submit);
    struct Case {
        const char *what;
        size_t at;
        uint8_t value;
        int from_server;
        const char *says;
    } cases[] = {
        {"magic", 0, 'X', 0, "not a weftd message"},
        {"version", 4, 2, 0, "protocol version 2"},
        {"type", 6, 99, 0, "unknown message type 99"},
        {"server's type", 6, WEFTD_DONE, 0, "DONE is the server's to send"},
        {"huge", 10, 1, 0, "payload of 65556 bytes, at most 4096"},
        {"arg count", 18, 7, 0, "7 arguments, at most 6"},
        {"arg kind", 20, 2, 0, "argument 0: kind 2"},
        {"arg reserved", 21, 1, 0, "argument 0: reserved bytes"},
        {"value with buffer", 24, 3, 0, "a value names buffer 3"},
    };
    for (const Case &c : cases) {
        std::vector<uint8_t> b = good;
        b[c.at] = c.value;
        const std::string why = Why(b, c.from_server);
        EXPECT_NE(why.find(c.says), std::string::npos) << c.what << ": " << why;
    }
    // A payload longer than its count says.
    std::vector<uint8_t> longer = good;
    longer[8] = 36;
    longer.resize(WEFTD_HEADER_BYTES + 36, 0);
    EXPECT_NE(Why(longer, 0).find("36 bytes for 1 arguments, want 20"), std::string::npos)
        << Why(longer, 0);
    // A fixed-size message with another size.
    weftd_msg_t cancel = Msg(WEFTD_CANCEL, 0);
    std::vector<uint8_t> c = Encode(cancel);
    c[8] = 5;
    c.push_back(0);
    EXPECT_NE(Why(c, 0).find("CANCEL: payload of 5 bytes, want 4"), std::string::npos) << Why(c, 0);

    weftd_msg_t tasks = Msg(WEFTD_TASKS, 1);
    tasks.u.tasks.count = 1;
    tasks.u.tasks.task[0] = {1, 0, 0, "fib"};
    std::vector<uint8_t> t = Encode(tasks);
    t[WEFTD_HEADER_BYTES + 4 + 4] = 'F'; // an upper-case name
    EXPECT_NE(Why(t, 1).find("task 0: name"), std::string::npos);
    t = Encode(tasks);
    t[WEFTD_HEADER_BYTES + 4 + 3] = 2; // kind
    EXPECT_NE(Why(t, 1).find("task 0: kind 2"), std::string::npos);

    weftd_msg_t err = Msg(WEFTD_ERROR, 1);
    err.u.error.err = EINVAL;
    std::strcpy(err.u.error.text, "ok");
    err.u.error.len = 2;
    std::vector<uint8_t> e = Encode(err);
    e[WEFTD_HEADER_BYTES + 8] = '\n';
    EXPECT_NE(Why(e, 1).find("not printable"), std::string::npos);

    weftd_msg_t done = Msg(WEFTD_DONE, 1);
    std::vector<uint8_t> d = Encode(done);
    d[WEFTD_HEADER_BYTES] = 5; // status 5
    EXPECT_NE(Why(d, 1).find("status 5"), std::string::npos);

    weftd_msg_t alloc = Msg(WEFTD_ALLOC, 0);
    alloc.u.alloc.size = 1;
    std::vector<uint8_t> a = Encode(alloc);
    a[WEFTD_HEADER_BYTES] = 0;
    EXPECT_NE(Why(a, 0).find("ALLOC: size 0"), std::string::npos);
}

TEST(Wire, TheEncoderRefusesWhatTheDecoderWould)
{
    uint8_t buf[WEFTD_HEADER_BYTES + WEFTD_MAX_PAYLOAD];
    weftd_msg_t m = Msg(WEFTD_SUBMIT, 0);
    m.u.submit.num_args = WEFTD_MAX_ARGS + 1;
    EXPECT_EQ(weftd_encode(&m, buf, sizeof buf), -EINVAL);
    m = Msg(WEFTD_DONE, 0); // a client's DONE
    EXPECT_EQ(weftd_encode(&m, buf, sizeof buf), -EINVAL);
    m = Msg(WEFTD_TASKS, 1);
    m.u.tasks.count = 1; // its name is empty
    EXPECT_EQ(weftd_encode(&m, buf, sizeof buf), -EINVAL);
    m = Msg(WEFTD_HELLO, 0);
    m.u.hello.min_version = m.u.hello.max_version = 1;
    EXPECT_EQ(weftd_encode(&m, buf, 10), -ENOSPC);
}

} // namespace
