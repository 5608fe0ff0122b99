// The one way page scripts put data on a page. Nothing here parses markup: text becomes text
// nodes and attributes go through setAttribute, so a class named "<img src=x onerror=…>"
// shows as exactly those characters. Event handlers are attached with addEventListener, never
// as on* attributes, which is also what the Content-Security-Policy (no inline script) needs.

// Attributes whose value the browser follows as a URL: a javascript: URL there is script.
const URL_ATTRIBUTES = new Set(["href", "src", "action", "formaction", "poster", "xlink:href"]);

function isScriptUrl(value) {
  // The URL parser drops the tabs, newlines and leading control characters that would let
  // "java\tscript:" slip past a plain prefix test, exactly as the browser does when it follows it.
  try {
    return new URL(value, document.baseURI).protocol === "javascript:";
  } catch {
    return false; // not a URL at all: the browser will not follow it either
  }
}

function setAttribute(node, name, value) {
  if (value === null || value === undefined || value === false) return;
  if (/^on/i.test(name)) throw new Error(`el(): refusing the event-handler attribute ${name}`);
  if (name.toLowerCase() === "srcdoc") throw new Error("el(): refusing srcdoc, which is HTML");
  if (name === "style") {
    if (typeof value !== "object") throw new Error("el(): style is an object of properties");
    // Set through the CSSOM, which the policy allows; a style attribute string would need
    // 'unsafe-inline' and could carry more than the one property meant.
    for (const [property, setting] of Object.entries(value)) {
      if (setting !== null && setting !== undefined) node.style.setProperty(property, String(setting));
    }
    return;
  }
  const text = value === true ? "" : String(value);
  if (URL_ATTRIBUTES.has(name.toLowerCase()) && isScriptUrl(text)) {
    throw new Error(`el(): refusing a javascript: URL in ${name}`);
  }
  node.setAttribute(name, text);
}

// Strings and numbers become text nodes; arrays are flattened; null, undefined and false are
// left out, so `condition && el(...)` reads naturally in a list of children.
function nodes(children) {
  return children.flat(Infinity).filter((child) => child !== null && child !== undefined && child !== false)
    .map((child) => (child instanceof Node ? child : document.createTextNode(String(child))));
}

// el("a", { href: url, class: "button small" }, "Open ", name): a new element. Attribute
// values are strings (true for an empty attribute; null, undefined or false for none), except
// `style`, an object of properties: { "--chip": color }.
export function el(tag, attributes = {}, ...children) {
  if (tag.toLowerCase() === "script") throw new Error("el(): scripts come from files, not data");
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) setAttribute(node, name, value);
  node.append(...nodes(children));
  return node;
}

// Puts `children` (as for el()) in place of whatever `node` held; replace(node) empties it.
export function replace(node, ...children) {
  node.replaceChildren(...nodes(children));
  return node;
}

// Plotly reads a small markup language in every label, title and hover text (<b>, <a href>,
// <br>, &lt;), though it draws the result as SVG text, never as HTML. Data given to Plotly as
// text goes through this so that it shows literally: a class named "<b>x</b>" is not bold.
export function plotlyText(value) {
  return String(value).replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]);
}
