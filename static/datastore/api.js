// Calls to Sampan's JSON API from the browser, with Django's CSRF token on every write.

export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

export class ApiError extends Error {
  constructor(status, body) {
    super(ApiError.describe(body) || `Request failed (${status})`);
    this.status = status;
    this.body = body;
  }

  static describe(body) {
    if (!body || typeof body !== "object") return "";
    if (typeof body.detail === "string") return body.detail;
    if (Array.isArray(body.detail)) return body.detail.join(" ");
    return Object.entries(body)
      .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(" ") : value}`)
      .join("; ");
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
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, data);
  return { status: response.status, data };
}

export function datasetId() {
  return JSON.parse(document.getElementById("dataset-id").textContent);
}
