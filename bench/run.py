#!/usr/bin/env python3
"""healthaudit benchmark: measures healthaudit against its peers in the same run and prints ratios.

    python3 bench/run.py [--pages 2000] [--runs 5] [--shared ../shared] [--only-check] [--only-rebuilds] [--files 1000]

Peers, all measured interleaved (A B A B ...) so drift on a shared machine hits both sides:
  * full build of N Markdown pages: healthaudit vs Hugo (Debian's `hugo`), same content, same disk;
  * per-page Markdown cost: healthaudit's render path vs libcmark alone, in-process (`healthaudit-bench markdown`);
  * no-op rebuild and one-page rebuild vs a full build;
  * `check` of a generated Swift app vs `swiftc -frontend -parse` of its files, and a re-check after
    one file changed (with the cache of the previous check) vs a full check without the cache;
  * peak RSS of both generators (from the kernel's accounting of each finished process);
  * daily statistics over a year of minute-level samples: the simulated store vs SQLite
    (`GROUP BY` day over the same rows in an in-memory database);
  * a site assembled from 500 repositories' check results (`build --results`, the JSON varied from
    a real check of Site/ by bench/gen_results.py) vs Hugo building as many pages; then `--history`
    over two runs of that fleet.
Every timed ratio is given in wall time and in CPU time (user + sys from the kernel's accounting
of the finished process): wall time on two cores hides work spread over both.
Writes bench/out/results.json and prints a table. Needs: swift, hugo, python3 (sqlite3 is in its stdlib).
"""
import argparse
import json
import os
import platform
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out")
TOOL = os.path.join(ROOT, ".build", "release", "healthaudit")
BENCH_TOOL = os.path.join(ROOT, ".build", "release", "healthaudit-bench")


