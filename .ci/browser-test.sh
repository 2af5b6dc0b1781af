#!/usr/bin/env bash
# Real-browser test of `healthaudit serve`: headless Chromium loads the served site, the DOM is
# checked for every configured app and for findings, then inputs are edited while the server runs
# and the pages must follow: a rebuilt page, an open page reloading itself, the error banner of a
# failed rebuild and its removal. Screenshots are kept under a temporary folder (paths printed).
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
if ! command -v chromium >/dev/null 2>&1; then
  echo "browser test: installing Debian's chromium"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

swift build --product healthaudit
BIN="$(swift build --show-bin-path)/healthaudit"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/healthaudit-browser.XXXXXX")"
SHOTS="$WORK/screenshots"
mkdir -p "$SHOTS"
cp -R Site "$WORK/Site"
cp -R Templates "$WORK/Templates"
rm -rf "$WORK/Site/public" "$WORK"/Site/.public[-.]*  # no built site, nor what a build keeps beside it

SERVE_PID=""
LIVE_PID=""
cleanup() {
  [ -n "$LIVE_PID" ] && kill "$LIVE_PID" 2>/dev/null || true
  [ -n "$SERVE_PID" ] && kill "$SERVE_PID" 2>/dev/null || true
  wait 2>/dev/null || true
  # Keep the screenshots (their paths are printed); drop the copies and browser profiles.
  rm -rf "$WORK/Site" "$WORK/Templates" "$WORK"/profile-*
}
trap cleanup EXIT

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok: $1"; }
fail() { failed=$((failed + 1)); echo "FAILED: $1" >&2; }
die() { echo "browser test: $1" >&2; [ -f "$WORK/serve.err" ] && tail -20 "$WORK/serve.err" >&2; exit 1; }

# --port 0: the server picks a free loopback port and prints `Serving URL` on stdout.
"$BIN" serve --site "$WORK/Site" --templates "$WORK/Templates" --port 0 >"$WORK/serve.out" 2>"$WORK/serve.err" &
SERVE_PID=$!
URL=""
for _ in $(seq 1 600); do
  URL="$(sed -n 's/^Serving \(http[^ ]*\)$/\1/p' "$WORK/serve.out" | head -1)"
  [ -n "$URL" ] && break
  kill -0 "$SERVE_PID" 2>/dev/null || die "healthaudit serve exited before printing its URL"
  sleep 0.2
done
[ -n "$URL" ] || die "healthaudit serve printed no URL within 120 s"
case "$URL" in http://127.0.0.1:*/) pass "serving on loopback at $URL" ;; *) fail "unexpected URL '$URL'" ;; esac

CHROME=(chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-dev-shm-usage)
runs=0
# A fresh profile per run, so concurrent Chromiums never share a lock.
dom() { runs=$((runs + 1)); timeout 90 "${CHROME[@]}" --user-data-dir="$WORK/profile-$runs" --dump-dom "$1" 2>>"$WORK/chromium.log"; }
# shot URL FILE [WIDTH]: 1280 px wide unless told (390 px is a phone).
shot() {
  runs=$((runs + 1))
  timeout 90 "${CHROME[@]}" --user-data-dir="$WORK/profile-$runs" --window-size="${3:-1280},1600" --screenshot="$2" "$1" >>"$WORK/chromium.log" 2>&1
  if [ -s "$2" ]; then pass "screenshot $2"; else fail "no screenshot of $1"; fi
}
# Polls until the rendered DOM of $1 matches (or, with `!`, stops matching) the regex $2.
wait_dom() {
  local url="$1" pattern="$2" negate="${3:-}" deadline=$((SECONDS + 30))
  while [ $SECONDS -lt $deadline ]; do
    if dom "$url" >"$WORK/last.html"; then
      if [ -z "$negate" ] && grep -qE "$pattern" "$WORK/last.html"; then return 0; fi
      if [ -n "$negate" ] && ! grep -qE "$pattern" "$WORK/last.html"; then return 0; fi
    fi
    sleep 0.5
  done
  return 1
}

# 1. Every app in the config is linked from the rendered index.
dom "$URL" >"$WORK/index.html" || die "chromium could not load $URL"
apps="$(sed -n 's/^  - id: *\([a-z0-9-]*\).*/\1/p' "$WORK/Site/healthaudit.yml")"
for expected in veloride trainer cos steady; do
  grep -qx "$expected" <<<"$apps" || fail "example app '$expected' is missing from the config"
done
for app in $apps; do
  if grep -q "href=\"apps/$app/" "$WORK/index.html"; then pass "index links app '$app'"; else fail "index does not link app '$app'"; fi
