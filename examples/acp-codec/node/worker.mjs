// versus worker for the acp-codec example (Node.js). Operations, each over the
// whole corpus per call, returning the canonical summary:
//
// - parse:  JSON.parse per line.
// - decode: JSON.parse + the SDK's zod schema zSessionNotification per line
//           (see codec.mjs for how the schema is reached).
//
// The setup of `decode` (not timed) first checks every line strictly: zod's
// output must equal the line's params.
import { operation, run } from "versus-worker";
import { checkLine, decodeLines, parseLines, readLines } from "./codec.mjs";

operation("parse", parseLines, { setup: ({ input }) => readLines(input) });

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
