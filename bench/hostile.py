#!/usr/bin/env python3
"""Every hostile input of issues 21 and 33 against the release build: time, peak RSS and the outcome.

    python3 bench/hostile.py [--tool .build/release/healthaudit] [--runs 10]

Each case copies the embedded Site/ into a scratch folder, plants one hostile input (a few hundred
bytes to a few MiB, written here, never taken from third parties), runs `healthaudit check` or
`build` on it and checks the outcome it must have: a clear error (exit 2 and the words of the
message) or a bounded result (exit 0 or 1, and the note that says what was skipped). The
`build --results` cases start from the embedded site's own `check --format json` and edit it; a
case may also check what the run left on disk. Wall time and
peak RSS come from the kernel's accounting of the finished process (`wait4`). The targets: under
5 s and 300 MiB each. Then the same inputs are checked `--runs` times and the outputs compared
byte for byte. Prints a Markdown table (the README keeps the latest one).
"""
import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, ".build", "release", "healthaudit")
STEADY = "apps/steady/Steady"


def write(site, path, data, mode="w"):
    full = os.path.join(site, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, mode) as handle:
        handle.write(data)


def swift(body):
    return "import HealthKit\n\nfunc probe() {\n    let x = " + body + "\n}\n"


def shared_reference_bplist(levels):
    """A binary plist of `levels` arrays, each holding the next one twice: 2^levels when expanded."""
    objects = []
    for index in range(levels):
        following = index + 1
        objects.append(bytes([0xA2, following, following]))  # array of two one-byte references
    objects.append(b"\x09")  # true
    body = b"bplist00"
    offsets = []
    for obj in objects:
        offsets.append(len(body))
        body += obj
    table = len(body)
    body += bytes(offsets) if max(offsets) < 256 else b"".join(struct.pack(">H", o) for o in offsets)
    size = 1 if max(offsets) < 256 else 2
    body += struct.pack(">6xBBQQQ", size, 1, len(objects), 0, table)
    return body


def append_app(site, entry):
    with open(os.path.join(site, "healthaudit.yml"), "a") as handle:
        handle.write("\n" + entry)


def case_pages(site):
    write(site, "content/a b.md", "# A\n")
    write(site, "content/a-b.md", "# B\n")
    return ["build"], 2, "would both be written to pages/a-b.html"


def case_member_chain(site):
    write(site, STEADY + "/Chain.swift", swift("store" + ".b" * 10_000))
    return ["check"], None, None


def case_call_chain(site):
    write(site, STEADY + "/Calls.swift", swift("f" + "()" * 10_000))
    return ["check"], None, None


def case_million_links(site):
    write(site, STEADY + "/Long.swift", swift("store" + ".b" * 1_000_000))
    return ["check", "--format", "json"], None, "chains more than 10000 members or calls"


def case_nested_brackets(site):
    write(site, STEADY + "/Deep.swift", swift("[" * 3_000 + "1" + "]" * 3_000))
    return ["check", "--format", "json"], None, "nested deeper than"


def case_22_brackets(site):
    write(site, STEADY + "/Line.swift", swift("[" * 22 + "1" + "]" * 22))
    return ["check", "--format", "json"], None, "nested deeper than 12"


def case_parser_recovery(site):
    write(site, STEADY + "/Slow.swift", "import HealthKit\n\nstruct A {\n    pri" + "<data>" * 10_000 + "\n}\n")
    return ["check", "--format", "json"], None, "the Swift parser did not finish within 3 s"


def case_js_templates(site):
    write(site, "apps/cos/src/deep.ts", "const a = 1;\nconst b = " + "`${" * 3_000 + "x" + "}`" * 3_000 + ";\n")
    return ["check", "--format", "json"], None, "is analysed only up to this line"


def case_long_pbxproj_line(site):
    path = os.path.join(site, "apps/runner/Runner.xcodeproj/project.pbxproj")
    text = open(path).read()
    marker = "buildSettings = {"
    text = text.replace(marker, marker + ' HEALTHAUDIT_PAD = "' + "a" * 81_000 + '";', 1)
    write(site, "apps/runner/Runner.xcodeproj/project.pbxproj", text)
    return ["check"], None, None


