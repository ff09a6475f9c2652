// The report page: build the PDF of the report or of the letters on the server, show how far
// it is, and download it when ready. Plain ES module; texts come from the page's catalogue.
const catalogue = JSON.parse(document.getElementById("messages").textContent);
const t = (key, vars = {}) =>
  (catalogue[key] || key).replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(vars, name) ? String(vars[name]) : whole,
  );
const status = document.getElementById("job-status");
const bar = document.getElementById("job-progress");
const POLL_MS = 500;

async function start(kind) {
  const body = new FormData();
  body.set("kind", kind);
  body.set("csrf", catalogue.csrf);
  const answer = await fetch(catalogue.jobs, { method: "POST", body, credentials: "same-origin" });
  const reply = await answer.json();
  if (!reply.ok) {
    status.textContent = t("report.job.failed", { error: reply.error.message });
    return;
  }
  follow(reply.job.id);
}

async function follow(id) {
  bar.hidden = false;
  for (;;) {
    const answer = await fetch(`${catalogue.jobs}/${encodeURIComponent(id)}`, {
      credentials: "same-origin",
    });
    const reply = await answer.json();
    if (!reply.ok) {
      status.textContent = t("report.job.failed", { error: reply.error.message });
      return;
    }
    const job = reply.job;
    bar.max = Math.max(job.total, 1);
    bar.value = job.done;
    status.dataset.state = job.state;
    if (job.state === "done") {
      status.textContent = t("report.job.done");
      const link = document.createElement("a");
      link.href = job.file;
      link.className = "job-file";
      link.textContent = "PDF";
      link.download = "";
      status.append(" ", link);
      link.click();
      return;
    }
    if (job.state === "failed") {
      status.textContent = t("report.job.failed", { error: job.error || "" });
      return;
    }
    status.textContent = t("report.job.running", { done: job.done, total: job.total || "…" });
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

for (const button of document.querySelectorAll("button.job")) {
  button.addEventListener("click", () => start(button.dataset.kind));
}

// A table wider than the phone scrolls inside itself: then it takes the focus, so that it can
// be scrolled from the keyboard too (axe's scrollable-region-focusable). Checked again when
// the width or sun mode's larger type changes what overflows.
function focusableScrollers() {
  for (const node of document.querySelectorAll("table, .wide")) {
    const scrolls = node.scrollWidth > node.clientWidth + 1;
    if (scrolls) node.setAttribute("tabindex", "0");
    else node.removeAttribute("tabindex");
  }
}
focusableScrollers();
window.addEventListener("resize", focusableScrollers);
new MutationObserver(focusableScrollers).observe(document.documentElement, {
  attributes: true,
  attributeFilter: ["class"],
});
