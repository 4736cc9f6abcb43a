// The OSIF request decoder: every verdict and error class, and the header's fields.
#include <gtest/gtest.h>

#include <semaphore.h>

#include "osif_decode.h"

namespace
{

class OsifDecode : public ::testing::Test
{
  protected:
    OsifDecode()
    {
        res_[0] = {WEFT_RES_SEM, &sem_};
        res_[1] = {WEFT_RES_MUTEX, &mutex_};
        res_[2] = {WEFT_RES_COND, &cond_};
        res_[3] = {WEFT_RES_MBOX, &mbox_};
        res_[4] = {WEFT_RES_MQ, &mq_};
    }
    weft_osif_decoded_t Decode(uint32_t cmd, uint32_t handle, std::vector<uint32_t> args,
                               int nargs = -1)
    {
        uint32_t n = nargs < 0 ? static_cast<uint32_t>(args.size()) : static_cast<uint32_t>(nargs);
        weft_osif_decoded_t d;
        weft_osif_decode(weft_osif_req_header(cmd, handle, n), args.empty() ? nullptr : args.data(),
                         res_, 5, &d);
        return d;
    }
    int sem_ = 0, mutex_ = 0, cond_ = 0, mbox_ = 0, mq_ = 0; // stand-ins: never touched
    weft_resource_t res_[5];
};

TEST_F(OsifDecode, AcceptsEveryCommandWithRightHandleAndArgs)
{
    struct {
        uint32_t cmd, handle;
        std::vector<uint32_t> args;
    } ok[] = {
        {WEFT_OSIF_CMD_SEM_POST, 0, {}},      {WEFT_OSIF_CMD_SEM_WAIT, 0, {}},
        {WEFT_OSIF_CMD_MUTEX_LOCK, 1, {}},    {WEFT_OSIF_CMD_MUTEX_UNLOCK, 1, {}},
        {WEFT_OSIF_CMD_MUTEX_TRYLOCK, 1, {}}, {WEFT_OSIF_CMD_COND_WAIT, 2, {1}},
        {WEFT_OSIF_CMD_COND_SIGNAL, 2, {}},   {WEFT_OSIF_CMD_COND_BROADCAST, 2, {}},
        {WEFT_OSIF_CMD_MBOX_GET, 3, {}},      {WEFT_OSIF_CMD_MBOX_PUT, 3, {7}},
        {WEFT_OSIF_CMD_MBOX_TRYGET, 3, {}},   {WEFT_OSIF_CMD_MBOX_TRYPUT, 3, {7}},
        {WEFT_OSIF_CMD_GET_INIT_DATA, 0, {}}, {WEFT_OSIF_CMD_THREAD_EXIT, 0, {5}},
    };
    for (const auto &c : ok) {
        weft_osif_decoded_t d = Decode(c.cmd, c.handle, c.args);
        EXPECT_EQ(d.verdict, WEFT_OSIF_ACCEPT) << "cmd " << c.cmd;
        EXPECT_EQ(d.status, WEFT_OSIF_OK);
        ASSERT_NE(d.info, nullptr);
        EXPECT_EQ(d.info->code, c.cmd);
        if (d.info->handle_type != WEFT_RES_NONE) {
            EXPECT_EQ(d.res, &res_[c.handle]);
        }
    }
}

TEST_F(OsifDecode, AcceptsTimedVariantsAndSignalCalls)
{
    struct {
        uint32_t cmd, handle;
        std::vector<uint32_t> args;
    } ok[] = {
        {WEFT_OSIF_CMD_SEM_TIMEDWAIT, 0, {5}},       {WEFT_OSIF_CMD_MUTEX_TIMEDLOCK, 1, {5}},
        {WEFT_OSIF_CMD_COND_TIMEDWAIT, 2, {1, 5}},   {WEFT_OSIF_CMD_MBOX_TIMEDGET, 3, {5}},
        {WEFT_OSIF_CMD_MBOX_TIMEDPUT, 3, {7, 5}},    {WEFT_OSIF_CMD_MQ_RECEIVE, 4, {64}},
        {WEFT_OSIF_CMD_MQ_TIMEDRECEIVE, 4, {64, 5}}, {WEFT_OSIF_CMD_THREAD_CHECK, 0, {}},
        {WEFT_OSIF_CMD_THREAD_YIELD, 0, {9}},        {WEFT_OSIF_CMD_GET_RESUME_STATE, 0, {}},
    };
    for (const auto &c : ok) {
        weft_osif_decoded_t d = Decode(c.cmd, c.handle, c.args);
        EXPECT_EQ(d.verdict, WEFT_OSIF_ACCEPT) << "cmd " << c.cmd;
    }
    EXPECT_EQ(Decode(WEFT_OSIF_CMD_COND_TIMEDWAIT, 2, {0, 5}).status, WEFT_OSIF_BADARGS)
        << "the mutex argument names a semaphore";
    EXPECT_EQ(Decode(WEFT_OSIF_CMD_SEM_TIMEDWAIT, 0, {}).status, WEFT_OSIF_BADARGS)
        << "timeout missing";
}

TEST_F(OsifDecode, MessageSendCarriesExactlyTheWordsItsLengthNeeds)
{
    // 0 bytes: no data word; 1..4 bytes: one; 5 bytes: two.
    EXPECT_EQ(Decode(WEFT_OSIF_CMD_MQ_SEND, 4, {weft_mq_info(0, 0)}).verdict, WEFT_OSIF_ACCEPT);
    EXPECT_EQ(Decode(WEFT_OSIF_CMD_MQ_SEND, 4, {weft_mq_info(4, 1), 7}).verdict, WEFT_OSIF_ACCEPT);
    EXPECT_EQ(Decode(WEFT_OSIF_CMD_MQ_SEND, 4, {weft_mq_info(5, 1), 7, 8}).verdict,
              WEFT_OSIF_ACCEPT);
    EXPECT_EQ(Decode(WEFT_OSIF_CMD_MQ_TIMEDSEND, 4, {weft_mq_info(5, 1), 100, 7, 8}).verdict,
              WEFT_OSIF_ACCEPT);
    EXPECT_EQ(Decode(WEFT_OSIF_CMD_MQ_SEND, 4, {weft_mq_info(5, 1), 7}).status, WEFT_OSIF_BADARGS);
    EXPECT_EQ(Decode(WEFT_OSIF_CMD_MQ_SEND, 4, {weft_mq_info(1, 1)}).status, WEFT_OSIF_BADARGS);
    EXPECT_EQ(Decode(WEFT_OSIF_CMD_MQ_SEND, 4, {}).status, WEFT_OSIF_BADARGS) << "no msg_info";
    EXPECT_EQ(Decode(WEFT_OSIF_CMD_MQ_SEND, 3, {weft_mq_info(0, 0)}).status, WEFT_OSIF_WRONG_TYPE);
}

TEST_F(OsifDecode, CondWaitResolvesItsMutexArgument)
{
    weft_osif_decoded_t d = Decode(WEFT_OSIF_CMD_COND_WAIT, 2, {1});
    ASSERT_EQ(d.verdict, WEFT_OSIF_ACCEPT);
    EXPECT_EQ(d.arg_res, &res_[1]);
}

TEST_F(OsifDecode, UnknownCommandIsNosys)
{
    for (uint32_t cmd : {0x00u, 0x0fu, 0x7eu, 0xffu}) {
        weft_osif_decoded_t d = Decode(cmd, 0, {});
        EXPECT_EQ(d.verdict, WEFT_OSIF_REJECT);
        EXPECT_EQ(d.status, WEFT_OSIF_NOSYS) << "cmd " << cmd;
        EXPECT_EQ(d.info, nullptr);
        EXPECT_EQ(d.hdr.cmd, cmd);
    }
}

TEST_F(OsifDecode, HandleOutsideArrayIsBadhandle)
{
    weft_osif_decoded_t d = Decode(WEFT_OSIF_CMD_SEM_POST, 5, {});
    EXPECT_EQ(d.verdict, WEFT_OSIF_REJECT);
    EXPECT_EQ(d.status, WEFT_OSIF_BADHANDLE);
    d = Decode(WEFT_OSIF_CMD_MBOX_GET, 255, {});
    EXPECT_EQ(d.status, WEFT_OSIF_BADHANDLE);
}

TEST_F(OsifDecode, NonZeroHandleOnHandlelessCommandIsBadhandle)
{
    weft_osif_decoded_t d = Decode(WEFT_OSIF_CMD_GET_INIT_DATA, 1, {});
    EXPECT_EQ(d.verdict, WEFT_OSIF_REJECT);
    EXPECT_EQ(d.status, WEFT_OSIF_BADHANDLE);
}

TEST_F(OsifDecode, EmptyResourceArrayIsBadhandle)
{
    weft_osif_decoded_t d;
    weft_osif_decode(weft_osif_req_header(WEFT_OSIF_CMD_SEM_POST, 0, 0), nullptr, nullptr, 0, &d);
    EXPECT_EQ(d.status, WEFT_OSIF_BADHANDLE);
}

TEST_F(OsifDecode, HandleOfAnotherTypeIsWrongType)
{
    weft_osif_decoded_t d = Decode(WEFT_OSIF_CMD_SEM_WAIT, 1, {}); // a mutex
    EXPECT_EQ(d.verdict, WEFT_OSIF_REJECT);
    EXPECT_EQ(d.status, WEFT_OSIF_WRONG_TYPE);
    d = Decode(WEFT_OSIF_CMD_MBOX_PUT, 0, {1}); // a semaphore
    EXPECT_EQ(d.status, WEFT_OSIF_WRONG_TYPE);
}

TEST_F(OsifDecode, WrongArgumentCountIsBadargs)
{
    EXPECT_EQ(Decode(WEFT_OSIF_CMD_SEM_POST, 0, {1}).status, WEFT_OSIF_BADARGS);
    EXPECT_EQ(Decode(WEFT_OSIF_CMD_MBOX_PUT, 3, {}).status, WEFT_OSIF_BADARGS);
    EXPECT_EQ(Decode(WEFT_OSIF_CMD_MBOX_PUT, 3, {1, 2}).status, WEFT_OSIF_BADARGS);
    std::vector<uint32_t> many(WEFT_OSIF_MAX_ARGS, 0);
    weft_osif_decoded_t d = Decode(WEFT_OSIF_CMD_THREAD_EXIT, 0, many);
    EXPECT_EQ(d.verdict, WEFT_OSIF_REJECT) << "a sane count is an error response, not a fault";
    EXPECT_EQ(d.status, WEFT_OSIF_BADARGS);
}

TEST_F(OsifDecode, CondWaitWithBadMutexArgumentIsBadargs)
{
    EXPECT_EQ(Decode(WEFT_OSIF_CMD_COND_WAIT, 2, {0}).status, WEFT_OSIF_BADARGS); // a sem
    EXPECT_EQ(Decode(WEFT_OSIF_CMD_COND_WAIT, 2, {4}).status, WEFT_OSIF_BADARGS); // outside
    EXPECT_EQ(Decode(WEFT_OSIF_CMD_COND_WAIT, 2, {0xffffffffu}).status, WEFT_OSIF_BADARGS);
}

TEST_F(OsifDecode, ChecksInProtocolOrder)
{
    // Bad handle and wrong count: the handle is reported first.
    EXPECT_EQ(Decode(WEFT_OSIF_CMD_SEM_POST, 9, {1}).status, WEFT_OSIF_BADHANDLE);
    // Wrong type and wrong count: the type is reported first.
    EXPECT_EQ(Decode(WEFT_OSIF_CMD_SEM_POST, 1, {1}).status, WEFT_OSIF_WRONG_TYPE);
}

TEST_F(OsifDecode, HeaderSplitTakesFieldsApart)
{
    // Protocol version 4: cmd [31:24], a 16-bit handle [23:8], nargs [7:0].
    weft_osif_header_t h = weft_osif_header_split(0x0a1234feu);
    EXPECT_EQ(h.cmd, 0x0au);
    EXPECT_EQ(h.handle, 0x1234u);
    EXPECT_EQ(h.nargs, 0xfeu);
    EXPECT_EQ(weft_osif_req_header(0x0a, 0x1234, 0xfe), 0x0a1234feu);
    // Every header frames a request: the field holds no more than a request may carry.
    static_assert(WEFT_OSIF_MAX_ARGS == WEFT_OSIF_REQ_NARGS_MASK, "nargs holds max_args");
}

TEST_F(OsifDecode, HandlesAbove255NameEntriesOfALargeArray)
{
    std::vector<weft_resource_t> big(300, weft_resource_t{WEFT_RES_SEM, &sem_});
    big[299] = {WEFT_RES_MBOX, &mbox_};
    weft_osif_decoded_t d;
    weft_osif_decode(weft_osif_req_header(WEFT_OSIF_CMD_MBOX_GET, 299, 0), nullptr, big.data(), 300,
                     &d);
    EXPECT_EQ(d.verdict, WEFT_OSIF_ACCEPT);
    EXPECT_EQ(d.res, &big[299]);
    weft_osif_decode(weft_osif_req_header(WEFT_OSIF_CMD_SEM_POST, 300, 0), nullptr, big.data(), 300,
                     &d);
    EXPECT_EQ(d.status, WEFT_OSIF_BADHANDLE);
    weft_osif_decode(weft_osif_req_header(WEFT_OSIF_CMD_SEM_POST, 0xffff, 0), nullptr, big.data(),
                     300, &d);
    EXPECT_EQ(d.status, WEFT_OSIF_BADHANDLE);
}

} // namespace
