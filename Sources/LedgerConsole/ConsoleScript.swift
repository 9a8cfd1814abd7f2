/// console.js: the console's only script, served at ``ConsoleAssets/scriptPath``. It checks an
/// inclusion proof bundle in the browser, with nothing from the server's code: the checkpoint's
/// Ed25519 signature by the log's public key (C2SP signed note), the record's leaf hash
/// `SHA-256(0x00 || record)`, that the record is the log's at the position, and the RFC 9162 audit
/// path to the checkpoint's root, through WebCrypto (`crypto.subtle`: SHA-256, Ed25519). It is the
/// third verifier beside `verify-proof` and tools/verify-proof.py (docs/console.md). It also fills
/// the report form's period, and keeps the findings page's list live from the findings stream.
enum ConsoleScript {
    /// The script.
    static let source = #"""
"use strict";
(() => {
  const enc = new TextEncoder();
  const fail = (why) => { throw new Error(why); };
  const b64 = (text) => {
    const raw = atob(text);
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  };
  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const fromHex = (text, what) => {
    if (!/^[0-9a-f]{64}$/.test(text)) fail(`${what} is not 64 lowercase hex digits`);
    return Uint8Array.from(text.match(/../g), (h) => parseInt(h, 16));
  };
  const concat = (...parts) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return out;
  };
  const sha256 = async (bytes) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const equal = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

  // The log's verifier key: NAME+KEYID+BASE64(0x01 || 32-byte Ed25519 key), key id checked.
  async function parseKey(text) {
    const parts = text.trim().split("+");
    if (parts.length < 3) fail("the public key is not NAME+KEYID+BASE64");
    const name = parts[0], id = parts[1], raw = b64(parts.slice(2).join("+"));
    if (raw.length !== 33 || raw[0] !== 1) fail("the public key is not an Ed25519 note key (type 0x01)");
    const digest = await sha256(concat(enc.encode(name + "\n"), raw));
    if (hex(digest.slice(0, 4)) !== id) fail("the public key's id does not match its name and key");
    const key = await crypto.subtle.importKey("raw", raw.slice(1), { name: "Ed25519" }, false, ["verify"]);
    return { name, id, key };
  }

  // A C2SP signed note holding a tlog-checkpoint, with a valid signature by the key.
  async function checkpoint(note, log, key) {
    const split = note.lastIndexOf("\n\n");
    if (split < 0 || !note.endsWith("\n")) fail("the checkpoint is not a signed note");
    const body = note.slice(0, split + 1);
    const lines = body.slice(0, -1).split("\n");
    if (lines.length !== 3) fail("the checkpoint's text is not three lines");
    const [origin, sizeText, rootText] = lines;
    if (origin !== `${key.name}/${log}`) fail(`the checkpoint's origin ${origin} is not ${key.name}/${log}`);
    if (!/^(0|[1-9][0-9]*)$/.test(sizeText)) fail("the checkpoint's size is not a number");
    const root = b64(rootText);
    if (root.length !== 32) fail("the checkpoint's root is not 32 bytes");
    const mine = note.slice(split + 2, -1).split("\n").filter((line) => {
      const [name, sig] = line.replace(/^\u2014 /, "").split(" ");
      return line.startsWith("\u2014 ") && name === key.name && sig && hex(b64(sig).slice(0, 4)) === key.id;
    });
    if (mine.length === 0) fail(`the checkpoint is not signed by ${key.name} (key ${key.id})`);
    for (const line of mine) {
      const signature = b64(line.split(" ")[2]).slice(4);
      const ok = await crypto.subtle.verify({ name: "Ed25519" }, key.key, signature, enc.encode(body));
      if (!ok) fail(`the signature by ${key.name} does not verify: the checkpoint was changed or forged`);
    }
    return { size: Number(sizeText), root };
  }

  // RFC 9162 section 2.1.3.2: the root an audit path leads to from a leaf.
  async function rootFrom(index, size, leaf, path) {
    if (index >= size) fail("the leaf index is not inside the tree");
    let fn = index, sn = size - 1, r = leaf;
    for (const p of path) {
      if (sn === 0) fail("the audit path is too long");
      if (fn % 2 === 1 || fn === sn) {
        r = await sha256(concat(Uint8Array.of(1), p, r));
        if (fn % 2 === 0) { while (fn % 2 === 0 && fn !== 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); } }
      } else {
        r = await sha256(concat(Uint8Array.of(1), r, p));
      }
      fn = Math.floor(fn / 2); sn = Math.floor(sn / 2);
    }
    if (sn !== 0) fail("the audit path is too short");
    return r;
  }