done
grep -q 'id="healthaudit-live-reload"' "$WORK/index.html" && pass "live reload script present in the served page" \
  || fail "live reload script missing from the served page"
grep -q 'healthaudit-live-reload' "$WORK/Site/public/index.html" && fail "live reload script written to disk" \
  || pass "live reload script absent from the built file"
shot "$URL" "$SHOTS/index.png"
shot "$URL" "$SHOTS/index-390.png" 390
grep -q 'Simulated crash in' "$WORK/index.html" && pass "index names the trainer's simulated crash as a top problem" \
  || fail "the index does not name any app's top problem"

# 2. An audit page shows its findings.
dom "${URL}apps/trainer/" >"$WORK/trainer.html" || die "chromium could not load ${URL}apps/trainer/"
grep -q 'class="finding' "$WORK/trainer.html" && pass "trainer page shows findings" || fail "no class=\"finding\" on the trainer page"
shot "${URL}apps/trainer/" "$SHOTS/trainer.png"
shot "${URL}apps/trainer/" "$SHOTS/trainer-390.png" 390
# The summary box (crash and errors) comes before the six answers; findings are one card per rule.
python3 - "$WORK/trainer.html" <<'PY' && pass "trainer page leads with its crash, then answers, then one card per rule" || fail "trainer page structure"
import re, sys
html = open(sys.argv[1]).read()
box, answers = html.find('class="summary-box"'), html.find('id="review-questions"')
cards = re.findall(r'<details class="rule-group [^"]*" id="rule-([a-z0-9-]+)"', html)
first = re.search(r'class="summary-box".*?<a href="#([^"]+)"', html, re.S)
ok = 0 <= box < answers and cards and len(cards) == len(set(cards)) and first and first.group(1).startswith("scenario-") \
    and f'id="{first.group(1)}"' in html
sys.exit(0 if ok else 1)
PY

# 3. An open page reloads itself: a long-running Chromium keeps the index open and its title
#    (read from the DevTools HTTP endpoint) must follow an edit of the config's title.
runs=$((runs + 1))
LIVE_PROFILE="$WORK/profile-$runs"
"${CHROME[@]}" --user-data-dir="$LIVE_PROFILE" --remote-debugging-address=127.0.0.1 --remote-debugging-port=0 "$URL" \
  >>"$WORK/chromium.log" 2>&1 &
LIVE_PID=$!
open_title() {
  local port
  port="$(head -1 "$LIVE_PROFILE/DevToolsActivePort" 2>/dev/null)" || return 1
  curl -fsS "http://127.0.0.1:$port/json/list" 2>/dev/null |
    python3 -c 'import json,sys; print(next((t["title"] for t in json.load(sys.stdin) if t.get("type") == "page"), ""))'
}
wait_title() {
  local deadline=$((SECONDS + 30))
  while [ $SECONDS -lt $deadline ]; do
    open_title 2>/dev/null | grep -qF "$1" && return 0
    sleep 0.5
  done
  return 1
}
wait_title "HealthAudit — example apps" && pass "page open in a running browser" || fail "the running browser did not open $URL"

# 4. Edit the config (rename `steady`, retitle the site): the DOM changes after the rebuild.
sed -i -e 's/^    name: Steady$/    name: Steady Browser Check/' -e 's/^title: \(.*\)$/title: \1 (live)/' "$WORK/Site/healthaudit.yml"
wait_dom "$URL" 'Steady Browser Check' && pass "index shows the renamed app after the rebuild" \
  || fail "index still shows the old name of 'steady' after 30 s"
wait_title "example apps (live)" && pass "the open page reloaded itself with the new title" \
  || fail "the open page did not reload within 30 s (title: '$(open_title || true)')"

# 5. A failed rebuild keeps the last good site and shows the diagnostics in a banner.
cp "$WORK/Templates/index.mustache" "$WORK/index.mustache.good"
printf '{{#unclosed}}\n' >>"$WORK/Templates/index.mustache"
if wait_dom "$URL" 'id="healthaudit-error"'; then
  pass "failed rebuild shows the error banner"
  grep -q 'index.mustache' "$WORK/last.html" && pass "banner names the broken template" || fail "banner does not name index.mustache"
  grep -q 'Steady Browser Check' "$WORK/last.html" && pass "last good site still served" || fail "last good site not served"
  shot "$URL" "$SHOTS/error-banner.png"
else
  fail "no error banner within 30 s of breaking a template"
