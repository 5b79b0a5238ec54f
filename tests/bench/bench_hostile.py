"""Benchmark: the worst time and peak memory over the catalogue's hostile inputs, each in a fresh process.

Every case of tests/fixtures/broken-inputs.toml, and the costly inputs of the
last reviews that the catalogue cannot hold in a few lines or that are no
error (twenty thousand unknown suits, a list nested 1,400 deep, a 150 MB
manifest, a picture of 30,000 x 30,000 pixels, 2,000 patterns nothing fills,
a spreadsheet just inside its element limit), is set up as the catalogue test sets it up and run
as ``python -m generator ...`` in a child process with a deadline of TIMEOUT
seconds.  The baseline, run in the same session, is a clean build of the
catalogue's base project: each case's time and memory are also given as a
ratio to it.

    python tests/bench/bench_hostile.py [TIMEOUT] [NAME-FILTER | extra]

(``extra``: only the inputs that are not in the catalogue.)

Target: every input answered in seconds and under 1 GB.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.test_catalogue import FIXTURES, apply_case, make_project  # noqa: E402

BASELINE = {"name": "baseline: a clean build of the catalogue's base project", "command": "build cat"}


def extra_cases() -> list[dict]:
    """The costly inputs of the last review, written as catalogue cases."""
    suits = "".join(f'[[suits]]\nid = "s{i:05d}"\nname = "S{i}"\nsymbol = "circle"\ncolour = "#123"\n' for i in range(20_000))
    rows = "".join(f"C{i},1,x{i:05d}a+x{i:05d}b,t,1,yes\n" for i in range(10_000))
    patterns = "".join(
        f'<pattern id="p{i}" width="1" height="1" patternUnits="userSpaceOnUse"><rect width="0.5" height="0.5"/></pattern>'
        for i in range(2_000)
    )
    return [
        {
            "name": "20,000 unknown suits among 20,000 (did you mean)",
            "edit": [{"file": "decks/cat/deck.toml", "old": "[[ranks]]", "new": suits + "[[ranks]]"}],
            "write": [{"file": "decks/cat/cards.csv", "text": "name,rank,suits,text,power,lucky\n" + rows}],
        },
        {
            "name": "a rulebook list nested 1,400 deep",
            "command": "rulebook cat",
            "write": [{"file": "decks/cat/cat.md", "text": "# Playing\n\n" + "- " * 1400 + "deep\n"}],
        },
        {"name": "a 150 MB manifest in a shipped output folder", "command": "build cat", "manifest": 150_000_000},
        {"name": "a valid picture of 30,000 x 30,000 pixels", "png": {"decks/cat/wizard.png": [30_000, 30_000]}},
        {
            "name": "a template of 2,000 patterns nothing fills (checked)",
            "edit": [{"file": "decks/cat/deck.toml", "old": 'template = "plain"', "new": 'template = "broken"'}],
            "write": [{"file": "templates/broken.svg.j2", "text": _SVG_HEAD + "<defs>" + patterns + "</defs>\n</svg>\n"}],
        },
        {
            "name": "an .xlsx of 49,000 empty cells in a row, just inside its limit",
            "edit": [{"file": "decks/cat/deck.toml", "old": 'csv = "cards.csv"', "new": 'cards = "cards.xlsx"'}],
            "write": [{"file": "decks/cat/cards.xlsx", "base64": _sparse_xlsx(49_000)}],
        },
    ]


_SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="69.5mm" height="94.9mm" viewBox="0 0 69.5 94.9">\n'


def _sparse_xlsx(cells: int) -> str:
    """A workbook (base64) of a header, one card and a row of ``cells`` empty cells."""
    import base64
    import io
    import zipfile

    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    relations = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    package = "http://schemas.openxmlformats.org/package/2006/relationships"

    def row(number: int, values: list[str]) -> str:
        return f'<row r="{number}">' + "".join(f'<c t="inlineStr"><is><t>{v}</t></is></c>' for v in values) + "</row>"

    parts = {
        "[Content_Types].xml": '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
        "_rels/.rels": f'<Relationships xmlns="{package}"><Relationship Id="rId1" '
        f'Type="{relations}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<workbook xmlns="{main}" xmlns:r="{relations}"><sheets><sheet name="Cards" sheetId="1" r:id="rId1"/>'
        "</sheets></workbook>",
        "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{package}"><Relationship Id="rId1" '
        f'Type="{relations}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
        "xl/worksheets/sheet1.xml": f'<worksheet xmlns="{main}"><sheetData>'
        + row(1, ["name", "rank", "suits", "text", "power", "lucky"])
        + row(2, ["Fox", "1", "red", "Quick.", "1", "yes"])
        + '<row r="3">'
        + "<c/>" * cells
        + "</row></sheetData></worksheet>",
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
    return base64.b64encode(out.getvalue()).decode("ascii")


def run(case: dict, folder: Path, timeout: float) -> tuple[float, float, int | None, str]:
    """(seconds, peak MB, exit status or None on the deadline, first line of stderr) of one case."""
    root = make_project(folder)
    apply_case(root, case)
    if "manifest" in case:  # a folder that came with the project, its manifest vast (sparse: no disk used)
        (root / "output" / "cat").mkdir(parents=True)
        with open(root / "output" / "cat" / ".aetherpress-manifest.json", "wb") as handle:
            handle.truncate(case["manifest"])
    args = shlex.split(case.get("command", "validate"))
    if args[0] in ("build", "export", "rulebook", "calibrate") and "--out" not in args:
        args += ["--out", "output"]
    env = dict(os.environ, AETHERPRESS_CACHE_DIR=str(folder / "cache"), **case.get("env", {}))
    err_path = folder / "stderr.txt"
    start = time.perf_counter()
    with open(err_path, "wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "generator", *args], cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=err
        )
    code: int | None = None
    while True:  # reaped with wait4, for this child's own peak memory
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            code = os.waitstatus_to_exitcode(status)
            break
        if time.perf_counter() - start > timeout:
            process.kill()
            _, _, usage = os.wait4(process.pid, 0)
            break
        time.sleep(0.02)
    seconds = time.perf_counter() - start
    process.returncode = code if code is not None else -9  # reaped above: Popen must not wait for it again
    text = err_path.read_text(encoding="utf-8", errors="replace")
    first = text.splitlines()[0] if text.strip() else "(nothing on stderr)"
    return seconds, usage.ru_maxrss / 1024, code, first


def main() -> None:
    timeout = float(sys.argv[1]) if len(sys.argv) > 1 else 120.0
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    catalogue = tomllib.loads((FIXTURES / "broken-inputs.toml").read_text(encoding="utf-8"))["case"]
    cases = extra_cases() if only == "extra" else [c for c in catalogue + extra_cases() if only.lower() in c["name"].lower()]
    with tempfile.TemporaryDirectory() as tmp:
        base_seconds, base_peak, _, _ = run(BASELINE, Path(tmp) / "baseline", timeout)
        print(f"{base_seconds:8.2f} s {base_peak:8.0f} MB  {BASELINE['name']}")
        worst_time = (0.0, "")
        worst_peak = (0.0, "")
        for n, case in enumerate(cases):
            seconds, peak, code, first = run(case, Path(tmp) / f"case-{n}", timeout)
            told = "TIMED OUT" if code is None else f"exit {code}"
            print(f"{seconds:8.2f} s {peak:8.0f} MB ({seconds / base_seconds:5.2f}x)  {case['name'][:60]}: {told}: {first[:80]}")
            worst_time = max(worst_time, (seconds, case["name"]))
            worst_peak = max(worst_peak, (peak, case["name"]))
    print(f"worst time: {worst_time[0]:.2f} s ({worst_time[0] / base_seconds:.2f}x the baseline): {worst_time[1]}")
    print(f"peak memory of any run: {worst_peak[0]:.0f} MB ({worst_peak[0] / base_peak:.2f}x the baseline)")


if __name__ == "__main__":
    main()
