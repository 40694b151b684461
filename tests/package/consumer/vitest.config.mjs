import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["vitest-matchers.test.mjs"],
    globals: true,
    setupFiles: ["structured-output-guard/matchers/register"],
  },
});
