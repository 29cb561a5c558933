"""Every rank of the job runs the same tests in the same order (collective calls must match);
run under `remorarun --tag-output -n N python -m pytest -p no:cacheprovider ...` so each
rank's report carries its rank."""

import numpy as np
import pytest

import remora


def pytest_report_header(config):
    return "remora: rank %d of %d" % (remora.rank(), remora.size())


@pytest.fixture
def rank():
    return remora.rank()


@pytest.fixture
def size():
    return remora.size()


@pytest.fixture(autouse=True)
def _synchronised():
    """Tests start and end together, so one test's traffic never meets the next one's."""
    remora.barrier()
    yield
    remora.barrier()


@pytest.fixture
def win():
    """A window of 16 int64 per rank, freed after the test."""
    w = remora.Window.allocate(16, np.int64)
    yield w
    w.free()
