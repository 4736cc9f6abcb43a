"""The weft package from the build tree (build/python) and the build's images."""
import os
import pathlib
import sys

import pytest

BUILD = pathlib.Path(os.environ.get("WEFT_BUILD_DIR", pathlib.Path(__file__).parents[2] / "build"))
sys.path.insert(0, str(BUILD / "python"))


@pytest.fixture
def images():
    return BUILD / "images"


@pytest.fixture
def fabric():
    import weft
    with weft.Fabric() as fab:
        yield fab
