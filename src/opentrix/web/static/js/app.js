// A one-page client: the path picks the screen (front page, table, history, replay).

import { mayLeave } from "./api.js";
import { applyLang, escapeHtml, lang, setLang, t } from "./i18n.js";
import { mountHistory } from "./history.js";
import { mountHome } from "./home.js";
import { mountReplay } from "./replay.js";
import { mountTable } from "./table.js";

const root = document.getElementById("app");
let unmount = null;

let shown = null; // the address of the screen on show

/** The tab's title for the screen on show; a table keeps its own up to date (whose turn it is). */
function screenTitle() {
  const path = location.pathname;
  if (path === "/history") return t("title.page", { page: t("nav.history") });
  if (path.startsWith("/replay")) return t("title.page", { page: t("nav.replay") });
  const m = path.match(/^\/t\/([A-Za-z0-9]+)\/?$/);
  return m ? t("title.table", { code: m[1].toUpperCase() }) : t("title.home");
}

function route() {
  shown = location.pathname + location.search;
  if (unmount) unmount();
  unmount = null;
  root.innerHTML = "";
  document.title = screenTitle();
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/t\/([A-Za-z0-9]+)\/?$/))) unmount = mountTable(root, m[1]);
  else if ((m = path.match(/^\/t\/(.*)$/))) noTable(m[1]); // no code has other characters
  else if (path === "/history") unmount = mountHistory(root);
  else if ((m = path.match(/^\/replay(?:\/([A-Za-z0-9]+))?\/?$/))) unmount = mountReplay(root, m[1] || null);
  else unmount = mountHome(root);
}

function noTable(code) {
  let shown = code;
  try { shown = decodeURIComponent(code); } catch { /* shown as typed */ }
  root.innerHTML = `<div class="page"><div class="panel"><p>${escapeHtml(t("table.none", { code: shown }))}</p>`
    + `<a class="btn" href="/" data-link>${t("nav.new")}</a></div></div>`;
}

document.addEventListener("click", (e) => {
  const a = e.target.closest("a[data-link]");
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || a.target) return;
  e.preventDefault();
  const href = a.getAttribute("href");
  const go = () => { history.pushState(null, "", href); route(); };
  if (mayLeave(go)) go(); // else the screen asked first (a match in play), and goes on if told to
});
// The Back button (a phone's back gesture) asks as a link does: the address has already changed, so
// while the screen asks it shows the screen's own address again, and goes on only if told to.
window.addEventListener("popstate", () => {
  const to = location.pathname + location.search + location.hash;
  if (location.pathname + location.search === shown) { route(); return; }
  const go = () => { history.pushState(null, "", to); route(); };
  if (mayLeave(go)) { route(); return; }
  history.pushState(null, "", shown); // still the screen on show: asking does not change it
});
document.getElementById("lang-toggle").addEventListener("click", () => setLang(lang === "ar" ? "en" : "ar"));
// Before the screens' own listeners (registered when they mount): a table then puts its turn back.
window.addEventListener("langchange", () => { document.title = screenTitle(); });

// The top bar stays above a dialog's shade (its language switch and links at hand): dialogs start below it.
const topbar = document.querySelector(".topbar");
new ResizeObserver(() => document.documentElement.style.setProperty("--topbar-h", `${topbar.offsetHeight}px`)).observe(topbar);

applyLang();
route();