  // Every check of docs/proofs.md steps 2 and 3, on the bundle's text.
  async function verify(text, keyText, log) {
    let bundle;
    try { bundle = JSON.parse(text); } catch (e) { fail("the proof is not JSON"); }
    if (bundle.format !== "consent-ledger-proof/1" || bundle.kind !== "inclusion") fail("not an inclusion proof bundle");
    if (bundle.log !== log) fail(`the bundle is for log ${bundle.log}, not ${log}`);
    const key = await parseKey(keyText);
    const cp = await checkpoint(bundle.checkpoint, log, key);
    const inc = bundle.inclusion;
    if (inc.leafIndex !== inc.position - 1) fail("the leaf index is not the position minus 1");
    if (inc.treeSize !== cp.size) fail("the proof is for another tree size than the checkpoint's");
    const record = b64(inc.record);
    const leaf = await sha256(concat(Uint8Array.of(0), record));
    if (hex(leaf) !== inc.leafHash) fail("the record's hash is not the leaf hash: the record was changed");
    const fields = JSON.parse(new TextDecoder().decode(record));
    if (fields.log !== log || fields.position !== inc.position) fail("the record is not the log's record at this position");
    const path = inc.path.map((h, i) => fromHex(h, `path element ${i}`));
    const root = await rootFrom(inc.leafIndex, inc.treeSize, leaf, path);
    if (!equal(root, cp.root)) fail("the audit path does not lead to the checkpoint's root");
    return `Verified: the record at position ${inc.position} is in the tree of ${cp.size} events signed by ${key.name} (key ${key.id}).`;
  }

  async function check(proof, text) {
    const output = proof.querySelector(".proof-result");
    const keyInput = document.getElementById("log-key");
    output.className = "proof-result checking";
    output.textContent = "Checking…";
    try {
      output.textContent = await verify(text, keyInput.value, keyInput.dataset.log);
      output.className = "proof-result verified";
    } catch (error) {
      output.textContent = `Failed: ${error.message}`;
      output.className = "proof-result failed";
    }
  }

