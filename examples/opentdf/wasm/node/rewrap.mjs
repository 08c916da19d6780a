// The Node host's key-access client: the payload key of a TDF through a
// KAS rewrap over HTTP, as the seed's TypeScript WASM host decrypted ("decrypt
// calls KAS rewrap over HTTP"). The module gives the manifest (tdf_manifest);
// this file sends its key access object and policy to the KAS's REST rewrap
// (POST <kas url>/v2/rewrap, the older single-object body the TypeScript
// client sends) in a request token signed with the client's RSA key,
// unwraps the answer with that key, and hands the payload key back to the
// module (tdf_decrypt_key). The KAS checks the policy binding.
//
// The versus Node worker library times synchronous calls, and fetch is
// asynchronous, so the request goes out on a helper thread (kas-thread.mjs)
// while this thread blocks on Atomics.wait until the answer is back: one
// postMessage and one wait per call, as examples/opentdf/node/worker.mjs
// does for the TypeScript SDK. The helper's fetch keeps the connection to
// the KAS alive between calls, as a client does.

import { constants, createSign, generateKeyPairSync, privateDecrypt } from "node:crypto";
import { MessageChannel, Worker, receiveMessageOnPort } from "node:worker_threads";

const b64url = (data) => Buffer.from(data).toString("base64url");

/** The client's RSA-2048 key pair: made once, as an SDK client makes its session key. */
function clientKeys() {
  return generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
}

/** An HTTP POST that blocks this thread until the helper thread has the answer. */
async function blockingPost() {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const thread = new Worker(new URL("kas-thread.mjs", import.meta.url), {
    workerData: { signal, port: port2 },
    transferList: [port2],
  });
  await new Promise((resolve, reject) => {
    thread.once("message", resolve);
    thread.once("error", reject);
  });
  thread.unref();
  return (url, body) => {
    Atomics.store(signal, 0, 0);
    port1.postMessage({ url, body });
    Atomics.wait(signal, 0, 0);
    const reply = receiveMessageOnPort(port1)?.message;
    if (!reply) throw new Error("the KAS thread gave no answer");
    if (reply.error) throw new Error(reply.error);
    if (reply.status !== 200) throw new Error(`KAS rewrap: HTTP ${reply.status}: ${reply.text}`);
    return reply.text;
  };
}

/**
 * A rewrap client for KAS URL `kasURL` (the only one it will send keys to,
 * like the SDKs' allowed-KAS list). Resolves to `payloadKey(manifestJSON)`:
 * the 32-byte payload key of the TDF whose manifest that is.
 */
export async function rewrapClient(kasURL) {
  const keys = clientKeys();
  const post = await blockingPost();
  const sign = (claims) => {
    const head = b64url(JSON.stringify({ alg: "RS256", typ: "JWT" }));
    const body = b64url(JSON.stringify(claims));
    const sig = createSign("RSA-SHA256").update(`${head}.${body}`).sign(keys.privateKey);
    return `${head}.${body}.${b64url(sig)}`;
  };
  return (manifestJSON) => {
    const info = JSON.parse(manifestJSON).encryptionInformation;
    if (info.keyAccess?.length !== 1) {
      throw new Error(`this host rewraps one key access object, the TDF has ${info.keyAccess?.length ?? 0}`);
    }
    const keyAccess = info.keyAccess[0];
    if (keyAccess.url.replace(/\/$/, "") !== kasURL.replace(/\/$/, "")) {
      throw new Error(`the TDF's KAS ${keyAccess.url} is not the allowed ${kasURL}`);
    }
    const requestBody = JSON.stringify({ keyAccess, policy: info.policy, clientPublicKey: keys.publicKey });
    const now = Math.floor(Date.now() / 1000);
    const token = sign({ requestBody, iat: now, exp: now + 60 });
    const answer = JSON.parse(post(`${keyAccess.url}/v2/rewrap`, JSON.stringify({ signedRequestToken: token })));
    if (!answer.entityWrappedKey) throw new Error("KAS rewrap: no entityWrappedKey in the answer");
    return privateDecrypt(
      { key: keys.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha1" },
      Buffer.from(answer.entityWrappedKey, "base64"),
    );
  };
}