def fuzz_project(site, xcconfig):
    """The hardening corpus's project, whose app target is based on Fuzz.xcconfig, as one more app."""
    project = open(os.path.join(ROOT, "Tests/HardeningTests/Corpus/xcode/xcconfig-based.pbxproj")).read()
    write(site, "apps/fuzz/Fuzz.xcodeproj/project.pbxproj", project)
    write(site, "apps/fuzz/Fuzz.xcconfig", xcconfig)
    write(site, "apps/fuzz/Fuzz/App.swift", "import HealthKit\nlet store = HKHealthStore()\n")
    append_app(site, "  - id: fuzz\n    name: Fuzz\n    root: apps/fuzz\n    project: Fuzz.xcodeproj\n")


def case_include_fanout(site):
    fuzz_project(site, "SHARE_TEXT = Fuzz reads your steps daily.\n" + '#include "Fuzz.xcconfig"\n' * 5)
    return ["check"], 2, "#include cycle"


def case_setting_chain(site):
    lines = ["A0 = abc"] + ["A%d = $(A%d)$(A%d)" % (i, i - 1, i - 1) for i in range(1, 21)]
    fuzz_project(site, "\n".join(lines) + "\nSHARE_TEXT = $(A20)\n")
    return ["check", "--format", "json"], None, "A20"


def case_binary_plist(site):
    write(site, STEADY + "/Info.plist", shared_reference_bplist(24), "wb")
    return ["check"], 2, "Steady/Info.plist"


def case_fifo_plist(site):
    path = os.path.join(site, STEADY, "Info.plist")
    os.remove(path)
    os.mkfifo(path)
    return ["check"], 2, "not a regular file"


def case_fifo_config(site):
    path = os.path.join(site, "healthaudit.yml")
    os.remove(path)
    os.mkfifo(path)
    return ["check"], 2, "not a regular file"


def case_huge_usage_string(site):
    path = os.path.join(site, STEADY, "Info.plist")
    text = open(path).read()
    text = text.replace("<key>NSHealthShareUsageDescription</key>", "<key>NSHealthShareUsageDescription</key><string>" + "steps " * 1_200_000 + "</string><key>Unused</key>", 1)
    write(site, STEADY + "/Info.plist", text)
    return ["check", "--format", "github"], None, None


def case_many_files(site):
    roots = []
    for root in range(5):
        folder = "apps/many/r%d" % root
        os.makedirs(os.path.join(site, folder))
        for index in range(12_000):
            with open(os.path.join(site, folder, "F%d.swift" % index), "w") as handle:
                handle.write("let v%d = %d\n" % (index, index))
        roots.append("r%d" % root)
    append_app(site, "  - id: many\n    name: Many\n    kind: swift\n    root: apps/many\n    sources: [%s]\n" % ", ".join(roots))
    return ["check"], 2, "50000"


def seed_result(site):
    """The embedded site's own `check --format json`, as a CI job uploads it."""
    run = subprocess.run([TOOL, "check", "--site", site, "--format", "json", "--no-fail"], stdout=subprocess.PIPE, check=True)
    return json.loads(run.stdout)


def write_results(site, documents):
    """`documents` (file name → JSON value) as the results folder beside the site."""
    folder = os.path.join(os.path.dirname(site), "results")
    os.makedirs(folder, exist_ok=True)
    for name, document in documents.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
            json.dump(document, handle, indent=2, ensure_ascii=False)
    return folder


def one_app(result, index):
    """The result of app `index` alone: one repository's job."""
    document = dict(result)
    document["apps"] = [result["apps"][index]]
    return document


def case_results_number(site):
    result = one_app(seed_result(site), 0)
    result["apps"][0]["simulation"]["days"][0]["stepsHeld"] = 1e300
    folder = write_results(site, {"acme.json": result})
    return ["build", "--results", folder], 2, "acme.json: error: [load] not a healthaudit result: apps[0].simulation.days[0].stepsHeld: 1e+300 is out of range"


