// Opens a versus HTML report in real headless Chromium and checks what a
// reader would see: no console errors or script dialogs, one chart series per
// implementation, every failed cell marked, hostile strings shown as text,
// chart titles wrapped rather than cut, text columns left-aligned and figures
// right-aligned, and chart text that neither overlaps nor shrinks below 9 px
// at 1280 and 400 pixels wide.
//
//   node check-report.mjs REPORT.html RESULTS.json [SCREENSHOT.png]
//
// With SCREENSHOT.png, the top of the first relative-speed chart is saved
// at each width as SCREENSHOT-1280.png and SCREENSHOT-400.png.
//
// Prints "N passed, M failed" and exits non-zero on any failure.
import { readFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

const [reportPath, resultsPath, screenshot] = process.argv.slice(2);
if (!reportPath || !resultsPath) {
  console.error("usage: node check-report.mjs REPORT.html RESULTS.json [SCREENSHOT.png]");
  process.exit(2);
}
const results = JSON.parse(readFileSync(resultsPath, "utf8"));
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
// A fresh profile folder each time (Playwright passes it as --user-data-dir).
const browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "versus-chromium-")), {
  executablePath,
  headless: true,
  viewport: { width: 1200, height: 900 },
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
let passed = 0;
let failed = 0;
function check(name, ok, detail = "") {
  if (ok) {
    passed++;
    console.log(`ok    ${name}`);
  } else {
    failed++;
    console.log(`FAIL  ${name} ${detail}`);
  }
}
try {
  const page = await browser.newPage();
  const errors = [];
  const dialogs = [];
  const requests = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("dialog", async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  page.on("request", (r) => r.url().startsWith("file:") || requests.push(r.url()));
  await page.goto("file://" + resolve(reportPath), { waitUntil: "load" });

  check("no console errors", errors.length === 0, JSON.stringify(errors));
  check("no script dialog (nothing from the suite ran as code)", dialogs.length === 0, JSON.stringify(dialogs));
  check("no network requests (self-contained)", requests.length === 0, JSON.stringify(requests));

  const text = await page.evaluate(() => document.body.innerText);
  const names = [...new Set(results.cells.map((c) => c.implementation))];
  for (const name of names) {
    check(`implementation name shown as text: ${name}`, text.includes(name));
  }
  check("no element injected by a suite string", (await page.locator("main img, main script, main b, main i").count()) === 0);

  const scaling = page.locator("figure.scaling");
  const charts = await scaling.count();
  check("a scaling chart per operation subset", charts > 0, `found ${charts}`);
  for (let i = 0; i < charts; i++) {
    const fig = scaling.nth(i);
    const expected = Number(await fig.getAttribute("data-series"));
    const legend = (await fig.locator("svg text").allTextContents()).map((t) => t.trim());
    const drawn = names.filter((n) => legend.includes(n)).length;
    check(`scaling chart ${i + 1}: one series per implementation with results`, drawn === expected, `legend ${drawn}, expected ${expected}`);
  }
  const notOk = results.cells.filter((c) => c.outcome !== "ok" && c.outcome !== "skipped");
  if (notOk.length > 0) {
    const svgText = (await page.locator("figure.scaling svg text").allTextContents()).join("\n");
    const labels = { failed: "FAILED", timeout: "TIMEOUT", out_of_memory: "OOM", wrong_output: "WRONG OUTPUT" };
    for (const c of notOk) {
      check(`failed cell marked on the chart: ${c.id}`, svgText.includes(`${c.implementation} ${labels[c.outcome]}`));
    }
  }
  // The summary grid comes first: a row per implementation compared with the
  // baseline, each cell coloured by its verdict, failed cells by their outcome.
  const baseline = results.suite.baseline;
  const compared = names.filter((n) => n !== baseline);
  const summaryRows = page.locator("section#summary table.summary tbody tr");
  check("summary grid: a row per compared implementation", (await summaryRows.count()) === compared.length, `rows ${await summaryRows.count()}, expected ${compared.length}`);
  const slower = results.comparisons.filter((c) => c.verdict === "slower").length;
  check("summary grid: every slower verdict marked", (await page.locator("table.summary td.slower").count()) === slower);
  check("summary grid: every failed cell marked", (await page.locator("table.summary td.not_ok").count()) === notOk.length);
  check("relative-speed chart present", (await page.locator("figure.relative svg").count()) > 0);
  check("run strips present", (await page.locator("figure.distribution svg").count()) > 0);
  check("environment table present", text.includes("Environment") && text.includes(results.environment.cpu_model));

  // Chart titles are whole: wrapped onto more lines when long, never cut
  // with "…"; the operation and every fixed parameter value are in them.
  const params = Object.keys(results.matrix).filter((k) => k !== "size");
  // A chart's title is its largest text (bar and tick labels may be cut to
  // their room; the title may not).
  const titles = await page.evaluate(() =>
    [...document.querySelectorAll("figure.scaling svg, figure.relative svg")].map((svg) => {
      const texts = [...svg.querySelectorAll("text")];
      const size = (t) => parseFloat(getComputedStyle(t).fontSize);
      const largest = Math.max(...texts.map(size));
      return texts
        .filter((t) => size(t) === largest)
        .map((t) => t.textContent.trim())
        .join(" ");
    }),
  );
  const cut = titles.filter((t) => /…/.test(t));
  check("chart titles are not cut", cut.length === 0, cut.slice(0, 3).join(" | "));
  for (const p of params) {
    for (const v of results.matrix[p]) {
      check(`chart titles name ${p}=${String(v).slice(0, 40)} whole`, titles.some((t) => t.includes(`${p}=${v}`)));
    }
  }
  // Text columns read from the left, figures line up on the right.
  const aligned = await page.evaluate(() => ({
    text: [...document.querySelectorAll("#implementations td, #environment td")].map((td) => getComputedStyle(td).textAlign),
    figures: [...document.querySelectorAll("section.operation table td")].map((td) => getComputedStyle(td).textAlign),
  }));
  check("text columns are left-aligned", aligned.text.length > 0 && aligned.text.every((a) => a === "left" || a === "start"), JSON.stringify(aligned.text));
  check("figure columns are right-aligned", aligned.figures.length > 0 && aligned.figures.every((a) => a === "right" || a === "end"), JSON.stringify([...new Set(aligned.figures)]));

  // Chart text at a desktop width and a phone's: tick labels and other text
  // in one chart must not overlap, and text must stay readable (>= 9 px).
  await page.evaluate(() => document.querySelectorAll("details").forEach((d) => (d.open = true)));
  for (const width of [1280, 400]) {
    await page.setViewportSize({ width, height: 900 });
    const charts = await page.evaluate(() =>
      [...document.querySelectorAll("figure.chart svg")].map((svg) => {
        const texts = [...svg.querySelectorAll("text")]
          .filter((t) => t.textContent.trim() !== "")
          .map((t) => {
            const r = t.getBoundingClientRect();
            const scale = svg.getScreenCTM().a;
            const size = parseFloat(getComputedStyle(t).fontSize) * scale;
            return { text: t.textContent.trim(), x: r.left, y: r.top, w: r.width, h: r.height, size };
          });
        return { kind: svg.closest("figure").className, texts };
      }),
    );
    const overlaps = [];
    let smallest = Infinity;
    let smallestText = "";
    for (const [i, c] of charts.entries()) {
      for (const t of c.texts) {
        if (t.size < smallest) [smallest, smallestText] = [t.size, `${c.kind} #${i}: ${t.text}`];
      }
      for (let a = 0; a < c.texts.length; a++) {
        for (let b = a + 1; b < c.texts.length; b++) {
          const [p, q] = [c.texts[a], c.texts[b]];
          // Glyph boxes include some leading; overlap means more than a pixel each way.
          const dx = Math.min(p.x + p.w, q.x + q.w) - Math.max(p.x, q.x);
          const dy = Math.min(p.y + p.h, q.y + q.h) - Math.max(p.y, q.y);
          if (dx > 1 && dy > 1) overlaps.push(`${c.kind} #${i}: "${p.text}" / "${q.text}"`);
        }
      }
    }
    check(`${width}px: ${charts.length} charts, no two texts in a chart overlap`, charts.length > 0 && overlaps.length === 0, overlaps.slice(0, 8).join("; "));
    check(`${width}px: chart text at least 9 px`, smallest >= 9, `${smallest.toFixed(1)} px: ${smallestText}`);
    const ticks = await page.evaluate(() => [...document.querySelectorAll("figure.relative svg text")].map((t) => t.textContent.trim()).filter((t) => /^[0-9.]+×$/.test(t)));
    check(`${width}px: relative charts label 1× and more ticks`, ticks.includes("1×") && new Set(ticks).size >= 3, JSON.stringify(ticks));
    if (screenshot) {
      await page.evaluate(() => document.querySelector("figure.chart").scrollIntoView());
      await page.screenshot({ path: screenshot.replace(/\.png$/, `-${width}.png`), fullPage: false });
    }
  }

  await page.setViewportSize({ width: 380, height: 800 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check("readable in a narrow window (no page-wide horizontal scroll)", overflow <= 1, `overflow ${overflow}px`);
} finally {
  await browser.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
