// Used only when bundling the CommonJS entry: stands in for import.meta.url.
export const importMetaUrl = require("node:url").pathToFileURL(__filename).href;
