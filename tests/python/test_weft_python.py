"""The weft Python package (docs/python.md) against the simulated fabric: numpy buffers
shared with hardware threads without a copy, the objects in both directions, exit
statuses and faults, the trace, and errors that name what was wrong."""
import errno

import numpy as np
import pytest

import weft

SORT_INIT = 0 | (1 << 8) | (2 << 16)  # hwt_sort: mailbox 0, done semaphore 1, mutex 2


def sort_blocks(fab, image, data, slots=(0,)):
    """Sorts each row of data with one hwt_sort per slot; returns their exit statuses."""
    jobs, done, lock = weft.Mailbox(64), weft.Semaphore(), weft.Mutex()
    threads = [fab.hwthread(image, slot=s, resources=[jobs, done, lock], init_data=SORT_INIT,
                            windows=[data]) for s in slots]
    for row in data:
        assert jobs.put(row.bus, timeout=10) and jobs.put(row.nbytes, timeout=10)
    for _ in data:
        assert done.wait(timeout=30), "a block was not sorted within 30 s"
    for _ in threads:
        jobs.put(0)
        jobs.put(0)
    return [t.join(timeout=30) for t in threads]


def test_hardware_sorts_numpy_rows_in_place(fabric, images):
    data = fabric.alloc((6, 128), np.uint32)
    data[:] = np.random.default_rng(7).integers(0, 2**32, data.shape, dtype=np.uint32)
    before = np.array(data)  # a copy outside the DMA region, for the check
    statuses = sort_blocks(fabric, images / "hwt_sort.so", data, slots=(0, 1))
    assert all(s.kind == "normal" for s in statuses), statuses
    assert sum(s.value for s in statuses) == 6  # each exits with the blocks it sorted
    np.testing.assert_array_equal(data, np.sort(before, axis=1))


def test_a_dma_array_is_the_memory_itself(fabric):
    a = fabric.alloc(64, np.uint32)
    assert isinstance(a, weft.DmaArray) and a.flags.writeable
    assert a[16:].bus == a.bus + 64  # a slice is 16 words further on the bus
    assert not a.any()  # alloc zeroes
    b = fabric.alloc(16, np.uint8)
    assert b.bus != a.bus
    with pytest.raises(ValueError, match="not in the fabric's DMA region"):
        fabric.bus(np.zeros(4))
    with pytest.raises(ValueError, match="not an array Fabric.alloc"):
        fabric.free(a[1:])
    fabric.free(a)
    with pytest.raises(ValueError, match="already freed"):
        fabric.free(a)


def test_an_access_outside_the_window_faults_the_thread_and_names_it(fabric, images):
    data = fabric.alloc((2, 64), np.uint32)
    jobs, done, lock = weft.Mailbox(), weft.Semaphore(), weft.Mutex()
    # The thread may read and write row 0 only; its job names row 1.
    t = fabric.hwthread(images / "hwt_sort.so", resources=[jobs, done, lock],
                        init_data=SORT_INIT, windows=[(data[0], weft.READ | weft.WRITE)])
    jobs.put(data[1].bus)
    jobs.put(data[1].nbytes)
    st = t.join(timeout=30)
    assert st.kind == "faulted" and st.mem_fault is not None
    addr, length, write = st.mem_fault
    assert data[1].bus <= addr < data[1].bus + data[1].nbytes and not write
    assert "hwt_sort" in st.message


def test_objects_between_python_threads():
    import threading
    sem, mbox, mutex, cond = weft.Semaphore(), weft.Mailbox(2), weft.Mutex(), weft.Cond()
    assert sem.wait(timeout=0.01) is False
    assert mbox.get(timeout=0.01) is None
    got = []

    def consumer():
        got.extend(mbox.get(timeout=10) for _ in range(3))
        sem.post()

    th = threading.Thread(target=consumer)
    th.start()
    for w in (1, 2, 0xFFFFFFFF):
        assert mbox.put(w, timeout=10)
    assert sem.wait(timeout=10)
    th.join()
    assert got == [1, 2, 0xFFFFFFFF]
    with mutex:
        assert cond.wait(mutex, timeout=0.01) is False  # nobody signals
    with pytest.raises(ValueError):
        mbox.put(2**32)
    for o in (sem, mbox, mutex, cond):
        o.close()
    with pytest.raises(weft.WeftError, match="closed"):
        sem._resource()


def test_message_queue_keeps_priority_order():
    with weft.MessageQueue(maxmsg=4, msgsize=32) as q:
        assert q.send(b"low", priority=1) and q.send(b"high", priority=5)
        assert q.receive(timeout=1) == (b"high", 5)
        assert q.receive(timeout=1) == (b"low", 1)
        assert q.receive(timeout=0.01) is None
        with pytest.raises(weft.WeftError) as e:
            q.send(b"x" * 33)
        assert e.value.errno == errno.EMSGSIZE


def test_bad_requests_raise_and_the_fabric_goes_on(fabric, images):
    with pytest.raises(weft.WeftError) as e:
        fabric.hwthread(images / "no_such_image.so")
    assert e.value.errno == errno.ENOENT and "no_such_image.so" in str(e.value)
    with pytest.raises(weft.WeftError) as e:
        fabric.hwthread(images / "hwt_sort.so", slot=fabric.num_slots)
    assert e.value.errno == errno.EINVAL
    with pytest.raises(TypeError, match="resource 1"):
        fabric.hwthread(images / "hwt_sort.so", resources=[weft.Mailbox(), object()])
    with pytest.raises(TypeError, match="memory window"):
        fabric.hwthread(images / "hwt_sort.so", windows=["x"])
    grid = fabric.alloc((4, 8), np.uint32)
    with pytest.raises(ValueError, match="contiguous"):
        fabric.hwthread(images / "hwt_sort.so", windows=[grid[:, ::2]])
    with pytest.raises(ValueError, match="init_data is a 32-bit"):
        fabric.hwthread(images / "hwt_sort.so", init_data=2**32)
    # Still usable: a whole sort afterwards.
    data = fabric.alloc((1, 32), np.uint32)
    data[0] = np.arange(32, 0, -1)
    assert sort_blocks(fabric, images / "hwt_sort.so", data)[0].kind == "normal"
    assert list(data[0]) == list(range(1, 33))


