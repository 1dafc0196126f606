// Small JSON helpers for the HTTP API (PROTOCOL.md "HTTP"). URLs are relative
// to the page, so the client works behind Discord's proxy path as well.

export class HttpError extends Error {
  constructor(status, body) {
    super((body && body.message) || `HTTP ${status}`);
    this.status = status;
    this.code = body && body.error;
  }
}

async function answer(res) {
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (!res.ok) throw new HttpError(res.status, body);
  return body;
}

export async function getJSON(path, params) {
  const url = new URL(path, document.baseURI);
  for (const [k, v] of Object.entries(params || {})) url.searchParams.set(k, v);
  return answer(await fetch(url, { headers: { Accept: "application/json" } }));
}

export async function postJSON(path, body) {
  const url = new URL(path, document.baseURI);
  return answer(
    await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body || {}),
    }),
  );
}
