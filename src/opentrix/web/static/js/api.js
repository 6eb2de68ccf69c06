// Small helpers for the JSON API and the page.

export async function api(path, body) {
  const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(path, init);
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) throw new Error((data && (data.error || data.detail)) || `HTTP ${res.status}`);
  return data;
}

let toastTimer = null;
export function toast(text, ms = 3500) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, ms);
}

export function navigate(path) {
  history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

/** Seat tokens live in localStorage, one per table: whoever holds one owns that seat. */
export function savedSeat(code) {
  try { return JSON.parse(localStorage.getItem(`opentrix:seat:${code}`) || "null"); } catch { return null; }
}
export function saveSeat(code, seat, token) {
  localStorage.setItem(`opentrix:seat:${code}`, JSON.stringify({ seat, token }));
}
