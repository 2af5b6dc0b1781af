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
5 s and 300 MiB each, and no line of any run's stdout or stderr that the GitHub Actions runner
would obey as a command the tool did not mean (`::name::` at a line's start, `##[` anywhere). A
case may also set the environment and check the files the run left. Then the same inputs are checked `--runs` times and the outputs compared
byte for byte. Prints a Markdown table (docs/hardening.md keeps the latest one).
"""
import argparse
import json
import os
import re
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
    # Imported by the app, so it ships and is read (files nothing imports are left out).
    with open(os.path.join(site, "apps/cos/App.tsx"), "a") as handle:
        handle.write('import "./src/deep";\n')
    return ["check", "--format", "json"], None, "analysed only up to this line"


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
    text = text.replace("<key>NSHealthShareUsageDescription</key>", "<key>NSHealthShareUsageDescription</key><string>" + "steps " * 170_000 + "</string><key>Unused</key>", 1)
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


def case_hostile_names(site):
    write(site, STEADY + "/Health/::stop-commands::tok.swift", swift("HKHealthStore()"))
    write(site, STEADY + "/Health/Probe\n::error::forged ##[add-mask]x\r.swift", swift("HKHealthStore()"))
    write(site, "content/x\n::stop-commands::tok.md", "---\ntitle: [\n---\n# A\n")
    return ["build"], 2, "content/x\\u{000A}::stop-commands::tok.md"


def case_hostile_names_github(site):
    write(site, STEADY + "/Health/Probe\n::stop-commands::tok ##[add-mask]x\r.swift",
          "import HealthKit\n\nfunc f(store: HKHealthStore) -> Bool {\n"
          "    store.authorizationStatus(for: HKCharacteristicType(.dateOfBirth)) == .sharingAuthorized\n}\n")
    return ["check", "--format", "github"], 1, "Probe%0A%3A%3Astop-commands%3A%3Atok #\\u{0023}[add-mask]x%0D.swift"


def case_chart_id_int_min(site):
    path = os.path.join(site, "healthaudit.yml")
    text = open(path).read()
    write(site, "healthaudit.yml", text.replace("    name: Steady\n", "    name: \"D^`_OONN[Z[Ia\"\n", 1))
    return ["build"], 0, None


def case_output_over_baseline(site):
    baseline = os.path.join(os.path.dirname(site), "baseline.json")
    write(site, "../baseline.json", "{}")
    return (["check", "--baseline", baseline, "--format", "json", "--output", baseline], 2,
            "refusing to write a report over the baseline this run reads (--baseline)",
            {"after": lambda scratch: open(baseline).read() == "{}"})


def case_output_over_changed_files(site):
    listed = os.path.join(os.path.dirname(site), "changed.txt")
    write(site, "../changed.txt", "apps/steady/Steady/Info.plist\n")
    return (["check", "--changed-files", listed, "--format", "markdown", "--output", listed], 2,
            "refusing to write a report over the changed-files list this run reads (--changed-files)",
            {"after": lambda scratch: open(listed).read() == "apps/steady/Steady/Info.plist\n"})


def case_legacy_cache_junk(site):
    write(site, "../public/draft.txt", "mine\n")
    write(site, "../.public.cache.json", "{}")
    return (["build"], 2, "that the .public.cache.json beside it does not list as the site an earlier healthaudit wrote",
            {"after": lambda scratch: os.path.exists(os.path.join(scratch, "public", "draft.txt"))})


def case_epoch_out_of_range(site):
    return (["build"], 2, "SOURCE_DATE_EPOCH is '9223372036854775807': it must be whole seconds",
            {"env": {"SOURCE_DATE_EPOCH": "9223372036854775807"}})


def case_killed_between_renames(site):
    write(site, "../.public-old-dead/.healthaudit-site", "")
    write(site, "../.public-old-dead/index.html", "<html>last good</html>\n")
    with open(os.path.join(site, "healthaudit.yml"), "a") as handle:
        handle.write("\nbogus_key: 1\n")
    return (["build"], 2, "the previous site was left untouched",
            {"after": lambda scratch: open(os.path.join(scratch, "public", "index.html")).read() == "<html>last good</html>\n"})
def one_line_catalog(site, keys):
    """Steady's InfoPlist.xcstrings with `keys` more keys, on one line as `jq -c` writes it."""
    catalog = json.load(open(os.path.join(site, STEADY, "InfoPlist.xcstrings")))
    for index in range(keys):
        catalog["strings"]["Key%d" % index] = {"localizations": {
            "de": {"stringUnit": {"state": "translated", "value": "Wert %d" % index}},
            "en": {"stringUnit": {"state": "translated", "value": "Value %d" % index}}}}
    return json.dumps(catalog, separators=(",", ":"))


def case_one_line_catalog(site):
    write(site, STEADY + "/InfoPlist.xcstrings", one_line_catalog(site, 5_000))
    return ["check"], None, None


XCODEGEN_SPEC = ("name: Gen\ntargets:\n  Gen:\n    type: application\n    platform: iOS\n    sources: [Gen]\n"
                 "    info:\n      properties:\n        NSHealthShareUsageDescription: Gen reads your steps to chart them daily.\n")


def xcodegen_settings(size):
    """A framework target whose settings fill `size` bytes of YAML."""
    lines, total, index = ["targets:\n  Kit:\n    type: framework\n    settings:\n      base:\n"], 0, 0
    while total < size:
        lines.append('        SETTING_%06d: "a value for setting %d"\n' % (index, index))
        total += len(lines[-1])
        index += 1
    return "".join(lines)


def xcodegen_app(folder, spec, files=()):
    write(folder, "project.yml", spec)
    write(folder, "Gen/App.swift", "import HealthKit\nlet store = HKHealthStore()\n")
    for path, text in files:
        write(folder, path, text)


def case_xcodegen_include_100(site):
    xcodegen_app(os.path.join(site, "apps/gen"), XCODEGEN_SPEC + "include:\n" + "  - extra.yml\n" * 100, [("extra.yml", xcodegen_settings(1_280_000))])
    append_app(site, "  - id: gen\n    name: Gen\n    root: apps/gen\n")
    return ["check"], None, None


def case_xcodegen_include_100_no_config(site):
    folder = os.path.join(os.path.dirname(site), "gen")
    xcodegen_app(folder, XCODEGEN_SPEC + "include:\n" + "  - extra.yml\n" * 100, [("extra.yml", xcodegen_settings(1_280_000))])
    return ["check", folder], None, "Gen"


def case_xcodegen_8m(site):
    xcodegen_app(os.path.join(site, "apps/gen"), XCODEGEN_SPEC.replace("properties:\n", "properties:\n" + "".join(
        '        GenKey%07d: "value number %d of the generated spec"\n' % (index, index) for index in range(126_000)), 1))
    append_app(site, "  - id: gen\n    name: Gen\n    root: apps/gen\n")
    return ["check"], 2, "apps/gen/project.yml:1: error: [load] this XcodeGen spec and the files it includes come to"


def case_xcodegen_undefined_variable_10k(site):
    """Found by the XcodeGen fuzz target: 10,000 uses of an undefined $(X) in a usage string were
    10,000 findings, each quoting the 150 KB value (106 s of CPU)."""
    xcodegen_app(os.path.join(site, "apps/gen"), XCODEGEN_SPEC.replace("Gen reads your steps to chart them daily.",
                                                                       "'Gen reads your steps for" + " $(PRODUCT_NAME)" * 10_000 + "'", 1))
    append_app(site, "  - id: gen\n    name: Gen\n    root: apps/gen\n")
    return ["check"], None, None


def padded_plist(site, size):
    text = open(os.path.join(site, STEADY, "Info.plist")).read()
    entries, total, index = [], 0, 0
    while total < size:
        entries.append("\t<key>GenKey%07d</key>\n\t<string>value number %d of the generated plist</string>\n" % (index, index))
        total += len(entries[-1])
        index += 1
    return text.replace("<dict>", "<dict>\n" + "".join(entries), 1)


def case_xml_plist_8m(site):
    write(site, STEADY + "/Info.plist", padded_plist(site, 7_900_000))
    return ["check"], 2, "Steady/Info.plist:1: error: [load] property list is"


def case_xml_plist_1m(site):
    write(site, STEADY + "/Info.plist", padded_plist(site, 1_040_000))
    return ["check"], None, None


def case_strings_8m(site):
    path = os.path.join(site, STEADY, "en.lproj/InfoPlist.strings")
    text = open(path, "rb").read().decode("utf-16")
    entries = "".join('/* comment %d */\n"GenKey%07d" = "value number %d of the generated strings";\n' % (i, i, i) for i in range(46_500))
    write(site, STEADY + "/en.lproj/InfoPlist.strings", (text + entries).encode("utf-16"), "wb")
    return ["check"], None, None


def case_pbxproj_8m(site):
    path = os.path.join(site, "apps/runner/Runner.xcodeproj/project.pbxproj")
    text = open(path).read()
    objects = "".join('\t\tAA%022X /* Gen%d.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = "Gen%d.swift"; sourceTree = "<group>"; };\n'
                      % (i, i, i) for i in range(46_500))
    write(site, "apps/runner/Runner.xcodeproj/project.pbxproj", text.replace("objects = {\n", "objects = {\n" + objects, 1))
    return ["check"], None, None


def case_package_json_8m(site):
    package = json.load(open(os.path.join(site, "apps/cos/package.json")))
    package["generated"] = {"key%07d" % i: "value number %d of the generated package" % i for i in range(125_000)}
    write(site, "apps/cos/package.json", json.dumps(package, indent=2))
    return ["check"], None, None
TOKEN = "eC1hY2Nlc3MtdG9rZW46U0VDUkVU"
SECRET = "SECRET-outside-the-repository"


def leak_project(base, settings=""):
    """An app target whose Release configuration is based on `base` and asks for `$(extraheader)`."""
    reference = ("A1 = {isa = PBXFileReference; path = %s; sourceTree = \"<group>\"; };" % base) if base else ""
    based = "baseConfigurationReference = A1; " if base else ""
    return ("// !$*UTF8*$!\n{ archiveVersion = 1; objectVersion = 56; objects = {\n" + reference + "\n"
            "A2 = {isa = PBXFileReference; path = App.swift; sourceTree = \"<group>\"; };\n"
            "A3 = {isa = PBXBuildFile; fileRef = A2; };\n"
            "A10 = {isa = PBXGroup; children = (" + ("A1, " if base else "") + "A11, ); sourceTree = \"<group>\"; };\n"
            "A11 = {isa = PBXGroup; children = (A2, ); path = Leak; sourceTree = \"<group>\"; };\n"
            "A20 = {isa = PBXSourcesBuildPhase; files = (A3, ); };\n"
            "A30 = {isa = PBXNativeTarget; buildConfigurationList = A40; buildPhases = (A20, ); name = Leak; productType = \"com.apple.product-type.application\"; };\n"
            "A40 = {isa = XCConfigurationList; buildConfigurations = (A41, ); defaultConfigurationName = Release; };\n"
            "A41 = {isa = XCBuildConfiguration; " + based + "buildSettings = {GENERATE_INFOPLIST_FILE = YES; "
            "INFOPLIST_KEY_NSHealthShareUsageDescription = \"$(extraheader)\"; PRODUCT_NAME = Leak; " + settings + "}; name = Release; };\n"
            "A50 = {isa = XCConfigurationList; buildConfigurations = (A51, ); defaultConfigurationName = Release; };\n"
            "A51 = {isa = XCBuildConfiguration; buildSettings = {SDKROOT = iphoneos; }; name = Release; };\n"
            "A60 = {isa = PBXProject; buildConfigurationList = A50; mainGroup = A10; targets = (A30, ); };\n"
            "}; rootObject = A60; }\n")


def leak_app(site, base, settings=""):
    """The site folder as the repository (its own `.git` holding a CI token) and one app rooted there."""
    write(site, ".git/HEAD", "ref: refs/heads/main\n")
    write(site, ".git/config", '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ' + TOKEN + "\n")
    write(site, "Leak.xcodeproj/project.pbxproj", leak_project(base, settings))
    write(site, "Leak/App.swift", "import HealthKit\nlet store = HKHealthStore()\n")
    append_app(site, "  - id: leak\n    name: Leak\n    root: .\n    project: Leak.xcodeproj\n")


def case_git_config_check(site):
    leak_app(site, ".git/config")
    return ["check", "--verbose", "--format", "json", "--format", "text"], 1, "lies in a .git folder", {"secret": TOKEN}


def case_git_config_build(site):
    leak_app(site, ".git/config")
    return ["build"], 0, None, {"secret": TOKEN}


def case_templates_symlink(site):
    outside = os.path.join(os.path.dirname(site), "outside")
    write(outside, "style.css", "body::after { content: '" + SECRET + "' }\n")
    os.symlink(outside, os.path.join(site, "templates"))
    return ["build"], 2, "the site's templates folder leads outside the repository", {"secret": SECRET}


def case_symlinked_output_folder(site):
    """The last site's `pages/` replaced by a symlink to a folder of files named like its pages."""
    output = os.path.join(os.path.dirname(site), "public")
    subprocess.run([TOOL, "build", "--site", site, "--output", output], check=True, capture_output=True)
    outside = os.path.join(os.path.dirname(site), "outside")
    os.makedirs(outside)
    for name in os.listdir(os.path.join(output, "pages")):
        write(outside, name, SECRET)
    shutil.rmtree(os.path.join(output, "pages"))
    os.symlink(outside, os.path.join(output, "pages"))
    with open(os.path.join(site, STEADY, "Info.plist"), "a") as handle:
        handle.write("<!-- edited -->\n")
    return ["build"], 0, None, {"secret": SECRET}


def case_entitlements_outside(site):
    leak_app(site, None, "CODE_SIGN_ENTITLEMENTS = /etc/hostname; ")
    return ["check"], 2, "'/etc/hostname' lies outside the repository; not read"


def case_init_beside_dot_config(site):
    os.rename(os.path.join(site, "healthaudit.yml"), os.path.join(site, ".healthaudit.yml"))
    return ["init"], 2, "this folder already has a config, .healthaudit.yml"


def case_init_dangling_symlink(site):
    os.remove(os.path.join(site, "healthaudit.yml"))
    os.symlink("missing.yml", os.path.join(site, "healthaudit.yml"))
    return ["init"], 2, "healthaudit.yml is a symbolic link to a file that does not exist"


def junk(index, depth=30):
    """A small malformed file: brackets nested deep inside a string interpolation (issue 33, item 3)."""
    return 'let s = "\\(' + "[" * (depth + index % 8) + "1" + "]" * (depth + index % 8) + ')"\n'


REAL_ERROR = ("import HealthKit\n\nfinal class BirthdayReader {\n    let store = HKHealthStore()\n\n"
              "    func age() throws -> Int? {\n        guard HKHealthStore.isHealthDataAvailable() else { return nil }\n"
              "        let birthday = HKCharacteristicType(.dateOfBirth)\n"
              "        guard store.authorizationStatus(for: birthday) == .sharingAuthorized else { return nil }\n"
              "        let components = try store.dateOfBirthComponents()\n"
              "        return Calendar.current.dateComponents([.year], from: components.date ?? .now, to: .now).year\n    }\n\n"
              + "".join("    func helper%d(_ value: Double) -> Double { value * %d.0 + 1 }\n" % (i, i) for i in range(120)) + "}\n")


def case_junk_hides_real_error(site):
    for index in range(80):
        write(site, STEADY + "/Junk/Junk%d.swift" % index, junk(index))
    write(site, STEADY + "/Health/BirthdayReader.swift", REAL_ERROR)
    return ["check", "--app", "steady"], 1, "BirthdayReader.swift:9:15: error:"


def case_junk_fail_on_warning(site):
    for index in range(80):
        write(site, STEADY + "/Junk/Junk%d.swift" % index, junk(index))
    return ["check", "--app", "steady", "--fail-on", "warning"], 1, "Junk79.swift:1:24: warning: not analysed: '[' nested deeper than 12 [file-not-analysed]"


def case_84_bytes(site):
    text = 'let x = "\\(' + "[" * 35 + "1" + "]" * 35 + ')"'
    assert len(text) == 84
    write(site, STEADY + "/Tiny.swift", text)
    return ["check", "--app", "steady", "--format", "json"], 0, "nested deeper than 12"


def case_after_escaped_backslash(site):
    write(site, STEADY + "/Escaped.swift", 'let a = "\\\\"; let b = ' + "[" * 30 + "1" + "]" * 30 + "\n")
    return ["check", "--app", "steady", "--format", "json"], 0, "nested deeper than 12"


def case_raw_multiline(site):
    write(site, STEADY + "/Raw.swift", 'let a = #"\\"#\nlet b = """\n    \\(' + "[" * 30 + "1" + "]" * 30 + ')\n    """\n')
    return ["check", "--app", "steady", "--format", "json"], 0, "nested deeper than 12"


TUIST_PROJECT = """import ProjectDescription

let project = Project(
    name: "Tuisted",
    targets: [
        .target(name: "Tuisted", destinations: .iOS, product: .app, bundleId: "org.example.tuisted",
                infoPlist: "App/Info.plist", sources: ["App/Sources/**"]),
    ]
)
"""


def tuist_app(folder, extra):
    write(folder, "Project.swift", TUIST_PROJECT + extra + "\n")
    write(folder, "App/Info.plist", open(os.path.join(ROOT, "Site", STEADY, "Info.plist")).read())
    write(folder, "App/Sources/App.swift", "import HealthKit\nlet store = HKHealthStore()\n")


def tuist_case(extra, text):
    def case(site):
        tuist_app(os.path.join(site, "apps/tuisted"), extra)
        append_app(site, "  - id: tuisted\n    name: Tuisted\n    root: apps/tuisted\n    tuist: Project.swift\n")
        return ["check", "--app", "tuisted", "--format", "json"], None, text
    return case


def tuist_no_config_case(extra, text):
    def case(site):
        folder = os.path.join(os.path.dirname(site), "tuisted")
        tuist_app(folder, extra)
        return ["check", folder], None, text
    return case


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
            {"after": lambda scratch: not os.path.exists(history) and not os.path.exists(os.path.join(os.path.dirname(site), "public"))})


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
    return ["build", "--results", folder, "--history", history], 0, "1 record written", {"after": lambda scratch: records_are_small()}


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
    return ["build", "--results", folder], 0, None, {"after": lambda scratch: nothing_raw()}


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
    ("1 MB usage string, GitHub annotations", case_huge_usage_string),
    ("60,000 Swift files over five roots", case_many_files),
    ("names with `\\n::stop-commands::`, `\\r`, `##[` (stderr)", case_hostile_names),
    ("names with `\\n::stop-commands::`, `##[` (annotations)", case_hostile_names_github),
    ("app named D^`_OONN[Z[Ia (chart id hash = Int.min)", case_chart_id_int_min),
    ("check --baseline B --output B", case_output_over_baseline),
    ("check --changed-files F --output F", case_output_over_changed_files),
    ("foreign output beside a junk .public.cache.json", case_legacy_cache_junk),
    ("SOURCE_DATE_EPOCH=9223372036854775807", case_epoch_out_of_range),
    ("failing build after a kill between the two renames", case_killed_between_renames),
    ("InfoPlist.xcstrings: 5,000 keys on one line", case_one_line_catalog),
    ("XcodeGen: a 1.28 MB file included 100 times", case_xcodegen_include_100),
    ("XcodeGen: the same, found without a config", case_xcodegen_include_100_no_config),
    ("XcodeGen: an 8 MiB spec", case_xcodegen_8m),
    ("XcodeGen: an undefined $(X) 10,000 times in a usage string", case_xcodegen_undefined_variable_10k),
    ("XML Info.plist of 7.9 MB (92,000 keys)", case_xml_plist_8m),
    ("XML Info.plist of 1 MB (12,000 keys)", case_xml_plist_1m),
    ("InfoPlist.strings of 7.9 MB (UTF-16)", case_strings_8m),
    ("project.pbxproj of 7.7 MB (46,500 objects)", case_pbxproj_8m),
    ("package.json of 8 MB", case_package_json_8m),
    ("project based on .git/config (CI token), check --verbose", case_git_config_check),
    ("project based on .git/config (CI token), build", case_git_config_build),
    ("committed Site/templates -> a folder outside", case_templates_symlink),
    ("previous output's pages/ -> outside folder", case_symlinked_output_folder),
    ("CODE_SIGN_ENTITLEMENTS = /etc/hostname", case_entitlements_outside),
    ("init beside .healthaudit.yml", case_init_beside_dot_config),
    ("init with a dangling healthaudit.yml symlink", case_init_dangling_symlink),
    ("80 junk Swift files (deep `[` in interpolations) + a real error", case_junk_hides_real_error),
    ("80 junk Swift files, check --fail-on warning", case_junk_fail_on_warning),
    ("Swift: the 84-byte file (35 `[` in an interpolation)", case_84_bytes),
    ("Swift: 30 `[` after a `\"\\\\\"` string", case_after_escaped_backslash),
    ("Swift: 30 `[` after a raw string, in a multi-line interpolation", case_raw_multiline),
    ("Tuist Project.swift: 24 nested `[`", tuist_case("let deep = " + "[" * 24 + "1" + "]" * 24, "nested deeper than 12")),
    ("Tuist Project.swift: 5,000-call chain", tuist_case("let chain = f" + "()" * 5_000, "Tuist target Tuisted")),
    ("Tuist Project.swift: 200,000-link member chain", tuist_case("let chain = x" + ".b" * 200_000, "chains more than 10000 members or calls")),
    ("Tuist Project.swift: 200,000-link chain, no config", tuist_no_config_case("let chain = x" + ".b" * 200_000, "Tuist app")),
    ("Tuist Project.swift: 24 nested `[`, no config", tuist_no_config_case("let deep = " + "[" * 24 + "1" + "]" * 24, "nested deeper than 12")),
    ("results: a number past Int in a simulation", case_results_number),
    ("results: two days of one date", case_results_days),
    ("--history: `acme ios.json` and `acme-ios.json`", case_results_origins),
    ("--history: a result with 40 MB of unknown members", case_results_padding),
    ("results: NUL, U+202E and ESC in every text", case_results_bidi),
    ("results: 300 apps (gen_results.py), pages streamed", case_results_fleet),
]

