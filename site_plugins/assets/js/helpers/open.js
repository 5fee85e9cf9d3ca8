// Regelwerk – open.js: a helper brought into view – its content tab opened first (on a
// Kampfhelfer page most helpers sit in tabs; a helper in a closed tab has no place on the page
// to scroll to). Used by the fight's follow-ups and „Zum Würfeln“ and by a shared roll opened
// from the address.

function tabOf(helper) {
  const block = helper.closest(".tabbed-block");
  if (!block) return null;
  const set = block.closest(".tabbed-set");
  const index = [...block.parentElement.children].indexOf(block);
  return set.querySelectorAll(":scope > .tabbed-labels > label")[index] || null;
}

export function openHelper(helper) {
  const tab = tabOf(helper);
  if (tab) tab.click();
  helper.scrollIntoView({ block: "start" });
}
