"""gpu500.HashMap against a Python dict: random batches of inserts (duplicates within a batch
and against the table), finds (hits and misses), erases (present and absent keys), growth from
a tiny capacity, reserved keys, int64 and uint64 keys, on the CPU and, where a GPU is visible,
on GLHT; CUDA arrays (PyTorch) in and out, where PyTorch sees a GPU."""
import numpy as np

import gpu500
from support import backends, need, raises


def _check_equal(m, model):
    keys, values = m.items()
    assert len(m) == len(model) == keys.size
    assert dict(zip(keys.tolist(), values.astype(np.uint64).tolist())) == model


def test_random_operations_equal_a_dict():
    for be in backends():
        rng = np.random.default_rng(7)
        m = gpu500.HashMap(64, backend=be, dtype=np.uint64)  # grows many times
        model = {}
        universe = rng.integers(0, 2**64 - 2, size=3000, dtype=np.uint64)
        for step in range(30):
            keys = rng.choice(universe, size=400)  # duplicates inside the batch and across batches
            kind = step % 3
            if kind == 0:
                # one value per key within the batch: which duplicate wins is unspecified
                values = keys ^ np.uint64(0x9E3779B97F4A7C15)
                fresh = {k: v for k, v in zip(keys.tolist(), values.tolist()) if k not in model}
                assert m.insert(keys, values) == len(fresh)
                model.update(fresh)
            elif kind == 1:
                gone = set(keys.tolist()) & set(model)
                assert m.erase(keys) == len(gone)
                for k in gone:
                    del model[k]
            probe = np.concatenate([keys, rng.integers(0, 2**64 - 2, size=100, dtype=np.uint64)])
            values, found = m.find(probe)
            assert found.dtype == np.bool_ and values.dtype == np.uint64
            expect = np.array([k in model for k in probe.tolist()])
            assert np.array_equal(found, expect)
            assert values[found].tolist() == [model[k] for k in probe[found].tolist()]
            assert np.all(values[~found] == 0)
        _check_equal(m, model)
        assert m.capacity > 64 and m.backend == be


def test_present_keys_keep_their_value_and_int64_keys():
    m = gpu500.HashMap(1000, backend="cpu")
    keys = np.array([-5, 0, 7, 2**62], dtype=np.int64)  # negative int64 keys are uint64 words
    assert m.insert(keys, np.array([1, 2, 3, -4])) == 4
    assert m.insert(keys[:2], [10, 20]) == 0  # present: unchanged, as the table's insert does
    values, found = m.find(np.array([-5, 7, 8, 2**62]))
    assert values.dtype == np.int64 and values.tolist() == [1, 3, 0, -4] and found.tolist() == [True, True, False, True]
    assert -5 in m and 8 not in m and len(m) == 4
    assert m.insert(np.arange(100, 110, dtype=np.int32), 9) == 10  # a scalar value for every key
    assert m.find([105])[0].tolist() == [9]
    m.clear()
    assert len(m) == 0 and m.to_dict() == {}


def test_bad_keys_and_arguments():
    m = gpu500.HashMap(100, backend="cpu")
    with raises(ValueError, match="reserved"):
        m.insert([1, -1], [0, 0])  # -1 as int64 is 2^64 - 1, the empty key
    with raises(ValueError, match="reserved"):
        m.find(np.array([2**64 - 2], dtype=np.uint64))
    with raises(ValueError, match="same length"):
        m.insert([1, 2], [1])
    with raises(ValueError, match="integers"):
        m.insert([1.5], [1])
    with raises(ValueError, match="capacity"):
        gpu500.HashMap(0)
    with raises(MemoryError, match="hash map: a table of 35184372088832 slots needs"):
        gpu500.HashMap(1 << 45, backend="cpu")  # about 700 TB: refused before any allocation, not std::bad_alloc
    with raises(ValueError, match="backend"):
        gpu500.HashMap(10, backend="tpu")
    if not gpu500.cuda_available():
        with raises(ValueError):
            gpu500.HashMap(10, backend="cuda")
    assert len(m) == 0


def test_cuda_arrays_equal_a_dict():
    torch = need("torch")
    if not (torch.cuda.is_available() and gpu500.cuda_available()):
        from support import skip
        skip("no GPU for PyTorch and gpu500")
    rng = np.random.default_rng(11)
    for be in backends():
        m = gpu500.HashMap(64, backend=be)  # int64 values
        model = {}
        for step in range(12):
            keys = rng.integers(-2**62, 2**62, size=500)
            values = rng.integers(-2**62, 2**62, size=500)
            tk, tv = torch.from_numpy(keys).cuda(), torch.from_numpy(values).cuda()
            if step % 3 != 2:
                fresh = {}  # key -> the values it comes with in this batch (one of them is kept)
                for k, v in zip(keys.tolist(), values.tolist()):
                    if k not in model:
                        fresh.setdefault(k, set()).add(v)
                assert m.insert(tk, tv) == len(fresh)
                model.update(fresh)
            else:
                gone = set(keys.tolist()) & set(model)
                assert m.erase(tk) == len(gone)
                for k in gone:
                    del model[k]
            found_values, found = m.find(tk)
            if be == "cuda":
                assert found_values.is_cuda and found.dtype == torch.bool and found_values.dtype == torch.int64
                found_values, found = found_values.cpu().numpy(), found.cpu().numpy()
            assert found.tolist() == [k in model for k in keys.tolist()]
            assert all(v in model[k] for k, v, f in zip(keys.tolist(), found_values.tolist(), found.tolist()) if f)
        k, v = m.items()
        assert sorted(k.view(np.int64).tolist()) == sorted(model)
        with raises(ValueError, match="reserved"):
            m.insert(torch.tensor([5, -1], device="cuda"), torch.tensor([1, 2], device="cuda"))
        with raises(ValueError, match="int64 or uint64"):
            m.insert(torch.tensor([5], dtype=torch.int32, device="cuda"), torch.tensor([1], device="cuda"))
