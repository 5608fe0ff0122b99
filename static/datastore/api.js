// Calls to Sampan's JSON API from the browser, with Django's CSRF token on every write.
import { gettext, interpolate } from "../js/i18n.js";

export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

export class ApiError extends Error {
  constructor(status, body) {
    super(ApiError.describe(body) || interpolate(gettext("Request failed (%(status)s)"), { status }, true));
    this.status = status;
    this.body = body;
  }

  // The API's one error shape: {code, message, fields}; the message already names the fields.
  static describe(body) {
    return body && typeof body.message === "string" ? body.message : "";
  }
}

export async function api(url, { method = "GET", json, body, headers = {} } = {}) {
  const options = { method, headers: { Accept: "application/json", ...headers }, credentials: "same-origin" };
  if (method !== "GET") options.headers["X-CSRFToken"] = csrfToken();
  if (json !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(json);
  } else if (body !== undefined) {
    options.body = body;
  }
  const response = await fetch(url, options);
  const text = await response.text();
  // A proxy's 502 page is HTML: the error says "Request failed (502)", not SyntaxError.
  const isJson = (response.headers.get("Content-Type") || "").includes("json");
  const data = text && isJson ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, data);
  return { status: response.status, data };
}

export function datasetId() {
  return JSON.parse(document.getElementById("dataset-id").textContent);
}
