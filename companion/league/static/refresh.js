// The board updates itself (a TV shows it all evening), and anyone can pause that: a page
// that reloads on its own must let people stop it (WCAG 2.2.1), which a meta refresh cannot.
(() => {
  const seconds = Number(document.currentScript.dataset.seconds) || 30;
  const KEY = "league-updates-paused";
  let timer = null;

  function show() {
    const paused = sessionStorage.getItem(KEY) === "1";
    const button = document.getElementById("refresh-toggle");
    const note = document.getElementById("refresh-note");
    if (button) button.textContent = paused ? "Resume updates" : "Pause updates";
    if (note) note.textContent = paused ? "Updates are paused." : `This page updates every ${seconds} s.`;
    clearTimeout(timer);
    if (!paused) timer = setTimeout(() => location.reload(), seconds * 1000);
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.getElementById("refresh-toggle")?.addEventListener("click", () => {
      sessionStorage.setItem(KEY, sessionStorage.getItem(KEY) === "1" ? "0" : "1");
      show();
    });
    show();
  });
})();
