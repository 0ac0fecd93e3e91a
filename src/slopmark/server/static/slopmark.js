// slopmark's web pages: filter forms that apply on change, chart point details, the console's submit.
"use strict";

function autosubmit(form) {
  form.querySelectorAll("select").forEach(function (select) {
    select.addEventListener("change", function () {
      if (select.name === "domain" && form.elements.task) { form.elements.task.disabled = true; }
      form.submit();
    });
  });
}

function showPoint(info, point) {
  var d = point.dataset;
  info.textContent = "";
  [["Model", d.model], ["Rank", d.rank], ["Pass rate", d.rate + " [" + d.low + ", " + d.high + "]"],
   ["Cost per run", d.cost], ["n", d.n]].forEach(function (pair) {
    var line = document.createElement("div");
    var name = document.createElement("strong");
    name.textContent = pair[0] + ": ";
    line.append(name, pair[1]);
    info.append(line);
  });
}

function setupChart(section) {
  var info = section.querySelector(".point-info");
  section.querySelectorAll(".point").forEach(function (point) {
    var pick = function () {
      section.querySelectorAll(".point.active").forEach(function (p) { p.classList.remove("active"); });
      point.classList.add("active");
      showPoint(info, point);
    };
    ["mouseenter", "focus", "click"].forEach(function (kind) { point.addEventListener(kind, pick); });
  });
}

function verdictView(run) {
  var box = document.createDocumentFragment();
  var head = document.createElement("p");
  if (run.status === "error") {
    head.className = "verdict error";
    head.textContent = "ERROR: " + run.error;
  } else {
    head.className = "verdict " + (run.passed ? "pass" : "fail");
    head.textContent = (run.passed ? "PASS" : "FAIL") + " · score " + Number(run.score).toFixed(3);
  }
  var list = document.createElement("ul");
  list.className = "checks";
  ((run.details && run.details.checks) || []).forEach(function (check) {
    var item = document.createElement("li");
    item.className = check.passed ? "pass" : "fail";
    var tick = document.createElement("span");
    tick.className = "tick";
    tick.textContent = check.passed ? "✓ " : "✗ ";
    item.append(tick, check.name + (check.detail ? ": " + check.detail : ""));
    list.append(item);
  });
  var link = document.createElement("a");
  link.href = "/runs/" + run.id;
  link.id = "run-link";
  link.textContent = "Stored as run " + run.id;
  box.append(head, list, link);
  return box;
}

function failure(response, body) {
  var text = body && body.detail ? body.detail : response.statusText;
  var p = document.createElement("p");
  p.className = "error";
  p.textContent = "Not stored (" + response.status + "): " + (typeof text === "string" ? text : JSON.stringify(text));
  return p;
}

function setupConsole(form) {
  var out = document.getElementById("verdict");
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var headers = { "Content-Type": "application/json" };
    if (form.elements.token && form.elements.token.value) {
      headers.Authorization = "Bearer " + form.elements.token.value;
    }
    var body = { task_id: form.dataset.task, output: form.elements.output.value, model: form.elements.model.value };
    out.textContent = "Scoring…";
    fetch("/api/eval/run", { method: "POST", headers: headers, body: JSON.stringify(body) })
      .then(function (response) {
        return response.json().catch(function () { return null; }).then(function (data) {
          out.textContent = "";
          out.append(response.ok ? verdictView(data) : failure(response, data));
        });
      })
      .catch(function (error) { out.textContent = "Not stored: " + error; });
  });
}

document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("form[data-autosubmit]").forEach(autosubmit);
  document.querySelectorAll("section.chart").forEach(setupChart);
  var form = document.getElementById("paste-form");
  if (form) { setupConsole(form); }
});