fi
cp "$WORK/index.mustache.good" "$WORK/Templates/index.mustache"
wait_dom "$URL" 'id="healthaudit-error"' not && pass "banner gone after the fix" || fail "banner still shown 30 s after the fix"

# 6. The pull-request comment, rendered as GitHub renders comments (GFM: cmark-gfm with its table,
#    autolink, strikethrough and tag-filter extensions) inside a page styled like a comment, read at
#    760 px: nothing overflows sideways, no backslash escape shows, locations link to the commit
#    (the copy is no repository: paths are relative to the site folder, its root).
if ! command -v cmark-gfm >/dev/null 2>&1; then
  echo "browser test: installing Debian's cmark-gfm"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cmark-gfm >/dev/null
fi
# The marks are emoji: without a font for them the screenshot shows boxes (the DOM checks do not care).
if ! fc-list 2>/dev/null | grep -qi emoji; then
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-color-emoji >/dev/null 2>&1 || echo "browser test: no emoji font (screenshot only)"
fi
# Run from the folder holding the site, as CI runs it from the repository root (paths read `Site/…`).
(cd "$WORK" && GITHUB_SERVER_URL=https://github.com GITHUB_REPOSITORY=healthaudit/example GITHUB_SHA=0123456789abcdef0123456789abcdef01234567 \
  "$BIN" check --site Site --format markdown --no-fail) >"$WORK/comment.md" 2>>"$WORK/check.err" || fail "check --format markdown failed"
{
  cat <<'HTML'
<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>comment</title><style>
body { margin: 0; padding: 16px; font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
.markdown-body { border: 1px solid #d0d7de; border-radius: 6px; padding: 16px; overflow-wrap: break-word; word-wrap: break-word; }
.markdown-body table { display: block; width: max-content; max-width: 100%; overflow: auto; border-spacing: 0; border-collapse: collapse; }
.markdown-body td, .markdown-body th { padding: 6px 13px; border: 1px solid #d0d7de; }
.markdown-body code { padding: .2em .4em; font-size: 85%; background: rgba(175,184,193,.2); border-radius: 6px; white-space: break-spaces; }
.markdown-body ul { padding-left: 2em; }
</style></head><body><div class="markdown-body">
HTML
  cmark-gfm --unsafe -e table -e autolink -e strikethrough -e tagfilter "$WORK/comment.md"
  cat <<'HTML'
</div><pre id="measured"></pre><script>
const width = document.documentElement.clientWidth;
const wide = [...document.querySelectorAll(".markdown-body *")].filter(e => e.getBoundingClientRect().right > width + 1 || e.scrollWidth > e.clientWidth + 1);
const shown = document.querySelector(".markdown-body").innerText;
document.getElementById("measured").textContent = "overflow=" + (document.documentElement.scrollWidth > width ? "page" : wide.map(e => e.tagName).join(",") || "none")
  + " backslash=" + (shown.includes("\\") ? "yes" : "no") + " width=" + width;
</script></body></html>
HTML
} >"$WORK/comment.html"
runs=$((runs + 1))
timeout 90 "${CHROME[@]}" --user-data-dir="$WORK/profile-$runs" --window-size=760,1600 --dump-dom "file://$WORK/comment.html" >"$WORK/comment.dom" 2>>"$WORK/chromium.log" || true
measured="$(sed -n 's/.*<pre id="measured">\([^<]*\)<\/pre>.*/\1/p' "$WORK/comment.dom")"
case "$measured" in
  *"width=760"*) pass "comment rendered at 760 px ($measured)" ;;
  *) fail "comment page was not measured at 760 px: '$measured'" ;;
esac
grep -q "overflow=none" <<<"$measured" && pass "comment at 760 px: nothing overflows sideways" || fail "comment at 760 px overflows: $measured"
grep -q "backslash=no" <<<"$measured" && pass "comment shows no backslash" || fail "comment shows a backslash: $(grep -o '.\{40\}\\.\{40\}' "$WORK/comment.dom" | head -3)"
grep -q '<td>.*✅\|<td>.*❌' "$WORK/comment.dom" && pass "comment has the answers table" || fail "comment has no answers table"
grep -q '<a href="https://github.com/healthaudit/example/blob/0123456789abcdef0123456789abcdef01234567/apps/' "$WORK/comment.dom" \
  && pass "comment links locations to the commit" || fail "comment does not link locations to the commit"
grep -q '<a href="https://example.org/healthaudit/">' "$WORK/comment.dom" && pass "comment links the published site" || fail "comment does not link the site"
shot "file://$WORK/comment.html" "$SHOTS/comment-760.png" 760

# 7. 404.html opened from disk: styled (its CSS is inline) and every link leads to a file of the
#    site, though base_url points the published copy elsewhere. file:// pages share an origin
#    here (--allow-file-access-from-files), so a page beside the site can look inside it.
cat >"$WORK/notfound-probe.html" <<'HTML'
<!DOCTYPE html><html><body><iframe id="page" src="Site/public/404.html" width="800" height="600"></iframe><pre id="measured"></pre><script>
document.getElementById("page").addEventListener("load", () => {
  const doc = document.getElementById("page").contentDocument;
  const footer = doc.querySelector("footer.site");
  const styled = footer && getComputedStyle(footer).display === "flex";
  const links = [...doc.querySelectorAll("a[href]")].map(a => a.href);
  document.getElementById("measured").textContent = "styled=" + (styled ? "yes" : "no") + "\n" + links.join("\n");
});
</script></body></html>
HTML
runs=$((runs + 1))
timeout 90 "${CHROME[@]}" --user-data-dir="$WORK/profile-$runs" --allow-file-access-from-files --virtual-time-budget=5000 \
  --dump-dom "file://$WORK/notfound-probe.html" >"$WORK/notfound.dom" 2>>"$WORK/chromium.log" || true
sed -n '/<pre id="measured">/,/<\/pre>/p' "$WORK/notfound.dom" | sed -e 's/.*<pre id="measured">//' -e 's/<\/pre>.*//' >"$WORK/notfound.measured"
grep -qx "styled=yes" "$WORK/notfound.measured" && pass "404.html from disk is styled" || fail "404.html from disk is unstyled: $(head -1 "$WORK/notfound.measured")"
links=0
bad=0
while IFS= read -r link; do
  [ -z "$link" ] && continue
  links=$((links + 1))
  path="${link#file://}"
  path="${path%%#*}"
  case "$link" in "file://$WORK/Site/public/"*) [ -f "$path" ] || [ -f "$path/index.html" ] || bad=$((bad + 1)) ;; *) bad=$((bad + 1)); echo "  leaves the site: $link" >&2 ;; esac
