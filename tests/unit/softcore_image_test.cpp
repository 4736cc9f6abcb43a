// Softcore programs' RAM images (weft/softcore.h): a program the tree builds gives the bytes
// of its .bin; a hand-made ELF file gives its segments at their addresses with zeros
// between and after them; every way a file can be no program for the core, or too big for
// its RAM, is refused with the code and a phrase naming it, and leaves the image empty.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <elf.h>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

#include "weft/osif_protocol.h"
#include "weft/softcore.h"

namespace
{

constexpr uint32_t kRam = WEFT_RV_RAM_BYTES;
// Where the hand-made files' segment bytes start: room for the ELF header and up to six
// program headers before it, so a test may add headers without moving the bytes.
constexpr uint32_t kData = 0x100;
// The bytes of the two segments of Minimal(): two instructions, then a data word.
const std::vector<uint8_t> kText = {0x13, 0x00, 0x00, 0x00, 0x6f, 0x00, 0x00, 0x00};
const std::vector<uint8_t> kWord = {0xa1, 0xa2, 0xa3, 0xa4};

Elf32_Phdr Segment(uint32_t type, uint32_t offset, uint32_t vaddr, uint32_t filesz, uint32_t memsz)
{
    Elf32_Phdr p{};
    p.p_type = type;
    p.p_offset = offset;
    p.p_vaddr = p.p_paddr = vaddr;
    p.p_filesz = filesz;
    p.p_memsz = memsz;
    p.p_flags = PF_R | PF_W | PF_X;
    p.p_align = 4;
    return p;
}

/** A hand-made ELF file: a header, its program headers, then segment bytes at kData. */
struct Program {
    Elf32_Ehdr eh{};
    std::vector<Elf32_Phdr> ph;
    std::vector<uint8_t> data;

    Program()
    {
        std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
        eh.e_ident[EI_CLASS] = ELFCLASS32;
        eh.e_ident[EI_DATA] = ELFDATA2LSB;
        eh.e_ident[EI_VERSION] = EV_CURRENT;
        eh.e_type = ET_EXEC;
        eh.e_machine = EM_RISCV;
        eh.e_version = EV_CURRENT;
        eh.e_ehsize = sizeof(Elf32_Ehdr);
        eh.e_phentsize = sizeof(Elf32_Phdr);
    }

    std::vector<uint8_t> Bytes() const
    {
        Elf32_Ehdr h = eh;
        h.e_phoff = ph.empty() ? 0 : sizeof(Elf32_Ehdr);
        h.e_phnum = static_cast<Elf32_Half>(ph.size());
        std::vector<uint8_t> f(kData + data.size());
        std::memcpy(f.data(), &h, sizeof h);
        if (!ph.empty())
            std::memcpy(f.data() + sizeof h, ph.data(), ph.size() * sizeof ph[0]);
        std::copy(data.begin(), data.end(), f.begin() + kData);
        return f;
    }
};

// Two segments: 8 bytes of code at 0, then a word of data at 0x10 with 9 bytes of .bss
// after it (memory to 0x1d): a gap at 0x08..0x10 and an end that is not a word's.
Program Minimal()
{
    Program p;
    p.ph = {Segment(PT_LOAD, kData, 0x0, 8, 8), Segment(PT_LOAD, kData + 8, 0x10, 4, 13)};
    p.data = kText;
    p.data.insert(p.data.end(), kWord.begin(), kWord.end());
    return p;
}

struct Refusal {
    int rc;
    std::string why;
};

/** Read f, which must be refused: the code, the phrase, and the image left empty. The
 *  bytes go in an exactly sized block so that ASan sees any read past them. */
Refusal Refuse(const std::vector<uint8_t> &f, uint32_t ram = kRam)
{
    std::unique_ptr<uint8_t[]> exact(new uint8_t[f.empty() ? 1 : f.size()]);
    std::copy(f.begin(), f.end(), exact.get());
    static uint8_t junk;
    weft_softcore_image_t img{&junk, 77}; // not zero before: the call must zero it
    char why[200] = "unchanged";
    int rc = weft_softcore_image_from_elf(exact.get(), f.size(), ram, &img, why, sizeof why);
    EXPECT_NE(rc, 0) << "accepted a file that must be refused";
    if (rc == 0) {
        weft_softcore_image_free(&img);
    } else {
        EXPECT_EQ(img.bytes, nullptr);
        EXPECT_EQ(img.size, 0u);
    }
    return {rc, why};
}

/** Read f, which must be accepted. */
std::vector<uint8_t> Accept(const std::vector<uint8_t> &f, uint32_t ram = kRam)
{
    weft_softcore_image_t img{};
    char why[200] = "";
    int rc = weft_softcore_image_from_elf(f.data(), f.size(), ram, &img, why, sizeof why);
    EXPECT_EQ(rc, 0) << why;
    EXPECT_STREQ(why, "");
    std::vector<uint8_t> bytes(img.bytes, img.bytes + img.size);
    weft_softcore_image_free(&img);
    return bytes;
}

std::vector<uint8_t> ReadFile(const char *path)
{
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in) << path;
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/** A scratch file holding bytes; removed when the test ends. */
class ScratchFile
{
  public:
    explicit ScratchFile(const std::vector<uint8_t> &bytes)
    {
        int fd = mkstemp(path_);
        EXPECT_GE(fd, 0);
        EXPECT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
        close(fd);
    }
    ~ScratchFile() { unlink(path_); }
    const char *path() const { return path_; }

