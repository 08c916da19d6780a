// Opens a versus HTML report in real headless Chromium and checks what a
// reader would see: no console errors or script dialogs, one chart series per
// implementation, every failed cell marked, hostile strings shown as text,
// chart titles wrapped rather than cut, text columns left-aligned and figures
// right-aligned, chart text that neither overlaps nor shrinks below 9 px
// at 1280 and 400 pixels wide, legends that cover no plotted point and name
// every outcome crossed, and no table that scrolls sideways at 1400 pixels.
//
//   node check-report.mjs REPORT.html RESULTS.json [SCREENSHOT.png]
//
// With SCREENSHOT.png, the top of the first relative-speed chart is saved
// at each width as SCREENSHOT-1280.png and SCREENSHOT-400.png.
//
// Prints "N passed, M failed" and exits non-zero on any failure.
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
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
// A fresh profile folder each time (Playwright passes it as --user-data-dir),
// removed when the browser closes.
const profile = mkdtempSync(join(tmpdir(), "versus-chromium-"));
const browser = await chromium.launchPersistentContext(profile, {
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
  // baseline in each operation (and combination of the other parameters),
  // each cell coloured by its verdict, failed and skipped cells by their outcome.
  const baseline = results.suite.baseline;
  const compared = names.filter((n) => n !== baseline);
  const groups = new Set(results.cells.map((c) => JSON.stringify([c.operation, Object.entries(c.params).filter(([k]) => k !== "size")])));
  const summaryRows = page.locator("section#summary table.summary tbody tr");
  const expectedRows = compared.length * groups.size;
  check("summary grid: a row per compared implementation and operation", (await summaryRows.count()) === expectedRows, `rows ${await summaryRows.count()}, expected ${expectedRows}`);
  const slower = results.comparisons.filter((c) => c.verdict === "slower").length;
  check("summary grid: every slower verdict marked", (await page.locator("table.summary td.slower").count()) === slower);
  const unfinished = results.cells.filter((c) => c.outcome !== "ok" && c.implementation !== baseline).length;
  check("summary grid: every failed or skipped cell marked", (await page.locator("section#summary table.summary td.not_ok").count()) === unfinished, `${await page.locator("section#summary table.summary td.not_ok").count()} marked, ${unfinished} expected`);
  check("relative-speed chart present", (await page.locator("figure.relative svg").count()) > 0);
  check("run strips present", (await page.locator("figure.distribution svg").count()) > 0);
  // The lead comes first: at 1400 x 900 the headline and the first compact
  // table start on the first screen; the record of the run waits, collapsed,
  // in the appendix, and opening it shows the environment.
  await page.setViewportSize({ width: 1400, height: 900 });
  const lead = await page.evaluate(() => {
    const top = (sel) => document.querySelector(sel)?.getBoundingClientRect().top ?? Infinity;
    return { headline: top("#headline"), medians: top("#medians-first table"), appendix: document.querySelector("#appendix")?.open };
  });
  await page.setViewportSize({ width: 1200, height: 900 });
  check("first screen at 1400 x 900: the headline and a compact table start on it", lead.headline < 900 && lead.medians < 900, JSON.stringify(lead));
  check("the appendix starts collapsed", lead.appendix === false, JSON.stringify(lead));
  await page.evaluate(() => (document.querySelector("#appendix").open = true));
  const opened = await page.evaluate(() => document.body.innerText);
  check("environment table present", opened.includes("Environment") && opened.includes(results.environment.cpu_model));

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

  // Legends sit outside the plot: no drawn shape outside a legend (its
  // points, or any point along its lines, by the browser's own layout) lies
  // inside the legend's box; and each outcome crossed on a chart is named in its legend.
  const legends = await page.evaluate((names) =>
    [...document.querySelectorAll("figure.scaling svg, figure.relative svg")].map((svg) => {
      const group = svg.querySelector("g.legend");
      // Without a legend group, the legend is the smallest framed box around
      // the names of the implementations (as charts drew it over the plot).
      const centre = (r) => [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
      const holds = (r, [x, y]) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
      const named = [...svg.querySelectorAll("text")].filter((t) => names.includes(t.textContent.trim())).map((t) => centre(t.getBoundingClientRect()));
      const framed = [...svg.querySelectorAll("rect")].slice(1).map((r) => r.getBoundingClientRect()).filter((r) => named.length > 0 && named.every((c) => holds(r, c)));
      framed.sort((a, b) => a.width * a.height - b.width * b.height);
      const box = group ? group.getBoundingClientRect() : framed[0];
      if (!box) return { missing: true };
      const inLegend = (e) => (group ? group.contains(e) : [[e.getBoundingClientRect().left, e.getBoundingClientRect().top], [e.getBoundingClientRect().right, e.getBoundingClientRect().bottom]].every((c) => holds(box, c)));
      const hits = [];
      const within = (x, y) => x > box.left + 1 && x < box.right - 1 && y > box.top + 1 && y < box.bottom - 1;
      const shapes = [...svg.querySelectorAll("circle, polyline, polygon, line, rect, path")].filter((e) => !inLegend(e));
      for (const e of shapes.slice(1)) {
        const m = e.getScreenCTM();
        const at = (x, y) => new DOMPoint(x, y).matrixTransform(m);
        let pts;
        if (e.points) pts = [...e.points].map((p) => at(p.x, p.y));
        else if (e.tagName === "line") pts = [at(e.x1.baseVal.value, e.y1.baseVal.value), at(e.x2.baseVal.value, e.y2.baseVal.value)];
        else {
          const r = e.getBoundingClientRect();
          pts = [new DOMPoint(r.left, r.top), new DOMPoint(r.right, r.top), new DOMPoint(r.right, r.bottom), new DOMPoint(r.left, r.bottom), new DOMPoint(r.left, r.top)];
        }
        for (let k = 0; k < pts.length; k++) {
          const [a, b] = [pts[k], pts[Math.min(k + 1, pts.length - 1)]];
          const steps = Math.max(1, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y)));
          for (let s = 0; s <= steps; s++) {
            const [x, y] = [a.x + ((b.x - a.x) * s) / steps, a.y + ((b.y - a.y) * s) / steps];
            if (within(x, y)) {
              hits.push(`${e.tagName} at ${Math.round(x)},${Math.round(y)}`);
              s = steps;
              k = pts.length;
            }
          }
        }
      }
      const words = [...svg.querySelectorAll("text")].filter((t) => inLegend(t)).map((t) => t.textContent.trim());
      const marked = [...svg.querySelectorAll("text")].filter((t) => !inLegend(t)).map((t) => t.textContent.trim());
      return { group: !!group, hits, words, marked };
    }),
    names,
  );
  check("every chart has a legend group", legends.every((l) => l.group), `${legends.filter((l) => !l.group).length} of ${legends.length} without`);
  const covered = legends.flatMap((l, i) => (l.hits || []).map((h) => `chart ${i + 1}: ${h}`));
  check(`no legend lies over a plotted point or line (${legends.length} charts)`, legends.length > 0 && covered.length === 0, covered.slice(0, 5).join("; "));
  const outcomeLabels = ["FAILED", "TIMEOUT", "OOM", "WRONG OUTPUT"];
  const unexplained = legends.flatMap((l, i) =>
    outcomeLabels.filter((o) => (l.marked || []).some((t) => t.endsWith(` ${o}`)) && !(l.words || []).some((w) => w.startsWith(o))).map((o) => `chart ${i + 1}: ${o}`),
  );
  check("every outcome crossed on a chart is named in its legend", unexplained.length === 0, unexplained.join("; "));

  // At 1400 pixels no table hides its right-hand end (where the largest
  // sizes are) behind a horizontal scroll bar.
  await page.setViewportSize({ width: 1400, height: 900 });
  const scrolled = await page.evaluate(() =>
    [...document.querySelectorAll("div.table")].filter((d) => d.scrollWidth > d.clientWidth + 1).map((d) => `${d.querySelector("caption")?.textContent.slice(0, 40)} (${d.scrollWidth - d.clientWidth}px)`),
  );
  check("1400px: no table scrolls sideways", scrolled.length === 0, scrolled.slice(0, 5).join("; "));

  await page.setViewportSize({ width: 380, height: 800 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check("readable in a narrow window (no page-wide horizontal scroll)", overflow <= 1, `overflow ${overflow}px`);
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
