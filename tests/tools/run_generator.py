"""Runs one of the generators in tools/ on an input text, in a scratch directory, for the
generator tests: the completed process and the text of each output (empty when missing)."""
import pathlib
import subprocess
import sys
import tempfile


def run_generator(gen, text, *output_options, extra=()):
    """Run `gen` on `text` with each of `output_options` (e.g. "--c-header") pointing at a
    file of its own, and the `extra` arguments; return (completed process, [text of each
    output])."""
    with tempfile.TemporaryDirectory() as d:
        src = pathlib.Path(d, "input.yaml")
        src.write_text(text)
        outs = [pathlib.Path(d, f"out{i}") for i in range(len(output_options))]
        cmd = [sys.executable, str(gen), str(src)]
        for opt, out in zip(output_options, outs):
            cmd += [opt, str(out)]
        cmd += list(extra)
        res = subprocess.run(cmd, capture_output=True, text=True)
        return res, [out.read_text() if out.exists() else "" for out in outs]