  // "Verify now": the server streams its progress as NDJSON lines; shown in a <progress>.
  document.addEventListener("submit", async (event) => {
    const form = event.target.closest("form#verify-form");
    if (!form) return;
    event.preventDefault();
    const bar = document.getElementById("verify-progress");
    const output = document.getElementById("verify-result");
    const button = form.querySelector("button");
    button.disabled = true;
    bar.hidden = false;
    bar.removeAttribute("value");
    output.className = "checking";
    output.textContent = "Verifying…";
    try {
      const response = await fetch(form.action, { method: "POST", credentials: "same-origin", headers: { Accept: "application/x-ndjson" } });
      if (!response.ok) fail(`the server answered ${response.status}`);
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let pending = "", result = null;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        pending += decoder.decode(value, { stream: true });
        let newline;
        while ((newline = pending.indexOf("\n")) >= 0) {
          const line = JSON.parse(pending.slice(0, newline));
          pending = pending.slice(newline + 1);
          if ("done" in line) {
            bar.max = Math.max(line.total, 1); bar.value = line.done;
            bar.textContent = `${line.done} of ${line.total}`;
            output.textContent = `Verifying: ${line.done} of ${line.total} events…`;
          } else {
            result = line;
          }
        }
      }
      if (!result) fail("the verification ended without a result");
      bar.max = 1; bar.value = 1; bar.textContent = "done";
      output.className = result.passed ? "verified" : "failed";
      output.textContent = (result.passed ? "Passed: " : "FAILED: ") + result.summary;
      await refreshLastVerification();
    } catch (error) {
      output.className = "failed";
      output.textContent = `Failed: ${error.message}`;
    } finally {
      button.disabled = false;
    }
  });

  // The overview's sentence on the last verification, read again from the server once a
  // verification is recorded: the page then says what is on record, without a reload.
  async function refreshLastVerification() {
    const response = await fetch(window.location.pathname, { credentials: "same-origin" });
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = page.getElementById("last-verification"), old = document.getElementById("last-verification");
    if (fresh && old) old.replaceWith(document.importNode(fresh, true));
  }

  // The report form's presets: a period fills the two dates; "the data of the jurisdiction"
  // takes them from the chosen jurisdiction's option.
  const fillPeriod = () => {
    const period = document.getElementById("report-period");
    if (!period || !period.value) return;
    let chosen = period.selectedOptions[0];
    if (period.value === "data") chosen = document.getElementById("jurisdiction").selectedOptions[0];
    if (!chosen || !chosen.dataset.from) return;
    document.getElementById("report-from").value = chosen.dataset.from;
    document.getElementById("report-to").value = chosen.dataset.to;
  };
  document.addEventListener("change", (event) => {
    if (event.target.id === "report-period" || event.target.id === "jurisdiction") fillPeriod();
    if (event.target.id === "report-from" || event.target.id === "report-to") {
      const period = document.getElementById("report-period");
      if (period) period.value = "";
    }
  });
  document.addEventListener("DOMContentLoaded", fillPeriod);

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("button.check-proof, button.check-again");
    if (!button) return;
    const proof = button.closest(".proof");
    const area = proof.querySelector("textarea.bundle");
    if (button.classList.contains("check-proof")) {
      const log = document.getElementById("log-key").dataset.log;
      const response = await fetch(`/console/logs/${encodeURIComponent(log)}/proofs/inclusion?position=${proof.dataset.position}`,
                                   { credentials: "same-origin" });
      if (!response.ok) {
        const output = proof.querySelector(".proof-result");
        output.textContent = `Failed: the server answered ${response.status} for the proof`;
        output.className = "proof-result failed";
        return;
      }
      area.value = await response.text();
    }
    await check(proof, area.value);
  });

  // The findings page's live panel: the newest findings come in over the findings stream
  // (server-sent events, docs/subscriptions.md) and are put at the top of the list as they are
  // found, built with text nodes only. EventSource reconnects by itself with the last id.
  document.addEventListener("DOMContentLoaded", () => {
    const list = document.querySelector("ol[data-stream]");
    const status = document.getElementById("live-status");
    if (!list || !status || !window.EventSource) return;
    const log = list.dataset.log;
    const link = (href, text) => {
      const a = document.createElement("a");
      a.href = href;
      a.textContent = text;
      return a;
    };
    const event = (position) => link(`/console/logs/${encodeURIComponent(log)}/events/${position}`, `position ${position}`);
    // The page's own words for a finding (ReportLabels.rule and ExplainPage.sentence on the server).
    const label = (rule) => rule.replaceAll("-", " ");
    const sentence = (text) => {
      const trimmed = text.trim().replace(/\.\.+$/, ".");
      const first = trimmed.split(" ")[0];
      const capitalised = /^\p{L}+$/u.test(first) ? trimmed.charAt(0).toUpperCase() + trimmed.slice(1) : trimmed;
      return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
    };
    const source = new EventSource(list.dataset.stream);
    source.addEventListener("open", () => { status.textContent = "Live: new findings appear at the top as the ledger finds them."; });
    source.addEventListener("error", () => { status.textContent = "Live updates interrupted; trying again…"; });
    source.addEventListener("finding", (message) => {
      const f = JSON.parse(message.data);
      if (list.querySelector(`li[data-id="${CSS.escape(f.id)}"]`)) return;
      const item = document.createElement("li");
      item.className = `finding ${f.kind} new`;
      item.dataset.id = f.id;
      const title = document.createElement("h3");
      const name = document.createElement("span");
      name.title = f.rule;
      name.textContent = label(f.rule);
      title.append(`${f.kind === "violation" ? "Violation" : "Anomaly"}: `, name, " at ", event(f.position));
      const detail = document.createElement("p");
      detail.textContent = sentence(f.detail);
      const subject = document.createElement("p");
      subject.append("Subject: ", f.subject ? link(`/console/logs/${encodeURIComponent(log)}/subjects/${encodeURIComponent(f.subject)}`, f.subject) : "none");
      const evidence = document.createElement("p");
      evidence.append("Evidence: ");
      f.evidence.forEach((position, index) => { if (index > 0) evidence.append(", "); evidence.append(event(position)); });
      item.append(title, detail, subject, evidence);
      list.prepend(item);
      document.getElementById("no-findings")?.remove();
      status.textContent = `New ${f.kind}: ${label(f.rule)} at position ${f.position}.`;
    });
  });
})();
"""#
}