def case_results_days(site):
    result = one_app(seed_result(site), 0)
    days = result["apps"][0]["simulation"]["days"]
    days[1]["day"] = days[0]["day"]
    folder = write_results(site, {"acme.json": result})
    return ["build", "--results", folder], 2, "apps[0].simulation.days[1].day: %s is also days[0]: each day is listed once" % days[0]["day"]


def case_results_origins(site):
    result = seed_result(site)
    folder = write_results(site, {"acme ios.json": one_app(result, 0), "acme-ios.json": one_app(result, 1)})
    history = os.path.join(os.path.dirname(site), "history")
    return (["build", "--results", folder, "--history", history], 2,
            "'acme ios.json' and 'acme-ios.json' would both be kept in the history as 'acme-ios'",
            lambda: not os.path.exists(history) and not os.path.exists(os.path.join(os.path.dirname(site), "public")))


def case_results_padding(site):
    result = seed_result(site)
    pads = 40 * 1024 * 1024 // 8
    result["padding"] = "p" * (pads * 6)
    result["apps"][0]["padding"] = ["x" * 1024] * (pads * 2 // 1024)
    folder = write_results(site, {"acme.json": result})
    history = os.path.join(os.path.dirname(site), "history")

    def records_are_small():
        sizes = [os.path.getsize(os.path.join(top, name)) for top, _, names in os.walk(history) for name in names]
        return len(sizes) == 1 and sizes[0] < 64 * 1024
    return ["build", "--results", folder, "--history", history], 0, "1 record written", records_are_small


def case_results_bidi(site):
    result = seed_result(site)
    hostile = "x\u0000\u202egnp.exe\u001b[31m"
    app = result["apps"][0]
    app["name"] = "Name " + hostile
    app["findings"][0]["message"] = hostile
    app["findings"][0]["quote"] = hostile
    app["simulation"]["scenarios"][0]["title"] = hostile
    app["simulation"]["days"][0]["metrics"][0]["name"] = hostile
    folder = write_results(site, {"acme.json": result})
    output = os.path.join(os.path.dirname(site), "public")

    def nothing_raw():
        for top, _, names in os.walk(output):
            for name in names:
                if name.endswith(".html"):
                    text = open(os.path.join(top, name), encoding="utf-8").read()
                    if "\u0000" in text or "\u202e" in text or "\u001b" in text:
                        return False
        return "\\u{202E}" in open(os.path.join(output, "apps", app["id"], "index.html"), encoding="utf-8").read()
    return ["build", "--results", folder], 0, None, nothing_raw


def case_results_fleet(site):
    result = seed_result(site)
    seed = os.path.join(os.path.dirname(site), "seed.json")
    with open(seed, "w", encoding="utf-8") as handle:
        json.dump(result, handle)
    folder = os.path.join(os.path.dirname(site), "results")
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_results.py"), seed, folder, "--apps", "300"], check=True)
    return ["build", "--results", folder], 0, "load: 300 apps from 300 results"


CASES = [
    ("two pages, one output path", case_pages),
    ("Swift: 10,000-link member chain", case_member_chain),
    ("Swift: 10,000 chained calls", case_call_chain),
    ("Swift: 1,000,000-link member chain (2 MB)", case_million_links),
    ("Swift: 3,000 nested `[`", case_nested_brackets),
    ("Swift: 22 nested `[` on one line", case_22_brackets),
    ("Swift: parser recovery, 10,000 `<data>` (fuzz finding)", case_parser_recovery),
    ("JavaScript: 3,000 nested template substitutions", case_js_templates),
    ("project.pbxproj: one 81 KB line", case_long_pbxproj_line),
    (".xcconfig including itself 5 times", case_include_fanout),
    ("build settings A20 = $(A19)$(A19) … (2^20)", case_setting_chain),
    ("binary plist: 24 levels of shared references", case_binary_plist),
    ("FIFO as Info.plist", case_fifo_plist),
    ("FIFO as healthaudit.yml", case_fifo_config),
    ("7 MB usage string, GitHub annotations", case_huge_usage_string),
    ("60,000 Swift files over five roots", case_many_files),
    ("results: a number past Int in a simulation", case_results_number),
    ("results: two days of one date", case_results_days),
    ("--history: `acme ios.json` and `acme-ios.json`", case_results_origins),
    ("--history: a result with 40 MB of unknown members", case_results_padding),
    ("results: NUL, U+202E and ESC in every text", case_results_bidi),
    ("results: 300 apps (gen_results.py), pages streamed", case_results_fleet),
]


def measured(tool, arguments, site):
    """Runs through /usr/bin/time's wait4 accounting: (exit, stdout, stderr, seconds, peak KiB)."""
    extra = ["--output", os.path.join(os.path.dirname(site), "public")] if arguments[0] == "build" else []
    # A build from results reads no site.
    source = [] if "--results" in arguments else ["--site", site]
    started = time.monotonic()
    process = subprocess.Popen([tool] + arguments + source + extra, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               cwd=os.path.dirname(site))
    out = process.stdout.read()
    err = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.monotonic() - started
    code = os.waitstatus_to_exitcode(status)
    return code, out, err, seconds, usage.ru_maxrss


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", default=os.path.join(ROOT, ".build", "release", "healthaudit"))
    parser.add_argument("--runs", type=int, default=10, help="repeated checks compared byte for byte")
    parser.add_argument("--only", nargs="*", default=[])
    args = parser.parse_args()
    global TOOL
    tool = TOOL = os.path.abspath(args.tool)
    if not os.path.exists(tool):
        subprocess.run(["swift", "build", "-c", "release", "--product", "healthaudit"], cwd=ROOT, check=True)
    rows, failures = [], 0
    for name, plant in CASES:
        if args.only and not any(word in name for word in args.only):
            continue
        scratch = tempfile.mkdtemp(prefix="healthaudit-hostile-")
        site = os.path.join(scratch, "Site")
        shutil.copytree(os.path.join(ROOT, "Site"), site, ignore=shutil.ignore_patterns("public", ".public*"))
        arguments, want_exit, want_text, *after = plant(site)
        code, out, err, seconds, peak = measured(tool, arguments, site)
        text = (out + err).decode("utf-8", "replace")
        ok_exit = code in (0, 1) if want_exit is None else code == want_exit
        ok_text = want_text is None or want_text in text
        # What the run left on disk, for the cases that say.
        ok_after = all(check() for check in after)
        ok = ok_exit and ok_text and ok_after and seconds < 5 and peak < 300 * 1024
        failures += 0 if ok else 1
        rows.append((name, code, seconds, peak / 1024, "yes" if ok else "**no**"))
        print("%-55s exit %d  %.2f s  %.0f MiB  %s" % (name, code, seconds, peak / 1024, "ok" if ok else "FAILED " + text[-300:]), file=sys.stderr)
        shutil.rmtree(scratch, ignore_errors=True)

    # The same inputs, the same bytes: the whole embedded site checked --runs times in every format.
    scratch = tempfile.mkdtemp(prefix="healthaudit-determinism-")
    site = os.path.join(scratch, "Site")
    shutil.copytree(os.path.join(ROOT, "Site"), site, ignore=shutil.ignore_patterns("public", ".public*"))
    outputs = set()
    for _ in range(args.runs):
        code, out, _, _, _ = measured(tool, ["check", "--format", "json", "--format", "sarif", "--output", os.path.join(scratch, "out.sarif")], site)
        outputs.add(out + open(os.path.join(scratch, "out.sarif"), "rb").read())
    shutil.rmtree(scratch, ignore_errors=True)

    print("| input | exit | time | peak RSS | outcome met |")
    print("|---|---:|---:|---:|---|")
    for name, code, seconds, peak, ok in rows:
        print("| %s | %d | %.2f s | %.0f MiB | %s |" % (name, code, seconds, peak, ok))
    print("\n%d run%s of `check` on the embedded site (JSON and SARIF): %d distinct output%s."
          % (args.runs, "" if args.runs == 1 else "s", len(outputs), "" if len(outputs) == 1 else "s"))
    sys.exit(1 if failures or len(outputs) != 1 else 0)


if __name__ == "__main__":
    main()
