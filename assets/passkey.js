// The browser door's passkey page (minefield/frontdoor/web_sign_in.py, web_passkeys.py): sign up
// with a name and a new passkey, or sign in with one. The server checks everything; this only
// carries the options to the browser's WebAuthn and its answer back.
const b64u = {
  toBytes(text) {
    const plain = text.replace(/-/g, "+").replace(/_/g, "/");
    const padded = plain + "=".repeat((4 - (plain.length % 4)) % 4);
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  },
  fromBytes(buffer) {
    let text = "";
    for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
    return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  },
};

async function post(step, body) {
  const response = await fetch("/passkey/" + step, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || "refused");
  return answer;
}

function say(text) {
  document.getElementById("message").textContent = text;
}

async function signUp() {
  const name = document.getElementById("name").value.trim();
  const {ceremony, options} = await post("sign-up-options", {name});
  options.challenge = b64u.toBytes(options.challenge);
  options.user.id = b64u.toBytes(options.user.id);
  for (const c of options.excludeCredentials || []) c.id = b64u.toBytes(c.id);
  const made = await navigator.credentials.create({publicKey: options});
  const credential = {
    id: made.id, rawId: b64u.fromBytes(made.rawId), type: made.type,
    response: {
      clientDataJSON: b64u.fromBytes(made.response.clientDataJSON),
      attestationObject: b64u.fromBytes(made.response.attestationObject),
      transports: made.response.getTransports ? made.response.getTransports() : [],
    },
    clientExtensionResults: made.getClientExtensionResults(),
  };
  await post("sign-up", {ceremony, credential});
  window.location.href = "/";
}

async function signIn() {
  const {ceremony, options} = await post("sign-in-options", {});
  options.challenge = b64u.toBytes(options.challenge);
  for (const c of options.allowCredentials || []) c.id = b64u.toBytes(c.id);
  const got = await navigator.credentials.get({publicKey: options});
  const credential = {
    id: got.id, rawId: b64u.fromBytes(got.rawId), type: got.type,
    response: {
      clientDataJSON: b64u.fromBytes(got.response.clientDataJSON),
      authenticatorData: b64u.fromBytes(got.response.authenticatorData),
      signature: b64u.fromBytes(got.response.signature),
      userHandle: got.response.userHandle ? b64u.fromBytes(got.response.userHandle) : null,
    },
    clientExtensionResults: got.getClientExtensionResults(),
  };
  await post("sign-in", {ceremony, credential});
  window.location.href = "/";
}

window.addEventListener("DOMContentLoaded", () => {
  const run = (work) => () => { say(""); work().catch((error) => say("Not signed in: " + error.message)); };
  document.getElementById("sign-up").addEventListener("click", run(signUp));
  document.getElementById("sign-in").addEventListener("click", run(signIn));
});
