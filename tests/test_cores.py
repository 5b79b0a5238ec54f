"""Work spread over threads: the same results in the same order as one thread, with few items held at once."""

from __future__ import annotations

import threading

import pytest

from generator.resources import cores
from generator.resources.cores import in_threads


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_in_threads_gives_each_result_in_order_holding_at_most_two_items_a_thread(monkeypatch, threads):
    monkeypatch.setattr(cores, "usable_cores", lambda: threads)
    made, lock = [], threading.Lock()
    held, most = set(), [0]

    def items():
        for n in range(50):
            made.append(n)
            yield n

    def work(n):
        with lock:
            held.add(n)
            most[0] = max(most[0], len(held))
        try:
            return n * n
        finally:
            with lock:
                held.discard(n)

    results = []
    for result in in_threads(work, items()):
        results.append(result)
        # items made but not yet handed back: the window that keeps a large deck's pictures out of memory
        assert len(made) - len(results) <= max(2 * threads, 1)
    assert results == [n * n for n in range(50)]
    assert most[0] <= threads


def test_png_files_are_the_bytes_one_thread_makes(monkeypatch):
    from PIL import Image

    from generator.render.pagepng import png_bytes, png_files

    pictures = [(f"p{n}", Image.effect_noise((120, 90), 10 + n).convert("RGB")) for n in range(9)]
    monkeypatch.setattr(cores, "usable_cores", lambda: 3)
    assert list(png_files(pictures, 300)) == [(name, png_bytes(image, 300)) for name, image in pictures]
