"""Tests of tools/sim_profile.py: a sample's source line is attributed to the RTL module
whose --prof-cfuncs function encloses it (perf itself is not needed)."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.environ["WEFT_SOURCE_DIR"], "tools"))
import sim_profile  # noqa: E402

GENERATED = """\
#include "Vhwt_x.h"

VL_INLINE_OPT void Vhwt_x_hwt_x___nba_sequent__TOP__hwt_x__0__PROF__weft_osif_call__l90(Vhwt_x_hwt_x* vlSelf) {
    vlSelf->a = 1U;
    vlSelf->b = 2U;
}

void Vhwt_x___024root___eval(Vhwt_x___024root* vlSelf) {
    vlSelf->c = 3U;
}

VL_INLINE_OPT void Vhwt_x_hwt_x___ico_sequent__TOP__hwt_x__1__PROF__hwt_x__l12(Vhwt_x_hwt_x* vlSelf) {
    vlSelf->d = 4U;
}
"""


class BlockOf(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "Vhwt_x_hwt_x__DepSet_h1__0.cpp")
        with open(self.path, "w") as f:
            f.write(GENERATED)
        self.cache = {}

    def tearDown(self):
        self.dir.cleanup()

    def block(self, line):
        return sim_profile.block_of(f"{self.path}:{line}", self.cache)

    def test_line_inside_a_profiled_function_names_its_module(self):
        self.assertEqual(self.block(4), "weft_osif_call")
        self.assertEqual(self.block(5), "weft_osif_call")
        self.assertEqual(self.block(13), "hwt_x")

    def test_verilator_scheduling_code_is_scheduling(self):
        self.assertEqual(self.block(9), "scheduling")

    def test_line_before_any_function_is_scheduling(self):
        self.assertEqual(self.block(1), "scheduling")

    def test_other_sources_are_named_by_file(self):
        self.assertEqual(sim_profile.block_of("/src/platform/sim/fabric.cpp:81", self.cache),
                         "fabric.cpp")
        self.assertEqual(
            sim_profile.block_of("/usr/share/verilator/include/verilated.h:892", self.cache),
            "verilated.h")

    def test_kernel_symbols_and_unresolved_addresses_pass_through(self):
        self.assertEqual(sim_profile.block_of("finish_task_switch.isra.0+147", self.cache),
                         "finish_task_switch.isra.0")
        self.assertEqual(sim_profile.block_of("??", self.cache), "??")

    def test_missing_generated_file_is_scheduling_not_a_crash(self):
        self.assertEqual(
            sim_profile.block_of(os.path.join(self.dir.name, "Vgone.cpp") + ":3", self.cache),
            "scheduling")


if __name__ == "__main__":
    unittest.main()