def test_trace_and_counters(fabric, images):
    fabric.trace_start()
    data = fabric.alloc((2, 32), np.uint32)
    sort_blocks(fabric, images / "hwt_sort.so", data)
    fabric.trace_stop()
    events = fabric.trace()["traceEvents"]
    names = {e.get("name") for e in events}
    assert any("MBOX_GET" in (n or "") for n in names), sorted(n for n in names if n)[:20]
    assert fabric.cycles() > 0


def test_an_object_a_thread_holds_cannot_be_closed_under_it(fabric, images):
    jobs, done, lock = weft.Mailbox(), weft.Semaphore(), weft.Mutex()
    t = fabric.hwthread(images / "hwt_sort.so", resources=[jobs, done, lock], init_data=SORT_INIT)
    with pytest.raises(weft.WeftError) as e:
        jobs.close()  # the thread's delegate waits in it for a job
    assert e.value.errno == errno.EBUSY and "destroy them first" in str(e.value)
    t.destroy()
    jobs.close()  # free now
    done.close()
    lock.close()


def test_an_array_outlives_its_fabric_without_crashing(images):
    with weft.Fabric() as fab:
        data = fab.alloc(16, np.uint32)
        data[:] = np.arange(16)
    assert list(data[:4]) == [0, 1, 2, 3]  # still mapped: the platform waits for it
    del data


def test_closed_fabric_refuses_calls(images):
    fab = weft.Fabric()
    t = fab.hwthread(images / "hwt_sort.so", resources=[weft.Mailbox(), weft.Semaphore(),
                                                        weft.Mutex()], init_data=SORT_INIT)
    fab.close()  # stops the thread, which waits for a job for ever
    with pytest.raises(weft.WeftError, match="destroyed"):
        t.join()
    with pytest.raises(weft.WeftError, match="closed"):
        fab.alloc(4)
    fab.close()  # twice is fine


def test_a_waveform_on_demand(images, tmp_path):
    fst = tmp_path / "fib.fst"
    with weft.Fabric(waves=f"slot=1 file={fst}") as fab:
        st = fab.hwthread(images / "hwt_task_fib.so", slot=1, init_data=25).join(timeout=60)
    assert (st.kind, st.value) == ("normal", 75025)
    assert fst.stat().st_size > 0 and fst.read_bytes()[:1] == b"\x00"  # an FST header block
    with pytest.raises(weft.WeftError) as e:
        weft.Fabric(waves="slot=0 speed=3")
    assert e.value.errno == errno.EINVAL and "speed=3" in str(e.value)


def test_hardware_sort_with_its_mutex_and_semaphore_in_the_fabric(fabric, images):
    """hwt_sort as in weft-sort --sync hw: its lock, unlock and post served by the
    synchronisation manager; Python waits on the same semaphore."""
    data = fabric.alloc((2, 64), np.uint32)
    rng = np.random.default_rng(3)
    data[:] = rng.integers(0, 2**32, size=data.shape, dtype=np.uint32)
    want = np.sort(data, axis=1)
    jobs = weft.Mailbox()
    done, lock = weft.HwSemaphore(fabric), weft.HwMutex(fabric)
    t = fabric.hwthread(images / "hwt_sort.so", resources=[jobs, done, lock], init_data=SORT_INIT,
                        windows=[data])
    for row in data:
        jobs.put(row.bus)
        jobs.put(row.nbytes)
    assert done.wait(timeout=30) and done.wait(timeout=30)
    assert done.wait(timeout=0.01) is False
    jobs.put(0)
    jobs.put(0)
    assert t.join(timeout=30).kind == "normal"
    assert (data == want).all()
    assert lock.depth == 0


def test_hardware_objects_between_python_threads(fabric):
    import threading
    sem, mutex, cond = weft.HwSemaphore(fabric, 1, 2), weft.HwMutex(fabric), weft.HwCond(fabric)
    assert sem.trywait() and not sem.trywait()
    sem.post()
    sem.post()
    with pytest.raises(weft.WeftError) as e:
        sem.post()
    assert e.value.errno == errno.EOVERFLOW and sem.value == 2
    state = []

    def waiter():
        with mutex:
            while not state:
                cond.wait(mutex, timeout=10)
            state.append("seen")

    th = threading.Thread(target=waiter)
    th.start()
    with mutex:
        state.append("set")
        cond.signal()
    th.join(timeout=30)
    assert state == ["set", "seen"] and mutex.depth == 0
    with pytest.raises(weft.WeftError) as e:
        mutex.unlock()  # not held
    assert e.value.errno == errno.EPERM
    with pytest.raises(ValueError):
        weft.HwMutex(fabric, kind="fast")
    assert fabric.hwsync_contexts() > 0
    sem.close()
    with pytest.raises(weft.WeftError, match="closed"):
        sem.post()


def test_hardware_objects_end_with_their_fabric(images):
    with weft.Fabric() as fab:
        sem = weft.HwSemaphore(fab)
    with pytest.raises(weft.WeftError, match="closed"):
        sem.post()  # the runtime that held it is gone
    del sem  # and collecting it touches nothing
