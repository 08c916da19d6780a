// Walks a `versus site` folder in real headless Chromium as a reader would,
// from disk: index → suite → cell → run report, breadth first (every suite
// page, the first 20 cell pages and 10 reports reached), checking every
// link of every page opened. Checks that every link resolves to a file of the site,
// that no page asks for anything outside the folder (no network), that no
// page logs an error or opens a dialog, that every chart has points drawn,
// and that a walk reaches at least one page of each kind.
//
//   node check-site.mjs SITE_DIR [SCREENSHOT_PREFIX]
//
// With SCREENSHOT_PREFIX, the first index, suite, cell and report pages are
// saved as PREFIX-index.png, PREFIX-suite.png, PREFIX-cell.png and
// PREFIX-report.png (1280 px wide, the top of the page).
//
// Prints "N passed, M failed" and exits non-zero on any failure.
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const [siteDir, shots] = process.argv.slice(2);
if (!siteDir) {
  console.error("usage: node check-site.mjs SITE_DIR [SCREENSHOT_PREFIX]");
  process.exit(2);
}
const root = resolve(siteDir);
let passed = 0;
let failed = 0;
function check(name, ok, detail = "") {
  if (ok) {
    passed++;
  } else {
    failed++;
    console.log(`FAIL ${name}${detail ? `: ${detail}` : ""}`);
  }
}

/// The kind of a site page, from its path inside the site.
function kind(rel) {
  if (rel === "index.html") return "index";
  if (rel.startsWith("reports/")) return "report";
  if (/^suites\/[^/]+\/index\.html$/.test(rel)) return "suite";
  if (rel.startsWith("suites/")) return "cell";
  return "other";
}

const profile = mkdtempSync(join(tmpdir(), "versus-chromium-"));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1280, height: 900 },
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
// Pages opened of each kind; the links of every page opened are all checked.
const caps = { index: 1, suite: 50, cell: 20, report: 10, other: 20 };
const seen = new Set(["index.html"]);
const queue = ["index.html"];
const kinds = {};
let largestReport = 0;
const shot = {};
try {
  const page = browser.pages()[0] ?? (await browser.newPage());
  const outside = [];
  const errors = [];
  page.on("request", (r) => {
    const u = r.url();
    if (!u.startsWith("file://") && !u.startsWith("data:") && !u.startsWith("about:")) outside.push(u);
  });
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("dialog", (d) => {
    errors.push(`dialog: ${d.message()}`);
    d.dismiss();
  });
  let visited = 0;
  while (queue.length > 0) {
    const rel = queue.shift();
    const file = join(root, rel);
    const k = kind(rel);
    if ((kinds[k] || 0) >= caps[k]) continue;
    kinds[k] = (kinds[k] || 0) + 1;
    visited++;
    outside.length = 0;
    errors.length = 0;
    await page.goto(pathToFileURL(file).href);
    check(`${rel}: nothing fetched from outside the folder`, outside.length === 0, outside.slice(0, 3).join(", "));
    check(`${rel}: no error logged, no dialog`, errors.length === 0, errors.slice(0, 3).join("; "));
    // Every page stays under 2 MB, a run's report too (it draws at most
    // 800 KB of per-cell run strips; docs/results/site-scale.md measures
    // it at 1,000 cells).
    const size = statSync(file).size;
    if (k === "report") largestReport = Math.max(largestReport, size);
    check(`${rel}: under 2 MB`, size < 2 * 1000 * 1000, `${size} bytes`);
    // Every chart has something drawn: marks or lines, not only axes.
    const empty = await page.evaluate(() =>
      [...document.querySelectorAll("svg")]
        .filter((s) => s.getBoundingClientRect().width > 120)
        .filter((s) => s.querySelectorAll("circle, polyline, path[d*='L'], rect.point, line.point").length === 0)
        .map((s) => s.getAttribute("aria-label") || s.querySelector("title")?.textContent || "(untitled chart)"),
    );
    check(`${rel}: every chart has points`, empty.length === 0, empty.slice(0, 3).join("; "));
    if (shots && !shot[k] && k !== "other") {
      shot[k] = true;
      await page.screenshot({ path: `${shots}-${k}.png` });
    }
    const links = await page.evaluate(() => [...document.querySelectorAll("a[href]")].map((a) => a.getAttribute("href")));
    for (const href of links) {
      if (/^[a-z]+:/i.test(href) || href.startsWith("#") || href.startsWith("//")) {
        check(`${rel}: link ${href} stays in the site`, !/^https?:|^\/\//i.test(href), href);
        continue;
      }
      const target = resolve(dirname(file), decodeURIComponent(href.split("#")[0].split("?")[0]));
      const inside = target === root || target.startsWith(root + "/");
      check(`${rel}: link ${href} resolves inside the site`, inside && existsSync(target), target);
      if (!inside || !existsSync(target) || !target.endsWith(".html")) continue;
      const next = target.slice(root.length + 1);
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  for (const k of ["index", "suite", "cell", "report"]) {
    check(`the walk reached a ${k} page`, (kinds[k] || 0) > 0, JSON.stringify(kinds));
  }
  console.log(`walked ${visited} pages (${JSON.stringify(kinds)}), ${seen.size} found; largest report opened ${largestReport} bytes`);
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