done < <(tail -n +2 "$WORK/notfound.measured")
[ "$links" -gt 0 ] && [ "$bad" -eq 0 ] && pass "404.html from disk: all $links links lead to files of the site" || fail "404.html from disk: $bad of $links links leave the site or lead nowhere"
shot "file://$WORK/Site/public/404.html" "$SHOTS/404-from-disk.png"

# 8. Every page names the tool version, the audited commit (none here: the copy is no repository)
#    and the run's date in its footer.
footers=0
missing=0
for page in index.html apps/trainer/index.html rules/index.html 404.html; do
  footers=$((footers + 1))
  grep -q '<footer class="site">.*healthaudit [0-9][0-9.]*.*[0-9]\{4\}-[0-9]\{2\}-[0-9]\{2\}' "$WORK/Site/public/$page" || { missing=$((missing + 1)); echo "  no footer facts in $page" >&2; }
done
[ "$missing" -eq 0 ] && pass "the footer names the version and date on $footers pages" || fail "$missing of $footers pages lack the footer's facts"

# 9. Charts on a phone. A site built with `--history` (so the index, app and rule pages draw the
#    findings chart) is read at 390 px: on every summary, day and history page each chart shows one
#    drawing, its text at 11 px or more as drawn (the computed font size times the drawing's scale on
#    screen: a scaled-down wide chart fails), and a legend; the summary's days table and each day's
#    workouts table stack, and no such page scrolls sideways.
HOUT="$WORK/history-public"
SOURCE_DATE_EPOCH=1775044800 "$BIN" build --site "$WORK/Site" --templates "$WORK/Templates" --history "$WORK/history" --output "$HOUT" \
  >"$WORK/history.out" 2>"$WORK/history.err" || fail "build --history failed: $(tail -3 "$WORK/history.err")"
