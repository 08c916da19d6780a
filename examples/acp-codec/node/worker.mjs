// versus worker for the acp-codec example (Node.js). Operations, each over the
// whole corpus per call, returning the canonical summary:
//
// - parse:  JSON.parse per line.
// - decode: JSON.parse + the SDK's zod schema zSessionNotification per line
//           (see codec.mjs for how the schema is reached).
//
// - encode_decode: every message, decoded in the untimed setup, encoded with
//           JSON.stringify and decoded again (JSON.parse + zod).
//
// The setup of `decode` and `encode_decode` (not timed) first checks every line strictly: zod's
// output must equal the line's params.
import { operation, run } from "versus-worker";
import { checkLine, decode, decodeLines, encodeDecodeAll, parseLines, readLines } from "./codec.mjs";

operation("parse", parseLines, { setup: ({ input }) => readLines(input) });

function checkedLines(input) {
  const lines = readLines(input);
  lines.forEach((line, i) => {
    try {
      checkLine(line);
    } catch (e) {
      throw new Error(`line ${i + 1}: ${e.message}`);
    }
  });
  return lines;
}

operation("encode_decode", encodeDecodeAll, { setup: ({ input }) => checkedLines(input).map(decode) });

operation("decode", decodeLines, {
  setup: ({ input }) => {
    const lines = readLines(input);
    lines.forEach((line, i) => {
      try {
        checkLine(line);
      } catch (e) {
        throw new Error(`line ${i + 1}: ${e.message}`);
      }
    });
    return lines;
  },
});

run();
