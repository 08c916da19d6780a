// Bare start (Node.js): a module that does nothing, for the suite's
// `bare_start` row: the cost of starting Node.js and loading one ES module,
// without the SDK, to subtract from `cold_start`.
