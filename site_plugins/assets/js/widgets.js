// Regelwerk – widgets.js: the registry of custom widgets (on every page, so a site's own script
// can register one before the helpers' code has loaded).
//
// A helper whose block names `widget: <name>` is set up by the function registered under that
// name, as function(helper, api) – api is the facade window.Regelwerk (bundle.js). page.js sets
// the helpers up and asks here; a widget registered after the page was set up is set up at
// once (whenRegistered: page.js's way to hear of it).

const WIDGETS = new Map();
let registered = null;

export function registerWidget(name, setupWidget) {
  WIDGETS.set(name, setupWidget);
  if (registered) registered();
}

export function widgetOf(name) {
  return WIDGETS.get(name);
}

export function whenRegistered(callback) {
  registered = callback;
}
