import assert from "node:assert/strict";
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  openRequests,
  parseFds,
  readLines,
  writeAll,
} from "../src/transport.js";

async function collect(iterable) {
  const items = [];
  for await (const item of iterable) items.push(item);
  return items;
}

async function* chunks(...parts) {
  for (const part of parts) yield Buffer.from(part);
}

describe("parseFds", () => {
  it("reads R,W", () => {
    assert.deepEqual(parseFds("3,4"), { readFd: 3, writeFd: 4 });
    assert.deepEqual(parseFds(" 10 , 11 "), { readFd: 10, writeFd: 11 });
  });

  for (const value of [undefined, "", "3", "3,4,5", "a,b", "-3,4", "3;4"]) {
    it(`rejects ${JSON.stringify(value)}`, () => {
      assert.equal(parseFds(value), null);
    });
  }
});

describe("readLines", () => {
  it("splits chunks into lines wherever the chunks break", async () => {
    assert.deepEqual(
      await collect(readLines(chunks('{"a":', '1}\n{"b":2}\n{"c"', ":3}\n"))),
      ['{"a":1}', '{"b":2}', '{"c":3}'],
    );
  });

  it("yields a last line without a newline, and empty lines as empty", async () => {
    assert.deepEqual(await collect(readLines(chunks("a\n\nb"))), [
      "a",
      "",
      "b",
    ]);
  });

  it("drops the \\r of CRLF line ends", async () => {
    assert.deepEqual(await collect(readLines(chunks("a\r\nb\r\n"))), [
      "a",
      "b",
    ]);
  });

  it("decodes a UTF-8 character split across chunks", async () => {
    const bytes = Buffer.from('"✓"\n', "utf8");
    const parts = [bytes.subarray(0, 2), bytes.subarray(2)];
    assert.deepEqual(await collect(readLines(chunks(...parts))), ['"✓"']);
  });

  it("yields nothing for no input", async () => {
    assert.deepEqual(await collect(readLines(chunks())), []);
  });
});

describe("file descriptors", () => {
  const dir = mkdtempSync(join(tmpdir(), "versus-worker-test-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("writeAll writes the whole text", () => {
    const path = join(dir, "out");
    const fd = openSync(path, "w");
    const text = "é".repeat(100_000) + "\n";
    writeAll(fd, text);
    closeSync(fd);
    assert.equal(readFileSync(path, "utf8"), text);
  });

  it("openRequests reads a regular file too", async () => {
    const path = join(dir, "requests");
    writeFileSync(
      path,
      '{"type":"verify","id":1}\n{"type":"shutdown","id":2}\n',
    );
    const fd = openSync(path, "r");
    const lines = await collect(readLines(openRequests(fd)));
    assert.deepEqual(lines, [
      '{"type":"verify","id":1}',
      '{"type":"shutdown","id":2}',
    ]);
  });
});
