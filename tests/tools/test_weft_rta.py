"""weft-rta (tools/weft_rta.py) on task sets whose bounds are computed by hand here.

Clock 1 MHz, port 1 byte a cycle, so that cycles and microseconds are the same numbers.
"""
import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.environ["WEFT_SOURCE_DIR"], "tools"))
import weft_rta  # noqa: E402


def taskset(partitions, hw, sw):
    return {"clock_mhz": 1, "fri_bytes_per_cycle": 1, "partitions": partitions,
            "hw_tasks": hw, "sw_tasks": sw}


A = {"name": "a", "partition": "p", "wcet_cycles": 10, "bitstream_bytes": 5}   # R 5, C 10
B = {"name": "b", "partition": "q", "wcet_cycles": 100, "bitstream_bytes": 50}  # R 50, C 100


def sw(name, prio, period, segments, requests, deadline=None):
    return {"name": name, "priority": prio, "period_us": period,
            "deadline_us": deadline or period, "segments_us": segments, "requests": requests}


class Bounds(unittest.TestCase):
    def test_two_tasks_one_slot(self):
        # Each request: the other task's request may hold the slot for its port wait (5,
        # the first task's programming) + 5 + 10 = 20; then its own port wait 5, its
        # programming 5 and execution 10: 40. t1: 5 + 40 = 45. t2: 5 + 40 plus t1 once
        # (jitter 45 - 5 = 40: ceil((50 + 40) / 100) = 1): 50.
        res = weft_rta.analyse(taskset([{"name": "p", "slots": 1}], [A], [
            sw("t1", 1, 100, [2, 3], ["a"]), sw("t2", 2, 200, [4, 1], ["a"])]))
        t1, t2 = res["sw_tasks"]
        self.assertEqual(t1["requests"][0]["slot_wait"], 20)
        self.assertEqual(t1["requests"][0]["port_wait"], 5)
        self.assertEqual(t1["requests"][0]["bound"], 40)
        self.assertEqual(t2["requests"][0]["bound"], 40)
        self.assertEqual(t1["response_bound_us"], 45)
        self.assertEqual(t2["response_bound_us"], 50)
        self.assertTrue(res["schedulable"])

    def test_two_slots_halve_the_slot_wait(self):
        res = weft_rta.analyse(taskset([{"name": "p", "slots": 2}], [A], [
            sw("t1", 1, 100, [2, 3], ["a"]), sw("t2", 2, 200, [4, 1], ["a"])]))
        self.assertEqual(res["sw_tasks"][0]["requests"][0]["slot_wait"], 10)
        self.assertEqual(res["sw_tasks"][0]["requests"][0]["bound"], 30)

    def test_other_partitions_cost_only_the_port(self):
        # t1 alone on p waits for t2's programming on the port (50): 0 + 50 + 5 + 10 = 65;
        # t2 alone on q waits for t1's (5): 0 + 5 + 50 + 100 = 155.
        res = weft_rta.analyse(taskset(
            [{"name": "p", "slots": 1}, {"name": "q", "slots": 1}], [A, B],
            [sw("t1", 1, 1000, [1, 1], ["a"]), sw("t2", 2, 1000, [1, 1], ["b"])]))
        t1, t2 = res["sw_tasks"]
        self.assertEqual(t1["requests"][0]["slot_wait"], 0)
        self.assertEqual(t1["requests"][0]["bound"], 65)
        self.assertEqual(t2["requests"][0]["bound"], 155)
        # t2: C 2 + 155, and t1 (C 2, jitter 67 - 2 = 65) once: ceil((159 + 65) / 1000) = 1.
        self.assertEqual(t2["response_bound_us"], 2 + 155 + 2)

    def test_suspension_as_jitter_of_a_higher_priority_task(self):
        # t1: C 5, its request alone 0 + 0 + 5 + 10 = 15, so R1 = 20 and J1 = 15. t2 (no
        # requests, C 30): 30 + ceil((30 + 15) / 40) * 5 = 40, then ceil(55 / 40) = 2: 40.
        # Without the jitter it would be 30 + ceil(35 / 40) * 5 = 35.
        res = weft_rta.analyse(taskset([{"name": "p", "slots": 1}], [A], [
            sw("t1", 1, 40, [2, 3], ["a"]), sw("t2", 2, 100, [30], [])]))
        self.assertEqual(res["sw_tasks"][0]["response_bound_us"], 20)
        self.assertEqual(res["sw_tasks"][1]["response_bound_us"], 40)

    def test_a_deadline_that_cannot_be_met(self):
        ts = taskset([{"name": "p", "slots": 1}, {"name": "q", "slots": 1}], [A, B],
                     [sw("t1", 1, 1000, [1, 1], ["a"]), sw("t2", 2, 1000, [1, 1], ["b"], 100)])
        res = weft_rta.analyse(ts)
        self.assertFalse(res["schedulable"])
        self.assertIsNone(res["sw_tasks"][1]["response_bound_us"])
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(ts, f)
        try:
            with contextlib.redirect_stdout(io.StringIO()) as out:
                self.assertEqual(weft_rta.main([f.name]), 1)
            self.assertIn("NOT schedulable", out.getvalue())
        finally:
            os.unlink(f.name)


class Refusals(unittest.TestCase):
    def refused(self, ts, words):
        with self.assertRaises(weft_rta.TaskSetError) as e:
            weft_rta.analyse(ts)
        self.assertIn(words, str(e.exception))

    def test_each_mistake_is_named(self):
        p = [{"name": "p", "slots": 1}]
        self.refused(taskset(p, [A], [sw("t1", 1, 10, [1, 1], ["zz"])]), "no hardware task 'zz'")
        self.refused(taskset(p, [A], [sw("t1", 1, 10, [1], ["a"])]), "segments_us must be 2")
        self.refused(taskset(p, [A], [sw("t1", 1, 10, [1], []), sw("t2", 1, 10, [1], [])]),
                     "two tasks with one priority")
        self.refused(taskset(p, [dict(A, partition="x")], []), "no partition 'x'")
        self.refused(taskset(p, [A], [sw("t1", 1, 10, [1], [], 20)]), "deadline_us <= period_us")
        self.refused(taskset([{"name": "p"}], [], []), "no 'slots'")
        self.refused({"clock_mhz": "fast"}, "'clock_mhz' is not float")

    def test_the_command_line_names_a_bad_file(self):
        with contextlib.redirect_stderr(io.StringIO()) as err:
            self.assertEqual(weft_rta.main(["/nonexistent/ts.json"]), 2)
        self.assertIn("/nonexistent/ts.json", err.getvalue())


if __name__ == "__main__":
    unittest.main()