TOOL = None


def forged_commands(text, arguments):
    """Lines the GitHub Actions runner would obey that the tool did not mean: `::name::` at the
    start of a line (after white space), `##[name]` or `##vso[` anywhere. Only `--format github`
    means any: one `::error|warning|notice file=…` line per finding."""
    annotations = "github" in arguments
    forged = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        stripped = line.lstrip()
        if "##[" in stripped.lower() or "##vso[" in stripped.lower():
            forged.append(line)
        elif stripped.startswith("::") and not (annotations and re.match(r"::(error|warning|notice) file=[^,:]*,line=\d+", stripped)):
            forged.append(line)
    return forged


def measured(tool, arguments, site, env=None):
    """Runs through /usr/bin/time's wait4 accounting: (exit, stdout, stderr, seconds, peak KiB)."""
    extra = ["--output", os.path.join(os.path.dirname(site), "public")] if arguments[0] == "build" else []
    # A case that names its own folder (discovery without a config) runs on that folder alone.
    if arguments[0] == "init":
        extra += [site]
    elif "--results" in arguments:
        pass  # a build from results reads no site
    elif len(arguments) < 2 or not arguments[1].startswith(os.path.dirname(site)):
        extra += ["--site", site]
    started = time.monotonic()
    process = subprocess.Popen([tool] + arguments + extra, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               cwd=os.path.dirname(site), env=dict(os.environ, **(env or {})))
    out = process.stdout.read()
    err = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.monotonic() - started
    code = os.waitstatus_to_exitcode(status)
    return code, out, err, seconds, usage.ru_maxrss


