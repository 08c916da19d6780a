// The worker's end of the transport: requests are read from fd R and
// responses written to fd W, both named by VERSUS_WORKER_FDS ("R,W"). Standard
// output and standard error stay free for the code under test.

import { createReadStream, writeSync } from "node:fs";
import { Socket } from "node:net";

/** Printed (to stderr) when the worker is started by hand. */
export const NOT_UNDER_VERSUS =
  "this is a versus worker: it is started by `versus run` or " +
  "`versus conformance`, which set VERSUS_WORKER_FDS; it cannot be run by itself";

/**
 * The file descriptors of VERSUS_WORKER_FDS ("R,W"), as `{readFd, writeFd}`;
 * null when the variable is unset or malformed.
 */
export function parseFds(value) {
  const match = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(value ?? "");
  if (match === null) return null;
  return { readFd: Number(match[1]), writeFd: Number(match[2]) };
}

/**
 * A readable stream of the requests on `fd`. A pipe or socket is read through
 * libuv's event loop (net.Socket): fs.createReadStream would park a blocking
 * read() in the thread pool, and process.exit() then waits for that read,
 * which never returns while the core keeps the channel open after `bye`.
 * Other kinds of file (a regular file in tests) go through fs.
 */
export function openRequests(fd) {
  try {
    return new Socket({ fd, readable: true, writable: false });
  } catch (err) {
    if (err.code !== "ERR_INVALID_FD_TYPE") throw err;
    return createReadStream(null, { fd });
  }
}

/**
 * Splits a stream of byte chunks into lines (without "\n", and without a "\r"
 * before it), decoded as UTF-8. A last line without "\n" is yielded too.
 *
 * @param {AsyncIterable<Uint8Array>} chunks
 */
export async function* readLines(chunks) {
  let pending = [];
  for await (const chunk of chunks) {
    let start = 0;
    let newline;
    while ((newline = chunk.indexOf(10, start)) !== -1) {
      pending.push(chunk.subarray(start, newline));
      yield decodeLine(pending);
      pending = [];
      start = newline + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) yield decodeLine(pending);
}

function decodeLine(parts) {
  let line = Buffer.concat(parts).toString("utf8");
  if (line.endsWith("\r")) line = line.slice(0, -1);
  return line;
}

// Blocks the thread for `ms` without spinning (for a full non-blocking pipe).
function pause(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Writes all of `text` to `fd`, synchronously, retrying short writes. */
export function writeAll(fd, text) {
  const bytes = Buffer.from(text, "utf8");
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset, bytes.length - offset);
    } catch (err) {
      if (err.code !== "EAGAIN") throw err;
      pause(1);
    }
  }
}

/**
 * Serves `worker` over the file descriptors of VERSUS_WORKER_FDS, then exits
 * the process: 0 after shutdown or end of input, 2 when started without
 * VERSUS_WORKER_FDS, 1 when the response channel breaks.
 */
export async function serveProcess(worker, options = {}) {
  const fds = parseFds(process.env.VERSUS_WORKER_FDS);
  if (fds === null) {
    process.stderr.write(`${NOT_UNDER_VERSUS}\n`);
    process.exit(2);
  }
  let status;
  try {
    const requests = openRequests(fds.readFd);
    status = await worker.serve(
      readLines(requests),
      (text) => writeAll(fds.writeFd, text),
      options,
    );
  } catch (err) {
    process.stderr.write(`versus-worker: ${err?.stack ?? err}\n`);
    status = 1;
  }
  // Exit now, whatever handles the code under test left open.
  process.exit(status);
}
