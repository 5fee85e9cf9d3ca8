// Regelwerk – log.js: the page roll log („Wurfprotokoll dieser Seite“).
//
// Owns: one log per page, created at the end of the article on the first roll (helpers and
// dice buttons); newest entry first, at most 50; each entry has a „Wiederholen“ button that
// rolls it again from its seed (the caller passes that replay function).

// One log per page (helpers and dice buttons); each entry can be rolled again from its seed.

import { el } from "./util.js";

function pageLog() {
  let log = document.getElementById("rw-page-log");
  if (log) return log;
  const article = document.querySelector("article.md-content__inner") || document.body;
  log = el("details", "rw-page-log");
  log.id = "rw-page-log";
  log.open = true;
  const summary = el("summary", "", "Wurfprotokoll dieser Seite");
  const list = el("ol", "rw-page-log-list");
  list.setAttribute("aria-live", "off");
  log.append(summary, el("p", "rw-help", "Jeder Wurf mit seiner Wurfnummer – „Wiederholen“ würfelt ihn mit derselben Nummer noch einmal."), list);
  article.appendChild(log);
  return log;
}

export function logRoll(label, body, replay) {
  const list = pageLog().querySelector("ol");
  const li = el("li", "");
  li.appendChild(el("span", "rw-log-label", `${label}: `));
  li.appendChild(el("span", "", `${body.result.display.outcome} `));
  li.appendChild(el("span", "rw-log-seed", `(Wurfnummer ${body.seed}) `));
  const again = el("button", "rw-repeat md-button", "Wiederholen");
  again.type = "button";
  again.setAttribute("aria-label", `${label} mit Wurfnummer ${body.seed} wiederholen`);
  again.addEventListener("click", replay);
  li.appendChild(again);
  list.insertBefore(li, list.firstChild);
  while (list.children.length > 50) list.removeChild(list.lastChild);
}