def leaked(secret, text, output):
    """The secret is in the command's output or in a file of the built site."""
    if secret in text:
        return True
    for folder, _, names in os.walk(output):
        for name in names:
            with open(os.path.join(folder, name), "rb") as handle:
                if secret.encode() in handle.read():
                    return True
    return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", default=os.path.join(ROOT, ".build", "release", "healthaudit"))
    parser.add_argument("--runs", type=int, default=10, help="repeated checks compared byte for byte")
    parser.add_argument("--only", nargs="*", default=[])
    args = parser.parse_args()
    # A fresh cache: each input is met for the first time, as in CI, whatever earlier runs cached.
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="healthaudit-hostile-cache-")
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
        arguments, want_exit, want_text, *extra = plant(site)
        extra = extra[0] if extra else {}
        code, out, err, seconds, peak = measured(tool, arguments, site, extra.get("env"))
        text = (out + err).decode("utf-8", "replace")
        ok_exit = code in (0, 1) if want_exit is None else code == want_exit
        ok_text = want_text is None or want_text in text
        forged = forged_commands(out.decode("utf-8", "replace"), arguments) + forged_commands(err.decode("utf-8", "replace"), [])
        ok_after = extra.get("after", lambda scratch: True)(scratch)
        secret = extra.get("secret")
        ok_secret = secret is None or not leaked(secret, text, os.path.join(scratch, "public"))
        ok = ok_exit and ok_text and not forged and ok_after and ok_secret and seconds < 5 and peak < 300 * 1024
        if forged:
            text += "\nforged commands: %r" % forged[:3]
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
        code, out, _, _, _ = measured(tool, ["check", "--format", "json", "--format", "sarif=" + os.path.join(scratch, "out.sarif")], site)
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
