"""The weftd Python package (client/python/weftd) against a weftd of its own: buffers as
numpy arrays over the hardware's pages, errors as WeftdError with the server's text, the
pollable connection, cancel, and Server's start and stop."""
import errno
import os
import select
import sys
import unittest

BUILD = os.environ["WEFT_BUILD_DIR"]
sys.path.insert(0, os.path.join(BUILD, "python"))
import numpy as np  # noqa: E402
import weftd  # noqa: E402

SERVER = [os.path.join(BUILD, "server", "weftd"),
          os.path.join(BUILD, "server", "weftd-example.json")]


class Python(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.srv = weftd.Server(*SERVER).__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.srv.__exit__(None, None, None)

    def test_vecsum_writes_the_numpy_array_in_place(self):
        with weftd.Client(self.srv.socket) as c:
            buf = c.alloc(3 * 4096)
            x = np.frombuffer(buf.view, dtype=np.uint32)
            self.assertTrue((x == 0).all(), "a new buffer is not zero")
            x[:2048] = np.arange(2048, dtype=np.uint32) * 2654435761
            r = c.run("vecsum", (buf, 0), (buf, 4096), (buf, 8192), 1000)
            self.assertEqual(r.status, 0)
            np.testing.assert_array_equal(x[2048:3048], x[:1000] + x[1024:2024])
            self.assertTrue((x[3048:] == 0).all(), "written past n")
            del x
            c.free(buf)

    def test_errors_carry_the_servers_errno_and_text(self):
        with weftd.Client(self.srv.socket) as c:
            with self.assertRaises(weftd.WeftdError) as e:
                c.submit(999, 1)
            self.assertEqual(e.exception.errno, errno.ENOENT)
            self.assertIn("no task with id 999", e.exception.strerror)
            with self.assertRaises(weftd.WeftdError) as e:
                c.run("fib", 1, 2)
            self.assertEqual(e.exception.errno, errno.EINVAL)
            with self.assertRaises(weftd.WeftdError) as e:
                c.task_id("nosuch")
            self.assertEqual(e.exception.errno, errno.ENOENT)
            self.assertEqual(c.run("fib", 10).exit_value, 55)

    def test_the_connection_polls_readable_when_a_result_is_there(self):
        with weftd.Client(self.srv.socket) as c:
            reqs = {c.submit("sumsq", n): n for n in (3, 4, 5)}
            got = {}
            while len(got) < 3:
                self.assertTrue(select.select([c], [], [], 20)[0], "never readable")
                while (done := c.next()) is not None:
                    got[done[0]] = done[1]
            for req, n in reqs.items():
                self.assertEqual(got[req].exit_value, sum(i * i for i in range(1, n + 1)))
            self.assertIsNone(c.next())
            self.assertFalse(select.select([c], [], [], 0)[0], "readable with nothing to take")

    def test_cancel_of_a_request_that_waits(self):
        with weftd.Client(self.srv.socket) as c:
            long = [c.submit("popsum", 1_000_000) for _ in range(2)]  # both small slots
            queued = c.submit("collatz", 7)
            c.cancel(queued)
            self.assertEqual(c.wait(queued, timeout=20).status, -errno.ECANCELED)
            for req in long:
                self.assertEqual(c.wait(req, timeout=120).status, 0)

    def test_a_refused_connection_says_why(self):
        with self.assertRaises(weftd.WeftdError) as e:
            weftd.Client(os.path.join(os.path.dirname(self.srv.socket), "none.sock"))
        self.assertIn("cannot connect", e.exception.strerror)


if __name__ == "__main__":
    unittest.main()
