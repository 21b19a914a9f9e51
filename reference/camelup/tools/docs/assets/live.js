// The live boards: camelup's own engine (the Python package, in Pyodide) running in this page.
// No rule is written here: every board, event and refusal comes from camelup.tools.live, which
// calls apply and legal_actions and draws with the same code as the static diagrams. Pyodide and
// the engine are files of this site (assets/pyodide/, assets/engine/); nothing is fetched from
// elsewhere. The engine starts when the reader asks for it ("Run it live"): some 12 MB, and a
// 25 MB snapshot of it when the site's build could make one (assets/engine/start.json says).
(function () {
  "use strict";
  var sections = document.querySelectorAll("[data-live]");
  if (!sections.length) { return; }
  var base = new URL(document.body.getAttribute("data-root") || "", document.baseURI);
  var engine = null;
  var clausePages = null;

  function asset(path) { return new URL("assets/" + path, base).href; }

  function startEngine() {
    if (!engine) {
      engine = (async function () {
        var start = await (await fetch(asset("engine/start.json"))).json();
        var options = { indexURL: asset("pyodide/") };
        if (start.snapshot) {
          // Pyodide's memory with camelup already imported (made by the site's build).
          options._loadSnapshot = fetch(asset("engine/" + start.snapshot))
            .then(function (response) { return response.arrayBuffer(); });
        }
        var module = await import(asset("pyodide/pyodide.mjs"));
        var pyodide = await module.loadPyodide(options);
        // The files are unpacked even after a snapshot, which keeps memory, not files: a module
        // first imported later must find its source.
        var archive = await fetch(asset("engine/camelup-engine.zip"));
        if (!archive.ok) { throw new Error("the engine's archive did not load: " + archive.status); }
        pyodide.unpackArchive(await archive.arrayBuffer(), "zip", { extractDir: "/engine" });
        pyodide.runPython("import sys\nif '/engine' not in sys.path: sys.path.insert(0, '/engine')");
        return pyodide.pyimport("camelup.tools.live");
      })();
    }
    return engine;
  }

  // Clause ID -> its page, from the search's index (loaded once, as the search loads it).
  function loadClausePages() {
    if (clausePages) { return clausePages; }
    clausePages = new Promise(function (resolve, reject) {
      function done() {
        var pages = {};
        window.camelupSearchIndex.forEach(function (entry) {
          if (entry.kind === "clause") { pages[entry.id] = new URL(entry.href, base).href; }
        });
        resolve(pages);
      }
      if (window.camelupSearchIndex) { done(); return; }
      var script = document.createElement("script");
      script.src = asset("search-index.js");
      script.onload = done;
      script.onerror = function () { reject(new Error("the clause index did not load")); };
      document.head.appendChild(script);
    });
    return clausePages;
  }

  function element(tag, className, text) {
    var made = document.createElement(tag);
    if (className) { made.className = className; }
    if (text !== undefined) { made.textContent = text; }
    return made;
  }

  function clauseLink(pages, clause) {
    var link = element("a", "live-clause", clause);
    if (pages[clause]) { link.href = pages[clause]; }
    return link;
  }

  function figure(className, caption, svg) {
    var shown = element("figure", className);
    shown.appendChild(element("figcaption", "", caption));
    var board = element("div", "live-svg");
    board.innerHTML = svg;  // the engine's SVG, drawn by camelup.tools.render
    shown.appendChild(board);
    return shown;
  }

  function showBoards(holder, boards) {
    holder.replaceChildren.apply(holder, boards);
  }

  // The events with their clauses, or the refusal's code and clause.
  function showOutcome(holder, pages, outcome) {
    holder.replaceChildren();
    if (outcome.refusal) {
      var refused = element("p", "live-refusal", "Refused: ");
      refused.appendChild(element("code", "live-code", outcome.refusal.code));
      refused.appendChild(document.createTextNode(" (clause "));
      refused.appendChild(clauseLink(pages, outcome.refusal.clause));
      refused.appendChild(document.createTextNode("): " + outcome.refusal.error));
      holder.appendChild(refused);
      return;
    }
    holder.appendChild(element("p", "", "Events, each with the clause that caused it:"));
    var list = element("ol", "live-event-list");
    outcome.events.forEach(function (event) {
      var item = element("li", "live-event");
      item.appendChild(element("code", "", event.words));
      item.appendChild(document.createTextNode(" — "));
      item.appendChild(clauseLink(pages, event.clause));
      list.appendChild(item);
    });
    holder.appendChild(list);
  }

  async function run(section, setUp) {
    var button = section.querySelector("[data-live-start]");
    var status = section.querySelector(".live-status");
    button.disabled = true;
    status.textContent = "Starting the engine…";
    try {
      var live = await startEngine();
      var pages = await loadClausePages();
      setUp(live, pages);
      section.querySelector(".live-view").hidden = false;
      button.hidden = true;
      // Milliseconds from the page's opening to a live board ready (the browser test prints it).
      section.setAttribute("data-ready-ms", String(Math.round(performance.now())));
      status.textContent = "The engine is running in this page.";
    } catch (error) {
      status.textContent = "The engine could not start: " + error;
      section.setAttribute("data-failed", String(error));
      throw error;
    }
  }

  function caseBoard(section, live, pages) {
    var played = JSON.parse(live.case_steps(section.querySelector(".live-case").textContent));
    var boards = section.querySelector(".live-boards");
    var events = section.querySelector(".live-events");
    var where = section.querySelector(".live-where");
    var back = section.querySelector("[data-live-back]");
    var next = section.querySelector("[data-live-next]");
    var total = played.steps.length;
    var at = total ? 1 : 0;

    function show() {
      back.disabled = at <= 1;
      next.disabled = at >= total;
      if (!total) {
        where.textContent = "The case has no steps: its given position.";
        showBoards(boards, [figure("live-given", "The given position", played.given)]);
        events.replaceChildren();
        return;
      }
      var step = played.steps[at - 1];
      section.setAttribute("data-step", String(at));
      where.replaceChildren(document.createTextNode("Step " + at + " of " + total + ": "),
                            element("code", "", step.action));
      showBoards(boards, [figure("live-before", "Before step " + at, step.before),
                          figure("live-after", "After step " + at + ": " + step.words, step.after)]);
      showOutcome(events, pages, step);
    }

    back.addEventListener("click", function () { at -= 1; show(); });
    next.addEventListener("click", function () { at += 1; show(); });
    show();
  }

  function sandbox(section, live, pages) {
    var positions = JSON.parse(section.querySelector(".live-positions").textContent);
    var pick = document.getElementById("sandbox-case");
    var state = document.getElementById("sandbox-state");
    var board = document.getElementById("sandbox-board");
    var rolls = document.getElementById("sandbox-roll");
    var others = document.getElementById("sandbox-other");
    var action = document.getElementById("sandbox-action");
    var result = document.getElementById("sandbox-result");
    var carry = document.getElementById("sandbox-continue");
    var latest = null;

    function option(select, label, value) {
      var made = element("option", "", label);
      made.value = value;
      select.appendChild(made);
    }

    option(pick, "(choose one)", "");
    Object.keys(positions).forEach(function (ruling) {
      option(pick, ruling + ": " + positions[ruling].id, ruling);
    });

    function read() {
      var answer = JSON.parse(live.sandbox_choices(state.value));
      rolls.replaceChildren();
      others.replaceChildren();
      if (!answer.ok) {
        board.replaceChildren(element("p", "live-refusal",
          "This state cannot be read: " + answer.code + " (clause " + answer.clause + "): " +
          answer.error));
        return;
      }
      showBoards(board, [figure("live-given", answer.status, answer.board)]);
      option(rolls, "(choose a die face)", "");
      option(others, "(choose an action)", "");
      answer.actions.forEach(function (choice) {
        var target = choice.action.type === "take_pyramid_ticket" ? rolls : others;
        option(target, choice.label, JSON.stringify(choice.action));
      });
    }

    function choose(event) {
      if (event.target.value) { action.value = event.target.value; }
    }

    function apply() {
      var answer = JSON.parse(live.sandbox_apply(state.value, action.value));
      var boards = result.querySelector(".live-boards");
      var events = result.querySelector(".live-events");
      latest = answer.ok ? answer.state : null;
      carry.hidden = !answer.ok;
      if (!answer.ok) {
        boards.replaceChildren();
        showOutcome(events, pages, { refusal: answer });
        return;
      }
      showBoards(boards, [figure("live-before", "Before", answer.before),
                          figure("live-after", "After: " + answer.words, answer.after)]);
      showOutcome(events, pages, answer);
    }

    pick.addEventListener("change", function () {
      if (!pick.value) { return; }
      state.value = live.case_position(JSON.stringify(positions[pick.value]));
      read();
    });
    document.getElementById("sandbox-read").addEventListener("click", read);
    rolls.addEventListener("change", choose);
    others.addEventListener("change", choose);
    document.getElementById("sandbox-apply").addEventListener("click", apply);
    carry.addEventListener("click", function () {
      if (latest) { state.value = latest; read(); }
    });
  }

  sections.forEach(function (section) {
    var setUp = section.getAttribute("data-live") === "case" ? caseBoard : sandbox;
    section.querySelector("[data-live-start]").addEventListener("click", function () {
      run(section, function (live, pages) { setUp(section, live, pages); });
    });
  });
})();