def run(argv, cwd=None, env=None):
    """Runs a command, returns (wall seconds, peak RSS in MiB); its CPU time (user + sys of the
    process and its children, from the kernel's accounting) is kept in `run.cpu`. Fails loudly on
    a non-zero exit."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=dict(os.environ, **env) if env else None)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    stderr = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench: {' '.join(argv)} failed:\n{stderr}")
    run.cpu = usage.ru_utime + usage.ru_stime
    return wall, usage.ru_maxrss / 1024.0


run.cpu = 0.0


def prepare(args):
    os.makedirs(OUT, exist_ok=True)
    if not (args.tool and args.only_rebuilds):
        print("bench: building healthaudit (release)...", flush=True)
        for product in ["healthaudit"] if args.only_rebuilds else ["healthaudit", "healthaudit-bench"]:
            subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT, check=True,
                           stdout=subprocess.DEVNULL)
    site = os.path.join(OUT, "site")
    if args.only_rebuilds:
        make_site(args, site)
        return site, None
    if shutil.which("hugo") is None:
        subprocess.run(["apt-get", "install", "-y", "-qq", "hugo"], check=True, stdout=subprocess.DEVNULL)
    hugo = os.path.join(OUT, "hugo-site")
    make_site(args, site)
    subprocess.run(["bash", os.path.join(args.shared, "bench", "make_hugo_site.sh"), hugo, str(args.pages)],
                   check=True, stdout=subprocess.DEVNULL)
    return site, hugo


def make_site(args, site):
    shutil.rmtree(site, ignore_errors=True)
    subprocess.run([sys.executable, os.path.join(args.shared, "bench", "gen_markdown.py"), "site",
                    os.path.join(site, "content"), str(args.pages)], check=True)
    with open(os.path.join(site, "healthaudit.yml"), "w") as f:
        f.write("title: SSG bench\ncontent: content\napps: []\n")


def clean(path):
    shutil.rmtree(path, ignore_errors=True)


def measure(site, hugo, runs):
    templates = os.path.join(ROOT, "Templates")
    ours = [TOOL, "build", "--site", site, "--templates", templates]
    output = os.path.join(site, "public")
    cache = os.path.join(site, ".public.cache.json")
    hugo_out = os.path.join(OUT, "hugo-public")
    page = os.path.join(site, "content", "posts", "p00042.md")
    samples = {k: [] for k in ("full", "hugo", "noop", "onepage", "rss_ours", "rss_hugo",
                               "cpu_full", "cpu_hugo", "cpu_noop", "cpu_onepage")}
    for i in range(runs + 1):  # the first round warms the page cache and is not counted
        clean(output); clean(hugo_out)
        if os.path.exists(cache):
            os.remove(cache)
        full, rss_ours = run(ours)
        cpu_full = run.cpu
        hugo_time, rss_hugo, cpu_hugo = 0.0, 0.0, 0.0
        if hugo:
            hugo_time, rss_hugo = run(["hugo", "--quiet", "-s", hugo, "-d", hugo_out])
            cpu_hugo = run.cpu
        noop, _ = run(ours)
        cpu_noop = run.cpu
        with open(page, "a") as f:
            f.write(f"\nEdited in round {i}.\n")
        onepage, _ = run(ours)
        cpu_onepage = run.cpu
        if i == 0:
            continue
        for key, value in (("full", full), ("hugo", hugo_time), ("noop", noop), ("onepage", onepage),
                           ("rss_ours", rss_ours), ("rss_hugo", rss_hugo), ("cpu_full", cpu_full), ("cpu_hugo", cpu_hugo),
                           ("cpu_noop", cpu_noop), ("cpu_onepage", cpu_onepage)):
            samples[key].append(value)
    return samples


def in_process(site, runs):
    markdown = json.loads(subprocess.run([BENCH_TOOL, "markdown", "--content", os.path.join(site, "content"),
                                          "--repeats", str(runs)], check=True, capture_output=True).stdout)
    csv_path = os.path.join(OUT, "rows.csv")
    store = json.loads(subprocess.run([BENCH_TOOL, "store", "--days", "365", "--csv", csv_path,
                                       "--repeats", str(runs)], check=True, capture_output=True).stdout)
    # SQLite peer: the same rows, day boundaries in the same time zone, best of `runs`.
    os.environ["TZ"] = "Europe/London"
    time.tzset()
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE samples (type TEXT, start REAL, end REAL, value REAL)")
    with open(csv_path) as f:
        next(f)
        db.executemany("INSERT INTO samples VALUES (?, ?, ?, ?)", (line.rstrip("\n").split(",") for line in f))
    db.commit()
    query = ("SELECT type, date(start + 978307200, 'unixepoch', 'localtime') AS day, "
             "SUM(value), AVG(value), MIN(value), MAX(value), COUNT(*) FROM samples GROUP BY type, day")
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        rows = db.execute(query).fetchall()
        best = min(best, time.perf_counter() - start)
    os.remove(csv_path)
    return markdown, store, {"sqlite_seconds": best, "groups": len(rows)}


def check_vs_parse(runs, files=1000):
    """`healthaudit check` of a generated app of `files` Swift files with HealthKit code, against
    the compiler's own parser over the same files (`swiftc -frontend -parse`), interleaved; wall
    and CPU time (user + sys: a check that keeps both cores busy costs twice its wall time).
    Then the incremental check: one file of the app changed, checked again with the cache of the
    previous run, against a full check with no cache."""
    app = os.path.join(OUT, "swift-app")
    shutil.rmtree(app, ignore_errors=True)
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_swift_app.py"), app, "--files", str(files)], check=True)
    sources = sorted(os.path.join(d, f) for d, _, names in os.walk(os.path.join(app, "apps")) for f in names if f.endswith(".swift"))
    swiftc = shutil.which("swiftc")
    cache = os.path.join(OUT, "check-cache")
    shutil.rmtree(cache, ignore_errors=True)
    check = [TOOL, "check", "--site", app, "--no-fail", "--format", "json", "--output", os.path.join(OUT, "check.json")]
    run(check + ["--cache-path", cache])  # fills the cache the incremental rounds start from
    edited = sources[len(sources) // 2]
    samples = {k: [] for k in ("check", "parse", "rss_check", "cpu_check", "cpu_parse", "incremental", "cpu_incremental")}
    for i in range(runs):
        wall, peak = run(check + ["--no-cache"])
        samples["check"].append(wall)
        samples["cpu_check"].append(run.cpu)
        samples["rss_check"].append(peak)
        samples["parse"].append(run([swiftc, "-frontend", "-parse"] + sources)[0])
        samples["cpu_parse"].append(run.cpu)
        with open(edited, "a") as f:
            f.write(f"\n// Edited in round {i}.\n")
        samples["incremental"].append(run(check + ["--cache-path", cache])[0])
        samples["cpu_incremental"].append(run.cpu)
    return dict(samples, files=files)


def results_site(args, apps=500):
    """`build --results` over `apps` result files (one app each, as a CI matrix of repositories
    uploads them), against Hugo building as many pages from Markdown, interleaved; then two runs
    with `--history` (the second from a later variant of the fleet, so it draws a trend)."""
    work = os.path.join(OUT, "results-bench")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    seed = os.path.join(work, "seed.json")
    subprocess.run([TOOL, "check", "--site", os.path.join(ROOT, "Site"), "--no-fail", "--format", "json", "--output", seed],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    generator = os.path.join(ROOT, "bench", "gen_results.py")
    results, later = os.path.join(work, "results"), os.path.join(work, "results-later")
    subprocess.run([sys.executable, generator, seed, results, "--apps", str(apps)], check=True)
    subprocess.run([sys.executable, generator, seed, later, "--apps", str(apps), "--variant", "1"], check=True)
    json_bytes = sum(os.path.getsize(os.path.join(results, name)) for name in os.listdir(results))
    site, hugo, hugo_out = os.path.join(work, "site"), os.path.join(work, "hugo-site"), os.path.join(work, "hugo-public")
    ours = [TOOL, "build", "--results", results, "--output", site]
    run(ours)
    pages = sum(1 for d, _, names in os.walk(site) for name in names if name.endswith(".html"))
    subprocess.run(["bash", os.path.join(args.shared, "bench", "make_hugo_site.sh"), hugo, str(pages)],
                   check=True, stdout=subprocess.DEVNULL)
    samples = {k: [] for k in ("ours", "hugo", "rss_ours", "rss_hugo", "cpu_ours", "cpu_hugo")}
    for i in range(args.runs + 1):  # the first round warms the page cache and is not counted
        clean(site)
        clean(hugo_out)
        wall, rss = run(ours)
        cpu_ours = run.cpu
        hugo_wall, hugo_rss = run(["hugo", "--quiet", "-s", hugo, "-d", hugo_out])
        cpu_hugo = run.cpu
        if i == 0:
            continue
        for key, value in (("ours", wall), ("hugo", hugo_wall), ("rss_ours", rss), ("rss_hugo", hugo_rss),
                           ("cpu_ours", cpu_ours), ("cpu_hugo", cpu_hugo)):
            samples[key].append(value)
    history, history_site = os.path.join(work, "history"), os.path.join(work, "history-site")
    first = run([TOOL, "build", "--results", results, "--history", history, "--output", history_site], env={"SOURCE_DATE_EPOCH": "1775044800"})
    second = run([TOOL, "build", "--results", later, "--history", history, "--output", history_site], env={"SOURCE_DATE_EPOCH": "1775131200"})
    with open(os.path.join(history_site, "index.html"), encoding="utf-8") as f:
        trend = "<h2 id=\"history\">History</h2>" in f.read()
    return {"apps": apps, "files": apps, "json_bytes": json_bytes, "pages": pages, "samples": samples,
            "history": {"first": {"seconds": first[0], "rss": first[1]}, "second": {"seconds": second[0], "rss": second[1]}, "trend_shown": trend}}


def spread(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def ratios(a, b):
    return spread([x / y for x, y in zip(a, b)])


def row(name, wall, cpu, target, basis):
    """One line of the table: wall and CPU ratios side by side; `basis` ("wall" or "cpu") is the one
    the target is judged on (the check rows are judged on CPU: wall time on two cores hides a check
    that keeps both busy)."""
    return {"name": name, "wall": wall, "cpu": cpu, "target": target, "basis": basis}


def print_table(rows):
    print(f"{'ratio':44} {'wall med':>8} {'min':>7} {'max':>7} {'CPU med':>8} {'min':>7} {'max':>7} {'target':>7}  met")
    for r in rows:
        cpu = r["cpu"]
        cpu_text = f"{cpu['median']:8.3f} {cpu['min']:7.3f} {cpu['max']:7.3f}" if cpu else f"{'-':>8} {'-':>7} {'-':>7}"
        judged = (cpu if r["basis"] == "cpu" else r["wall"])["median"]
        w = r["wall"]
        print(f"{r['name']:44} {w['median']:8.3f} {w['min']:7.3f} {w['max']:7.3f} {cpu_text} {r['target']:7.2f}  "
              f"{'yes' if judged <= r['target'] else 'NO'} ({r['basis']})")


def rebuild_rows(s):
    return [
        row("no-op rebuild / full build", ratios(s["noop"], s["full"]), ratios(s["cpu_noop"], s["cpu_full"]), 0.10, "wall"),
        row("one-page rebuild / full build", ratios(s["onepage"], s["full"]), ratios(s["cpu_onepage"], s["cpu_full"]), 0.20, "wall"),
    ]


def swift_rows(swift):
    return [
        row(f"check {swift['files']} Swift files / swiftc parse", ratios(swift["check"], swift["parse"]),
            ratios(swift["cpu_check"], swift["cpu_parse"]), 2.0, "cpu"),
        row(f"re-check, 1 of {swift['files']} files changed / full check", ratios(swift["incremental"], swift["check"]),
            ratios(swift["cpu_incremental"], swift["cpu_check"]), 0.15, "cpu"),
    ]


def swift_absolute(swift):
    return (f"check {statistics.median(swift['check']):.3f} s wall, {statistics.median(swift['cpu_check']):.3f} s CPU vs "
            f"swiftc -parse {statistics.median(swift['parse']):.3f} s wall, {statistics.median(swift['cpu_parse']):.3f} s CPU "
            f"({swift['files']} files, check peak RSS {statistics.median(swift['rss_check']):.0f} MiB); "
            f"re-check after one file changed {statistics.median(swift['incremental']):.3f} s wall, "
            f"{statistics.median(swift['cpu_incremental']):.3f} s CPU")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--shared", default=os.path.join(os.path.dirname(ROOT), "shared"))
    parser.add_argument("--only-check", action="store_true", help="only the check rows (Swift app vs the parser, incremental check)")
    parser.add_argument("--files", type=int, default=1000, help="Swift files of the generated app")
    parser.add_argument("--only-rebuilds", action="store_true", help="only the rebuild rows (no-op and one-page rebuild vs a full build)")
    parser.add_argument("--tool", help="with --only-check or --only-rebuilds: this healthaudit binary instead of building one")
    args = parser.parse_args()
    global TOOL
    if args.tool:
        TOOL = os.path.abspath(args.tool)
    machine = f"{platform.machine()}, {os.cpu_count()} cores, {platform.platform()}"
    if args.only_check:
        os.makedirs(OUT, exist_ok=True)
        if not args.tool:
            subprocess.run(["swift", "build", "-c", "release", "--product", "healthaudit"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        swift = check_vs_parse(args.runs, args.files)
        rows = swift_rows(swift)
        print(f"\nhealthaudit check benchmark — {args.files} Swift files, {args.runs} interleaved runs — {machine}\n")
        print_table(rows)
        print(f"\nabsolute medians: {swift_absolute(swift)}")
        with open(os.path.join(OUT, "check-results.json"), "w") as f:
            json.dump({"machine": machine, "runs": args.runs, "swift": swift, "rows": rows}, f, indent=2, sort_keys=True)
        return
    if args.only_rebuilds:
        site, _ = prepare(args)
        s = measure(site, None, args.runs)
        rows = rebuild_rows(s)
        print(f"\nhealthaudit rebuild benchmark — {args.pages} pages, {args.runs} runs — {machine}\n")
        print_table(rows)
        print(f"\nabsolute medians: full {statistics.median(s['full']):.3f} s wall, {statistics.median(s['cpu_full']):.3f} s CPU; "
              f"no-op {statistics.median(s['noop']):.3f} s, {statistics.median(s['cpu_noop']):.3f} s CPU; "
              f"one page {statistics.median(s['onepage']):.3f} s, {statistics.median(s['cpu_onepage']):.3f} s CPU")
        with open(os.path.join(OUT, "rebuild-results.json"), "w") as f:
            json.dump({"machine": machine, "pages": args.pages, "runs": args.runs, "samples": s, "rows": rows}, f, indent=2, sort_keys=True)
        return
    site, hugo = prepare(args)
    s = measure(site, hugo, args.runs)
    markdown, store, sqlite = in_process(site, args.runs)
    swift = check_vs_parse(args.runs, args.files)
    fleet = results_site(args)
    fs = fleet["samples"]
    rows = [
        row("full build / hugo full build", ratios(s["full"], s["hugo"]), ratios(s["cpu_full"], s["cpu_hugo"]), 0.5, "wall"),
        row("per-page cost / raw libcmark", spread([markdown["ours_seconds"] / markdown["cmark_seconds"]]), None, 1.5, "wall"),
    ] + rebuild_rows(s) + [
        row("peak RSS / hugo peak RSS", ratios(s["rss_ours"], s["rss_hugo"]), None, 1.0, "wall"),
        row("store daily stats / sqlite GROUP BY", spread([store["store_seconds"] / sqlite["sqlite_seconds"]]), None, 1.0, "wall"),
    ] + swift_rows(swift) + [
        row(f"build --results {fleet['apps']} apps / hugo {fleet['pages']} pages", ratios(fs["ours"], fs["hugo"]),
            ratios(fs["cpu_ours"], fs["cpu_hugo"]), 1.0, "wall"),
        row("build --results peak RSS / hugo peak RSS", ratios(fs["rss_ours"], fs["rss_hugo"]), None, 1.0, "wall"),
    ]
    print(f"\nhealthaudit benchmark — {args.pages} pages, {args.runs} interleaved runs — {machine}\n")
    print_table(rows)
    print(f"\nabsolute medians: healthaudit full {statistics.median(s['full']):.3f} s, hugo {statistics.median(s['hugo']):.3f} s, "
          f"no-op {statistics.median(s['noop']):.3f} s, one page {statistics.median(s['onepage']):.3f} s; "
          f"RSS {statistics.median(s['rss_ours']):.0f} vs {statistics.median(s['rss_hugo']):.0f} MiB; "
          f"markdown {markdown['ours_seconds']:.4f} vs {markdown['cmark_seconds']:.4f} s for {markdown['pages']} pages; "
          f"store {store['store_seconds']:.4f} s vs sqlite {sqlite['sqlite_seconds']:.4f} s over {store['rows']} rows; "
          f"{swift_absolute(swift)}; "
          f"build --results of {fleet['apps']} apps ({fleet['json_bytes'] / 1048576:.0f} MiB of JSON, {fleet['pages']} pages) "
          f"{statistics.median(fs['ours']):.3f} s and {statistics.median(fs['rss_ours']):.0f} MiB vs hugo {statistics.median(fs['hugo']):.3f} s "
          f"and {statistics.median(fs['rss_hugo']):.0f} MiB; with --history: first run {fleet['history']['first']['seconds']:.3f} s, "
          f"second {fleet['history']['second']['seconds']:.3f} s ({fleet['history']['second']['rss']:.0f} MiB), "
          f"trend shown: {fleet['history']['trend_shown']}")
    results = {"machine": machine, "pages": args.pages, "runs": args.runs, "samples": s, "markdown": markdown,
               "store": store, "sqlite": sqlite, "swift": swift, "results": fleet,
               "ratios": {r["name"]: r for r in rows}}
    with open(os.path.join(OUT, "results.json"), "w") as f:
        json.dump(results, f, indent=2, sort_keys=True)
    print(f"\nwritten: {os.path.join(OUT, 'results.json')}")


if __name__ == "__main__":
    main()