  private:
    char path_[40] = "/tmp/weft-softcore-image-XXXXXX";
};

TEST(SoftcoreImage, ARealProgramGivesTheBytesOfItsBinImage)
{
    const std::vector<uint8_t> bin = ReadFile(WEFT_RV_HELLO_BIN);
    ASSERT_FALSE(bin.empty());
    weft_softcore_image_t img{};
    char why[300] = "";
    ASSERT_EQ(weft_softcore_image_load(WEFT_RV_HELLO_ELF, kRam, &img, why, sizeof why), 0) << why;
    // objcopy's .bin stops at the last file byte; the image goes on over the .bss to the
    // rounded end, and those bytes are 0.
    ASSERT_GE(img.size, bin.size());
    EXPECT_EQ(img.size % 4, 0u);
    EXPECT_LE(img.size, kRam);
    EXPECT_EQ(std::vector<uint8_t>(img.bytes, img.bytes + bin.size()), bin);
    EXPECT_EQ(std::vector<uint8_t>(img.bytes + bin.size(), img.bytes + img.size),
              std::vector<uint8_t>(img.size - bin.size(), 0));
    // The same bytes in memory give the same image.
    EXPECT_EQ(Accept(ReadFile(WEFT_RV_HELLO_ELF)),
              std::vector<uint8_t>(img.bytes, img.bytes + img.size));
    weft_softcore_image_free(&img);
}

TEST(SoftcoreImage, SegmentsLandAtTheirAddressesWithGapAndBssZeroedAndTheSizeRoundedToAWord)
{
    const std::vector<uint8_t> f = Minimal().Bytes();
    const std::vector<uint8_t> before = f;
    std::vector<uint8_t> want(0x20, 0); // memory ends at 0x1d
    std::copy(kText.begin(), kText.end(), want.begin());
    std::copy(kWord.begin(), kWord.end(), want.begin() + 0x10);
    EXPECT_EQ(Accept(f), want);
    EXPECT_EQ(f, before); // the caller's bytes are read, not changed
}

TEST(SoftcoreImage, OtherSegmentTypesAndEmptyLoadSegmentsAreIgnored)
{
    Program p = Minimal();
    // Neither is looked at, so neither's bytes need to exist.
    p.ph.push_back(Segment(PT_NOTE, 0xfffffff0, 0x0, 0x100, 0x100));
    p.ph.push_back(Segment(PT_LOAD, 0xfffffff0, 0x20000, 0x0, 0x0));
    EXPECT_EQ(Accept(p.Bytes()).size(), 0x20u);
}

TEST(SoftcoreImage, ASegmentMayEndExactlyAtTheEndOfTheRam)
{
    Program p = Minimal();
    p.ph[1] = Segment(PT_LOAD, kData + 8, kRam - 4, 4, 4);
    std::vector<uint8_t> img = Accept(p.Bytes());
    ASSERT_EQ(img.size(), kRam);
    EXPECT_TRUE(std::equal(kWord.begin(), kWord.end(), img.end() - 4));
}

TEST(SoftcoreImage, AFileThatIsNotElfIsRefused)
{
    const std::string text = "#!/bin/sh\necho this is a script, not a program\n";
    Refusal r = Refuse(std::vector<uint8_t>(text.begin(), text.end()));
    EXPECT_EQ(r.rc, -ENOEXEC);
    EXPECT_EQ(r.why, "not an ELF file");
}

TEST(SoftcoreImage, A64BitFileIsRefused)
{
    Program p = Minimal();
    p.eh.e_ident[EI_CLASS] = ELFCLASS64;
    Refusal r = Refuse(p.Bytes());
    EXPECT_EQ(r.rc, -ENOEXEC);
    EXPECT_EQ(r.why, "ELF class 64-bit; the softcore is 32-bit");
}

TEST(SoftcoreImage, ABigEndianFileIsRefused)
{
    Program p = Minimal();
    p.eh.e_ident[EI_DATA] = ELFDATA2MSB;
    Refusal r = Refuse(p.Bytes());
    EXPECT_EQ(r.rc, -ENOEXEC);
    EXPECT_NE(r.why.find("big-endian"), std::string::npos) << r.why;
}

TEST(SoftcoreImage, AnotherMachinesProgramIsRefused)
{
    Program p = Minimal();
    p.eh.e_machine = EM_X86_64;
    Refusal r = Refuse(p.Bytes());
    EXPECT_EQ(r.rc, -ENOEXEC);
    EXPECT_EQ(r.why, "machine 62, not RISC-V (243)");
}

TEST(SoftcoreImage, ASharedObjectIsRefused)
{
    Program p = Minimal();
    p.eh.e_type = ET_DYN;
    Refusal r = Refuse(p.Bytes());
    EXPECT_EQ(r.rc, -ENOEXEC);
    EXPECT_EQ(r.why, "not an executable (ELF type 3)");
}

TEST(SoftcoreImage, CompressedInstructionsAreRefusedWithHowToBuildWithout)
{
    Program p = Minimal();
    p.eh.e_flags = EF_RISCV_RVC;
    Refusal r = Refuse(p.Bytes());
    EXPECT_EQ(r.rc, -ENOEXEC);
    EXPECT_NE(r.why.find("EF_RISCV_RVC"), std::string::npos) << r.why;
    EXPECT_NE(r.why.find("-march=rv32im_zicsr"), std::string::npos) << r.why;
}

TEST(SoftcoreImage, AFloatingPointAbiIsRefusedWithHowToBuildWithout)
{
    Program p = Minimal();
    p.eh.e_flags = EF_RISCV_FLOAT_ABI_DOUBLE;
    Refusal r = Refuse(p.Bytes());
    EXPECT_EQ(r.rc, -ENOEXEC);
    EXPECT_NE(r.why.find("floating-point ABI in e_flags 0x00000004"), std::string::npos) << r.why;
    EXPECT_NE(r.why.find("-mabi=ilp32"), std::string::npos) << r.why;
}

TEST(SoftcoreImage, TheRv32eAbiIsRefused)
{
    Program p = Minimal();
    p.eh.e_flags = EF_RISCV_RVE;
    Refusal r = Refuse(p.Bytes());
    EXPECT_EQ(r.rc, -ENOEXEC);
    EXPECT_NE(r.why.find("EF_RISCV_RVE"), std::string::npos) << r.why;
}

TEST(SoftcoreImage, AnEntryOtherThanZeroIsRefused)
{
    Program p = Minimal();
    p.eh.e_entry = 0x100;
    Refusal r = Refuse(p.Bytes());
    EXPECT_EQ(r.rc, -ENOEXEC);
    EXPECT_EQ(r.why, "entry 0x00000100; the core starts every context at 0");
}

TEST(SoftcoreImage, ASegmentWithMoreFileBytesThanMemoryIsRefused)
{
    Program p = Minimal();
    p.ph[1].p_memsz = 2;
    Refusal r = Refuse(p.Bytes());
    EXPECT_EQ(r.rc, -ENOEXEC);
    EXPECT_NE(r.why.find("segment 1 has 0x4 file bytes, more than"), std::string::npos) << r.why;
}

TEST(SoftcoreImage, FileBytesPastTheEndOfTheFileAreRefused)
{
    Program p = Minimal();
    p.ph[1].p_filesz = p.ph[1].p_memsz = 5; // one byte more than the file has
    std::vector<uint8_t> f = p.Bytes();
    Refusal r = Refuse(f);
    EXPECT_EQ(r.rc, -ENOEXEC);
    EXPECT_EQ(r.why, "segment 1 file bytes 0x00000108 + 0x5 run past the file's " +
                         std::to_string(f.size()) + " bytes");
}

TEST(SoftcoreImage, AFileOffsetThatWouldWrapAroundIsRefused)
{
    Program p = Minimal();
    p.ph[1].p_offset = 0xfffffff0; // + 0x20 wraps to 0x10, inside the file
    p.ph[1].p_filesz = p.ph[1].p_memsz = 0x20;
    Refusal r = Refuse(p.Bytes());
    EXPECT_EQ(r.rc, -ENOEXEC);
    EXPECT_NE(r.why.find("segment 1 file bytes 0xfffffff0 + 0x20 run past"), std::string::npos)
        << r.why;
}

TEST(SoftcoreImage, ASegmentPastTheRamIsTooBig)
{
    Program p = Minimal();
    p.ph[1] = Segment(PT_LOAD, kData + 8, 0xfc00, 4, 0x800);
    Refusal r = Refuse(p.Bytes(), 65536);
    EXPECT_EQ(r.rc, -EFBIG);
    EXPECT_EQ(r.why, "segment 1 (0x0000fc00..0x00010400) ends past the 65536-byte RAM");
    // An address near the top, whose end would wrap around to inside the RAM.
    p.ph[1] = Segment(PT_LOAD, kData + 8, 0xfffffff0, 4, 0x20);
    EXPECT_EQ(Refuse(p.Bytes()).rc, -EFBIG);
    // The same program fits a larger RAM.
    p.ph[1] = Segment(PT_LOAD, kData + 8, 0xfc00, 4, 0x800);
    EXPECT_EQ(Accept(p.Bytes(), 0x20000).size(), 0x10400u);
}

TEST(SoftcoreImage, OverlappingSegmentsAreRefused)
{
    Program p = Minimal();
    p.ph.push_back(Segment(PT_NOTE, kData, 0x0, 4, 4));
    p.ph.push_back(Segment(PT_LOAD, kData, 0x18, 4, 4)); // inside segment 1's .bss
    Refusal r = Refuse(p.Bytes());
    EXPECT_EQ(r.rc, -ENOEXEC);
    EXPECT_EQ(r.why, "segments 1 and 3 overlap");
    // Touching is not overlapping.
    p.ph[3].p_vaddr = 0x1d;
    EXPECT_EQ(Accept(p.Bytes()).size(), 0x24u);
}

TEST(SoftcoreImage, AFileWithoutLoadableSegmentsIsRefused)
{
    Program p = Minimal();
    p.ph = {Segment(PT_NOTE, kData, 0x0, 4, 4)};
    Refusal r = Refuse(p.Bytes());
    EXPECT_EQ(r.rc, -ENOEXEC);
    EXPECT_EQ(r.why, "no loadable segment");
    p.ph.clear();
    EXPECT_EQ(Refuse(p.Bytes()).why, "no loadable segment");
}

TEST(SoftcoreImage, ProgramHeadersPastTheEndOfTheFileOrOfAnotherSizeAreRefused)
{
    std::vector<uint8_t> f = Minimal().Bytes();
    f.resize(sizeof(Elf32_Ehdr) + sizeof(Elf32_Phdr) + 10); // the second header is cut
    Refusal r = Refuse(f);
    EXPECT_EQ(r.rc, -ENOEXEC);
    EXPECT_NE(r.why.find("program headers"), std::string::npos) << r.why;

    Program p = Minimal();
    p.eh.e_phentsize = sizeof(Elf32_Phdr) + 4;
    r = Refuse(p.Bytes());
    EXPECT_EQ(r.rc, -ENOEXEC);
    EXPECT_NE(r.why.find("program header size 36"), std::string::npos) << r.why;
}

TEST(SoftcoreImage, ATruncatedHeaderIsRefused)
{
    std::vector<uint8_t> f = Minimal().Bytes();
    f.resize(20);
    Refusal r = Refuse(f);
    EXPECT_EQ(r.rc, -ENOEXEC);
    EXPECT_NE(r.why.find("truncated"), std::string::npos) << r.why;
}

TEST(SoftcoreImage, AnEmptyBufferIsRefused)
{
    Refusal r = Refuse({});
    EXPECT_EQ(r.rc, -ENOEXEC);
    EXPECT_EQ(r.why, "not an ELF file");
}

TEST(SoftcoreImage, NullArgumentsAndABadRamSizeAreInvalid)
{
    const std::vector<uint8_t> f = Minimal().Bytes();
    weft_softcore_image_t img{};
    char why[200];
    EXPECT_EQ(weft_softcore_image_from_elf(nullptr, f.size(), kRam, &img, why, sizeof why),
              -EINVAL);
    EXPECT_NE(std::string(why).find("no ELF file"), std::string::npos) << why;
    EXPECT_EQ(weft_softcore_image_from_elf(f.data(), f.size(), kRam, nullptr, why, sizeof why),
              -EINVAL);
    for (uint32_t ram : {0u, 6u, 65535u}) {
        EXPECT_EQ(weft_softcore_image_from_elf(f.data(), f.size(), ram, &img, why, sizeof why),
                  -EINVAL)
            << ram;
        EXPECT_NE(std::string(why).find("RAM size"), std::string::npos) << why;
        EXPECT_EQ(img.bytes, nullptr);
    }
    EXPECT_EQ(weft_softcore_image_load(nullptr, kRam, &img, why, sizeof why), -EINVAL);
    EXPECT_EQ(weft_softcore_image_load(WEFT_RV_HELLO_ELF, kRam, nullptr, why, sizeof why), -EINVAL);
    EXPECT_EQ(weft_softcore_image_load(WEFT_RV_HELLO_ELF, 0, &img, why, sizeof why), -EINVAL);
    EXPECT_EQ(img.bytes, nullptr);
}

TEST(SoftcoreImage, WhyMayBeNullEmptyOrShort)
{
    Program p = Minimal();
    p.eh.e_machine = EM_X86_64;
    const std::vector<uint8_t> f = p.Bytes();
    weft_softcore_image_t img{};
    EXPECT_EQ(weft_softcore_image_from_elf(f.data(), f.size(), kRam, &img, nullptr, 100), -ENOEXEC);
    char why[16];
    std::memset(why, 'x', sizeof why);
    EXPECT_EQ(weft_softcore_image_from_elf(f.data(), f.size(), kRam, &img, why, 0), -ENOEXEC);
    EXPECT_EQ(why[0], 'x'); // no room: not written
    EXPECT_EQ(weft_softcore_image_from_elf(f.data(), f.size(), kRam, &img, why, 8), -ENOEXEC);
    EXPECT_STREQ(why, "machine"); // cut to fit, terminated
    // A valid file with no why at all.
    const std::vector<uint8_t> good = Minimal().Bytes();
    ASSERT_EQ(weft_softcore_image_from_elf(good.data(), good.size(), kRam, &img, nullptr, 0), 0);
    weft_softcore_image_free(&img);
}

TEST(SoftcoreImage, LoadingAMissingFileNamesThePath)
{
    weft_softcore_image_t img{};
    char why[300];
    const char *path = "/nonexistent/weft/x.elf";
    EXPECT_EQ(weft_softcore_image_load(path, kRam, &img, why, sizeof why), -ENOENT);
    EXPECT_STREQ(why, "/nonexistent/weft/x.elf: No such file or directory");
    EXPECT_EQ(img.bytes, nullptr);
    EXPECT_EQ(weft_softcore_image_load("/tmp", kRam, &img, why, sizeof why), -EISDIR);
    EXPECT_STREQ(why, "/tmp: Is a directory");
}

TEST(SoftcoreImage, LoadingABadFileNamesThePathThenWhatIsWrong)
{
    ScratchFile bad(std::vector<uint8_t>{'n', 'o', 't', ' ', 'E', 'L', 'F'});
    weft_softcore_image_t img{};
    char why[300];
    EXPECT_EQ(weft_softcore_image_load(bad.path(), kRam, &img, why, sizeof why), -ENOEXEC);
    EXPECT_EQ(std::string(why), std::string(bad.path()) + ": not an ELF file");

    ScratchFile good(Minimal().Bytes());
    ASSERT_EQ(weft_softcore_image_load(good.path(), kRam, &img, why, sizeof why), 0) << why;
    EXPECT_EQ(img.size, 0x20u);
    weft_softcore_image_free(&img);
}

TEST(SoftcoreImage, AFileLargerThan64MiBIsNotRead)
{
    ScratchFile big(std::vector<uint8_t>{});
    ASSERT_EQ(truncate(big.path(), (64 << 20) + 1), 0); // sparse: no disk space used
    weft_softcore_image_t img{};
    char why[300];
    EXPECT_EQ(weft_softcore_image_load(big.path(), kRam, &img, why, sizeof why), -EFBIG);
    EXPECT_NE(std::string(why).find("64 MiB"), std::string::npos) << why;
}

TEST(SoftcoreImage, FreeingTwiceOrNothingIsSafe)
{
    const std::vector<uint8_t> f = Minimal().Bytes();
    weft_softcore_image_t img{};
    ASSERT_EQ(weft_softcore_image_from_elf(f.data(), f.size(), kRam, &img, nullptr, 0), 0);
    weft_softcore_image_free(&img);
    EXPECT_EQ(img.bytes, nullptr);
    EXPECT_EQ(img.size, 0u);
    weft_softcore_image_free(&img);
    weft_softcore_image_free(nullptr);
}

} // namespace