chart_pages="$(cd "$HOUT" && grep -rl --include='*.html' '<figure class="chart"' . | sed 's|^\./||' | sort)"
{
  echo '<!DOCTYPE html><html><body><iframe id="page" width="390" height="900" style="border:0"></iframe><pre id="measured"></pre><script>'
  printf 'const pages = %s;\n' "$(printf '%s\n' $chart_pages | python3 -c 'import json,sys; print(json.dumps([l.strip() for l in sys.stdin if l.strip()]))')"
  cat <<'JS'
const frame = document.getElementById("page"), out = [];
let charts = 0, legends = 0, workouts = 0, smallest = Infinity;
function measure(path) {
  const doc = frame.contentDocument, win = frame.contentWindow;
  if (doc.documentElement.clientWidth > 390) out.push(path + ": viewport " + doc.documentElement.clientWidth);
  for (const [index, figure] of [...doc.querySelectorAll("figure.chart")].entries()) {
    const shown = [...figure.querySelectorAll("svg")].filter(svg => win.getComputedStyle(svg).display !== "none" && svg.getBoundingClientRect().width > 0);
    if (shown.length !== 1) { out.push(path + " chart " + index + ": " + shown.length + " drawings shown"); continue; }
    const svg = shown[0], scale = svg.getScreenCTM().a;
    charts++;
    for (const text of svg.querySelectorAll("text")) {
      const size = parseFloat(win.getComputedStyle(text).fontSize) * scale;
      smallest = Math.min(smallest, size);
      if (size < 10.95) { out.push(path + " chart " + index + " (" + svg.getAttribute("class") + "): text '" + text.textContent + "' at " + size.toFixed(1) + " px"); break; }
    }
    const keys = [...svg.querySelectorAll(".legend text")].map(t => t.textContent.trim()).filter(Boolean);
    if (keys.length) legends++; else out.push(path + " chart " + index + ": no legend");
  }
  // The summary's days table and a day's workouts table become stacked cards, and the page
  // does not scroll sideways.
  const tables = [...doc.querySelectorAll("table.days, table.workouts")];
  for (const table of tables) {
    const row = table.querySelector("tbody tr");
    if (table.classList.contains("workouts")) workouts++;
    if (row && win.getComputedStyle(row).display !== "block") out.push(path + ": the " + table.className + " table does not stack");
  }
  if (tables.length && doc.documentElement.scrollWidth > doc.documentElement.clientWidth + 1) out.push(path + ": the page scrolls sideways (" + doc.documentElement.scrollWidth + " px)");
}
(async () => {
  for (const path of pages) {
    await new Promise(done => { frame.onload = done; frame.src = "history-public/" + path; });
    try { measure(path); } catch (error) { out.push(path + ": " + error); }
  }
  document.getElementById("measured").textContent = "pages=" + pages.length + " charts=" + charts + " legends=" + legends + " workouts=" + workouts
    + " smallest=" + (smallest === Infinity ? "none" : smallest.toFixed(1)) + "\n" + out.join("\n");
})();
JS
  echo '</script></body></html>'
} >"$WORK/chart-probe.html"
runs=$((runs + 1))
timeout 180 "${CHROME[@]}" --user-data-dir="$WORK/profile-$runs" --allow-file-access-from-files --window-size=800,1000 --virtual-time-budget=120000 \
  --dump-dom "file://$WORK/chart-probe.html" >"$WORK/chart-probe.dom" 2>>"$WORK/chromium.log" || true
sed -n '/<pre id="measured">/,/<\/pre>/p' "$WORK/chart-probe.dom" | sed -e 's/.*<pre id="measured">//' -e 's/<\/pre>.*//' >"$WORK/chart-probe.measured"
summary_line="$(head -1 "$WORK/chart-probe.measured")"
problems="$(tail -n +2 "$WORK/chart-probe.measured" | grep -c . || true)"
for kind in 'summary/index.html' 'summary/2026-03-29.html' '^index.html' '^apps/[a-z0-9-]*/index.html' '^rules/'; do
  grep -q "$kind" <<<"$chart_pages" || fail "no chart page matching '$kind' to measure"
done
case "$summary_line" in
  "pages=0 "*|"") fail "charts at 390 px: nothing measured ('$summary_line')" ;;
  *" charts=0 "*) fail "charts at 390 px: no chart shown ('$summary_line')" ;;
  *" workouts=0 "*) fail "charts at 390 px: no day's workouts table measured ('$summary_line')" ;;
  *) if [ "$problems" -eq 0 ]; then pass "charts at 390 px: $summary_line; text ≥ 11 px, one drawing and a legend each, days and workouts tables stacked"
     else fail "charts at 390 px ($summary_line): $problems problems"; tail -n +2 "$WORK/chart-probe.measured" | head -20 | sed 's/^/  /' >&2; fi ;;
esac
for app in $apps; do
  [ -f "$HOUT/apps/$app/summary/index.html" ] && shot "file://$HOUT/apps/$app/summary/index.html" "$SHOTS/summary-$app-390.png" 390
done
shot "file://$HOUT/apps/veloride/summary/2026-03-29.html" "$SHOTS/day-veloride-390.png" 390
shot "file://$HOUT/index.html" "$SHOTS/history-index-390.png" 390

echo "screenshots:"
ls -1 "$SHOTS"/*.png | sed 's/^/  /'
echo "browser: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
