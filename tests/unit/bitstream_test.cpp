// Partial bitstream files (weft/bitstream.h): a file built by the writer reads back the
// same; every field a file can get wrong is refused with a line naming it; a truncated,
// longer or corrupted file is refused; the digests are the standard ones.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <unistd.h>
#include <vector>

#include "weft/bitstream.h"
#include "weft/osif_protocol.h"

namespace
{

constexpr size_t kHeader = WEFT_BITSTREAM_HEADER_BYTES;

weft_bitstream_info_t Info(uint32_t payload = 1000)
{
    weft_bitstream_info_t i{};
    i.payload_size = payload;
    i.slot_mask = 0x5;
    std::strcpy(i.partition, "big");
    std::strcpy(i.image, "hwt_vecsum.so");
    for (unsigned k = 0; k < WEFT_BITSTREAM_DIGEST_BYTES; k++)
        i.image_sha256[k] = static_cast<uint8_t>(k * 7);
    return i;
}

/** A whole, intact file: header and payload. */
std::vector<uint8_t> File(weft_bitstream_info_t info)
{
    std::vector<uint8_t> f(kHeader + info.payload_size);
    for (size_t i = 0; i < info.payload_size; i++)
        f[kHeader + i] = static_cast<uint8_t>(i * 31 + 5);
    info.payload_crc = weft_bitstream_crc32(0, f.data() + kHeader, info.payload_size);
    EXPECT_EQ(weft_bitstream_write_header(&info, f.data()), 0);
    return f;
}

/** Fix the header's own CRC after a test changed a field, so that the field is judged. */
void Reseal(std::vector<uint8_t> &f)
{
    uint32_t c = weft_bitstream_crc32(0, f.data(), 128);
    for (int i = 0; i < 4; i++)
        f[128 + i] = static_cast<uint8_t>(c >> (8 * i));
}

std::string Why(const std::vector<uint8_t> &f)
{
    weft_bitstream_info_t out{};
    char why[200] = "";
    EXPECT_EQ(weft_bitstream_check(f.data(), f.size(), &out, why, sizeof why), -EINVAL);
    return why;
}

TEST(Bitstream, AFileReadsBackAsWritten)
{
    const weft_bitstream_info_t in = Info();
    std::vector<uint8_t> f = File(in);
    ASSERT_EQ(f.size(), kHeader + in.payload_size);
    EXPECT_EQ(std::memcmp(f.data(), "WEFTPBS", 8), 0);
    weft_bitstream_info_t out{};
    char why[200] = "";
    ASSERT_EQ(weft_bitstream_check(f.data(), f.size(), &out, why, sizeof why), 0) << why;
    EXPECT_EQ(out.version, WEFT_BITSTREAM_VERSION);
    EXPECT_EQ(out.payload_size, in.payload_size);
    EXPECT_EQ(out.payload_crc, weft_bitstream_crc32(0, f.data() + kHeader, in.payload_size));
    EXPECT_EQ(out.slot_mask, 0x5u);
    EXPECT_STREQ(out.partition, "big");
    EXPECT_STREQ(out.image, "hwt_vecsum.so");
    EXPECT_EQ(std::memcmp(out.image_sha256, in.image_sha256, WEFT_BITSTREAM_DIGEST_BYTES), 0);
    // The header alone parses; the payload is not needed for that.
    EXPECT_EQ(weft_bitstream_parse_header(f.data(), kHeader, &out, why, sizeof why), 0) << why;
}

// Each header field a file can get wrong, with what the refusal must name.
TEST(Bitstream, EveryBadHeaderFieldIsNamed)
{
    struct Case {
        const char *what;
        std::function<void(std::vector<uint8_t> &)> spoil;
        bool reseal; // recompute the header CRC so the field itself is judged
        const char *says;
        unsigned code; // what the reconfiguration port reports for it
    } cases[] = {
        {"magic", [](auto &f) { f[0] = 'X'; }, true, "bad magic", WEFT_FRI_ERR_MAGIC},
        {"version", [](auto &f) { f[8] = 2; }, true, "format version 2", WEFT_FRI_ERR_VERSION},
        {"header size", [](auto &f) { f[10] = 128; }, true, "header size 128",
         WEFT_FRI_ERR_VERSION},
        {"header crc", [](auto &f) { f[20] ^= 0x10; }, false, "header CRC-32",
         WEFT_FRI_ERR_HEADER_CRC},
        {"reserved", [](auto &f) { f[150] = 1; }, true, "reserved header byte 150",
         WEFT_FRI_ERR_RESERVED},
        {"payload 0", [](auto &f) { std::memset(&f[12], 0, 4); }, true, "payload size 0",
         WEFT_FRI_ERR_SIZE},
        {"payload huge", [](auto &f) { std::memset(&f[12], 0xFF, 4); }, true,
         "payload size 4294967295", WEFT_FRI_ERR_SIZE},
        {"slot mask 0", [](auto &f) { std::memset(&f[20], 0, 4); }, true, "slot mask 0",
         WEFT_FRI_ERR_SLOT},
        {"partition empty", [](auto &f) { std::memset(&f[24], 0, 24); }, true, "partition name",
         WEFT_FRI_ERR_LOAD},
        {"partition slash", [](auto &f) { f[25] = '/'; }, true, "partition name",
         WEFT_FRI_ERR_LOAD},
        {"partition unterminated", [](auto &f) { std::memset(&f[24], 'a', 24); }, true,
         "partition name", WEFT_FRI_ERR_LOAD},
        {"partition junk after", [](auto &f) { f[40] = 'z'; }, true, "partition name",
         WEFT_FRI_ERR_LOAD},
        {"image dot first", [](auto &f) { f[48] = '.'; }, true, "image name", WEFT_FRI_ERR_LOAD},
        {"image path", [](auto &f) { std::memcpy(&f[48], "../x.so", 7); }, true, "image name",
         WEFT_FRI_ERR_LOAD},
        {"image space", [](auto &f) { f[50] = ' '; }, true, "image name", WEFT_FRI_ERR_LOAD},
    };
    for (const Case &c : cases) {
        std::vector<uint8_t> f = File(Info());
        c.spoil(f);
        if (c.reseal)
            Reseal(f);
        std::string why = Why(f);
        EXPECT_NE(why.find(c.says), std::string::npos) << c.what << ": " << why;
        EXPECT_EQ(weft_bitstream_verify(f.data(), f.size(), nullptr, nullptr, 0), c.code) << c.what;
    }
}

TEST(Bitstream, TruncatedLongerOrCorruptedFilesAreRefused)
{
    std::vector<uint8_t> f = File(Info(4096));
    std::vector<uint8_t> cut(f.begin(), f.end() - 1);
    EXPECT_NE(Why(cut).find("truncated: 4095 payload bytes of 4096"), std::string::npos);
    std::vector<uint8_t> header_only(f.begin(), f.begin() + kHeader);
    EXPECT_NE(Why(header_only).find("truncated: 0 payload"), std::string::npos);
    std::vector<uint8_t> short_header(f.begin(), f.begin() + 100);
    EXPECT_NE(Why(short_header).find("shorter than the 160-byte header"), std::string::npos);
    std::vector<uint8_t> longer = f;
    longer.push_back(0);
    EXPECT_NE(Why(longer).find("1 bytes after a payload"), std::string::npos);
    for (size_t at : {kHeader, kHeader + 2000, f.size() - 1}) {
        std::vector<uint8_t> bad = f;
        bad[at] ^= 0x01;
        EXPECT_NE(Why(bad).find("payload CRC-32"), std::string::npos) << "byte " << at;
        EXPECT_EQ(weft_bitstream_verify(bad.data(), bad.size(), nullptr, nullptr, 0),
                  WEFT_FRI_ERR_PAYLOAD_CRC);
    }
    EXPECT_EQ(weft_bitstream_verify(cut.data(), cut.size(), nullptr, nullptr, 0),
              WEFT_FRI_ERR_TRUNCATED);
    EXPECT_EQ(weft_bitstream_verify(short_header.data(), short_header.size(), nullptr, nullptr, 0),
              WEFT_FRI_ERR_TRUNCATED);
    EXPECT_EQ(weft_bitstream_verify(longer.data(), longer.size(), nullptr, nullptr, 0),
              WEFT_FRI_ERR_LONG);
    EXPECT_EQ(weft_bitstream_verify(f.data(), f.size(), nullptr, nullptr, 0), 0u);
}

TEST(Bitstream, ABuiltFileIsWholeTheSameEachTimeAndItsPayloadFollowsTheImage)
{
    weft_bitstream_info_t in = Info(3000);
    std::vector<uint8_t> a(kHeader + in.payload_size), b(a.size()), c(a.size());
    ASSERT_EQ(weft_bitstream_build(&in, a.data()), 0);
    ASSERT_EQ(weft_bitstream_build(&in, b.data()), 0);
    EXPECT_EQ(a, b);
    weft_bitstream_info_t out{};
    char why[200] = "";
    ASSERT_EQ(weft_bitstream_check(a.data(), a.size(), &out, why, sizeof why), 0) << why;
    EXPECT_EQ(out.payload_size, 3000u);
    in.image_sha256[0] ^= 1;
    ASSERT_EQ(weft_bitstream_build(&in, c.data()), 0);
    EXPECT_NE(std::memcmp(a.data() + kHeader, c.data() + kHeader, 3000), 0);
    in.payload_size = 0;
    EXPECT_EQ(weft_bitstream_build(&in, c.data()), -EINVAL);
}

TEST(Bitstream, TheWriterRefusesWhatTheReaderWould)
{
    uint8_t h[kHeader];
    weft_bitstream_info_t i = Info();
    EXPECT_EQ(weft_bitstream_write_header(&i, h), 0);
    i = Info();
    std::strcpy(i.image, "dir/x.so");
    EXPECT_EQ(weft_bitstream_write_header(&i, h), -EINVAL);
    i = Info();
    std::memset(i.partition, 'p', sizeof i.partition); // no room for the 0
    EXPECT_EQ(weft_bitstream_write_header(&i, h), -EINVAL);
    i = Info();
    i.slot_mask = 0;
    EXPECT_EQ(weft_bitstream_write_header(&i, h), -EINVAL);
    i = Info(WEFT_BITSTREAM_MAX_PAYLOAD + 1);
    EXPECT_EQ(weft_bitstream_write_header(&i, h), -EINVAL);
}

TEST(Bitstream, DigestsAreTheStandardOnes)
{
    // CRC-32 of "123456789" (the check value of the CRC-32 of zlib, PNG and gzip).
    EXPECT_EQ(weft_bitstream_crc32(0, "123456789", 9), 0xCBF43926u);
    char path[] = "/tmp/weft-bitstream-test-XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(write(fd, "abc", 3), 3);
    close(fd);
    uint8_t d[WEFT_BITSTREAM_DIGEST_BYTES];
    ASSERT_EQ(weft_bitstream_file_sha256(path, d), 0);
    unlink(path);
    const uint8_t abc[] = {0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
                           0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
                           0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
    EXPECT_EQ(std::memcmp(d, abc, sizeof abc), 0);
    EXPECT_EQ(weft_bitstream_file_sha256("/nonexistent/weft", d), -ENOENT);
}

// The loader's hash: the digest of what it read, and a copy of exactly those bytes (more
// than one read's worth, so the copy loop runs more than once).
TEST(Bitstream, HashingIntoACopyGivesTheFilesDigestAndBytes)
{
    std::vector<uint8_t> data(200000);
    for (size_t i = 0; i < data.size(); ++i)
        data[i] = static_cast<uint8_t>(i * 131 + (i >> 9));
    char src[] = "/tmp/weft-bitstream-src-XXXXXX", dst[] = "/tmp/weft-bitstream-dst-XXXXXX";
    int in = mkstemp(src), out = mkstemp(dst);
    ASSERT_GE(in, 0);
    ASSERT_GE(out, 0);
    ASSERT_EQ(write(in, data.data(), data.size()), static_cast<ssize_t>(data.size()));
    ASSERT_EQ(lseek(in, 0, SEEK_SET), 0);
    uint8_t by_path[WEFT_BITSTREAM_DIGEST_BYTES], by_fd[WEFT_BITSTREAM_DIGEST_BYTES];
    ASSERT_EQ(weft_bitstream_file_sha256(src, by_path), 0);
    ASSERT_EQ(weft_bitstream_fd_sha256(in, out, by_fd), 0);
    EXPECT_EQ(std::memcmp(by_path, by_fd, sizeof by_fd), 0);
    std::vector<uint8_t> copy(data.size() + 1);
    EXPECT_EQ(pread(out, copy.data(), copy.size(), 0), static_cast<ssize_t>(data.size()));
    copy.resize(data.size());
    EXPECT_EQ(copy, data);
    close(in);
    close(out);
    unlink(src);
    unlink(dst);
}

} // namespace
