"""In-page probes shared by the benchmarks (online and offline)."""

# every main-thread task of 50 ms or more, from the start of the page
LONGTASK_OBSERVER = """
window.__longtasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    window.__longtasks.push({start: entry.startTime, duration: entry.duration});
  }
}).observe({type: "longtask", buffered: true});
"""

# one click on the first helper's "Würfeln" until its result is painted
CLICK_TIMER = """
() => new Promise((resolve) => {
  const helper = document.querySelector(".rw-helper");
  const started = performance.now();
  helper.addEventListener("regelwerk:result", () => {
    requestAnimationFrame(() => resolve(performance.now() - started));
  }, {once: true});
  helper.querySelector(".rw-submit").click();
})
"""
