"""Tests of build/tools/weft-bitstream: a file it builds from an image names the image by
its SHA-256 and checks out; a damaged or truncated one is refused with the reason; bad
arguments are refused."""
import hashlib
import os
import pathlib
import subprocess
import tempfile
import unittest
import zlib

TOOL = os.environ.get("WEFT_BITSTREAM_TOOL", "weft-bitstream")


def run(*args):
    return subprocess.run([TOOL, *map(str, args)], capture_output=True, text=True)


class WeftBitstream(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.d = pathlib.Path(self.dir.name)
        self.image = self.d / "hwt_test.so"
        self.image.write_bytes(b"a thread image" * 100)

    def tearDown(self):
        self.dir.cleanup()

    def build(self, *extra):
        out = self.d / "t.wbit"
        res = run("build", "--image", self.image, "--partition", "big", "--slots", "0x5",
                  "--out", out, *extra)
        return res, out

    def test_a_built_file_names_its_image_and_checks_out(self):
        res, out = self.build("--payload-bytes", "4096")
        self.assertEqual(res.returncode, 0, res.stderr)
        data = out.read_bytes()
        self.assertEqual(len(data), 160 + 4096)
        self.assertEqual(data[96:128], hashlib.sha256(self.image.read_bytes()).digest())
        self.assertEqual(int.from_bytes(data[16:20], "little"), zlib.crc32(data[160:]))
        self.assertEqual(int.from_bytes(data[128:132], "little"), zlib.crc32(data[:128]))
        res = run("info", out)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("partition big, slots 0x5", res.stdout)
        self.assertIn("image hwt_test.so, sha256 " + hashlib.sha256(self.image.read_bytes()).hexdigest(),
                      res.stdout)
        self.assertIn("payload 4096 bytes", res.stdout)

    def test_the_default_payload_is_freds_338_kb(self):
        res, out = self.build()
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(out.stat().st_size, 160 + 338 * 1024)

    def test_a_given_payload_is_carried_as_it_is(self):
        vendor = self.d / "slot1.bit.bin"
        vendor.write_bytes(bytes(range(256)) * 9)
        res, out = self.build("--payload", vendor)
        self.assertEqual(res.returncode, 0, res.stderr)
        data = out.read_bytes()
        self.assertEqual(data[160:], vendor.read_bytes())
        self.assertEqual(int.from_bytes(data[12:16], "little"), 256 * 9)
        self.assertEqual(run("info", out).returncode, 0)
        vendor.write_bytes(b"")
        res, _ = self.build("--payload", vendor)
        self.assertEqual(res.returncode, 2)
        self.assertIn("a payload is 1 to", res.stderr)
        res, _ = self.build("--payload", self.d / "absent.bin")
        self.assertEqual(res.returncode, 1)
        self.assertIn("absent.bin", res.stderr)
        vendor.write_bytes(b"bits")
        res, _ = self.build("--payload", vendor, "--payload-bytes", str(338 * 1024))  # even the default
        self.assertEqual(res.returncode, 2)
        self.assertIn("exclude each other", res.stderr)

    def test_damaged_and_truncated_files_are_refused_with_the_reason(self):
        _, out = self.build("--payload-bytes", "1000")
        data = bytearray(out.read_bytes())
        out.write_bytes(data[:-10])
        res = run("info", out)
        self.assertEqual(res.returncode, 1)
        self.assertIn("truncated: 990 payload bytes of 1000", res.stderr)
        data[500] ^= 1
        out.write_bytes(data)
        res = run("info", out)
        self.assertEqual(res.returncode, 1)
        self.assertIn("payload CRC-32", res.stderr)

    def test_bad_arguments_are_refused(self):
        res = run("build", "--image", self.image, "--partition", "../x", "--slots", "1",
                  "--out", self.d / "x")
        self.assertEqual(res.returncode, 2)
        self.assertIn("partition '../x'", res.stderr)
        res = run("build", "--image", self.image, "--partition", "p", "--slots", "0",
                  "--out", self.d / "x")
        self.assertEqual(res.returncode, 2)
        self.assertIn("--slots '0' is not a number", res.stderr)
        res = run("build", "--image", self.d / "missing.so", "--partition", "p", "--slots", "1",
                  "--out", self.d / "x")
        self.assertEqual(res.returncode, 1)
        self.assertIn("missing.so", res.stderr)


if __name__ == "__main__":
    unittest.main()
