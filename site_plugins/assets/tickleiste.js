// Ryssea Tickleiste widget: the engine applies each command to the state the browser keeps.
// The state (and the last shown result) lives in localStorage, so a reload or a closed tab
// loses nothing; it can be exported and imported as JSON. A classic script (file:// too).
(function () {
  "use strict";
  const STORAGE_PREFIX = "regelwerk:tickleiste:";

  function storageKey(helper) {
    return STORAGE_PREFIX + (helper.dataset.storage || "ryssea");
  }

  function load(helper) {
    try {
      const saved = JSON.parse(localStorage.getItem(storageKey(helper)) || "null");
      return saved && typeof saved === "object" ? saved : null;
    } catch (error) {
      return null;
    }
  }

  function save(helper, saved) {
    try {
      localStorage.setItem(storageKey(helper), JSON.stringify(saved));
    } catch (error) {
      // storage full or forbidden: the board still works for this visit
    }
  }

  function fieldsOf(container) {
    const params = {};
    if (!container) return params;
    container.querySelectorAll("[data-path][data-type]").forEach((input) => {
      if (input.dataset.type === "seed") return;
      params[input.dataset.path] = input.dataset.type === "bool" ? input.checked : input.value;
    });
    return params;
  }

  function fillFighters(helper, saved) {
    const select = helper.querySelector("select[data-path='fighter']");
    const previous = select.value;
    const fighters = (saved && saved.state && saved.state.fighters) || [];
    const onLine = fighters
      .filter((f) => f.status === "aktiv")
      .sort((a, b) => a.tick - b.tick || a.order - b.order);
    const others = fighters.filter((f) => f.status !== "aktiv");
    const options = [...onLine, ...others].map((f) => {
      const option = document.createElement("option");
      option.value = f.name;
      option.textContent = f.status === "aktiv" ? `${f.name} (Tick ${String(f.tick).replace("-", "−")})` : `${f.name} (wartet)`;
      return option;
    });
    select.replaceChildren(...options);
    // after each command the next actor is preselected; otherwise keep the user's choice
    const next = saved && saved.next;
    const keep = next || previous;
    if (keep && [...select.options].some((o) => o.value === keep)) select.value = keep;
  }

  function show(helper, api, saved) {
    const result = helper.querySelector(".rw-result");
    if (saved && saved.body) {
      result.replaceChildren(...api.resultNodes(saved.body));
    } else {
      result.replaceChildren(api.el("p", "rw-help", "Noch keine Kämpfer auf der Tickleiste."));
    }
    fillFighters(helper, saved);
  }

  function setMessage(helper, api, text, isError) {
    const result = helper.querySelector(".rw-result");
    const box = api.el("p", isError ? "rw-error" : "rw-help", text);
    if (isError) box.setAttribute("role", "alert");
    result.prepend(box);
  }

  async function send(helper, api, command, params, stateOverride) {
    api.clearErrors(helper);
    const saved = load(helper);
    const seedInput = helper.querySelector("[data-type='seed']");
    const seedText = seedInput ? seedInput.value.trim() : "";
    const request = {
      system: helper.dataset.system,
      action: helper.dataset.action,
      params: {
        ...params,
        command,
        state: stateOverride !== undefined ? stateOverride : (saved && saved.state) || {},
      },
      seed: seedText === "" ? api.newSeed() : seedText,
    };
    let body;
    try {
      body = await api.runEngine(request);
    } catch (error) {
      api.showError(helper, { field: "", message: `Tickleiste nicht erreichbar: ${error.message}` });
      return null;
    }
    if (!helper.isConnected) return null;
    if (!body.ok) {
      api.showError(helper, body.error);
      return null;
    }
    const next = { state: body.result.state, next: body.result.next, body };
    save(helper, next);
    show(helper, api, next);
    if (body.result.event) {
      api.logRoll("Tickleiste", { ...body, result: { display: { outcome: body.result.event } } }, () =>
        send(helper, api, command, params, request.params.state),
      );
    }
    helper.dispatchEvent(new CustomEvent("regelwerk:result", { detail: body, bubbles: true }));
    return body;
  }

  function download(helper) {
    const saved = load(helper);
    const state = (saved && saved.state) || {};
    const blob = new Blob([JSON.stringify(state, null, 2)], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "tickleiste.json";
    document.body.appendChild(link);
    link.click();
    setTimeout(() => {
      URL.revokeObjectURL(link.href);
      link.remove();
    }, 0);
  }

  function tickleiste(helper, api) {
    const form = helper.querySelector(".rw-form");
    show(helper, api, load(helper));
    form.addEventListener("submit", (event) => {
      // Enter (or the "Kämpfer hinzufügen" button) runs the command of the fieldset in focus.
      event.preventDefault();
      const active = document.activeElement;
      const fieldset =
        (active && active.closest && active.closest("fieldset[data-command-default]")) ||
        form.querySelector("fieldset[data-command-default]");
      const command = fieldset.dataset.commandDefault;
      send(helper, api, command, fieldsOf(fieldset)).then((body) => {
        if (body && command === "hinzufuegen") {
          const name = form.querySelector("[data-path='name']");
          name.value = "";
          name.focus();
        }
      });
    });
    form.addEventListener("click", (event) => {
      const button = event.target.closest("button.rw-command[type=button]");
      if (!button) return;
      send(helper, api, button.dataset.command, fieldsOf(button.closest("fieldset")));
    });
    helper.querySelector(".rw-tl-export").addEventListener("click", () => download(helper));
    helper.querySelector(".rw-tl-reset").addEventListener("click", () => {
      if (!window.confirm("Tickleiste wirklich zurücksetzen? Alle Kämpfer werden entfernt.")) return;
      try {
        localStorage.removeItem(storageKey(helper));
      } catch (error) {
        // nothing stored
      }
      show(helper, api, null);
      setMessage(helper, api, "Die Tickleiste ist leer.", false);
    });
    helper.querySelector(".rw-tl-import").addEventListener("change", async (event) => {
      const file = event.target.files && event.target.files[0];
      event.target.value = "";
      if (!file) return;
      let state;
      try {
        state = JSON.parse(await file.text());
      } catch (error) {
        setMessage(helper, api, `Import nicht möglich: „${file.name}“ ist kein gültiges JSON.`, true);
        return;
      }
      const body = await send(helper, api, "anzeigen", {}, state);
      if (body) setMessage(helper, api, `Tickleiste aus „${file.name}“ geladen.`, false);
    });
  }

  window.RegelwerkWidgets = window.RegelwerkWidgets || {};
  window.RegelwerkWidgets.tickleiste = tickleiste;
  if (window.Regelwerk) window.Regelwerk.refresh();
})();
