"""Tests of tools/synth_flow.py's board builds: a block's simulation hints (skip_i, still_o
and the rest) are left out of what the area and timing reports measure, as a board leaves
them, and with them the logic only they use."""
import os
import pathlib
import sys
import tempfile
import unittest

SRC = pathlib.Path(os.environ.get("WEFT_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(SRC / "tools"))
import area_report  # noqa: E402
import synth_flow  # noqa: E402

# A counter that also counts the edges a simulator skipped, and says when it is still.
BLOCK = """module counter (input logic clk_i, input logic rst_ni, input logic en_i,
                input logic [31:0] skip_i, output logic [31:0] count_o, output logic still_o);
  always_ff @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) count_o <= '0;
    else if (en_i) count_o <= count_o + 32'd1 + skip_i;
  assign still_o = !en_i;
endmodule
"""
PORTS = {"clk_i": ("input", 1), "rst_ni": ("input", 1), "en_i": ("input", 1),
         "skip_i": ("input", 32), "count_o": ("output", 32), "still_o": ("output", 1)}


class BoardBuild(unittest.TestCase):
    def test_the_wrapper_ties_and_leaves_open_the_hints(self):
        text = synth_flow.board_wrapper("counter", {"W": "4"}, PORTS)
        self.assertIn("module weft_board_top (", text)
        self.assertIn("counter #(.W(4)) u_dut (", text)
        self.assertIn(".skip_i('0)", text)
        self.assertIn(".still_o()", text)
        self.assertIn("output logic [31:0] count_o", text)
        self.assertNotIn("input logic [31:0] skip_i", text)
        self.assertNotIn("output logic [0:0] still_o", text)

    def test_the_timing_harness_registers_only_what_a_board_uses(self):
        text = synth_flow.harness("counter", None, PORTS)
        self.assertIn("logic [1:0] in_q;", text)  # en_i alone (the chain is 2 at least)
        self.assertIn(".skip_i('0)", text)
        self.assertIn(".en_i(in_q[0:0])", text)
        self.assertIn(".count_o(out_d[31:0])", text)
        sim = synth_flow.harness("counter", None, PORTS, board=False)
        self.assertIn(".skip_i(in_q[32:1])", sim)
        self.assertIn(".still_o(out_d[32:32])", sim)

    @unittest.skipUnless(synth_flow.yosys_command(), "no Yosys (scripts/setup.sh installs it)")
    def test_a_board_build_has_no_logic_for_the_hints(self):
        with tempfile.TemporaryDirectory() as d:
            src = pathlib.Path(d) / "counter.sv"
            src.write_text(BLOCK)
            script = SRC / "hw" / "synth" / "weft_area.ys"
            sim = area_report.synthesise(None, script, os.path.join(d, "sim"), [str(src)], "counter")
            board = area_report.synthesise(None, script, os.path.join(d, "board"), [str(src)],
                                           "counter", board=True)
            sim_luts = area_report.module_entry(sim, "counter", {})["luts"]
            board_luts = area_report.module_entry(board, "weft_board_top", {})["luts"]
            # Two 32-bit adds (count + 1 + skip) against one increment.
            self.assertGreater(sim_luts, board_luts + 16, (sim_luts, board_luts))


if __name__ == "__main__":
    unittest.main()
